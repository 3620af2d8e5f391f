"""The answers, typed: frozen dataclasses with the fields the API returns (docs/api.md).

Timestamps become timezone-aware ``datetime``s; everything else keeps its JSON type. A field a
newer server adds is ignored by ``from_json``, so an older client keeps working.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

T = TypeVar("T")


def parse_time(value: str | None) -> datetime | None:
    """ISO 8601 as the server writes it (UTC with a ``Z``); Python 3.10's parser needs +00:00."""
    if value is None:
        return None
    return datetime.fromisoformat(value[:-1] + "+00:00" if value.endswith("Z") else value)


# Every timestamp the API sends, by the names it sends them under.
TIMES = frozenset(
    {
        "invalidated_at",
        "closed_at",
        "created_at",
        "updated_at",
        "valid_from",
        "valid_until",
        "purged_at",
        "opened_at",
        "resolved_at",
    }
)


def _known(cls: type[Any], data: dict[str, Any]) -> dict[str, Any]:
    """The fields ``cls`` has, its timestamps parsed."""
    names = {f.name for f in dataclasses.fields(cls)}
    return {key: parse_time(value) if key in TIMES else value for key, value in data.items() if key in names}


@dataclass(frozen=True)
class Memory:
    """A memory object (SPEC §3): its content, scope and lifecycle."""

    id: str
    content: str
    kind: str
    owner: str
    project: str | None
    visibility: str
    provenance: str
    session: str
    metadata: dict[str, Any]
    state: str
    superseded_by: str | None
    invalidated_at: datetime | None
    loop_status: str | None
    closed_by: str | None
    closed_at: datetime | None
    created_at: datetime
    updated_at: datetime
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    purged_at: datetime | None = None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Memory:
        return cls(**_known(cls, data))


@dataclass(frozen=True)
class SimilarMemory:
    """An entry of ``similar_existing``: one of your live memories nearest to what you wrote."""

    id: str
    kind: str
    project: str | None
    distance: float
    score: float
    age: str
    age_seconds: int
    created_at: datetime
    preview: str

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SimilarMemory:
        return cls(**_known(cls, data))


@dataclass(frozen=True)
class Remembered:
    """The answer to a remember: the memory (new, or the one that absorbed the write), what it
    retired (``superseded``), the named targets it skipped (``skipped``: ``{"dst", "reason",
    "current"?}``), the stale targets it followed to their head (``followed``), and, when it
    replaced nothing, ``similar_existing`` with its ``hint``."""

    memory: Memory
    absorbed: bool
    superseded: list[str]
    skipped: list[dict[str, Any]]
    followed: list[dict[str, Any]] = field(default_factory=list)
    similar_existing: list[SimilarMemory] | None = None
    hint: str | None = None
    matches_retired: list[dict[str, Any]] = field(default_factory=list)
    redacted: list[dict[str, Any]] = field(default_factory=list)
    status: int = 201  # 201 created, 200 absorbed

    @classmethod
    def from_json(cls, data: dict[str, Any], status: int) -> Remembered:
        values = _known(cls, data)
        values["memory"] = Memory.from_json(data["memory"])
        if data.get("similar_existing") is not None:
            values["similar_existing"] = [SimilarMemory.from_json(item) for item in data["similar_existing"]]
        values["status"] = status
        return cls(**values)


@dataclass(frozen=True)
class BatchItem:
    """One item of a batch's answer, in item order: ``result`` when it was stored or absorbed
    (``status`` 201/200), ``error`` (the error object) when it failed on its own."""

    status: int
    result: Remembered | None = None
    error: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass(frozen=True)
class Hit:
    """A recall result: the memory, its cosine ``distance`` to the query and its ranking ``score``."""

    memory: Memory
    distance: float
    score: float

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Hit:
        return cls(memory=Memory.from_json(data["memory"]), distance=data["distance"], score=data["score"])


@dataclass(frozen=True)
class ContextItem:
    id: str
    kind: str
    project: str | None
    section: str  # "facts" or "open_loops"
    score: float
    tokens: int
    created_at: datetime
    was: dict[str, Any] | None  # {"id", "until"} of the quoted older version

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ContextItem:
        return cls(**_known(cls, data))


@dataclass(frozen=True)
class Context:
    """A prompt-ready block (``text``) of at most the asked tokens, and what it holds."""

    text: str
    tokens: int
    token_counter: str
    items: list[ContextItem]
    left_out: int

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Context:
        values = _known(cls, data)
        values["items"] = [ContextItem.from_json(item) for item in data["items"]]
        return cls(**values)


@dataclass(frozen=True)
class Link:
    """A link (SPEC R-O4); ``origin`` is declared, hygiene, moderator or link."""

    id: str
    src: str
    dst: str
    type: str
    origin: str
    reverted: bool
    created_at: datetime

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Link:
        return cls(**_known(cls, data))


@dataclass(frozen=True)
class History:
    """A memory's version chain (SPEC R-O6): ``versions`` oldest first, ``head`` the live one."""

    head: str | None
    versions: list[Memory]
    edges: list[Link]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> History:
        return cls(
            head=data["head"],
            versions=[Memory.from_json(item) for item in data["versions"]],
            edges=[Link.from_json(item) for item in data["edges"]],
        )


@dataclass(frozen=True)
class Event:
    """One event of the feed (docs/api.md, events and webhooks)."""

    id: str
    type: str
    created_at: datetime
    project: str | None
    memory: str | None
    conflict: int | None
    data: dict[str, Any]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Event:
        values = _known(cls, data)
        values.setdefault("conflict", None)
        return cls(**values)


@dataclass(frozen=True)
class Whoami:
    user: str
    credential: dict[str, Any]
    scope: dict[str, Any]
    projects: list[dict[str, Any]]
    rate_limit: dict[str, Any]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Whoami:
        return cls(**_known(cls, data))


@dataclass(frozen=True)
class ConflictGroup:
    """Pending conflicts that are one decision: their ids and the live values in dispute."""

    conflicts: list[int]
    values: list[Memory]

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ConflictGroup:
        return cls(conflicts=list(data["conflicts"]), values=[Memory.from_json(item) for item in data["values"]])


@dataclass(frozen=True)
class Conflict:
    """A pair in the moderation queue (docs/hygiene.md). A pending one listed by ``conflicts()``
    carries its ``group``."""

    id: int
    status: str
    relation: str
    confidence: float
    rationale: str
    resolution: str
    same_credential: bool
    stale_version: str | None
    opened_at: datetime
    resolved_at: datetime | None
    older: Memory
    newer: Memory
    group: ConflictGroup | None = None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Conflict:
        values = _known(cls, data)
        values["older"] = Memory.from_json(data["older"])
        values["newer"] = Memory.from_json(data["newer"])
        if data.get("group") is not None:
            values["group"] = ConflictGroup.from_json(data["group"])
        return cls(**values)
