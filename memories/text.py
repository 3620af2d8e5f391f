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


# A sentence ends at ., ! or ? followed by space, or at a line break.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)|\s*\n+\s*")
# A memory's sentence vectors are at most this many (memories.search relies on the bound):
# a longer text's sentences are grouped, consecutive and evenly, into this many passages.
MAX_SENTENCES = 16


# A text shorter than this is one thought, however punctuated: its whole-text vector is sharp
# (on the own chat chains, leaving texts under 20 words out changed hit@1/3/10 from 0.60 / 0.80
# / 0.90 to 0.59 / 0.79 / 0.90; docs/hygiene.md), and notes pay no second embedding for it.
MIN_WORDS = 20


def sentences(text: str) -> list[str]:
    """The text's sentences for sentence-level vectors (memories.search), or [] when it is one
    sentence or shorter than MIN_WORDS words: its whole-text vector already says it. At most
    MAX_SENTENCES passages."""
    if len(text.split()) < MIN_WORDS:
        return []
    found = [part.strip() for part in _SENTENCE_END.split(text) if part and part.strip()]
    if len(found) < 2:
        return []
    if len(found) <= MAX_SENTENCES:
        return found
    count = len(found)
    return [
        " ".join(found[group * count // MAX_SENTENCES : (group + 1) * count // MAX_SENTENCES])
        for group in range(MAX_SENTENCES)
    ]
