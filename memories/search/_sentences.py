"""The sentence side: each query vector's nearest memories, by whole-text and sentence vectors,
through the HNSW indexes or exactly, and how far each stands above the mean of the nearest few."""

from __future__ import annotations

import functools
import operator
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any

from django.db import connections
from django.db.models import QuerySet
from pgvector import Vector

from memories.models import Memory, MemorySentence
from memories.search._scope import Scope
from memories.search._score import DISTINCT_TOP
from memories.search._sql import bound, compiled_sql, nearest_indexed_sql, nearest_sql
from memories.statement_settings import statement_settings
from memories.text import MAX_SENTENCES

# How many sentence rows always hold a vector's DISTINCT_TOP nearest memories: no memory has
# more than MAX_SENTENCES of them (the exact scan keeps that many).
SENTENCE_ROWS_KEPT = DISTINCT_TOP * MAX_SENTENCES
# How many the index search keeps: enough when they hold DISTINCT_TOP memories (the rows after
# them are farther than all of those), and each kept row costs a probe of its memory.
SENTENCE_ROWS_SEARCHED = 4 * DISTINCT_TOP
# hnsw.ef_search for the sentence side's searches (recall's vector side searches at 400,
# settings.HNSW_EF_SEARCH): the nearest three memories of a sentence need a shallower walk, and the
# iterative scan goes on past it when the scope's filter holds rows back. At 40 the nearest
# three memories were those of the exact scan for 0.99 of sentences (ties apart), as at 100
# and 400, for a third of the time of 400 (bench/longtext_quality.py).
NEIGHBOUR_EF_SEARCH = 40


@dataclass(frozen=True)
class NeighbourScope:
    """What ``sentence_neighbours`` searches, as SQL: the nearest DISTINCT_TOP memories to
    ``zm_q.v`` by whole-text vector — ``indexed``, all parts at once, ordered as the HNSW index
    serves; ``exact``, each part's, ordered so it cannot — and ``ids``, the ids of the parts'
    memories (one relation)."""

    alias: str
    indexed: tuple[str, tuple[Any, ...]]
    exact: tuple[tuple[str, tuple[Any, ...]], ...]
    ids: tuple[str, tuple[Any, ...]]


def neighbour_scope(parts: Sequence[QuerySet[Memory]]) -> NeighbourScope:
    """``parts`` compiled for ``sentence_neighbours``."""
    # The parts as one relation, not a union: an index search tests each row it meets against
    # all their conditions at once (one walk, not one per part), and the sentence search probes
    # each sentence row's memory by its key, where a union was materialised and scanned whole
    # for every row (bench/longtext.py, the plans).
    scope = functools.reduce(operator.or_, parts)
    return NeighbourScope(
        alias=parts[0].db,
        indexed=nearest_indexed_sql(scope, "zm_q.v", DISTINCT_TOP),
        exact=tuple(nearest_sql(part, "zm_q.v", DISTINCT_TOP) for part in parts),
        ids=compiled_sql(scope.values("id")),
    )


# The query vectors (i, v), numbered from 1, from one text[] parameter; materialized, so each is
# parsed from its text once (inlined, it was parsed again for every row it met: 0.1 ms a row).
_QUERY_VECTORS = (
    "zm_qs AS MATERIALIZED (SELECT q.i::int AS i, q.v::vector AS v FROM unnest(%s::text[]) WITH ORDINALITY AS q(v, i))"
)


