"""How much a stored memory resembles a text: vector similarity fused with full-text matching.

One ranking, used wherever the server looks for the memories a new statement may restate or
replace — ``similar_existing`` in a write's answer (SPEC R-N1) and the hygiene pipeline's
candidates (R-H1):

    score(m) = similarity(m) + weight(text) · lexical(m) + DISTINCT_WEIGHT · distinct(m)

* ``similarity`` is 1 - the cosine distance of the two embeddings.
* ``distinct`` is the sentence side. A long, chatty statement's one vector averages its
  pleasantries and its topics, so it resembles other chatty statements about as much as the
  one it updates; compared sentence by sentence, the sentence they share stands out. Each
  memory has vectors: its whole text's, and one per sentence when it has several
  (memories.text.sentences, stored in MemorySentence). For each of the text's sentences (the
  text itself when it is one sentence), take the DISTINCT_TOP memories holding its nearest
  vectors and the mean of their similarities; each of those memories scores by how far it stands
  above that mean. A sentence every chat turn resembles ("thanks so much!") has many equally
  near memories and gives no one much; a sentence only the predecessor matches gives it a lot.
  ``distinct(m)`` sums this over the text's sentences; it is 0 for a memory not among any
  sentence's nearest few. Chosen on the project's own update chains (review.evaluation): the
  nearest three, and the weight, against the nearest 2 to 12 and other weights.
* ``lexical`` is BM25 over PostgreSQL's english lexemes (the stored ``search_vector``): each
  *telling* lexeme of the text that ``m`` contains adds its inverse document frequency times
  BM25's saturated term frequency, and the sum is divided by what the text scores against
  itself, so a memory that says everything the text says scores about 1. Telling lexemes are
  the text's rarest (at most ``MAX_LEXEMES``), leaving out those in more than 1% of all
  memories; their frequencies come from PostgreSQL's own statistics of ``search_vector``
  (refreshed by ANALYZE), so nothing is maintained on the write path.
* ``weight`` is small for a statement against statements and larger for recall's questions
  (``weight_for``; measured by ``./zm eval`` on update chains). The lexical side reads the whole
  text, where the model reads only its first 256 word pieces.

The vector and lexical sides are exact scans of the caller's rows; their lists are fused, and a
threshold test (Fagin's) proves that no memory outside them can beat the last one kept
(``fused_ranking``). The sentence side's nearest vectors — each sentence's nearest three
memories — are found through HNSW indexes once the caller's memories are many
(``sentence_neighbours``): an exact scan of them all for every sentence of a long text cost
254 ms per recall of a chat turn among 2,170 turns (issue 31), and the indexes find the same
nearest three as the exact scan for 0.99 of sentences (bench/longtext_quality.py); where the
index comes back short of the scope's rows, the exact scan answers.
"""

from __future__ import annotations

import functools
import math
import operator
import re
import threading
import time
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any

from django.contrib.postgres.search import SearchQuery
from django.db import connections
from django.db.models import QuerySet
from django.db.models.expressions import RawSQL
from pgvector import Vector

from memories.models import Memory, MemorySentence, Project
from memories.statement_settings import statement_settings
from memories.text import MAX_SENTENCES

# BM25's usual constants.
K1 = 1.2
B = 0.75
# A lexeme in more than 1% of the memories (and in at least 500 of them) names nothing in
# particular ("service", "week"): it is left to the vector side.
COMMON_LEXEME_SHARE = 0.01
COMMON_LEXEME_MIN_ROWS = 500
# The rarest lexemes of a long text say what it is about; more only cost index lookups.
MAX_LEXEMES = 24
STATS_TTL_SECONDS = 300.0
# How much the lexical side counts (./zm eval's update chains, tuned on the project's own sets):
# for a statement against statements, a little — on short notes the embedding is sharp, and on
# long chat turns rare words led to look-alike turns as often as to the predecessor — and for a
# question against statements more: questions name the rare words of the fact they ask about.
TEXT_WEIGHT = 0.1
QUESTION_TEXT_WEIGHT = 0.25
# The vector side's list: long enough that its last similarity bounds every row left out.
FIRST_K = 30
# The sentence side: how many nearest memories of each query vector it weighs, and how much a
# memory standing above the mean of those counts (./zm eval's update chains, own sets).
DISTINCT_TOP = 3
DISTINCT_WEIGHT = 20.0
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
class LexicalStats:
    """How common each lexeme is across the memories table, from PostgreSQL's statistics."""

    rows: float
    average_lexemes: float
    frequencies: dict[str, float]
    # The frequency assumed for a lexeme the statistics do not list (half the rarest listed,
    # as PostgreSQL's own selectivity estimate assumes).
    floor: float

    def frequency(self, lexeme: str) -> float:
        return self.frequencies.get(lexeme, self.floor)

    def common(self, lexeme: str) -> bool:
        share = self.frequencies.get(lexeme, 0.0)
        return share >= COMMON_LEXEME_SHARE and share * self.rows >= COMMON_LEXEME_MIN_ROWS

    def idf(self, lexeme: str) -> float:
        share = self.frequency(lexeme)
        return math.log(1.0 + (1.0 - share) / (share + 0.5 / max(self.rows, 1.0)))


