"""Row locks taken in one global order, so concurrent writes never deadlock.

Every write that retires or restores memories locks them through :func:`lock_memories`:
ordered by primary key, ``FOR NO KEY UPDATE`` (what an UPDATE of non-key columns needs).
That mode does not conflict with the ``FOR KEY SHARE`` locks PostgreSQL takes for foreign
keys, so inserting links or events that point at a locked memory never waits on it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from typing import Any

from django.db import connection
from django.db.models import QuerySet

from memories.models import Memory


def lock_memories(ids: Iterable[str], *, annotations: Mapping[str, Any] | None = None) -> dict[str, Memory]:
    """Lock the existing memories among ``ids``, in id order; returns them by id.

    ``annotations`` are computed in the same statement, as the rows are locked (a writer's
    right to see and retire each one, say), instead of in statements of their own.
    """
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    return {memory.pk: memory for memory in locking(wanted, annotations=annotations)}


def locking(ids: list[str], *, annotations: Mapping[str, Any] | None = None) -> QuerySet[Memory]:
    """The statement of ``lock_memories`` for ``ids`` (sorted, distinct), to compile once and
    run many times (memories.services.remember)."""
    locked = (
        Memory.objects.select_for_update(no_key=True, of=("self",))
        .filter(pk__in=ids)
        .defer("embedding", "search_vector")
        .order_by("pk")
    )
    return locked.annotate(**annotations) if annotations else locked


def advisory_lock(*parts: object) -> None:
    """A transaction-scoped lock on an arbitrary key (released at commit or rollback)."""
    digest = hashlib.sha256("\x1f".join(str(part) for part in parts).encode()).digest()
    key = int.from_bytes(digest[:8], "big", signed=True)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])
