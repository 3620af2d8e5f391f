"""Public identifiers: a type prefix and a 26-character ULID (time-ordered, random)."""

from __future__ import annotations

import re

from ulid import ULID

MEMORY_PREFIX = "mem_"
LINK_PREFIX = "lnk_"
_ULID = r"[0-9A-HJKMNP-TV-Z]{26}"
MEMORY_ID_RE = re.compile(rf"^{MEMORY_PREFIX}{_ULID}$")
LINK_ID_RE = re.compile(rf"^{LINK_PREFIX}{_ULID}$")
ID_LENGTH = 30


def new_memory_id() -> str:
    return f"{MEMORY_PREFIX}{ULID()}"


def new_link_id() -> str:
    return f"{LINK_PREFIX}{ULID()}"


def is_memory_id(value: object) -> bool:
    return isinstance(value, str) and MEMORY_ID_RE.match(value) is not None
