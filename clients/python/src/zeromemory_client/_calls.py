"""Every operation once: the request it sends and how its answer is read.

``Client`` and ``AsyncClient`` differ only in how they wait (``_sync``/``_async``); what a call
sends, whether it may be retried and what it returns is decided here, for both.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum
from typing import Any, Generic, TypeVar
from urllib.parse import parse_qs, urlsplit

from zeromemory_client.errors import error_from_answer
from zeromemory_client.types import (
    BatchItem,
    Conflict,
    Context,
    Event,
    History,
    Hit,
    Link,
    Memory,
    Remembered,
    Whoami,
)

T = TypeVar("T")
Item = TypeVar("Item")

API = "/api/v1"


class Replay(Enum):
    """When a call may be sent again after a failure that leaves its outcome unknown (the
    connection dropped after the request went out, a gateway timed out)."""

    # Sending it twice does what sending it once does: reads, forget, restore, link (200 when it
    # exists), and writes that carry an Idempotency-Key (the server replays the first answer).
    SAFE = "safe"
    # Only when the server certainly did not act: the connection was never made, or it refused
    # the request (429, 503). A conflict's resolution is one decision; resent after it was made it
    # would answer 409.
    UNSENT_ONLY = "unsent_only"


@dataclass(frozen=True)
class Call(Generic[T]):
    method: str
    path: str
    read: Callable[[int, Any], T]
    params: dict[str, str] = field(default_factory=dict)
    body: dict[str, Any] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    replay: Replay = Replay.SAFE

    def answer(self, status: int, payload: Any, retry_after: float | None) -> T:
        if status >= 400:
            raise error_from_answer(status, payload, retry_after)
        return self.read(status, payload)


@dataclass(frozen=True)
class Page(Generic[Item]):
    items: list[Item]
    cursor: str | None  # where the next page starts (the ``cursor`` of the answer's ``next``)
    more: bool  # whether asking from ``cursor`` now would return anything


def _time(value: datetime | str | None) -> str | None:
    if value is None or isinstance(value, str):
        return value
    if value.tzinfo is None:
        raise ValueError("timestamps must be timezone-aware (e.g. datetime.now(timezone.utc))")
    return value.isoformat()


def _given(**values: Any) -> dict[str, Any]:
    """The arguments the caller gave: the server's own defaults stand for the others."""
    return {key: value for key, value in values.items() if value is not None}


def _cursor_of(next_url: str | None) -> str | None:
    if not next_url:
        return None
    values = parse_qs(urlsplit(next_url).query).get("cursor")
    return values[0] if values else None


def _ids(value: str | Sequence[str], name: str) -> list[str]:
    # A lone id passed where a list goes would otherwise be read as its characters.
    if isinstance(value, str):
        raise TypeError(f"{name} takes a list of memory ids, e.g. {name}=[{value!r}]")
    return list(value)


def remember_body(
    content: str,
    *,
    kind: str | None = None,
    project: str | None = None,
    visibility: str | None = None,
    session: str | None = None,
    metadata: Mapping[str, Any] | None = None,
    supersedes: Sequence[str] = (),
    on_stale: str | None = None,
    valid_from: datetime | str | None = None,
    valid_until: datetime | str | None = None,
) -> dict[str, Any]:
    """A remember body: ``supersedes`` become declared ``supersedes`` links (SPEC R-S…)."""
    body = _given(
        content=content,
        kind=kind,
        project=project,
        visibility=visibility,
        session=session,
        metadata=dict(metadata) if metadata is not None else None,
        on_stale=on_stale,
        valid_from=_time(valid_from),
        valid_until=_time(valid_until),
    )
    targets = _ids(supersedes, "supersedes")
    if targets:
        body["links"] = [{"type": "supersedes", "dst": target} for target in targets]
    return body


def _key(idempotency_key: str | None) -> dict[str, str]:
    # One key per logical call, made here once: every retry of the call sends the same one, so a
    # write whose answer was lost is replayed by the server, never stored twice.
    return {"Idempotency-Key": idempotency_key or uuid.uuid4().hex}


def remember(body: dict[str, Any], idempotency_key: str | None) -> Call[Remembered]:
    return Call(
        "POST",
        f"{API}/memories/",
        lambda status, payload: Remembered.from_json(payload, status),
        body=body,
        headers=_key(idempotency_key),
    )


def _batch_item(item: Any) -> BatchItem:
    status = int(item["status"])
    if "error" in item:
        return BatchItem(status=status, error=item["error"])
    return BatchItem(status=status, result=Remembered.from_json(item, status))