_stats: dict[str, tuple[float, LexicalStats]] = {}
_stats_lock = threading.Lock()


def lexical_stats(alias: str) -> LexicalStats:
    """The table's lexeme statistics, cached per database for a few minutes."""
    now = time.monotonic()
    cached = _stats.get(alias)
    if cached is not None and now - cached[0] < STATS_TTL_SECONDS:
        return cached[1]
    table = Memory._meta.db_table
    with connections[alias].cursor() as cursor:
        cursor.execute(
            "SELECT s.most_common_elems::text::text[], s.most_common_elem_freqs, c.reltuples "
            "FROM pg_stats s JOIN pg_class c ON c.relname = s.tablename "
            "AND c.relnamespace = to_regnamespace(s.schemaname) "
            "WHERE s.schemaname = current_schema() AND s.tablename = %s AND s.attname = 'search_vector'",
            [table],
        )
        row = cursor.fetchone()
        # A sample is plenty for an average; small tables are read whole.
        cursor.execute(
            f"SELECT count(*), avg(length(search_vector)) FROM {table} "
            f"TABLESAMPLE SYSTEM (CASE WHEN (SELECT reltuples FROM pg_class WHERE oid = %s::regclass) > 50000 "
            f"THEN 2 ELSE 100 END)",
            [table],
        )
        sampled, average = cursor.fetchone()
    frequencies: dict[str, float] = {}
    rows = float(sampled or 0)
    if row is not None and row[0]:
        elements, shares, reltuples = row
        rows = max(rows, float(reltuples))
        # most_common_elem_freqs ends with three summary numbers (min, max, null share).
        frequencies = dict(zip(elements, shares[: len(elements)], strict=True))
    floor = min(frequencies.values()) / 2 if frequencies else 1.0 / max(rows + 1.0, 2.0)
    stats = LexicalStats(
        rows=max(rows, 1.0), average_lexemes=float(average or 8.0), frequencies=frequencies, floor=floor
    )
    with _stats_lock:
        _stats[alias] = (now, stats)
    return stats


def forget_lexical_stats() -> None:
    """Drop the cached statistics (tests that ANALYZE a fresh table)."""
    with _stats_lock:
        _stats.clear()


class LexemeQuery(SearchQuery):
    """A tsquery of already-normalised lexemes, taken verbatim (no second stemming)."""

    def __init__(self, tsquery: str) -> None:
        super().__init__(tsquery)
        self.tsquery = tsquery

    def as_sql(self, compiler: Any, connection: Any, *args: Any, **kwargs: Any) -> tuple[str, list[Any]]:
        return "%s::tsquery", [self.tsquery]


def quoted_lexeme(lexeme: str) -> str:
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'"


@dataclass(frozen=True)
class LexicalQuery:
    """A text's telling lexemes with their weights, and what the text scores against itself."""

    lexemes: tuple[str, ...]
    idfs: tuple[float, ...]
    self_score: float
    average_lexemes: float
    text_lexemes: int  # all lexemes of the text, telling or not: its length for ``weight_for``

    @property
    def tsquery(self) -> str:
        return " | ".join(quoted_lexeme(lexeme) for lexeme in self.lexemes)


def saturation(tf: float, length: float, average_length: float) -> float:
    """BM25's term-frequency factor: grows with ``tf``, saturates, and is damped in long texts."""
    return tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / average_length))


def text_lexemes(text: str, alias: str) -> dict[str, int]:
    """The text's english lexemes and how often each occurs, as PostgreSQL stores them."""
    with connections[alias].cursor() as cursor:
        cursor.execute(
            "SELECT lexeme, coalesce(cardinality(positions), 1) FROM unnest(to_tsvector('english', %s))", [text]
        )
        return {lexeme: int(count) for lexeme, count in cursor.fetchall()}


# One entry of a tsvector's text form: 'lexeme' (quotes doubled, backslashes escaped), then its
# positions, each with an optional weight letter.
_TSVECTOR_ENTRY = re.compile(r"'((?:[^'\\]|''|\\.)*)'(?::([0-9A-D,]+))?")
_TSVECTOR_ESCAPE = re.compile(r"''|\\(.)")


