"""The fused ranking: the exact top of a scope by ``score``, in one statement (memories.search)."""

from __future__ import annotations

import functools
import operator
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connections
from django.db.models import QuerySet
from pgvector import Vector

from memories.models import Memory, Project
from memories.search._lexical import LexemeQuery, LexicalQuery, lexical_params, lexical_sum_sql, weight_for
from memories.search._score import DISTINCT_TOP, FIRST_K, score, score_sql
from memories.search._sentences import NeighbourScope, neighbour_scope, sentence_neighbours, sentence_rows_exist
from memories.search._sql import bound, compiled_sql, nearest_sql


@dataclass(frozen=True)
class Ranked:
    pk: str
    distance: float  # cosine distance of the embeddings
    lexical: float  # the lexical side, 0 when the memory shares no telling lexeme
    score: float
    # With ``fused_ranking(..., with_memories=True)``: the memory's shown columns (MEMORY_COLUMNS)
    # and its project's slug, read by the ranking's own statement.
    memory: Memory | None = None
    distinct: float = 0.0  # the sentence side, 0 when the memory is not among any nearest few


# What an answer listing ranked memories shows of each (similar_existing's entries, SPEC R-N3).
MEMORY_COLUMNS = ("kind", "project_id", "created_at", "content")


# Stands for the lexical side's tsquery in a compiled scope (see CompiledParts).
TSQUERY_SLOT = "zm:slot:tsquery"


@dataclass(frozen=True)
class CompiledParts:
    """The parts of a ranking compiled to SQL once: each part's ranked vector scan (top ``k``)
    and the lexical scope of all parts, as (sql, params). A parameter that is one of the
    ``slots`` strings given to ``fused_ranking``'s ``bind`` (and TSQUERY_SLOT) is replaced by
    its value at each run, so one compilation serves every call of the same shape: building
    the visibility rule's querysets and compiling them cost ~3.4 ms of CPU per remember, more
    than the rest of its Python together (bench/writepath.py)."""

    alias: str
    k: int
    vector: tuple[tuple[str, tuple[Any, ...]], ...]
    text: tuple[str, tuple[Any, ...]] | None
    # The sentence side (``sentence_neighbours``): each part's nearest DISTINCT_TOP rows to one
    # query vector ``zm_q.v`` (a LATERAL join supplies it), shaped for the HNSW index and
    # exact; and the ids of all parts, as one scan (its rows are probed one by one).
    neighbours: NeighbourScope


def compile_parts(parts: Sequence[QuerySet[Memory]], limit: int, *, text: bool = True) -> CompiledParts:
    """``parts`` compiled for ``fused_ranking`` of the top ``limit`` (``text``: with the lexical
    side's scope)."""
    k = _first_k(limit)
    vector = tuple(nearest_sql(part, "(SELECT v FROM zm_query)", k) for part in parts)
    scope = None
    if text:
        # One scan for all parts (their conditions OR-ed), led by the owner-and-lexeme index:
        # rows holding a rare word are few, and a part's own index would only add work.
        scope = compiled_sql(
            functools.reduce(operator.or_, parts).filter(search_vector=LexemeQuery(TSQUERY_SLOT)).values("id")
        )
    return CompiledParts(alias=parts[0].db, k=k, vector=vector, text=scope, neighbours=neighbour_scope(parts))


def _first_k(limit: int) -> int:
    """How many the vector side lists for a top ``limit``: at least FIRST_K."""
    return max(FIRST_K, limit)


