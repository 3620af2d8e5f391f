"""The vector side's candidates: the exact nearest over a scope's parts, and the HNSW walk where
the planner's estimates say it is cheaper."""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import connections
from django.db.models import QuerySet, Value
from pgvector import Vector
from pgvector.django import CosineDistance

from memories.compiled import Slot
from memories.models import Memory, Project, token_scope
from memories.search._scope import Scope
from memories.statement_settings import statement_settings
from memories.visibility import visible_parts

# What recall's vector side costs each way (milliseconds), fitted to a store of a million
# memories written over time by 1,000 owners (bench/scale.py, 2026-12-06, p50 of 15 questions,
# docs/scaling.md). The exact scan reads every visible row: 18.6 ms for 1,653, 23.4 for 6,238,
# 31.7 for 10,166, 85 for 44,072 (most of its fixed part is planning the rule's subqueries). The
# HNSW walk visits about count x table / visible entries before the filters have let count rows
# through (never fewer than ef_search): 70 ms for a caller who sees 3,295 (recall@10 0.94), 35 ms
# for 6,238, 25 ms for 10,166, 9.5 ms for 44,072; for 1,653 it came back short (and then scanned
# exactly as well) 4 times in 15, 327 ms.
EXACT_MS = 16.0
EXACT_MS_PER_ROW = 0.0016
WALK_MS = 2.0
WALK_MS_PER_ENTRY = 0.0075


_ESTIMATES_SECONDS = 60.0
_ESTIMATES_SIZE = 1024
_estimates_cache: OrderedDict[tuple[Any, ...], tuple[float, int, int]] = OrderedDict()
_estimates_lock = threading.Lock()


def forget_estimates() -> None:
    """Drop the kept estimates (tests that count the EXPLAINs)."""
    with _estimates_lock:
        _estimates_cache.clear()


def _estimates(scope: Scope, user: User) -> tuple[int, int]:
    """(rows ``user`` sees of ``memories``, rows of the table), by the planner (one EXPLAIN, about
    3 ms to plan the rule's subqueries in every part), kept a minute per process and caller:
    an agent recalls again and again, and the sizes move slowly. Only a plan's choice rests on
    them, never an answer."""
    # The filters, the caller's ids among them (a compiled scope's shape and values: its SQL
    # without compiling it).
    key = (scope.db, user.pk, user.is_superuser, token_scope(user), scope.key())
    now = time.monotonic()
    with _estimates_lock:
        found = _estimates_cache.get(key)
        if found is not None and now - found[0] < _ESTIMATES_SECONDS:
            _estimates_cache.move_to_end(key)
            return found[1], found[2]
    *visible, table = estimated_rows([*visible_parts(user, scope.queryset), Memory.objects.using(scope.db).all()])
    with _estimates_lock:
        _estimates_cache[key] = (now, sum(visible), table)
        while len(_estimates_cache) > _ESTIMATES_SIZE:
            _estimates_cache.popitem(last=False)
    return sum(visible), table


def walk_is_cheaper(*, visible: int, table: int, count: int) -> bool:
    """Whether the HNSW walk should find ``count`` of ``visible`` rows in a table of ``table``
    sooner than the exact scan would read them all."""
    entries = max(settings.HNSW_EF_SEARCH, count * table / max(visible, 1))
    return WALK_MS + WALK_MS_PER_ENTRY * entries < EXACT_MS + EXACT_MS_PER_ROW * visible


def exact_nearest(parts: list[QuerySet[Memory]], embedding: list[float], count: int) -> list[tuple[str, float]]:
    """The exact ``count`` nearest memories over the union of ``parts``, as (pk, distance).

    Each part is ranked on its own, ordered by ``distance + 0`` on purpose: the HNSW index can
    serve ``ORDER BY embedding <=> q`` itself, and would then filter after its scan and
    silently drop true neighbours (bench/similar_existing.py measured recall@10 of 0.18 to 0.46
    that way); an expression the index cannot serve keeps each part an exact scan. Parts are
    shaped to match a covering index (memory_owner_scan_idx, memory_project_scan_idx), so
    each is an index-only scan with exact index conditions, where one OR-ed scan read every
    row of the owner or visited the table (bench/suite.py). The parts' top lists hold the
    overall top.
    """
    ranked = [
        # "+ 0" inside the annotation: ORDER BY then names the column, and the vector is sent
        # once per part (its 384 numbers are text in the query; each copy cost ~1 ms).
        part.annotate(distance=CosineDistance("embedding", embedding) + 0.0)
        .order_by("distance", "pk")
        .values_list("pk", "distance")[:count]
        for part in parts
    ]
    rows = list(ranked[0].union(*ranked[1:], all=True)) if len(ranked) > 1 else list(ranked[0])
    # Parts may overlap (memories.visibility.visible_parts): a memory found by two counts once.
    nearest: dict[str, float] = {}
    for pk, distance in sorted(rows, key=lambda row: (row[1], row[0])):
        nearest.setdefault(pk, float(distance))
    return list(nearest.items())[:count]


