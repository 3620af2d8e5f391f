"""The lexical side: BM25 over PostgreSQL's english lexemes, with the table's own statistics."""

from __future__ import annotations

import math
import re
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.postgres.search import SearchQuery
from django.db import connections
from django.db.models import QuerySet
from pgvector import Vector

from memories.compiled import Slot
from memories.models import Memory
from memories.search._scope import Scope
from memories.search._score import QUESTION_TEXT_WEIGHT, TEXT_WEIGHT
from memories.search._sql import compiled_sql

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


def lexical_queries(counts: Sequence[Mapping[str, int]], alias: str) -> list[LexicalQuery | None]:
    """``lexical_query`` for each of many texts whose lexemes are known (stored memories', from
    ``stored_lexemes``), with the table's statistics read once."""
    stats = lexical_stats(alias)
    return [lexical_query_from_counts(each, stats) for each in counts]


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
    sql, params = compiled_sql(memories.values("id"))
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


def lexical_sum_sql(alias_sql: str, query: LexicalQuery) -> str:
    """SQL summing the BM25 contributions of the query's lexemes in ``alias_sql``'s vector
    (parameters: ``lexical_params``).

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


def lexical_params(query: LexicalQuery) -> list[Any]:
    """``lexical_sum_sql``'s parameters."""
    return [list(query.idfs), list(query.lexemes), list(query.lexemes)]


# The stand-in of the question's tsquery in a compiled scope (memories.search._scope).
_TSQUERY = Slot("tsquery", "zm:slot:lexical:tsquery")


def _lexical_scope(memories: QuerySet[Memory], values: Mapping[str, Any]) -> QuerySet[Any, Any]:
    """The rows of ``memories`` holding a telling lexeme."""
    return memories.filter(search_vector=LexemeQuery(values[_TSQUERY.name])).values("id")


def question_lexical(
    memories: QuerySet[Memory] | Scope,
    query: LexicalQuery,
    *,
    limit: int,
    also: Sequence[str],
    embedding: list[float],
) -> dict[str, tuple[float, float]]:
    """The lexical side of the best ``limit`` rows of ``memories`` holding a telling lexeme and of
    the rows ``also`` (the vector side's), in one statement, as (lexical, cosine distance to
    ``embedding``) by id: the best ``limit`` first, then the rest of ``also`` that hold a telling
    lexeme, best first; rows holding none are left out. The distance comes with each row for the
    ranking's candidates only the lexical side found (a statement of their own before)."""
    table = Memory._meta.db_table
    scope = Scope.of(memories)
    scope_sql, scope_params = scope.sql(
        "lexical",
        _lexical_scope,
        slots=[_TSQUERY],
        values={_TSQUERY.name: query.tsquery},
    )
    # The lexical side of every row holding a telling lexeme is computed once (an ORDER BY … LIMIT
    # computes it for all of them too); the distance only for the rows kept.
    sql = (
        f"WITH zm_lexical AS MATERIALIZED (SELECT m.id, {lexical_sum_sql('m.search_vector', query)} / %s "
        f"AS lexical FROM {table} m WHERE m.id IN ({scope_sql})) "
        "SELECT r.id, r.lexical, m.embedding <=> %s::vector FROM (SELECT id, lexical, "
        "row_number() OVER (ORDER BY lexical DESC, id) AS place FROM zm_lexical) r "
        f"JOIN {table} m ON m.id = r.id WHERE r.place <= %s OR r.id = ANY(%s::text[]) ORDER BY r.place"
    )
    params = [*lexical_params(query), query.self_score, *scope_params, Vector._to_db(embedding), limit, list(also)]
    with connections[scope.db].cursor() as cursor:
        cursor.execute(sql, params)
        return {pk: (float(lexical), float(distance)) for pk, lexical, distance in cursor.fetchall()}
