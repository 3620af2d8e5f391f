"""Text helpers shared by the write path and the dedup cascade."""

from __future__ import annotations

import hashlib
import re
import unicodedata

_PUNCTUATION_OR_SPACE = re.compile(r"[\W_]+", re.UNICODE)


def normalize_for_dedup(text: str) -> str:
    """Case, whitespace and punctuation folded away; digits and letters kept exactly.

    "Deploy is Monday 10:00." and "deploy is monday 10 00" are the same statement;
    "Monday 10:00" and "Monday 11:00" are not (SPEC R-D1).
    """
    folded = unicodedata.normalize("NFKC", text).casefold()
    return " ".join(part for part in _PUNCTUATION_OR_SPACE.split(folded) if part)


def content_fingerprint(text: str) -> str:
    return hashlib.sha256(normalize_for_dedup(text).encode()).hexdigest()


def preview(text: str, limit: int = 160) -> str:
    if len(text) <= limit:
        return text
    return text[: limit - 1].rstrip() + "…"
