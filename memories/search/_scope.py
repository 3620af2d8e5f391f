"""A ranking's scope: the memories it searches, as a queryset built for each call, or built and
compiled once per shape (memories.compiled) with each call's values in its slots.

Recall's scope is the visibility rule narrowed by the filters, and every statement of its ranking
is built from it. Building the rule's queryset cost about 1.3 ms and compiling each statement
0.5 to 0.9 ms, on every request, for SQL that is the same each time but for the caller's id and
the question (docs/performance-requests.md). A compiled scope builds each statement once per
shape; the statement is still written once, as a queryset derived from the scope's, and a
queryset scope (a superuser, a scoped token, filters no slot stands for) runs it as built.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from functools import cached_property
from typing import Any

from django.db import router
from django.db.models import QuerySet

from memories.compiled import CompiledStatements, Slot
from memories.models import Memory
from memories.search._sql import compiled_sql

_STATEMENTS = CompiledStatements()

# A statement derived from a scope: (the scope's queryset, the statement's own values) -> queryset.
Derive = Callable[[QuerySet[Memory], Mapping[str, Any]], QuerySet[Any, Any]]


class Scope:
    """The memories a ranking searches. ``Scope.of(queryset)``: built as given. ``Scope(build,
    shape, slots, values)``: ``build(values)`` is the queryset, for the real ``values`` or the
    ``slots``' stand-ins, and ``shape`` names everything else its SQL's text depends on."""

    def __init__(
        self,
        build: Callable[[Mapping[str, Any]], QuerySet[Memory]],
        shape: Hashable | None,
        slots: Sequence[Slot] = (),
        values: Mapping[str, Any] | None = None,
    ) -> None:
        self._build = build
        self._shape = shape
        self._slots = tuple(slots)
        self._values = dict(values or {})

    @classmethod
    def of(cls, memories: QuerySet[Memory] | Scope) -> Scope:
        if isinstance(memories, Scope):
            return memories
        scope = cls(lambda _: memories, None)
        scope.__dict__["queryset"] = memories
        return scope

    @property
    def compiled(self) -> bool:
        return self._shape is not None

    @cached_property
    def queryset(self) -> QuerySet[Memory]:
        """The scope as a queryset (built on first use: only the statements not compiled need it)."""
        return self._build(self._values)

    @property
    def db(self) -> str:
        # The database the queryset reads from (the router's choice), without building it.
        return self.queryset.db if "queryset" in self.__dict__ else router.db_for_read(Memory)

    def key(self) -> Hashable:
        """What tells this scope's rows apart from another's: its shape and values, or its SQL."""
        if self.compiled:
            return (self._shape, tuple(sorted((name, str(value)) for name, value in self._values.items())))
        sql, params = self.queryset.query.sql_with_params()
        return (sql, tuple(map(str, params)))

    def sql(
        self,
        name: str,
        derive: Derive,
        *,
        shape: Hashable = None,
        slots: Sequence[Slot] = (),
        values: Mapping[str, Any] | None = None,
    ) -> tuple[str, list[Any]]:
        """The SQL and parameters of ``derive(scope's queryset, values)``, the statement ``name``
        (``shape``: what else its text depends on; ``slots``: stand-ins for ``values``)."""
        values = dict(values or {})
        if not self.compiled:
            sql, params = compiled_sql(derive(self.queryset, values))
            return sql, list(params)
        own = [slot.name for slot in self._slots]

        def build(**stand_ins: Any) -> QuerySet[Any, Any]:
            scope = self._build({name: stand_ins[name] for name in own})
            return derive(scope, {slot.name: stand_ins[slot.name] for slot in slots})

        return _STATEMENTS.sql(
            (self._shape, name, shape), self.db, build, [*self._slots, *slots], {**self._values, **values}
        )


def statement(
    name: str, shape: Hashable, build: Callable[..., QuerySet[Any, Any]], slots: Sequence[Slot], values: dict[str, Any]
) -> tuple[str, list[Any]]:
    """A statement of no scope compiled once per shape (``CompiledStatements.sql``)."""
    return _STATEMENTS.sql((name, shape), router.db_for_read(Memory), build, slots, values)