def _neighbour_sql(scope: NeighbourScope, *, whole: bool, sentence_rows: bool, exact: bool) -> tuple[str, list[Any]]:
    """SQL of (i, part, memory id, distance) for each query vector (i, v) of zm_qs: the nearest
    DISTINCT_TOP memories by whole-text vector (``whole``; part 1, or each part numbered from 1
    when ``exact``) and the nearest sentence rows of the scope (part 0), SENTENCE_ROWS_SEARCHED
    of them ordered as the HNSW indexes serve or (``exact``) SENTENCE_ROWS_KEPT ordered so they
    cannot; with the parameters after zm_qs's."""
    params: list[Any] = []
    branches = []
    if whole:
        parts = []
        for number, (sql, part_params) in enumerate(scope.exact if exact else [scope.indexed], start=1):
            parts.append(f"SELECT {number} AS part, id, distance FROM ({sql}) p{number}")
            params.extend(part_params)
        union = " UNION ALL ".join(parts)
        branches.append(f"SELECT zm_q.i, w.part, w.id, w.distance FROM zm_qs zm_q CROSS JOIN LATERAL ({union}) w")
    if sentence_rows:
        ids_sql, ids_params = scope.ids
        params.extend(ids_params)
        # Exact: "+ 0", an expression no index serves. "ORDER BY distance, id" alone is not
        # enough: the planner serves the distance from the HNSW index and sorts each run of
        # equal distances by id (an incremental sort), as soon as the index looks cheap.
        distance, order, limit = "embedding <=> zm_q.v", "distance", SENTENCE_ROWS_SEARCHED
        if exact:
            distance, order, limit = "(embedding <=> zm_q.v) + 0", "distance, id", SENTENCE_ROWS_KEPT
        branches.append(
            "SELECT zm_q.i, 0 AS part, s.memory_id, s.distance FROM zm_qs zm_q CROSS JOIN LATERAL "
            f"(SELECT memory_id, {distance} AS distance FROM {MemorySentence._meta.db_table} "
            f"WHERE memory_id IN ({ids_sql}) ORDER BY {order} LIMIT {limit}) s"
        )
    return f"WITH {_QUERY_VECTORS} {' UNION ALL '.join(branches)}", params


def _neighbour_search() -> AbstractContextManager[None]:
    """hnsw.ef_search at NEIGHBOUR_EF_SEARCH for the statements inside, sent with each
    (memories.statement_settings: local to its transaction, kept by a transaction
    pooler, no round trip of its own)."""
    return statement_settings({"hnsw.ef_search": NEIGHBOUR_EF_SEARCH, "hnsw.iterative_scan": "strict_order"})


def sentence_neighbours(
    scope: NeighbourScope,
    query_vectors: Sequence[list[float]],
    bind: Mapping[str, Any] | None = None,
    *,
    whole: bool = True,
    sentence_rows: bool = True,
) -> list[list[tuple[str, float]]]:
    """For each query vector, the rows ``distinct_from`` weighs, as (memory pk, distance): the
    DISTINCT_TOP nearest memories by whole-text vector (``whole``) and nearest sentence rows of
    the scope's memories (``sentence_rows``) holding its DISTINCT_TOP nearest memories. In one
    statement.

    The searches are shaped for the HNSW indexes (memory_embedding_hnsw_idx,
    memory_sentence_hnsw_idx), which the planner takes where the scope is large; a small scope
    is scanned exactly. An index search walks on (iterative scan) until the scope's conditions
    let enough rows through, and gives up after hnsw.max_scan_tuples. If any list comes back
    short — the scope has fewer rows, the search gave up, or its sentence rows hold fewer than
    DISTINCT_TOP memories — the statement is run again as an exact scan, so the scope's
    conditions never cost a neighbour."""
    if not whole and not sentence_rows:
        return [[] for _ in query_vectors]
    found, short = _neighbours(scope, query_vectors, bind or {}, whole=whole, sentence_rows=sentence_rows, exact=False)
    if short:
        found, _ = _neighbours(scope, query_vectors, bind or {}, whole=whole, sentence_rows=sentence_rows, exact=True)
    return found