def tsvector_counts(value: str) -> dict[str, int]:
    """A stored tsvector's lexemes and how often each occurs, read from its text form: what
    ``text_lexemes`` asks PostgreSQL for, without the round trip (a write has the stored vector
    of its own content back from its INSERT)."""
    counts: dict[str, int] = {}
    for entry in _TSVECTOR_ENTRY.finditer(value):
        lexeme = _TSVECTOR_ESCAPE.sub(lambda m: m.group(1) if m.group(1) is not None else "'", entry.group(1))
        counts[lexeme] = len(entry.group(2).split(",")) if entry.group(2) else 1
    return counts


def lexical_query(text: str, alias: str, *, counts: Mapping[str, int] | None = None) -> LexicalQuery | None:
    """The lexical side of a ranking for ``text``; None when no word of it is telling.
    ``counts``: the text's lexemes when already known (``tsvector_counts`` of its stored vector)."""
    return lexical_query_from_counts(counts if counts is not None else text_lexemes(text, alias), lexical_stats(alias))


def lexical_query_from_counts(counts: Mapping[str, int], stats: LexicalStats) -> LexicalQuery | None:
    """``lexical_query`` for a text whose lexemes are already known (a stored memory's)."""
    # A lexeme the statistics put in every memory (a small store, freshly analysed) has an idf
    # of 0: it tells nothing, and a text of only such lexemes would score 0 against itself.
    telling = sorted(
        (lexeme for lexeme in counts if not stats.common(lexeme) and stats.idf(lexeme) > 0.0),
        key=lambda lexeme: (stats.frequency(lexeme), lexeme),
    )[:MAX_LEXEMES]
    if not telling:
        return None
    length = len(counts)
    idfs = tuple(stats.idf(lexeme) for lexeme in telling)
    self_score = sum(
        idf * saturation(counts[lexeme], length, stats.average_lexemes)
        for lexeme, idf in zip(telling, idfs, strict=True)
    )
    return LexicalQuery(
        lexemes=tuple(telling),
        idfs=idfs,
        self_score=self_score,
        average_lexemes=stats.average_lexemes,
        text_lexemes=length,
    )


def lexical_score(query: LexicalQuery, counts: Mapping[str, int]) -> float:
    """The lexical side for one memory, from its stored lexemes and their counts (what the
    ranking's SQL computes, in Python: for the sweep, which holds a whole scope in memory)."""
    length = len(counts)
    matched = sum(
        idf * saturation(counts[lexeme], length, query.average_lexemes)
        for lexeme, idf in zip(query.lexemes, query.idfs, strict=True)
        if lexeme in counts
    )
    return matched / query.self_score


def stored_lexemes(memories: QuerySet[Memory]) -> dict[str, dict[str, int]]:
    """Each memory's stored lexemes with their counts, by id (one statement)."""
    sql, params = _sql(memories.values("id"))
    table = Memory._meta.db_table
    found: dict[str, dict[str, int]] = {}
    with connections[memories.db].cursor() as cursor:
        cursor.execute(
            f"SELECT m.id, s.lexeme, coalesce(cardinality(s.positions), 1) FROM {table} m "
            f"CROSS JOIN LATERAL unnest(m.search_vector) s WHERE m.id IN ({sql})",
            params,
        )
        for pk, lexeme, count in cursor.fetchall():
            found.setdefault(pk, {})[lexeme] = int(count)
    return found


def weight_for(query: LexicalQuery | None, *, question: bool = False) -> float:
    """How much the lexical side counts for this text (0 when it has no telling word)."""
    if query is None:
        return 0.0
    return QUESTION_TEXT_WEIGHT if question else TEXT_WEIGHT


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


def _sql(queryset: QuerySet[Any, Any]) -> tuple[str, tuple[Any, ...]]:
    sql, params = queryset.query.get_compiler(queryset.db).as_sql()
    return sql, tuple(params)


def _lexical_sum(alias_sql: str, query: LexicalQuery) -> str:
    """SQL summing the BM25 contributions of the query's lexemes in ``alias_sql``'s vector
    (parameters: ``_lexical_params``).

    Only the query's lexemes are unnested: ``setweight`` marks them and ``ts_filter`` keeps the
    marked ones, both in C, so a row's other lexemes (forty in a chat turn) never become rows;
    unnesting the whole vector and joining it cost 2.5 times as much per matching row, the
    lexical side's whole cost beyond the index lookup (bench/longtext.py). The values are the
    same: a stored vector's lexemes all have positions (to_tsvector), so none is lost by the
    filter, and each keeps its positions."""
    tf = "coalesce(cardinality(s.positions), 1)"
    damping = f"{K1} * (1 - {B} + {B} * length({alias_sql}) / {float(query.average_lexemes)})"
    return (
        f"(SELECT sum((%s::float8[])[array_position(%s::text[], s.lexeme)] * {tf} * {K1 + 1} / ({tf} + {damping})) "
        f"FROM unnest(ts_filter(setweight({alias_sql}, 'A', %s::text[]), '{{a}}')) s)"
    )