def fused_ranking(
    parts: Sequence[QuerySet[Memory]] | CompiledParts,
    embedding: list[float],
    query: LexicalQuery | None,
    limit: int,
    weight: float | None = None,
    *,
    query_vectors: Sequence[list[float]] | None = None,
    sentence_rows: bool | None = None,
    with_memories: bool = False,
    bind: Mapping[str, Any] | None = None,
) -> list[Ranked]:
    """The exact top ``limit`` memories of the union of ``parts`` by ``score`` (module docstring),
    in one statement; ``with_memories`` reads their MEMORY_COLUMNS in it too (one round trip
    and an ORM query fewer than fetching them afterwards).

    ``query_vectors``: the text's sentence vectors (``[embedding]`` for a text of one sentence)
    for the sentence side; None leaves that side out (vector and lexical sides only).
    ``sentence_rows``: whether memories in scope may have sentence vectors; False leaves them
    out (the sweep knows its scope). By default: yes for a text of several sentences (its own
    are stored), else whether any memory has them (``sentence_rows_exist``).

    * The vector side is the exact top ``k`` by distance, each part ranked on its own by an
      exact scan shaped for the covering indexes (see exact_nearest).
    * The lexical side scores *every* row of the parts that holds a telling lexeme (an index
      scan: few rows hold a rare word), so a row it does not list scores 0 there.
    * The sentence side scores only the DISTINCT_TOP nearest memories of each query vector
      (``distinct`` is 0 for every other row), found by ``sentence_neighbours`` in a statement
      of their own; for a text of one sentence, its nearest by whole-text vector are the
      vector side's head.
    * A row in none of the lists scores at most the ``k``-th vector similarity, which no more
      than ``limit`` of the vector side's rows can fall below; a row only on the lexical or
      sentence side is fetched whole only if its scores, added to that similarity, could reach
      the ``limit``-th score among the vector side's rows.
    """
    if weight is None:
        weight = weight_for(query)
    if isinstance(parts, CompiledParts):
        compiled = parts
        if compiled.k != _first_k(limit) or (query is not None and compiled.text is None):
            raise ValueError("these parts were compiled for another ranking")
    else:
        compiled = compile_parts(parts, limit, text=query is not None)
    if query_vectors and sentence_rows is None:
        sentence_rows = len(query_vectors) > 1 or sentence_rows_exist(compiled.alias)
    rows = _fused_rows(
        compiled, embedding, query, weight, limit, query_vectors, bool(sentence_rows), with_memories, dict(bind or {})
    )
    scored = sorted(
        (
            (
                pk,
                distance,
                lexical,
                distinct,
                score(similarity=1.0 - distance, lexical=lexical, distinct=distinct, weight=weight),
                extra,
            )
            for pk, distance, lexical, distinct, *extra in rows
        ),
        key=lambda row: (-row[4], row[1], row[0]),
    )[:limit]
    return [
        Ranked(pk, distance, lexical, score, _memory(pk, extra) if extra else None, distinct)
        for pk, distance, lexical, distinct, score, extra in scored
    ]


def _memory(pk: str, columns: Sequence[Any]) -> Memory:
    *values, slug = columns
    memory = Memory(id=pk, **dict(zip(MEMORY_COLUMNS, values, strict=True)))
    memory.project = Project(id=memory.project_id, slug=slug) if memory.project_id is not None else None
    return memory


def _fused_rows(
    compiled: CompiledParts,
    embedding: list[float],
    query: LexicalQuery | None,
    weight: float,
    limit: int,
    query_vectors: Sequence[list[float]] | None,
    sentence_rows: bool,
    with_memories: bool,
    bind: dict[str, Any],
) -> list[tuple[Any, ...]]:
    """(pk, distance, lexical, distinct) of every row that may belong to the top ``limit`` (see
    fused_ranking), followed by its MEMORY_COLUMNS and project slug ``with_memories``."""
    table = Memory._meta.db_table
    k = compiled.k
    params: list[Any] = [Vector._to_db(embedding)]
    vector_parts = []
    for sql, part_params in compiled.vector:
        vector_parts.append(f"({sql})")
        params.extend(bound(part_params, bind))
    ctes = [
        "zm_query AS MATERIALIZED (SELECT %s::vector AS v)",
        f"zm_vector AS MATERIALIZED (SELECT id, distance FROM ({' UNION ALL '.join(vector_parts)}) v "
        f"ORDER BY distance, id LIMIT {int(k)})",
    ]
    if query is None:
        ctes.append(f"zm_text AS (SELECT id, 0.0::float8 AS lexical FROM {table} WHERE false)")
    else:
        if compiled.text is None:
            raise ValueError("compile_parts() was given no text side for a ranking with a query")
        params.extend([*lexical_params(query), query.self_score])
        text_sql, text_params = compiled.text
        params.extend(bound(text_params, {**bind, TSQUERY_SLOT: query.tsquery}))
        ctes.append(
            f"zm_text AS MATERIALIZED (SELECT m.id, {lexical_sum_sql('m.search_vector', query)} / %s AS lexical "
            f"FROM {table} m WHERE m.id IN ({text_sql}))"
        )
    if query_vectors:
        sentence_ctes, sentence_params = _distinct_ctes(
            compiled,
            query_vectors,
            bind,
            reuse_vector_side=len(query_vectors) == 1 and list(query_vectors[0]) == list(embedding),
            sentence_rows=sentence_rows,
        )
        ctes.extend(sentence_ctes)
        params.extend(sentence_params)
    else:
        ctes.append(f"zm_distinct AS (SELECT id, 0.0::float8 AS score FROM {table} WHERE false)")
    params.extend([weight, limit - 1, weight])
    ctes += [
        "zm_scored AS MATERIALIZED (SELECT v.id, v.distance, coalesce(t.lexical, 0) AS lexical, "
        "coalesce(d.score, 0) AS distinct_score FROM zm_vector v LEFT JOIN zm_text t ON t.id = v.id "
        "LEFT JOIN zm_distinct d ON d.id = v.id)",
        # The limit-th best score among the vector side's rows: the final list's floor.
        f"zm_floor AS (SELECT {score_sql(similarity='(1 - distance)', lexical='lexical', distinct='distinct_score')} "
        "AS score FROM zm_scored ORDER BY score DESC LIMIT 1 OFFSET %s)",
        "zm_other AS (SELECT id FROM zm_text UNION SELECT id FROM zm_distinct EXCEPT SELECT id FROM zm_vector)",
    ]
    # The entries' columns are read in each branch, where the rows are few and known (a join
    # around the union left a small store's planner hashing the whole table for ~30 rows).
    columns, join, scored_join = "", "", ""
    if with_memories:
        columns = "".join(f", m.{column}" for column in MEMORY_COLUMNS) + ", p.slug"
        join = f" LEFT JOIN {Project._meta.db_table} p ON p.id = m.project_id"
        scored_join = f" JOIN {table} m ON m.id = s.id{join}"
    sql = (
        f"WITH {', '.join(ctes)} "
        f"SELECT s.id, s.distance, s.lexical, s.distinct_score{columns} FROM zm_scored s{scored_join} UNION ALL "
        "SELECT o.id, m.embedding <=> (SELECT v FROM zm_query), coalesce(t.lexical, 0), coalesce(d.score, 0)"
        f"{columns} FROM zm_other o JOIN {table} m ON m.id = o.id{join} "
        "LEFT JOIN zm_text t ON t.id = o.id LEFT JOIN zm_distinct d ON d.id = o.id "
        "WHERE "
        + score_sql(
            similarity="(1 - (SELECT max(distance) FROM zm_vector))",
            lexical="coalesce(t.lexical, 0)",
            distinct="coalesce(d.score, 0)",
        )
        + " >= coalesce((SELECT score FROM zm_floor), '-infinity')"
    )
    with connections[compiled.alias].cursor() as cursor:
        cursor.execute(sql, params)
        return [
            (pk, float(distance), float(lexical), float(distinct), *rest)
            for pk, distance, lexical, distinct, *rest in cursor.fetchall()
        ]


