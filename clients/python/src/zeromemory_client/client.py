"""The synchronous client. ``AsyncClient`` (aio.py) has the same methods, awaited."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from types import TracebackType
from typing import Any, Generic, TypeVar

import httpx

from zeromemory_client import _calls as calls
from zeromemory_client._calls import Call, Page
from zeromemory_client._config import settings
from zeromemory_client._retry import RetryPolicy, payload_of, retry_after_seconds
from zeromemory_client.errors import TransportError
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


class Pages(Generic[Item]):
    """Iterates over every item of a listing, asking for the next page as it goes. ``cursor`` is
    where it stands: pass it as ``cursor=`` later to go on from there (the events feed's
    ``next``, which a poller keeps)."""

    def __init__(self, fetch: Callable[[str | None], Page[Item]], cursor: str | None) -> None:
        self._fetch = fetch
        self.cursor = cursor

    def __iter__(self) -> Iterator[Item]:
        more = True
        while more:
            page = self._fetch(self.cursor)
            yield from page.items
            if page.cursor is not None:
                self.cursor = page.cursor
            more = page.more and page.cursor is not None


class Client:
    """A zeromemory server, over HTTP: ``Client("http://127.0.0.1:8000", token)``, or with
    ZEROMEMORY_URL and ZEROMEMORY_TOKEN set, ``Client()``. Use it as a context manager, or call
    ``close()``: it keeps its connections open between calls."""

    def __init__(
        self,
        base_url: str | None = None,
        token: str | None = None,
        *,
        timeout: float = 30.0,
        retry: RetryPolicy | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        url, headers = settings(base_url, token)
        self.retry = retry or RetryPolicy()
        self._http = httpx.Client(base_url=url, headers=headers, timeout=timeout, transport=transport)

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: tuple[type[BaseException] | None, BaseException | None, TracebackType | None]) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def _run(self, call: Call[T]) -> T:
        attempt = 1
        while True:
            try:
                response = self._http.request(
                    call.method, call.path, params=call.params, json=call.body, headers=call.headers
                )
            except httpx.TransportError as error:
                wait = self.retry.after_transport_error(call, error, attempt)
                if wait is None:
                    raise TransportError(0, "connection_error", f"{type(error).__name__}: {error}", None, {}) from error
            else:
                payload = payload_of(response)
                retry_after = retry_after_seconds(response)
                wait = self.retry.after_answer(call, response.status_code, payload, retry_after, attempt)
                if wait is None:
                    return call.answer(response.status_code, payload, retry_after)
            time.sleep(wait)
            attempt += 1

    # -- writes --------------------------------------------------------------------------------

    def remember(
        self,
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
        idempotency_key: str | None = None,
    ) -> Remembered:
        """Store a memory; ``supersedes`` names the versions it replaces (retired in the same
        transaction, SPEC R-S…). ``on_stale`` says what to do with a target another write
        already replaced: "skip" (default), "reject" (raise StaleTarget) or "follow"."""
        body = calls.remember_body(
            content,
            kind=kind,
            project=project,
            visibility=visibility,
            session=session,
            metadata=metadata,
            supersedes=supersedes,
            on_stale=on_stale,
            valid_from=valid_from,
            valid_until=valid_until,
        )
        return self._run(calls.remember(body, idempotency_key))

    def remember_batch(
        self, items: Iterable[Mapping[str, Any]], atomic: bool = False, *, idempotency_key: str | None = None
    ) -> list[BatchItem]:
        """Up to 200 remembers in one request; each item takes ``remember``'s arguments as a dict
        (``{"content": …, "supersedes": [...]}``). Answers one BatchItem per item, in order;
        with ``atomic=True`` the first failing item fails the whole batch (raised)."""
        return self._run(calls.remember_batch(items, atomic, idempotency_key))

    def forget(self, memory_id: str, reason: str | None = None) -> Memory:
        return self._run(calls.forget(memory_id, reason))

    def restore(self, memory_id: str, reason: str | None = None) -> Memory:
        return self._run(calls.restore(memory_id, reason))

    def link(self, src: str, dst: str, type: str) -> Link:
        return self._run(calls.link(src, dst, type))

    def resolve_conflict(self, conflict_id: int, action: str) -> Conflict:
        """``action``: newer_supersedes, older_stands, keep_both or dismiss."""
        return self._run(calls.resolve_conflict(conflict_id, action))

    # -- reads ---------------------------------------------------------------------------------

    def recall(
        self,
        query: str,
        *,
        project: str | None = None,
        kinds: Sequence[str] | None = None,
        limit: int | None = None,
        include_superseded: bool | None = None,
        as_of: datetime | str | None = None,
        valid_at: datetime | str | None = None,
        include_expired: bool | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> list[Hit]:
        """Your memories best matching ``query``. ``metadata``: only those whose metadata
        contains this object (JSON containment)."""
        filters = {
            "metadata": dict(metadata) if metadata is not None else None,
            "project": project,
            "kinds": list(kinds) if kinds is not None else None,
            "limit": limit,
            "include_superseded": include_superseded,
            "as_of": as_of,
            "valid_at": valid_at,
            "include_expired": include_expired,
        }
        return self._run(calls.recall(query, filters))

    def context(
        self,
        query: str,
        *,
        max_tokens: int,
        project: str | None = None,
        kinds: Sequence[str] | None = None,
        as_of: datetime | str | None = None,
        valid_at: datetime | str | None = None,
        include_expired: bool | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> Context:
        filters = {
            "metadata": dict(metadata) if metadata is not None else None,
            "max_tokens": max_tokens,
            "project": project,
            "kinds": list(kinds) if kinds is not None else None,
            "as_of": as_of,
            "valid_at": valid_at,
            "include_expired": include_expired,
        }
        return self._run(calls.context(query, filters))

    def get(self, memory_id: str) -> Memory:
        return self._run(calls.get(memory_id))

    def history(self, memory_id: str) -> History:
        return self._run(calls.history(memory_id))

    def whoami(self) -> Whoami:
        return self._run(calls.whoami())

    def feed(
        self,
        *,
        state: str | None = None,
        kind: str | None = None,
        project: str | None = None,
        q: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        page_size: int | None = None,
    ) -> Pages[Memory]:
        """Your memories, newest first, every page (``state``: live, the default, pending,
        superseded, forgotten or all)."""
        filters = {
            "state": state,
            "kind": kind,
            "project": project,
            "q": q,
            "metadata": dict(metadata) if metadata is not None else None,
            "limit": page_size,
        }
        return Pages(lambda cursor: self._run(calls.feed_page(filters, cursor)), None)

    def events(
        self,
        *,
        project: str | None = None,
        type: str | Sequence[str] | None = None,
        since: datetime | str | None = None,
        cursor: str | None = None,
        page_size: int | None = None,
    ) -> Pages[Event]:
        """What happened, oldest first, up to now; keep ``.cursor`` and pass it next time to read
        only what came after (docs/api.md, the feed)."""
        filters = {"project": project, "type": type, "since": since, "limit": page_size}
        return Pages(lambda at: self._run(calls.events_page(filters, at)), cursor)

    def conflicts(self, *, status: str | None = None, page_size: int | None = None) -> Pages[Conflict]:
        """The conflict queue you may moderate (pending by default: one item per group)."""
        filters = {"status": status, "limit": page_size}
        return Pages(lambda cursor: self._run(calls.conflicts_page(filters, cursor)), None)