def _lexical_params(query: LexicalQuery) -> list[Any]:
    """``_lexical_sum``'s parameters."""
    return [list(query.idfs), list(query.lexemes), list(query.lexemes)]


def lexical_scores(
    memories: QuerySet[Memory], query: LexicalQuery, *, ids: Sequence[str] | None = None, limit: int | None = None
) -> dict[str, float]:
    """The lexical side for rows of ``memories``: the best ``limit`` of those holding a telling
    lexeme, or (with ``ids``) those rows, each scored; rows holding none score 0 and are left out."""
    table = Memory._meta.db_table
    scope = memories.filter(search_vector=LexemeQuery(query.tsquery))
    if ids is not None:
        scope = scope.filter(pk__in=list(ids))
    scope_sql, scope_params = _sql(scope.values("id"))
    sql = (
        f"SELECT m.id, {_lexical_sum('m.search_vector', query)} / %s AS lexical FROM {table} m "
        f"WHERE m.id IN ({scope_sql}) ORDER BY lexical DESC, m.id"
    )
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    with connections[memories.db].cursor() as cursor:
        cursor.execute(sql, [*_lexical_params(query), query.self_score, *scope_params])
        return {pk: float(score) for pk, score in cursor.fetchall()}


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


def _nearest(part: QuerySet[Memory], query_vector: str, k: int) -> tuple[str, tuple[Any, ...]]:
    """SQL of ``part``'s ``k`` memories nearest to ``query_vector`` (an SQL expression), exactly:
    "+ 0" makes an expression the HNSW index cannot serve, which keeps the scan exact."""
    ranked = part.annotate(distance=RawSQL(f"(embedding <=> {query_vector}) + 0", ()))
    return _sql(ranked.order_by("distance", "pk").values_list("id", "distance")[:k])


def _nearest_indexed(part: QuerySet[Memory], query_vector: str, k: int) -> tuple[str, tuple[Any, ...]]:
    """SQL of ``part``'s ``k`` memories nearest to ``query_vector``, ordered by the distance alone:
    the HNSW index can serve it (the planner's choice; an exact scan where the part is small)."""
    ranked = part.annotate(distance=RawSQL(f"embedding <=> {query_vector}", ()))
    return _sql(ranked.order_by("distance").values_list("id", "distance")[:k])


def neighbour_scope(parts: Sequence[QuerySet[Memory]]) -> NeighbourScope:
    """``parts`` compiled for ``sentence_neighbours``."""
    # The parts as one relation, not a union: an index search tests each row it meets against
    # all their conditions at once (one walk, not one per part), and the sentence search probes
    # each sentence row's memory by its key, where a union was materialised and scanned whole
    # for every row (bench/longtext.py, the plans).
    scope = functools.reduce(operator.or_, parts)
    return NeighbourScope(
        alias=parts[0].db,
        indexed=_nearest_indexed(scope, "zm_q.v", DISTINCT_TOP),
        exact=tuple(_nearest(part, "zm_q.v", DISTINCT_TOP) for part in parts),
        ids=_sql(scope.values("id")),
    )


def compile_parts(parts: Sequence[QuerySet[Memory]], k: int, *, text: bool = True) -> CompiledParts:
    """``parts`` compiled for ``fused_ranking`` (``text``: with the lexical side's scope)."""
    vector = tuple(_nearest(part, "(SELECT v FROM zm_query)", k) for part in parts)
    scope = None
    if text:
        # One scan for all parts (their conditions OR-ed), led by the owner-and-lexeme index:
        # rows holding a rare word are few, and a part's own index would only add work.
        scope = _sql(functools.reduce(operator.or_, parts).filter(search_vector=LexemeQuery(TSQUERY_SLOT)).values("id"))
    return CompiledParts(alias=parts[0].db, k=k, vector=vector, text=scope, neighbours=neighbour_scope(parts))


