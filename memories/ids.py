"""Public identifiers: a type prefix and a 26-character ULID (time-ordered, random)."""

from __future__ import annotations

import re

from ulid import ULID

MEMORY_PREFIX = "mem_"
LINK_PREFIX = "lnk_"
_ULID_CHAR = "[0-9A-HJKMNP-TV-Z]"  # Crockford base32, as ULIDs are written
_ULID = rf"{_ULID_CHAR}{{26}}"
MEMORY_ID_RE = re.compile(rf"^{MEMORY_PREFIX}{_ULID}$")
MEMORY_ID_IN_TEXT = re.compile(rf"\b{MEMORY_PREFIX}{_ULID}\b")
LINK_ID_RE = re.compile(rf"^{LINK_PREFIX}{_ULID}$")
ID_LENGTH = 30


def new_memory_id() -> str:
    return f"{MEMORY_PREFIX}{ULID()}"


def new_link_id() -> str:
    return f"{LINK_PREFIX}{ULID()}"


def is_memory_id(value: object) -> bool:
    return isinstance(value, str) and MEMORY_ID_RE.match(value) is not None


_MEMORY_ID_PREFIX_RE = re.compile(rf"^{MEMORY_PREFIX}{_ULID_CHAR}{{1,26}}$")


def memory_id_prefix(text: str) -> str | None:
    """``text`` as the start of a memory id, as a person pastes or types one into a search box
    (``mem_01M9``, any case, spaces around): the prefix to look for, or None if it is not one."""
    candidate = text.strip()
    if not candidate.lower().startswith(MEMORY_PREFIX):
        return None
    candidate = MEMORY_PREFIX + candidate[len(MEMORY_PREFIX) :].upper()
    return candidate if _MEMORY_ID_PREFIX_RE.match(candidate) else None
