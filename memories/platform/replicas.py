"""Read replicas: searches may read from a replica; everything else uses the primary.

Only reads that tolerate a little replication lag opt in, by running inside
``replica_reads()``: recall and the feed (search results). Writes, the reads inside a write,
and lookups by id (detail, history: an agent reads back what it just wrote) stay on the
primary. With no replica configured (``DATABASE_REPLICA_URLS`` unset) every read is primary.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.conf import settings
from django.db import router

_replica_reads: ContextVar[bool] = ContextVar("zeromemory_replica_reads", default=False)


def replica_aliases() -> list[str]:
    return [alias for alias in settings.DATABASES if alias.startswith("replica")]


@contextmanager
def replica_reads() -> Iterator[None]:
    token = _replica_reads.set(True)
    try:
        yield
    finally:
        _replica_reads.reset(token)


def read_alias(model: Any) -> str:
    """The database a read of ``model`` goes to (for raw SQL that must share its connection)."""
    return router.db_for_read(model) or "default"


class ReplicaRouter:
    def db_for_read(self, model: Any, **hints: Any) -> str:
        replicas = replica_aliases()
        if replicas and _replica_reads.get():
            return random.choice(replicas)
        return "default"

    def db_for_write(self, model: Any, **hints: Any) -> str:
        return "default"

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool:
        return True  # replicas hold the same data as the primary

    def allow_migrate(self, db: str, app_label: str, model_name: str | None = None, **hints: Any) -> bool:
        return db == "default"