def remember_batch(
    items: Iterable[Mapping[str, Any]], atomic: bool, idempotency_key: str | None
) -> Call[list[BatchItem]]:
    bodies = []
    for index, item in enumerate(items):
        try:
            bodies.append(remember_body(**item))
        except TypeError as exc:  # an argument remember() does not take: named with its item
            raise TypeError(f"items[{index}]: {exc}") from exc
    return Call(
        "POST",
        f"{API}/memories/batch/",
        lambda status, payload: [_batch_item(item) for item in payload["results"]],
        body={"items": bodies, "atomic": atomic},
        headers=_key(idempotency_key),
    )


def _read_body(query: str, filters: dict[str, Any]) -> dict[str, Any]:
    """recall's and context's body: the question and the filters given."""
    body = {"query": query, **_given(**filters)}
    for name in ("as_of", "valid_at"):
        if name in body:
            body[name] = _time(body[name])
    return body


def recall(query: str, filters: dict[str, Any]) -> Call[list[Hit]]:
    return Call(
        "POST",
        f"{API}/recall/",
        lambda _, payload: [Hit.from_json(hit) for hit in payload["results"]],
        body=_read_body(query, filters),
    )


def context(query: str, filters: dict[str, Any]) -> Call[Context]:
    body = _read_body(query, filters)
    return Call("POST", f"{API}/context/", lambda _, payload: Context.from_json(payload), body=body)


def _memory(_: int, payload: Any) -> Memory:
    return Memory.from_json(payload)


def get(memory_id: str) -> Call[Memory]:
    return Call("GET", f"{API}/memories/{memory_id}/", _memory)


def history(memory_id: str) -> Call[History]:
    return Call("GET", f"{API}/memories/{memory_id}/history/", lambda _, payload: History.from_json(payload))


def forget(memory_id: str, reason: str | None) -> Call[Memory]:
    return Call("POST", f"{API}/memories/{memory_id}/forget/", _memory, body=_given(reason=reason))


def restore(memory_id: str, reason: str | None) -> Call[Memory]:
    return Call("POST", f"{API}/memories/{memory_id}/restore/", _memory, body=_given(reason=reason))


def link(src: str, dst: str, type: str) -> Call[Link]:
    return Call(
        "POST", f"{API}/links/", lambda _, payload: Link.from_json(payload), body={"src": src, "dst": dst, "type": type}
    )


def whoami() -> Call[Whoami]:
    return Call("GET", f"{API}/whoami/", lambda _, payload: Whoami.from_json(payload))


def resolve_conflict(conflict_id: int, action: str) -> Call[Conflict]:
    return Call(
        "POST",
        f"{API}/conflicts/{int(conflict_id)}/resolve/",
        lambda _, payload: Conflict.from_json(payload),
        body={"action": action},
        replay=Replay.UNSENT_ONLY,
    )


def _query(values: dict[str, Any]) -> dict[str, str]:
    query: dict[str, str] = {}
    for key, value in values.items():
        if value is None:
            continue
        if isinstance(value, datetime):
            query[key] = str(_time(value))
        elif isinstance(value, (list, tuple)):
            query[key] = ",".join(value)  # the events' types, several at once
        elif isinstance(value, dict):
            query[key] = json.dumps(value)  # the feed's metadata filter, as JSON text
        elif isinstance(value, bool):
            query[key] = "true" if value else "false"
        else:
            query[key] = str(value)
    return query


def _page(parse: Callable[[Any], Item], *, more_key: str | None = None) -> Callable[[int, Any], Page[Item]]:
    def read(_: int, payload: Any) -> Page[Item]:
        cursor = _cursor_of(payload.get("next"))
        more = bool(payload[more_key]) if more_key else cursor is not None
        return Page([parse(item) for item in payload["results"]], cursor, more)

    return read


def feed_page(filters: dict[str, Any], cursor: str | None) -> Call[Page[Memory]]:
    params = _query({**filters, "cursor": cursor})
    return Call("GET", f"{API}/memories/", _page(Memory.from_json), params=params)


def events_page(filters: dict[str, Any], cursor: str | None) -> Call[Page[Event]]:
    params = _query({**filters, "cursor": cursor})
    return Call("GET", f"{API}/events/", _page(Event.from_json, more_key="has_more"), params=params)


def conflicts_page(filters: dict[str, Any], cursor: str | None) -> Call[Page[Conflict]]:
    params = _query({**filters, "cursor": cursor})
    return Call("GET", f"{API}/conflicts/", _page(Conflict.from_json), params=params)