def estimated_rows(queries: list[QuerySet[Memory]]) -> list[int]:
    """How many rows the planner expects each of ``queries`` to give: guesses from the tables'
    statistics (one EXPLAIN of their union, nothing read), for choosing a plan, never for an
    answer."""
    first, *rest = [query.values("pk") for query in queries]
    union = first.union(*rest, all=True) if rest else first
    sql, params = union.query.sql_with_params()
    with connections[union.db].cursor() as cursor:
        cursor.execute(f"EXPLAIN (FORMAT JSON) {sql}", params)
        row = cursor.fetchone()
    plan = (json.loads(row[0]) if isinstance(row[0], str) else row[0])[0]["Plan"]
    children = plan.get("Plans", []) if rest else [plan]
    if len(children) != len(queries):  # a shape not foreseen: the whole for each
        return [int(plan["Plan Rows"])] * len(queries)
    return [int(child["Plan Rows"]) for child in children]


# The question's vector, as its text (what CosineDistance sends for a list of floats).
VECTOR = Slot("vector", "zm:slot:vector")


def _walk(memories: QuerySet[Memory], values: Mapping[str, Any], count: int) -> QuerySet[Any, Any]:
    ranked = memories.annotate(distance=CosineDistance("embedding", Value(values[VECTOR.name]))).order_by("distance")
    return ranked.values_list("pk", "distance")[:count]


def vector_ranking(
    memories: QuerySet[Memory] | Scope,
    embedding: list[float],
    count: int,
    *,
    user: User,
    exact: bool | None = None,
) -> list[tuple[str, float]]:
    """The ``count`` memories of ``memories`` (read from visible_memories for ``user``) nearest to
    ``embedding``, as (pk, distance).

    Served by the HNSW index with pgvector's iterative scan (strict order), which keeps
    scanning until the filters have let ``count`` rows through (bench/recall.py measures its
    recall@10 against an exact scan, for questions and for identifier-style queries).
    An iterative scan still gives up after hnsw.max_scan_tuples; when it comes back short,
    the exact scan answers instead, so a selective filter never costs rows. ``exact=True`` skips
    the index: for narrow filters, where the graph walk is both slower and less accurate; left
    None, the cheaper way by the planner's estimates (walk_is_cheaper: a caller who sees a small
    share of a large table is scanned exactly); ``exact=False`` walks the graph whatever the
    estimate (tests of the walk). The exact
    scan reads the visible rows by the ways they are visible (memories.visibility.visible_parts),
    each from its index, never the whole table.
    """
    scope = Scope.of(memories)
    if count > settings.HNSW_EF_SEARCH:
        exact = True
    elif exact is None:
        visible, table = _estimates(scope, user)
        exact = not walk_is_cheaper(visible=visible, table=table, count=count)
    found: list[tuple[str, float]] = []
    if not exact:
        sql, params = scope.sql(
            "walk",
            lambda memories, values: _walk(memories, values, count),
            shape=count,
            slots=[VECTOR],
            values={VECTOR.name: Vector(embedding).to_text()},
        )
        # The search settings go with the statement (also where a transaction pooler drops a
        # connection's own): at pgvector's default ef_search of 40 this walk found 0.43 of the
        # true top 10 for identifier-style queries (settings.HNSW_EF_SEARCH).
        with statement_settings(settings.HNSW_SEARCH), connections[scope.db].cursor() as cursor:
            cursor.execute(sql, params)
            found = cursor.fetchall()
    if len(found) < count:
        return exact_nearest(visible_parts(user, scope.queryset), embedding, count)
    return [(pk, float(distance)) for pk, distance in found]


def project_ranking(
    memories: QuerySet[Memory], user: User, project: Project, embedding: list[float], count: int
) -> list[tuple[str, float]]:
    """Exact top ``count`` of ``memories`` in ``project`` plus the user's personal scope.

    Two index-only scans (see exact_nearest): the project's rows from memory_project_scan_idx,
    the personal ones from memory_owner_scan_idx. One OR-ed scan instead visited the table for
    every row (35 ms against about 12 ms at 100,000 memories, bench/suite.py).
    """
    return exact_nearest(
        [memories.filter(project=project), memories.filter(project__isnull=True, owner_id=user.pk)], embedding, count
    )
