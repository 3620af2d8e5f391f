"""Querysets of a fixed shape, built and compiled to SQL once per process.

Django builds a queryset's tree and compiles it to SQL in Python on every run. For the reads
every request makes — a memory by id through the visibility rule (memories.visibility) — that
is most of the request's Python: 2.9 ms of a 7.8 ms detail, for one statement whose SQL is the
same each time but for the caller's id and the memory's (bench/request_profile.py,
docs/performance-requests.md).

A :class:`CompiledQuery` builds its queryset once per shape with stand-in values (``Slot``s,
values no real argument has), compiles it, and remembers which of the SQL's parameters are
which slot. Each run substitutes the real values and executes that SQL, and Django's own
``ModelIterable`` turns the rows into models, ``select_related`` objects included, exactly as
the queryset would have. The rule stays written once, as a queryset; only its compilation is
shared. A shape the caller cannot name (a superuser, a scoped token) simply runs the queryset.

Each run is also a *prepared* statement where the connection allows it (:func:`prepared_cursor`):
PostgreSQL then plans the statement once per connection instead of on every run. For the
visibility-filtered read of one memory, planning was 0.7 of its 0.8 ms (EXPLAIN: execution
0.06 ms); prepared, the statement takes 0.1 ms.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.db import connections, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.postgresql.base import ServerBindingCursor  # type: ignore[attr-defined]  # psycopg 3 only
from django.db.backends.utils import CursorWrapper
from django.db.models import Model, QuerySet
from django.db.models.query import ModelIterable
from django.db.models.sql.compiler import SQLCompiler

from memories import statement_settings

M = TypeVar("M", bound=Model)


class _PreparingCursor(ServerBindingCursor):  # type: ignore[misc]  # Django's psycopg 3 class: untyped
    """psycopg's server-side binding cursor, each statement prepared on its first run (psycopg
    keeps the prepared statements per server connection and prepares again on a new one)."""

    def execute(
        self, query: Any, params: Any = None, *, prepare: bool | None = None, binary: bool | None = None
    ) -> Any:
        return super().execute(query, params, prepare=True, binary=binary)


def can_prepare(connection: BaseDatabaseWrapper) -> bool:
    """Whether statements on ``connection`` may be prepared: a direct connection, where the
    server session is this process's. Behind a transaction pooler (settings.DB_POOLER) the
    connection is built with prepared statements off (``prepare_threshold`` None: the next
    transaction may run on another server connection) and each statement carries its settings
    in a simple-protocol prefix (memories.statement_settings), which server-side binding cannot
    send; the same prefix is sent for the statements inside a ``statement_settings`` block.
    Nor where statements are being logged (DEBUG, a test's CaptureQueriesContext): Django's log
    reads the SQL a client-side binding cursor sent, and of a prepared one it would record none."""
    raw = connection.connection
    return (
        not connection.queries_logged
        and raw is not None
        and getattr(raw, "prepare_threshold", None) is not None
        and not connection.settings_dict.get("STATEMENT_SETTINGS")
        and not statement_settings.active()
    )


def prepared_cursor(connection: BaseDatabaseWrapper) -> CursorWrapper:
    """A cursor of Django's (its health check, error wrapping, execute wrappers and query log)
    whose statements are prepared when :func:`can_prepare`, else Django's usual cursor. For
    statements run many times with the same text and other parameters: the plan is made once,
    a generic one after psycopg's five custom plans if PostgreSQL finds it no dearer."""
    cursor = connection.cursor()
    if can_prepare(connection):
        cursor.cursor.close()
        cursor.cursor = _PreparingCursor(connection.connection)
    return cursor


class _PreparingConnection:
    """The connection as the compiler sees it, but for the cursor it runs its statement on."""

    def __init__(self, connection: BaseDatabaseWrapper) -> None:
        self._connection = connection

    def __getattr__(self, name: str) -> Any:
        return getattr(self._connection, name)

    def cursor(self) -> CursorWrapper:
        return prepared_cursor(self._connection)


@dataclass(frozen=True)
class Slot:
    """A stand-in for an argument while the shape compiles: a value no real argument takes
    (a negative id, a string no id matches), found again among the compiled parameters."""

    name: str
    stand_in: object


# The arguments the reads compiled so far take, by the names their builders give them.
USER_ID = Slot("user_id", -7_310_001)
MEMORY_ID = Slot("memory_id", "mem_\x00 stand-in")
PREFIX = Slot("prefix", "\x00 stand-in")


def id_slot(n: int) -> Slot:
    """The ``n``-th of several memory ids a statement takes (a read of that many ids)."""
    return Slot(f"id:{n}", f"mem_\x00 stand-in {n}")


def id_slots(count: int) -> list[Slot]:
    return [id_slot(n) for n in range(count)]


def id_values(ids: Sequence[str]) -> dict[str, str]:
    """``ids`` by the names of their slots (``id_slot``)."""
    return {id_slot(n).name: pk for n, pk in enumerate(ids)}


def ids_of(values: Mapping[str, Any], count: int) -> list[str]:
    """The ``count`` ids (or their stand-ins) a build was given, in order."""
    return [values[id_slot(n).name] for n in range(count)]


@dataclass(frozen=True)
class _Compiled:
    compiler: SQLCompiler  # after as_sql: its select, klass_info and converters are set
    sql: str
    params: tuple[Any, ...]
    slots: tuple[tuple[int, str], ...]  # (parameter position, slot name)


class _Query:
    """What ModelIterable asks of a queryset's query: a compiler."""

    def __init__(self, compiler: SQLCompiler) -> None:
        self.compiler = compiler

    def get_compiler(self, using: str | None = None, **_: Any) -> SQLCompiler:
        return self.compiler


class _QuerySet:
    """What ModelIterable asks of a queryset."""

    def __init__(self, model: type[Model], db: str, compiler: SQLCompiler) -> None:
        self.model = model
        self.db = db
        self.query = _Query(compiler)
        self._known_related_objects: dict[Any, Any] = {}


class CompiledQuery(Generic[M]):
    """``build(**stand_ins)`` is the queryset; ``run(shape, **values)`` its rows for ``values``.

    ``shape`` names everything about the arguments that changes the SQL's text (not its
    parameters): one compilation is kept per shape and database alias."""

    def __init__(
        self, model: type[M], build: Callable[..., QuerySet[M]], slots: Sequence[Slot], *, for_write: bool = False
    ) -> None:
        self.model = model
        self.build = build
        # A locking read goes where writes go, as Django sends a select_for_update queryset
        # (never to a replica a read-only request chose: memories.platform.replicas).
        self.for_write = for_write
        self.slots = {slot.name: slot for slot in slots}
        self._compiled: dict[tuple[Hashable, str], _Compiled] = {}
        self._lock = threading.Lock()

    def _compile(self, shape: Hashable, db: str) -> _Compiled:
        queryset = self.build(**{name: slot.stand_in for name, slot in self.slots.items()}).using(db)
        compiler = queryset.query.get_compiler(using=db)
        sql, params = compiler.as_sql()
        return _Compiled(
            compiler=compiler, sql=sql, params=tuple(params), slots=_slot_positions(params, self.slots.values())
        )

    def run(self, shape: Hashable, **values: Any) -> list[M]:
        db = router.db_for_write(self.model) if self.for_write else router.db_for_read(self.model)
        key = (shape, db)
        compiled = self._compiled.get(key)
        if compiled is None:
            with self._lock:
                compiled = self._compiled.get(key) or self._compile(shape, db)
                self._compiled[key] = compiled
        params = list(compiled.params)
        for position, name in compiled.slots:
            params[position] = values[name]
        # A compiler of its own for this run: the shared one's state, this thread's connection,
        # this run's parameters.
        compiler = copy.copy(compiled.compiler)
        compiler.connection = _PreparingConnection(connections[db])  # type: ignore[assignment]
        compiler.as_sql = lambda *args, **kwargs: (compiled.sql, tuple(params))  # type: ignore[method-assign]
        return list(ModelIterable(_QuerySet(self.model, db, compiler)))  # type: ignore[arg-type]


class CompiledStatements:
    """The SQL of querysets compiled once per shape, for statements the caller sends itself (on
    a cursor, or inside SQL of its own) rather than as models: recall's searches.

    ``sql(shape, db, build, slots, values)`` compiles ``build(**stand_ins)`` the first time
    ``shape`` is asked for on ``db`` and keeps its SQL and which of its parameters are which
    slot; every call gives that SQL with ``values`` in the slots' places. ``shape`` names
    everything about the call that changes the SQL's text, and ``build`` must give the same
    text for every call of one shape: only its parameters may differ, and only in the slots.
    Unlike :class:`CompiledQuery`, a slot may stand for any value the SQL carries as a
    parameter that compares by value (a datetime, a vector's text), not only an id."""

    def __init__(self) -> None:
        self._compiled: dict[tuple[Hashable, str], tuple[str, tuple[Any, ...], tuple[tuple[int, str], ...]]] = {}
        self._lock = threading.Lock()

    def sql(
        self,
        shape: Hashable,
        db: str,
        build: Callable[..., QuerySet[Any, Any]],
        slots: Sequence[Slot],
        values: dict[str, Any],
    ) -> tuple[str, list[Any]]:
        key = (shape, db)
        compiled = self._compiled.get(key)
        if compiled is None:
            with self._lock:
                compiled = self._compiled.get(key) or _compile_statement(db, build, slots)
                self._compiled[key] = compiled
        sql, params, positions = compiled
        bound = list(params)
        for position, name in positions:
            bound[position] = values[name]
        return sql, bound


def _compile_statement(
    db: str, build: Callable[..., QuerySet[Any, Any]], slots: Sequence[Slot]
) -> tuple[str, tuple[Any, ...], tuple[tuple[int, str], ...]]:
    queryset = build(**{slot.name: slot.stand_in for slot in slots}).using(db)
    sql, params = queryset.query.get_compiler(using=db).as_sql()
    return sql, tuple(params), _slot_positions(params, slots)


def _slot_positions(params: Sequence[Any], slots: Iterable[Slot]) -> tuple[tuple[int, str], ...]:
    """Where each slot's stand-in sits among a compiled statement's parameters, as (position,
    slot name); every slot must be found."""
    slots = list(slots)
    # By value and type: a stand-in is a value no real argument takes (-7310002, 1900-01-02…).
    by_value = {(type(slot.stand_in), slot.stand_in): slot.name for slot in slots}
    positions = []
    for position, param in enumerate(params):
        try:
            name = by_value.get((type(param), param))
        except TypeError:  # an unhashable parameter (a list, JSON) is never a slot
            continue
        if name is not None:
            positions.append((position, name))
    missing = {slot.name for slot in slots} - {name for _, name in positions}
    if missing:  # a slot the SQL does not carry as a parameter: the shape is not what was meant
        raise ValueError(f"{sorted(missing)} do not reach the compiled SQL as parameters")
    return tuple(positions)
