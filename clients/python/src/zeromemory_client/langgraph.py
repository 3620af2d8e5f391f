"""A LangGraph store (``langgraph.store.base.BaseStore``) kept in zeromemory, where every key
keeps its version chain.

    from zeromemory_client.langgraph import ZeromemoryStore

    store = ZeromemoryStore("http://127.0.0.1:8000", token, project="acme")
    graph = builder.compile(store=store)

How LangGraph's model maps onto memories (docs/clients/langgraph.md):

* An item (namespace, key) is a memory whose metadata holds, under ``"langgraph"``, the store's
  scope, the namespace (its labels joined by ".", which LangGraph forbids inside a label), every
  prefix of it, the key and the value. Reads find items by JSON containment on that metadata
  (the server's ``metadata`` filter), so a get is one indexed request, not a scan.
* ``put`` of a key that has a live version is a **declared supersede** of it: the old version is
  retired in the same transaction and the chain is recorded (``Client.history`` shows it). Two
  agents putting the same key at once still leave one line: the second follows the first's
  version (``on_stale="follow"``).
* ``delete`` forgets the live version (reversibly: ``Client.restore``).
* ``search`` with a ``query`` is recall (zeromemory's ranking, scores descending); without one,
  the namespace's items newest first. ``filter`` matches values as LangGraph's own stores do
  (equality, nested objects, ``$eq $ne $gt $gte $lt $lte``).
* The memory's text (what recall ranks by and the context pack quotes) is the value's indexed
  fields (``index=`` on the store or on ``put``, LangGraph's paths), or every string of the
  value; the value itself travels in the metadata. A put whose text repeats the key's version
  but whose value differs elsewhere adds the value as JSON to the text, so it is a version of
  its own and not absorbed by the server's dedup.
  The value as JSON must fit a memory's metadata (16 KB) and the text its content (8,000
  characters).
* A store is one scope: a project (``project="acme"``, shared with the project's members and
  ranked with their memories) or, without one, the token's user's personal memories. Two stores
  of different scopes never see each other's items.

``abatch`` runs ``batch`` in a worker thread: the calls are the same HTTP requests.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import Any

from langgraph.store.base import (
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    MatchCondition,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
)
from langgraph.store.base.embed import get_text_at_path, tokenize_path

from zeromemory_client.client import Client
from zeromemory_client.types import Memory

ENVELOPE = "langgraph"
PERSONAL = "~personal"  # the scope's name when the store has no project (a slug has no "~")
MAX_RECALL = 50  # recall's largest limit (SPEC R-O1)


def _namespace_text(namespace: tuple[str, ...]) -> str:
    return ".".join(namespace)


def _prefixes(namespace: tuple[str, ...]) -> list[str]:
    return [_namespace_text(namespace[:depth]) for depth in range(1, len(namespace) + 1)]


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(", ", ": "))


def _strings(value: Any) -> list[str]:
    """Every string in a value, in its order (what LangGraph's "$" path means for text)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in _strings(item)]
    if isinstance(value, (list, tuple)):
        return [text for item in value for text in _strings(item)]
    return []


def content_of(value: dict[str, Any], fields: list[str] | None) -> str:
    """The memory's text, what recall ranks and the context pack quotes: the indexed fields'
    text (``index``), or without an index every string of the value; the value as JSON when it
    holds no text at all."""
    if fields and fields != ["$"]:
        texts = [text for path in fields for text in get_text_at_path(value, tokenize_path(path))]
    else:
        texts = _strings(value)
    texts = [text for text in texts if text.strip()]
    return "\n".join(texts) if texts else _canonical(value)


def matches(value: Any, wanted: Any) -> bool:
    """LangGraph's filter semantics (as its in-memory and Postgres stores apply them)."""
    if isinstance(wanted, dict):
        if any(key.startswith("$") for key in wanted):
            return all(_operator(value, op, operand) for op, operand in wanted.items())
        return isinstance(value, dict) and all(matches(value.get(key), item) for key, item in wanted.items())
    if isinstance(wanted, (list, tuple)):
        return (
            isinstance(value, (list, tuple))
            and len(value) == len(wanted)
            and all(matches(v, w) for v, w in zip(value, wanted, strict=True))
        )
    return bool(value == wanted)


_ORDER = {
    "$gt": lambda a, b: a > b,
    "$gte": lambda a, b: a >= b,
    "$lt": lambda a, b: a < b,
    "$lte": lambda a, b: a <= b,
}


def _operator(value: Any, op: str, operand: Any) -> bool:
    if op == "$eq":
        return bool(value == operand)
    if op == "$ne":
        return bool(value != operand)
    if op not in _ORDER:
        raise ValueError(f"Unsupported filter operator: {op}")
    return value is not None and bool(_ORDER[op](float(value), float(operand)))


def _containment(wanted: dict[str, Any]) -> dict[str, Any]:
    """The part of a filter the server can apply (plain equality, nested alike); the rest is
    checked here. Lists are left to the exact check: containment would also keep supersets."""
    narrowed: dict[str, Any] = {}
    for key, item in wanted.items():
        if isinstance(item, dict):
            if any(name.startswith("$") for name in item):
                if "$eq" in item and not isinstance(item["$eq"], (dict, list)):
                    narrowed[key] = item["$eq"]
                continue
            inner = _containment(item)
            if inner:
                narrowed[key] = inner
        elif not isinstance(item, (list, tuple)):
            narrowed[key] = item
    return narrowed


def _does_match(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    path = condition.path
    if len(namespace) < len(path):
        return False
    if condition.match_type == "suffix":
        namespace, path = namespace[::-1], tuple(path)[::-1]
    return all(wanted in ("*", label) for label, wanted in zip(namespace, path, strict=False))


class ZeromemoryStore(BaseStore):
    """LangGraph's ``BaseStore`` on a zeromemory server (see the module's docstring)."""

    supports_ttl = False

    def __init__(
        self,
        base_url: str | None = None,
        token: str | None = None,
        *,
        project: str | None = None,
        index: list[str] | None = None,
        client: Client | None = None,
    ) -> None:
        self.client = client or Client(base_url, token)
        self.project = project
        self.index = index
        self.scope = project or PERSONAL

    # -- LangGraph's interface -------------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        results: list[Result] = []
        for op in ops:
            if isinstance(op, GetOp):
                results.append(self._get(op.namespace, op.key))
            elif isinstance(op, PutOp):
                if op.value is None:
                    self._delete(op.namespace, op.key)
                else:
                    self._put(op.namespace, op.key, dict(op.value), op.index)
                results.append(None)
            elif isinstance(op, SearchOp):
                results.append(self._search(op))
            elif isinstance(op, ListNamespacesOp):
                results.append(self._list_namespaces(op))
            else:
                raise ValueError(f"Unknown operation type: {type(op).__name__}")
        return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        return await asyncio.to_thread(self.batch, list(ops))

    # -- the operations --------------------------------------------------------------------------

    def _envelope(self, **narrower: Any) -> dict[str, Any]:
        return {ENVELOPE: {"scope": self.scope, **narrower}}

    def _scan(self, metadata: dict[str, Any]) -> Iterator[Memory]:
        return iter(self.client.feed(project=self.project, metadata=metadata, page_size=200))

    def _live(self, namespace: tuple[str, ...], key: str) -> list[Memory]:
        """The key's live versions, newest first: one, or more only after two first puts raced."""
        return list(self._scan(self._envelope(namespace=_namespace_text(namespace), key=key)))

    def _fields(self, memory: Memory) -> dict[str, Any]:
        """An item's fields from its live version: created when the key was first put, updated
        when this version was written."""
        envelope = memory.metadata[ENVELOPE]
        created = envelope.get("created_at")
        return {
            "value": envelope["value"],
            "key": envelope["key"],
            "namespace": tuple(envelope["path"]),
            "created_at": datetime.fromisoformat(created) if created else memory.created_at,
            "updated_at": memory.created_at,
        }

    def _get(self, namespace: tuple[str, ...], key: str) -> Item | None:
        live = self._live(namespace, key)
        return Item(**self._fields(live[0])) if live else None

    def _put(self, namespace: tuple[str, ...], key: str, value: dict[str, Any], index: Any) -> None:
        live = self._live(namespace, key)
        fields = None if index is False else (index if index is not None else self.index)
        first = live[-1].metadata[ENVELOPE].get("created_at") if live else None
        envelope = self._envelope(
            namespace=_namespace_text(namespace),
            path=list(namespace),
            prefixes=_prefixes(namespace),
            key=key,
            value=value,
            created_at=first or datetime.now(UTC).isoformat(),
        )
        # One session per key: the server absorbs a repeat of the same text only within a
        # session, so a value put under two keys is two items.
        session = "langgraph:" + hashlib.sha256(f"{self.scope}\x00{namespace}\x00{key}".encode()).hexdigest()[:40]
        content = content_of(value, fields)
        written = self.client.remember(
            content,
            project=self.project,
            session=session,
            metadata=envelope,
            supersedes=[memory.id for memory in live],
            on_stale="follow",
        )
        if written.absorbed and written.memory.metadata.get(ENVELOPE, {}).get("value") != value:
            # The server's dedup took the put for a repeat of the key's version with the same
            # text, but the value differs outside it (a field not indexed): the value as JSON
            # beside the text makes it a version of its own, replacing that one.
            self.client.remember(
                f"{content}\n{_canonical(value)}",
                project=self.project,
                session=session,
                metadata=envelope,
                supersedes=[written.memory.id],
                on_stale="follow",
            )

    def _delete(self, namespace: tuple[str, ...], key: str) -> None:
        for memory in self._live(namespace, key):
            self.client.forget(memory.id, reason="deleted through the LangGraph store")

    def _search(self, op: SearchOp) -> list[SearchItem]:
        narrower: dict[str, Any] = {}
        if op.namespace_prefix:
            narrower["prefixes"] = [_namespace_text(op.namespace_prefix)]
        wanted = op.filter or {}
        if wanted and (server_side := _containment(wanted)):
            narrower["value"] = server_side
        metadata = self._envelope(**narrower)
        found: list[SearchItem] = []
        if op.query:
            hits = self.client.recall(op.query, project=self.project, metadata=metadata, limit=MAX_RECALL)
            for hit in hits:
                if matches(hit.memory.metadata[ENVELOPE]["value"], wanted):
                    found.append(SearchItem(**self._fields(hit.memory), score=hit.score))
            return found[op.offset : op.offset + op.limit]
        for memory in self._scan(metadata):
            if matches(memory.metadata[ENVELOPE]["value"], wanted):
                found.append(SearchItem(**self._fields(memory)))
                if len(found) >= op.offset + op.limit:
                    break
        return found[op.offset : op.offset + op.limit]

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        namespaces: set[tuple[str, ...]] = set()
        narrower: dict[str, Any] = {}
        conditions = op.match_conditions or ()
        for condition in conditions:
            # A prefix without wildcards narrows the scan on the server.
            if condition.match_type == "prefix" and condition.path and "*" not in condition.path:
                narrower["prefixes"] = [_namespace_text(tuple(condition.path))]
        for memory in self._scan(self._envelope(**narrower)):
            namespace = tuple(memory.metadata[ENVELOPE]["path"])
            if all(_does_match(condition, namespace) for condition in conditions):
                namespaces.add(namespace[: op.max_depth] if op.max_depth is not None else namespace)
        return sorted(namespaces)[op.offset : op.offset + op.limit]
