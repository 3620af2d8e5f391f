"""Querysets as SQL for the search's own statements, and the slots bound at each run."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db.models import QuerySet
from django.db.models.expressions import RawSQL

from memories.models import Memory


def compiled_sql(queryset: QuerySet[Any, Any]) -> tuple[str, tuple[Any, ...]]:
    sql, params = queryset.query.get_compiler(queryset.db).as_sql()
    return sql, tuple(params)


def nearest_sql(part: QuerySet[Memory], query_vector: str, k: int) -> tuple[str, tuple[Any, ...]]:
    """SQL of ``part``'s ``k`` memories nearest to ``query_vector`` (an SQL expression), exactly:
    "+ 0" makes an expression the HNSW index cannot serve, which keeps the scan exact."""
    ranked = part.annotate(distance=RawSQL(f"(embedding <=> {query_vector}) + 0", ()))
    return compiled_sql(ranked.order_by("distance", "pk").values_list("id", "distance")[:k])


def nearest_indexed_sql(part: QuerySet[Memory], query_vector: str, k: int) -> tuple[str, tuple[Any, ...]]:
    """SQL of ``part``'s ``k`` memories nearest to ``query_vector``, ordered by the distance alone:
    the HNSW index can serve it (the planner's choice; an exact scan where the part is small)."""
    ranked = part.annotate(distance=RawSQL(f"embedding <=> {query_vector}", ()))
    return compiled_sql(ranked.order_by("distance").values_list("id", "distance")[:k])


def bound(params: Sequence[Any], bind: Mapping[str, Any]) -> list[Any]:
    """``params`` with each slot string of ``bind`` replaced by its value (see CompiledParts)."""
    return [bind.get(param, param) if isinstance(param, str) else param for param in params]