def _bound(params: Sequence[Any], bind: Mapping[str, Any]) -> list[Any]:
    return [bind.get(param, param) if isinstance(param, str) else param for param in params]


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
      exact scan shaped for the covering indexes (see memories.selectors.exact_nearest).
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
    k = max(FIRST_K, limit)
    if isinstance(parts, CompiledParts):
        compiled = parts
        if compiled.k != k or (query is not None and compiled.text is None):
            raise ValueError("these parts were compiled for another ranking")
    else:
        compiled = compile_parts(parts, k, text=query is not None)
    if query_vectors and sentence_rows is None:
        sentence_rows = len(query_vectors) > 1 or sentence_rows_exist(compiled.alias)
    rows = _fused_rows(
        compiled, embedding, query, weight, limit, query_vectors, bool(sentence_rows), with_memories, dict(bind or {})
    )
    scored = sorted(
        (
            (pk, distance, lexical, distinct, (1.0 - distance) + weight * lexical + DISTINCT_WEIGHT * distinct, extra)
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
        params.extend(_bound(part_params, bind))
    ctes = [
        "zm_query AS MATERIALIZED (SELECT %s::vector AS v)",
        f"zm_vector AS MATERIALIZED (SELECT id, distance FROM ({' UNION ALL '.join(vector_parts)}) v "
        f"ORDER BY distance, id LIMIT {int(k)})",
    ]
    if query is None:
        ctes.append(f"zm_text AS (SELECT id, 0.0::float8 AS lexical FROM {table} WHERE false)")
    else:
        assert compiled.text is not None
        params.extend([*_lexical_params(query), query.self_score])
        text_sql, text_params = compiled.text
        params.extend(_bound(text_params, {**bind, TSQUERY_SLOT: query.tsquery}))
        ctes.append(
            f"zm_text AS MATERIALIZED (SELECT m.id, {_lexical_sum('m.search_vector', query)} / %s AS lexical "
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
    params.extend([weight, DISTINCT_WEIGHT, limit - 1, weight, DISTINCT_WEIGHT])
    ctes += [
        "zm_scored AS MATERIALIZED (SELECT v.id, v.distance, coalesce(t.lexical, 0) AS lexical, "
        "coalesce(d.score, 0) AS distinct_score FROM zm_vector v LEFT JOIN zm_text t ON t.id = v.id "
        "LEFT JOIN zm_distinct d ON d.id = v.id)",
        # The limit-th best score among the vector side's rows: the final list's floor.
        "zm_floor AS (SELECT (1 - distance) + %s * lexical + %s * distinct_score AS score FROM zm_scored "
        "ORDER BY score DESC LIMIT 1 OFFSET %s)",
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
        "WHERE (1 - (SELECT max(distance) FROM zm_vector)) + %s * coalesce(t.lexical, 0) "
        "+ %s * coalesce(d.score, 0) >= coalesce((SELECT score FROM zm_floor), '-infinity')"
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
        cursor.execute(sql, [[Vector._to_db(vector) for vector in query_vectors], *_bound(params, bind)])
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


# When the first entry of a write's similar_existing is plausibly the fact the write updates, so
# the hint names it (SPEC R-N4; the list itself has no floor): the vectors alone say it is nearly
# the same statement, or it is still near and its score shows it standing well above the other
# nearest memories (the sentence side: at DISTINCT_WEIGHT 20 and a similarity of 0.5 to 0.7, a
# score of 3.5 is about 0.14 above the mean of the nearest three). In a store of one or two
# memories there is little to stand out from; the distance test still names a near restatement.
# Measured by bench/hint.py on hand-labelled short agent notes (bench/data/hint_pairs.jsonl: 180
# stored facts, 180 rewrites of them, 220 writes that replace nothing, most of them look-alikes of
# the same subject or the same attribute), chosen on one half and checked on the other, held-out
# half: in the labelled store alone, 87% of rewrites named (all rightly) and 18% of unrelated
# writes; among 2,000 generated notes, 81% (99% rightly) and 14%; no new-topic write named.
# Distance alone names fewer rewrites for as many unrelated writes (0.35: 77%, 15-18%); a higher
# score bar names fewer of both (4.0: 84% and 79%, 15% and 11%), a lower one more (3.0: 90% and
# 83%, 23% and 16%).
LIKELY_PREDECESSOR_DISTANCE = 0.30
LIKELY_PREDECESSOR_FAR_DISTANCE = 0.50
LIKELY_PREDECESSOR_SCORE = 3.5


def likely_predecessor(*, distance: float, score: float) -> bool:
    """Whether a similar_existing entry this near, scoring this, is plausibly an older version
    of what was just written."""
    return distance <= LIKELY_PREDECESSOR_DISTANCE or (
        distance <= LIKELY_PREDECESSOR_FAR_DISTANCE and score >= LIKELY_PREDECESSOR_SCORE
    )
