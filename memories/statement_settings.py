"""Settings a statement runs with, sent in the statement's own round trip.

PostgreSQL settings used to ride on the connection's startup ``options``. A transaction-mode
pooler (PgBouncer, Neon's) refuses those (PgBouncer: "FATAL: unsupported startup parameter:
options") or drops them, and a session-level ``SET`` would stay on the server connection for the
next client the pooler hands it to. What it keeps is a setting local to a transaction. So a
statement that needs a setting is sent as one simple-protocol message:

    SELECT set_config('hnsw.ef_search', '400', true); <the statement>

``set_config(…, true)`` is ``SET LOCAL``. In autocommit the two statements of one message run as
one implicit transaction, so the setting holds for the statement and ends with it; inside a
transaction it holds until the transaction ends. Either way it never reaches another client,
and it costs no round trip: a BEGIN / SET LOCAL / COMMIT around the statement would cost three
(bench/statement_settings.py measures both). This relies on client-side binding (Django's
psycopg default, ``server_side_binding`` unset), which sends a query with its parameters merged
through the simple protocol, the one that takes several statements.

Two sources, applied by one execute wrapper installed on every connection (memories.apps):

* ``statement_settings({...})``: for the statements run inside the block, on any connection
  (recall's HNSW searches: memories.search.vector_ranking and sentence_neighbours).
* the connection's ``STATEMENT_SETTINGS`` (settings.DATABASES): for every statement on it
  (behind a transaction pooler, a serving process's ``statement_timeout`` and ``jit``).

Not prefixed: ``executemany`` (the prefix's result would be interleaved with each row's),
transaction control (``SAVEPOINT``, ``ROLLBACK TO``…: after an error only those may run) and
what cannot run in a transaction block (``VACUUM``, ``… CONCURRENTLY``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

_SAFE = re.compile(r"^[A-Za-z0-9_.]+$")
# Transaction control (after an error only ROLLBACK may run) and what cannot run inside a
# transaction block, which the prefix would put it in.
_UNPREFIXED = re.compile(
    r"^\s*(SAVEPOINT|RELEASE|ROLLBACK|COMMIT|BEGIN|START|END|VACUUM|LISTEN|UNLISTEN)\b"
    r"|\bCONCURRENTLY\b|^\s*(CREATE|DROP|ALTER)\s+(DATABASE|SYSTEM|TABLESPACE)\b",
    re.IGNORECASE,
)

_local: ContextVar[tuple[tuple[str, str], ...]] = ContextVar("zeromemory_statement_settings", default=())


def _checked(values: Mapping[str, object]) -> tuple[tuple[str, str], ...]:
    pairs = tuple((name, str(value)) for name, value in values.items())
    for name, value in pairs:
        # Written into the SQL as literals: only names and values of the code's own making.
        if not _SAFE.match(name) or not _SAFE.match(value):
            raise ValueError(f"not a plain setting: {name}={value!r}")
    return pairs


@contextmanager
def statement_settings(values: Mapping[str, object]) -> Iterator[None]:
    """The statements run inside the block, on any connection, with these settings (local to
    each statement's transaction; module docstring)."""
    token = _local.set((*_local.get(), *_checked(values)))
    try:
        yield
    finally:
        _local.reset(token)


def active() -> bool:
    """Whether a ``statement_settings`` block is open here (its statements get the prefix)."""
    return bool(_local.get())


def prefix(pairs: tuple[tuple[str, str], ...]) -> str:
    """The statement that sets ``pairs`` for the rest of the transaction (later pairs win)."""
    calls = ", ".join(f"set_config('{name}', '{value}', true)" for name, value in pairs)
    return f"SELECT {calls}; "


def with_settings(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
    """The execute wrapper (Django's ``connection.execute_wrappers``)."""
    always = context["connection"].settings_dict.get("STATEMENT_SETTINGS") or {}
    pairs = (*_checked(always), *_local.get())
    if not pairs or many or _UNPREFIXED.search(sql):
        return execute(sql, params, many, context)
    result = execute(prefix(pairs) + sql, params, many, context)
    # The cursor stands on the first statement's result (set_config's row): move to the caller's.
    context["cursor"].cursor.nextset()
    return result


def install(connection: Any) -> None:
    """Put the wrapper on ``connection`` (once: Django sends connection_created for each new
    server connection of the same wrapper object, a pooled one at every checkout)."""
    if with_settings not in connection.execute_wrappers:
        connection.execute_wrappers.insert(0, with_settings)
