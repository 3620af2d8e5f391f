"""Read replicas: searches may read from a replica; everything else uses the primary.

Only reads that tolerate a little replication lag opt in, by running inside
``replica_reads()``: recall, the context pack and the feed. Writes, the reads inside a write,
and lookups by id (detail, history: an agent reads back what it just wrote) stay on the
primary. With no replica configured (``DATABASE_REPLICA_URLS`` unset) every read is primary.

A ``replica_reads()`` block picks ONE database when it starts and every query inside goes there,
raw SQL included (``read_alias``): a recall ranks and fetches on the same server, so two replicas
lagging differently cannot hand it a ranking from one and rows from the other. The pick, at
random among the replicas fit to serve it, else the primary:

- the replica answers and lags by at most ``REPLICA_MAX_LAG_SECONDS`` (``replica_lag``: measured
  on a connection of this process's own, cached for ``REPLICA_CHECK_SECONDS``, so one round trip
  per replica per second per process; a replica that does not answer is not tried again for
  ``REPLICA_RETRY_SECONDS``);
- it has replayed the reader's own last write (read-your-writes): each write by an agent stores
  the primary's WAL position after its commit on the user's tokens (``Credential.read_after_lsn``,
  ``note_write``), which the next request reads with the token it authenticates anyway; a replica
  that has not replayed that far is passed over.

A read that fails on its replica (gone, or a query cancelled by recovery) is run again on the
primary (``replica_read``), and a recall's rows the replica lacks are fetched from the primary
(memories.recall.hit_rows).
"""

from __future__ import annotations

import logging
import math
import os
import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeGuard, TypeVar

import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, InterfaceError, OperationalError, connections, transaction

from memories.models import Credential

T = TypeVar("T")
logger = logging.getLogger(__name__)

# The database the current replica_reads() block reads from (None: outside any block).
_chosen: ContextVar[str | None] = ContextVar("zeromemory_replica_alias", default=None)


def replica_aliases() -> list[str]:
    return [alias for alias in settings.DATABASES if alias.startswith("replica")]


# -- how far behind a replica is ------------------------------------------------------------

# Received = replayed: nothing is missing, however long ago the primary last committed (an idle
# primary ages pg_last_xact_replay_timestamp() without the replica falling behind). Otherwise
# the age of the last transaction replayed: NULL (nothing replayed since the replica started)
# counts as not known, so too far behind. A server not in recovery (a primary, or a replica
# promoted by a failover) lags by nothing.
_MEASURE = """
SELECT CASE WHEN NOT pg_is_in_recovery() THEN 0::float8
            WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0::float8
            ELSE EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp())::float8 END,
       (CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() ELSE pg_current_wal_lsn() END
        - '0/0'::pg_lsn)::bigint
"""


@dataclass(frozen=True)
class Lag:
    answered: bool
    seconds: float  # inf: did not answer, or not known
    replay_lsn: int  # how far it has replayed (bytes of WAL); 0 if not known
    measured_at: float  # time.monotonic()

    def fit(self, needed_lsn: int | None) -> bool:
        return (
            self.answered
            and self.seconds <= settings.REPLICA_MAX_LAG_SECONDS
            and (needed_lsn is None or self.replay_lsn >= needed_lsn)
        )


_lags: dict[str, Lag] = {}
_probes: dict[str, tuple[int, psycopg.Connection[Any]]] = {}
_locks: dict[str, threading.Lock] = {}
_locks_lock = threading.Lock()


def _lock(alias: str) -> threading.Lock:
    with _locks_lock:
        return _locks.setdefault(alias, threading.Lock())


def _probe(alias: str) -> psycopg.Connection[Any]:
    """This process's own connection to the replica, for measuring it: outside Django's pool, so a
    replica that does not answer costs one short connect timeout, not the pool's wait."""
    held = _probes.get(alias)
    if held is not None and held[0] == os.getpid() and not held[1].closed:
        return held[1]
    params = connections[alias].get_connection_params()
    for key in ("context", "cursor_factory", "prepare_threshold"):
        params.pop(key, None)
    params.setdefault("connect_timeout", settings.REPLICA_CONNECT_TIMEOUT_SECONDS)
    conn = psycopg.connect(**params, autocommit=True)
    # Inherited across a fork (a preloading server), the old one belongs to the parent: not closed.
    _probes[alias] = (os.getpid(), conn)
    return conn


def _measure(alias: str) -> Lag:
    try:
        conn = _probe(alias)
        # SET LOCAL, not a session setting: the replica may sit behind a transaction-mode pooler,
        # where a session's SET would stay on a server connection other clients then get.
        with conn.transaction():
            conn.execute(f"SET LOCAL statement_timeout = {int(settings.REPLICA_CONNECT_TIMEOUT_SECONDS * 1000)}")
            row = conn.execute(_MEASURE).fetchone()
    except psycopg.Error:
        held = _probes.pop(alias, None)
        if held is not None and held[0] == os.getpid():
            held[1].close()
        row = None
    now = time.monotonic()
    if row is None:
        return Lag(answered=False, seconds=math.inf, replay_lsn=0, measured_at=now)
    seconds, replay_lsn = row
    return Lag(
        answered=True,
        seconds=math.inf if seconds is None else max(0.0, float(seconds)),
        replay_lsn=int(replay_lsn or 0),
        measured_at=now,
    )


def _fresh(lag: Lag | None) -> TypeGuard[Lag]:
    if lag is None:
        return False
    keep = settings.REPLICA_CHECK_SECONDS if lag.answered else settings.REPLICA_RETRY_SECONDS
    return time.monotonic() - lag.measured_at < keep


