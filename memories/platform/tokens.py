"""API token format and hashing.

A token is ``zm_`` + 8 characters of prefix + ``_`` + 40 random characters. The prefix is
stored in clear to find the row and to name the token to people; the whole token is stored
only as its SHA-256 (tokens carry 240 random bits, so a slow password hash adds nothing).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import string
from datetime import timedelta

from django.contrib.postgres.aggregates import ArrayAgg
from django.db.models import Q, QuerySet, Value
from django.utils import timezone

from memories.compiled import PREFIX, CompiledQuery
from memories.models import Credential, TokenScope

TOKEN_SCHEME = "zm"
_ALPHABET = string.ascii_letters + string.digits
PREFIX_LENGTH = 8
SECRET_LENGTH = 40


def _random(length: int) -> str:
    return "".join(secrets.choice(_ALPHABET) for _ in range(length))


def generate_token() -> tuple[str, str]:
    """A new token and its public prefix."""
    prefix = _random(PREFIX_LENGTH)
    return f"{TOKEN_SCHEME}_{prefix}_{_random(SECRET_LENGTH)}", prefix


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def parse_prefix(token: str) -> str | None:
    parts = token.split("_")
    if len(parts) != 3 or parts[0] != TOKEN_SCHEME:
        return None
    prefix, secret = parts[1], parts[2]
    if len(prefix) != PREFIX_LENGTH or len(secret) != SECRET_LENGTH:
        return None
    return prefix


def hashes_match(token: str, stored_hash: str) -> bool:
    return hmac.compare_digest(hash_token(token), stored_hash)


# last_used_at is informational: writing it on every request would add a write to every read.
LAST_USED_RESOLUTION = timedelta(minutes=1)


BEARER = "Bearer"
MALFORMED_HEADER = "Use 'Authorization: Bearer <token>'."
UNKNOWN_TOKEN = "Invalid, revoked or expired token."


class BearerRefused(Exception):
    """An ``Authorization`` header that names no usable token; ``message`` says why, as both
    doors (REST, MCP) answer it."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def credential_for_header(header: str) -> Credential | None:
    """The credential an ``Authorization: Bearer <token>`` header names, read the same way by
    every door: None when there is no header (the door answers "not provided"),
    :class:`BearerRefused` when it is not a bearer token or names no active credential."""
    if not header:
        return None
    parts = header.split()
    if len(parts) != 2 or parts[0].lower() != BEARER.lower():
        raise BearerRefused(MALFORMED_HEADER)
    credential = credential_for_token(parts[1])
    if credential is None:
        raise BearerRefused(UNKNOWN_TOKEN)
    return credential


def _active_by_prefix(prefix: str) -> QuerySet[Credential]:
    return (
        Credential.objects.select_related("user")
        .filter(prefix=prefix, revoked_at__isnull=True)
        # The scope's projects in the same statement: every authenticated request reads them.
        .annotate(scope_project_ids=ArrayAgg("projects__id", filter=Q(projects__isnull=False), default=Value([])))
    )


# Every authenticated request reads it: compiled once per process (memories.compiled).
_ACTIVE_BY_PREFIX = CompiledQuery(Credential, _active_by_prefix, [PREFIX])


def credential_for_token(token: str) -> Credential | None:
    """The active credential whose token this is, or None. Constant time in the secret."""
    prefix = parse_prefix(token)
    if prefix is None:
        return None
    candidates = _ACTIVE_BY_PREFIX.run("active", prefix=prefix)
    match = None
    for credential in candidates:
        if hashes_match(token, credential.token_hash):
            match = credential
    now = timezone.now()
    if match is None or not match.user.is_active or (match.expires_at is not None and match.expires_at <= now):
        return None
    scope_project_ids: list[int] = match.scope_project_ids  # type: ignore[attr-defined]  # _active_by_prefix's annotation
    if match.read_only or scope_project_ids:
        # Request-local: the user object was loaded for this request alone.
        match.user.token_scope = TokenScope(  # type: ignore[attr-defined]
            project_ids=frozenset(scope_project_ids) or None, read_only=match.read_only
        )
    # Where this user's reads may go (memories.platform.replicas): the position of their last write.
    match.user.read_after_lsn = match.read_after_lsn  # type: ignore[attr-defined]
    if match.last_used_at is None or now - match.last_used_at > LAST_USED_RESOLUTION:
        Credential.objects.filter(pk=match.pk).update(last_used_at=now)
        match.last_used_at = now
    return match
