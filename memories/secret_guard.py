"""The secret guard: credentials found in what a writer sends, before it is stored (docs/security.md,
"Secret guard").

Detection is Yelp's detect-secrets, its provider-specific detectors only: the generic ones (high
entropy strings, "password =" keywords, public IPs) flag ordinary notes, ids and hashes. A few
patterns it lacks are added here, each named. A finding is a type and a span; redaction replaces
the span with ``[redacted:<type>]``. Nothing here touches the database: the write path
(memories.services.remember) and the import (memories.transfer) apply the project's policy.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from detect_secrets.plugins.base import RegexBasedDetector

MARK = "[redacted:{}]"
SHORT_MARK = "[redacted]"

# detect-secrets' provider detectors (class names in detect_secrets.plugins.*).
_LIBRARY_DETECTORS = (
    ("aws", "AWSKeyDetector"),
    ("artifactory", "ArtifactoryDetector"),
    ("azure_storage_key", "AzureStorageKeyDetector"),
    ("basic_auth", "BasicAuthDetector"),
    ("cloudant", "CloudantDetector"),
    ("discord", "DiscordBotTokenDetector"),
    ("github_token", "GitHubTokenDetector"),
    ("gitlab_token", "GitLabTokenDetector"),
    ("ibm_cloud_iam", "IbmCloudIamDetector"),
    ("ibm_cos_hmac", "IbmCosHmacDetector"),
    ("jwt", "JwtTokenDetector"),
    ("mailchimp", "MailchimpDetector"),
    ("npm", "NpmDetector"),
    ("openai", "OpenAIDetector"),
    ("private_key", "PrivateKeyDetector"),
    ("pypi_token", "PypiTokenDetector"),
    ("sendgrid", "SendGridDetector"),
    ("slack", "SlackDetector"),
    ("softlayer", "SoftlayerDetector"),
    ("square_oauth", "SquareOAuthDetector"),
    ("stripe", "StripeDetector"),
    ("telegram_token", "TelegramBotTokenDetector"),
    ("twilio", "TwilioKeyDetector"),
)

# What the library does not know, or knows only in an older form. Group 1, when there is one,
# is the secret itself (the rest is context that stays readable).
_OWN_PATTERNS = {
    "bearer-token": re.compile(r"(?i)\bbearer\s+([A-Za-z0-9\-._~+/]{20,}=*)"),
    "anthropic-api-key": re.compile(r"\bsk-ant-[A-Za-z0-9_\-]{20,}"),
    "openai-api-key": re.compile(r"\bsk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{32,}"),
    "google-api-key": re.compile(r"\bAIza[0-9A-Za-z_\-]{35}"),
    "zeromemory-token": re.compile(r"\bzm_[A-Za-z0-9]{8}_[A-Za-z0-9]{40}\b"),
    "github-token": re.compile(r"\bgithub_pat_[A-Za-z0-9_]{40,}"),
    "password-in-url": re.compile(r"\b[a-z][a-z0-9+.\-]*://[^\s:/@]+:([^\s@/]+)@"),
}
_JWT = re.compile(r"\beyJ[A-Za-z0-9_\-]*\.[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]*")
_PRIVATE_KEY_BLOCK = re.compile(
    r"-----BEGIN [A-Z ]*PRIVATE KEY( BLOCK)?-----.*?(-----END [A-Z ]*PRIVATE KEY( BLOCK)?-----|\Z)", re.S
)


@dataclass(frozen=True)
class Finding:
    type: str
    start: int
    end: int


@cache
def _detectors() -> tuple[tuple[str, RegexBasedDetector], ...]:
    import importlib

    found = []
    for module, name in _LIBRARY_DETECTORS:
        detector = getattr(importlib.import_module(f"detect_secrets.plugins.{module}"), name)()
        found.append((_slug(detector.secret_type), detector))
    return tuple(found)


def _slug(secret_type: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", secret_type.lower()).strip("-")


def _library_findings(text: str) -> Iterator[Finding]:
    # The detectors' own patterns, matched here for their spans: their analyze_string answers
    # only the first group of some (``ghp`` of a GitHub token), too little to redact.
    for kind, detector in _detectors():
        for pattern in detector.denylist:
            for match in pattern.finditer(text):
                if kind == "private-key":
                    block = _PRIVATE_KEY_BLOCK.match(
                        text, text.rfind("-----", 0, match.start()) if match.start() >= 5 else 0
                    )
                    yield Finding(kind, *(block.span() if block else match.span()))
                elif kind == "json-web-token":
                    token = _JWT.match(text, match.start())
                    yield Finding(kind, *(token.span() if token else match.span()))
                elif kind == "basic-auth-credentials" and pattern.groups:
                    yield Finding(kind, *match.span(1))  # the password; the user and host stay
                else:
                    yield Finding(kind, match.start(), _token_end(text, match.end()))


_TOKEN_CHARACTER = re.compile(r"[A-Za-z0-9_\-]")


def _token_end(text: str, end: int) -> int:
    """A match ends where the pattern stopped; the token may go on (a longer key than the
    pattern knows): the rest of it goes too."""
    while end < len(text) and _TOKEN_CHARACTER.match(text, end) and _TOKEN_CHARACTER.match(text, end - 1):
        end += 1
    return end


def _own_findings(text: str) -> Iterator[Finding]:
    for kind, pattern in _OWN_PATTERNS.items():
        for match in pattern.finditer(text):
            start, end = match.span(1) if pattern.groups and match.group(1) else match.span()
            yield Finding(kind, start, end)


def find(text: str) -> list[Finding]:
    """The credentials in ``text``, left to right, overlapping finds merged into the first."""
    if len(text) < 8:
        return []
    merged: list[Finding] = []
    # Stable: where the library and a pattern of ours find the same span, the library names it.
    candidates = dict.fromkeys([*_library_findings(text), *_own_findings(text)])
    for finding in sorted(candidates, key=lambda f: (f.start, -f.end)):
        if merged and finding.start < merged[-1].end:
            last = merged[-1]
            merged[-1] = Finding(last.type, last.start, max(last.end, finding.end))
        else:
            merged.append(finding)
    return merged


def redact(text: str, findings: list[Finding], *, limit: int | None = None) -> str:
    """``text`` with each finding replaced by its mark; with the short mark when the typed ones
    would take it over ``limit`` characters."""
    for mark in (MARK, SHORT_MARK):
        parts, position = [], 0
        for finding in findings:
            parts += [text[position : finding.start], mark.format(finding.type)]
            position = finding.end
        redacted = "".join([*parts, text[position:]])
        if limit is None or len(redacted) <= limit:
            return redacted
    return redacted


def redacted(text: str) -> str:
    """``text`` with every credential in it redacted (free text with no policy of its own: a
    reason given for a forget or a restore, kept in history, the feed and webhooks)."""
    findings = find(text)
    return redact(text, findings) if findings else text


@dataclass(frozen=True)
class Screened:
    content: str
    metadata: dict[str, Any]
    # [{"type": ..., "where": "content" | "metadata.<path>"}], never the secret.
    found: list[dict[str, str]]

    @property
    def types(self) -> list[str]:
        return sorted({item["type"] for item in self.found})


def screen(content: str, metadata: dict[str, Any] | None, *, limit: int) -> Screened:
    """Content and metadata with every credential redacted, and what was found where."""
    found: list[dict[str, str]] = []
    findings = find(content)
    found += [{"type": finding.type, "where": "content"} for finding in findings]
    clean_content = redact(content, findings, limit=limit) if findings else content

    def walk(value: Any, path: str) -> Any:
        if isinstance(value, str):
            hits = find(value)
            if not hits:
                return value
            found.extend({"type": hit.type, "where": path} for hit in hits)
            return redact(value, hits)
        if isinstance(value, dict):
            return {key: walk(item, f"{path}.{key}") for key, item in value.items()}
        if isinstance(value, list):
            return [walk(item, f"{path}[{index}]") for index, item in enumerate(value)]
        return value

    clean_metadata = walk(metadata or {}, "metadata")
    return Screened(content=clean_content, metadata=clean_metadata, found=found)