def replica_lag(*, alias: str, fresh: bool = False) -> Lag:
    """How far behind the replica ``alias`` is: the cached measurement while it is recent (one
    thread measures, the others use the last one meanwhile), or a new one with ``fresh``."""
    cached = _lags.get(alias)
    if not fresh and _fresh(cached):
        return cached
    lock = _lock(alias)
    if not lock.acquire(blocking=cached is None or fresh):
        if cached is None:  # a blocking acquire does not come back empty-handed
            raise RuntimeError(f"no measurement of {alias} and its lock was not taken")
        # Another thread is measuring. Its answer is due within the timeouts: a measurement older
        # than that is a replica that hangs, not one to keep reading from.
        overdue = settings.REPLICA_CHECK_SECONDS + 2 * settings.REPLICA_CONNECT_TIMEOUT_SECONDS
        if time.monotonic() - cached.measured_at > overdue:
            return Lag(answered=False, seconds=math.inf, replay_lsn=0, measured_at=cached.measured_at)
        return cached
    try:
        cached = _lags.get(alias)
        if not fresh and _fresh(cached):
            return cached
        lag = _measure(alias)
        _lags[alias] = lag
        return lag
    finally:
        lock.release()


# -- read-your-writes -----------------------------------------------------------------------

# Every active token of the user, locked in id order (two writes of one user never deadlock),
# never moved back. The WAL insert position, read after the write committed, is at or past the
# end of its commit record: a replica that has replayed that far has the write.
_CREDENTIALS = Credential._meta.db_table
_MARK = f"""
WITH mine AS (
    SELECT id FROM {_CREDENTIALS} WHERE user_id = %s AND revoked_at IS NULL ORDER BY id FOR UPDATE
)
UPDATE {_CREDENTIALS} AS credential
   SET read_after_lsn = GREATEST(credential.read_after_lsn, (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::bigint)
  FROM mine
 WHERE credential.id = mine.id
"""


def _mark(user_id: int) -> None:
    try:
        with transaction.atomic(using=DEFAULT_DB_ALIAS), connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            # A hint, not data: no wait for the WAL flush (a crash can lose it, and then only the
            # routing of the next read, never a memory).
            cursor.execute("SET LOCAL synchronous_commit = off")
            cursor.execute(_MARK, [user_id])
    except DatabaseError:
        # The write itself has committed: its answer must not become an error. Until the user's
        # next write, their reads may lag like anyone's (within the bound).
        logger.warning("Could not record user %s's last write for read-your-writes", user_id, exc_info=True)


def note_write(*, user: Any) -> None:
    """After ``user``'s write commits, their next reads go only where that write has arrived.
    Nothing without replicas."""
    if not replica_aliases() or user is None or user.pk is None:
        return
    transaction.on_commit(lambda: _mark(user.pk), using=DEFAULT_DB_ALIAS)


def _read_after(user: Any) -> int | None:
    """The WAL position the user's reads must see: from the token the request authenticated with
    (memories.platform.tokens loads it), else asked of the primary."""
    if user is None or user.pk is None:
        return None
    if hasattr(user, "read_after_lsn"):
        lsn: int | None = user.read_after_lsn
        return lsn
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute(f"SELECT max(read_after_lsn) FROM {_CREDENTIALS} WHERE user_id = %s", [user.pk])
        row = cursor.fetchone()
    return row[0] if row else None


# -- routing ----------------------------------------------------------------------------------


def choose_database(*, user: Any = None) -> str:
    """A replica fit to serve ``user``'s read, at random among those that are; else the primary."""
    aliases = replica_aliases()
    if not aliases:
        return DEFAULT_DB_ALIAS
    needed = _read_after(user)
    for alias in random.sample(aliases, len(aliases)):  # spreading load, not a secret
        lag = replica_lag(alias=alias)
        if lag.fit(None) and not lag.fit(needed):
            # Behind the reader's last write as last measured: one round trip says whether it is now.
            lag = replica_lag(alias=alias, fresh=True)
        if lag.fit(needed):
            return alias
    return DEFAULT_DB_ALIAS


@contextmanager
def _pinned(alias: str) -> Iterator[str]:
    token = _chosen.set(alias)
    try:
        yield alias
    finally:
        _chosen.reset(token)


@contextmanager
def replica_reads(*, user: Any = None) -> Iterator[str]:
    """Every read inside goes to one database, chosen here (see choose_database); yields it. A
    block inside another keeps the outer one's."""
    current = _chosen.get()
    if current is not None:
        yield current
        return
    with _pinned(choose_database(user=user)) as alias:
        yield alias


def replica_read(read: Callable[[], T], *, user: Any = None) -> T:
    """``read()`` inside replica_reads(); run again on the primary if it failed on its replica
    (the replica went away, or recovery cancelled the query), that replica set aside for now."""
    if _chosen.get() is not None:  # inside a block already: its choice stands
        return read()
    alias = choose_database(user=user)
    if alias != DEFAULT_DB_ALIAS:
        with _pinned(alias):
            try:
                return read()
            except (OperationalError, InterfaceError):
                _lags[alias] = Lag(answered=False, seconds=math.inf, replay_lsn=0, measured_at=time.monotonic())
    with _pinned(DEFAULT_DB_ALIAS):
        return read()


def read_alias(model: Any) -> str:
    """The database a read of ``model`` goes to (for raw SQL that must share its connection)."""
    return _chosen.get() or DEFAULT_DB_ALIAS


class ReplicaRouter:
    def db_for_read(self, model: Any, **hints: Any) -> str:
        return _chosen.get() or DEFAULT_DB_ALIAS

    def db_for_write(self, model: Any, **hints: Any) -> str:
        return DEFAULT_DB_ALIAS

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool:
        return True  # replicas hold the same data as the primary

    def allow_migrate(self, db: str, app_label: str, model_name: str | None = None, **hints: Any) -> bool:
        return db == DEFAULT_DB_ALIAS