def _distinct_ctes(
    compiled: CompiledParts,
    query_vectors: Sequence[list[float]],
    bind: Mapping[str, Any],
    *,
    reuse_vector_side: bool,
    sentence_rows: bool,
) -> tuple[list[str], list[Any]]:
    """The sentence side as CTEs ending in ``zm_distinct(id, score)`` (module docstring): for
    each query vector, its DISTINCT_TOP nearest memories, each by its nearest vector (whole
    text or sentence), and how far each stands above the mean of those."""
    params: list[Any] = []
    if reuse_vector_side and not sentence_rows:
        # One query vector, the text's own, and no sentence rows to read: zm_vector's head is all.
        return [
            f"zm_top AS MATERIALIZED (SELECT id, 1 - distance AS similarity FROM zm_vector "
            f"ORDER BY distance, id LIMIT {DISTINCT_TOP})",
            "zm_distinct AS (SELECT id, similarity - (SELECT avg(similarity) FROM zm_top) AS score FROM zm_top "
            "WHERE similarity > (SELECT avg(similarity) FROM zm_top))",
        ], params
    # The neighbours, found by their own statement (the HNSW searches run with their own
    # settings), come back as three arrays; for the text's own vector the vector side's head
    # gives the nearest by whole-text vector, already exact.
    nearest = sentence_neighbours(
        compiled.neighbours, query_vectors, bind, whole=not reuse_vector_side, sentence_rows=sentence_rows
    )
    found = [(i, pk, distance) for i, rows in enumerate(nearest, start=1) for pk, distance in rows]
    params.extend([[row[0] for row in found], [row[1] for row in found], [row[2] for row in found]])
    near = "SELECT i, id, distance FROM unnest(%s::int[], %s::text[], %s::float8[]) AS n(i, id, distance)"
    if reuse_vector_side:
        near += (
            " UNION ALL SELECT 1 AS i, id, distance FROM "
            f"(SELECT id, distance FROM zm_vector ORDER BY distance, id LIMIT {DISTINCT_TOP}) w"
        )
    return [
        f"zm_near AS MATERIALIZED ({near})",
        "zm_best AS (SELECT i, id, 1 - min(distance) AS similarity, "
        "row_number() OVER (PARTITION BY i ORDER BY min(distance), id) AS place FROM zm_near GROUP BY i, id)",
        "zm_distinct AS MATERIALIZED (SELECT b.id, sum(greatest(b.similarity - t.mean, 0)) AS score "
        "FROM zm_best b JOIN (SELECT i, avg(similarity) AS mean FROM zm_best "
        f"WHERE place <= {DISTINCT_TOP} GROUP BY i) t ON t.i = b.i "
        f"WHERE b.place <= {DISTINCT_TOP} GROUP BY b.id HAVING sum(greatest(b.similarity - t.mean, 0)) > 0)",
    ], params