def _neighbours(
    scope: NeighbourScope,
    query_vectors: Sequence[list[float]],
    bind: Mapping[str, Any],
    *,
    whole: bool,
    sentence_rows: bool,
    exact: bool,
) -> tuple[list[list[tuple[str, float]]], bool]:
    """``sentence_neighbours``'s statement, through the indexes or exact; and whether a list came
    back short."""
    sql, params = _neighbour_sql(scope, whole=whole, sentence_rows=sentence_rows, exact=exact)
    # The exact scan with the connection's settings: nothing there for the index to serve.
    search = nullcontext() if exact else _neighbour_search()
    with search, connections[scope.alias].cursor() as cursor:
        cursor.execute(sql, [[Vector._to_db(vector) for vector in query_vectors], *bound(params, bind)])
        rows = cursor.fetchall()
    found: list[list[tuple[str, float]]] = [[] for _ in query_vectors]
    wholes = [0] * len(query_vectors)
    kept = [0] * len(query_vectors)
    held: list[set[str]] = [set() for _ in query_vectors]
    for i, part, pk, distance in rows:
        found[i - 1].append((pk, float(distance)))
        if part:
            wholes[i - 1] += 1
        else:
            kept[i - 1] += 1
            held[i - 1].add(pk)
    short = (whole and min(wholes) < DISTINCT_TOP) or (
        sentence_rows
        and any(
            count < SENTENCE_ROWS_SEARCHED or len(ids) < DISTINCT_TOP for count, ids in zip(kept, held, strict=True)
        )
    )
    return found, short


def queryset_neighbours(
    memories: QuerySet[Memory], query_vectors: Sequence[list[float]], *, whole: bool, sentence_rows: bool
) -> list[list[tuple[str, float]]]:
    """``sentence_neighbours`` over one queryset (recall's scope)."""
    return sentence_neighbours(neighbour_scope([memories]), query_vectors, whole=whole, sentence_rows=sentence_rows)


def sentence_rows_exist(alias: str) -> bool:
    """Whether any memory has sentence vectors. A store of notes has none, and its rankings then
    leave the sentence rows out (``fused_ranking(sentence_rows=False)``): planning that part of
    the statement cost more than this look."""
    with connections[alias].cursor() as cursor:
        cursor.execute(f"SELECT EXISTS (SELECT 1 FROM {MemorySentence._meta.db_table})")
        return bool(cursor.fetchone()[0])


def distinct_from(nearest: Sequence[Sequence[tuple[str, float]]]) -> dict[str, float]:
    """The sentence side (module docstring) from each query vector's nearest (pk, distance) rows
    — whole-text and sentence rows together, at least the DISTINCT_TOP nearest memories' best
    rows (``sentence_neighbours``): what ``_distinct_ctes`` computes in SQL, for recall, which
    gathers the rows itself."""
    scores: dict[str, float] = {}
    for rows in nearest:
        best: dict[str, float] = {}
        for pk, distance in rows:
            best[pk] = max(best.get(pk, -2.0), 1.0 - distance)
        top = sorted(best.items(), key=lambda item: (-item[1], item[0]))[:DISTINCT_TOP]
        if not top:
            continue
        mean = sum(similarity for _, similarity in top) / len(top)
        for pk, similarity in top:
            if similarity > mean:
                scores[pk] = scores.get(pk, 0.0) + similarity - mean
    return scores


def question_distinct(
    memories: QuerySet[Memory] | Scope,
    embedding: list[float],
    query_vectors: list[list[float]],
    by_vector: list[tuple[str, float]],
    sentence_rows: bool | None = None,
) -> dict[str, float]:
    """The sentence side for a question: each query vector's nearest by whole-text vector (the
    vector side's head for a one-sentence question) and by sentence, found as
    ``sentence_neighbours`` finds them, in one statement. ``sentence_rows``: whether any memory
    has sentence rows, when already asked (``sentence_rows_exist``)."""
    scope = Scope.of(memories)
    own = len(query_vectors) == 1 and query_vectors[0] == embedding
    if sentence_rows is None:
        sentence_rows = sentence_rows_exist(scope.db)
    if own and not sentence_rows:
        # Nothing to search (a one-sentence question in a store without sentence rows, the
        # common recall): the scope is never built, nor its three statements compiled (2 ms).
        nearest: list[list[tuple[str, float]]] = [[]]
    else:
        nearest = queryset_neighbours(scope.queryset, query_vectors, whole=not own, sentence_rows=sentence_rows)
    if own:
        nearest[0].extend(by_vector[:DISTINCT_TOP])
    return distinct_from(nearest)
