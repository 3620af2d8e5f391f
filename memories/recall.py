"""recall: hybrid semantic + full-text search over what the caller may see (SPEC R-O1).

Memories are scored as similar_existing scores them (memories.ranking): vector similarity
plus a weighted BM25 match of the question's rarest words plus the sentence side (the memories
whose whole-text or sentence vectors stand out as nearest), one definition of "resembles this
text" for the whole server. The text side finds a memory that names an exact identifier,
error code or rare term even when the embedding does not rank it near; the vector side finds
paraphrases. Candidates are the best of each side; the vector side is an exact scan whenever a
filter narrows the set (and the HNSW walk with iterative scans otherwise), so a filter never
silently costs results: ``limit`` rows come back whenever that many visible memories pass the
filters.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import DEFAULT_DB_ALIAS
from django.db.models import OuterRef, Q, QuerySet, Subquery
from pgvector.django import CosineDistance

from memories.choices import EventAction, State
from memories.embedding import EmbeddingError, embed_one, embed_sentences
from memories.errors import EmbeddingFailed
from memories.models import Memory, MemoryEvent, Project, token_scope
from memories.ranking import (
    DISTINCT_TOP,
    DISTINCT_WEIGHT,
    distinct_from,
    lexical_query,
    lexical_scores,
    queryset_neighbours,
    sentence_rows_exist,
    weight_for,
)
from memories.selectors import HEAVY_COLUMNS, estimated_rows, exact_nearest, project_for_member, valid_condition
from memories.statement_settings import statement_settings
from memories.visibility import visible_memories, visible_parts

MIN_CANDIDATES = 30
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


def _estimates(memories: QuerySet[Memory], user: User) -> tuple[int, int]:
    """(rows ``user`` sees of ``memories``, rows of the table), by the planner (one EXPLAIN, about
    3 ms to plan the rule's subqueries in every part), kept a minute per process and caller:
    an agent recalls again and again, and the sizes move slowly. Only a plan's choice rests on
    them, never an answer."""
    sql, params = memories.query.sql_with_params()  # the filters, the caller's ids among them
    key = (memories.db, user.pk, user.is_superuser, token_scope(user), sql, tuple(map(str, params)))
    now = time.monotonic()
    with _estimates_lock:
        found = _estimates_cache.get(key)
        if found is not None and now - found[0] < _ESTIMATES_SECONDS:
            _estimates_cache.move_to_end(key)
            return found[1], found[2]
    *visible, table = estimated_rows([*visible_parts(user, memories), Memory.objects.using(memories.db).all()])
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


_STATE_AFTER = {
    EventAction.CREATED: State.LIVE,
    EventAction.IMPORTED: State.LIVE,
    EventAction.RESTORED: State.LIVE,
    EventAction.SUPERSEDED: State.SUPERSEDED,
    EventAction.FORGOTTEN: State.FORGOTTEN,
    EventAction.SUBMITTED: State.PENDING,
    EventAction.APPROVED: State.LIVE,
}


@dataclass(frozen=True)
class RecallHit:
    memory: Memory
    distance: float
    score: float


def _states(include_superseded: bool) -> list[str]:
    return [State.LIVE, State.SUPERSEDED] if include_superseded else [State.LIVE]


def _as_of(memories: QuerySet[Memory], when: datetime, include_superseded: bool) -> QuerySet[Memory]:
    """The memories that stood in the wanted states at ``when``, replayed from the event log."""
    last_action = Subquery(
        MemoryEvent.objects.filter(memory=OuterRef("pk"), created_at__lte=when, action__in=list(_STATE_AFTER))
        .order_by("-created_at", "-id")
        .values("action")[:1]
    )
    wanted = [action for action, state in _STATE_AFTER.items() if state in _states(include_superseded)]
    return memories.filter(created_at__lte=when).annotate(action_then=last_action).filter(action_then__in=wanted)


def vector_ranking(
    memories: QuerySet[Memory], embedding: list[float], count: int, *, user: User, exact: bool | None = None
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
    parts: list[QuerySet[Memory]] = []  # read (one query for the member projects) only if needed
    if count > settings.HNSW_EF_SEARCH:
        exact = True
    elif exact is None:
        visible, table = _estimates(memories, user)
        exact = not walk_is_cheaper(visible=visible, table=table, count=count)
    found: list[tuple[str, float]] = []
    if not exact:
        ranked = memories.annotate(distance=CosineDistance("embedding", embedding)).order_by("distance")
        # The search settings go with the statement (also where a transaction pooler drops a
        # connection's own): at pgvector's default ef_search of 40 this walk found 0.43 of the
        # true top 10 for identifier-style queries (settings.HNSW_EF_SEARCH).
        with statement_settings(settings.HNSW_SEARCH):
            found = list(ranked.values_list("pk", "distance")[:count])
    if len(found) < count:
        return exact_nearest(parts or visible_parts(user, memories), embedding, count)
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


def _distinct(
    memories: QuerySet[Memory],
    embedding: list[float],
    query_vectors: list[list[float]],
    by_vector: list[tuple[str, float]],
) -> dict[str, float]:
    """The sentence side of memories.ranking for a question: each query vector's nearest by
    whole-text vector (the vector side's head for a one-sentence question) and by sentence,
    found as memories.ranking.sentence_neighbours finds them, in one statement."""
    own = len(query_vectors) == 1 and query_vectors[0] == embedding
    sentence_rows = sentence_rows_exist(memories.db)
    nearest = queryset_neighbours(memories, query_vectors, whole=not own, sentence_rows=sentence_rows)
    if own:
        nearest[0].extend(by_vector[:DISTINCT_TOP])
    return distinct_from(nearest)


def hit_rows(ids: list[str]) -> dict[str, Memory]:
    """The ranked memories' rows, by id. Read where the ranking was (a replica inside
    replica_reads()); any it lacks come from the primary, so a row the ranking found and the
    replica no longer shows is never a 500. One gone from both (deleted since) is left out."""
    query = Memory.objects.select_related("owner", "project").defer(*HEAVY_COLUMNS)
    rows = query.in_bulk(ids)
    missing = [pk for pk in ids if pk not in rows]
    if missing and query.db != DEFAULT_DB_ALIAS:
        rows |= query.using(DEFAULT_DB_ALIAS).in_bulk(missing)
    return rows


def ranks_exactly(*, project: object, kinds: list[str] | None, as_of: datetime | None) -> bool:
    """Whether recall's vector side skips the HNSW index for these filters.

    A project, kinds or a point in time narrow the set to thousands of rows, where the exact
    scan is fast and the HNSW walk found only 0.91 of the true top 10 (bench/suite.py, a
    project and a kind at 100,000 memories); over everything visible the walk found 1.00.
    """
    return project is not None or bool(kinds) or as_of is not None


def recall(
    *,
    user: User,
    query: str,
    project_slug: str | None = None,
    kinds: list[str] | None = None,
    limit: int = 10,
    include_superseded: bool = False,
    as_of: datetime | None = None,
    valid_at: datetime | None = None,
    include_expired: bool = False,
    use_text: bool = True,
    candidates: int | None = None,
) -> list[RecallHit]:
    """``valid_at``: only memories valid then (valid time); otherwise those whose validity has
    not ended, or all with ``include_expired``. ``candidates``: how many each side proposes
    (default 3 times the limit). ``use_text=False`` ranks by the vectors alone (for measuring
    what fusion adds)."""
    project = project_for_member(user=user, slug=project_slug) if project_slug else None
    try:
        embedding = embed_one(query)
        query_vectors = embed_sentences([query])[0] or [embedding]
    except EmbeddingError as exc:
        raise EmbeddingFailed("The embedding model failed; retry.") from exc

    unscoped = visible_memories(user)
    if kinds:
        unscoped = unscoped.filter(kind__in=kinds)
    if valid_at is not None or not include_expired:
        unscoped = unscoped.filter(valid_condition(valid_at))
    if as_of is not None:
        unscoped = _as_of(unscoped, as_of, include_superseded)
    else:
        unscoped = unscoped.filter(state__in=_states(include_superseded))
    memories = unscoped
    if project is not None:
        memories = unscoped.filter(Q(project=project) | Q(project__isnull=True, owner_id=user.pk))

    candidates = max(candidates or limit * 3, limit, MIN_CANDIDATES)
    exact = ranks_exactly(project=project, kinds=kinds, as_of=as_of)
    if project is not None and as_of is None:
        by_vector = project_ranking(unscoped, user, project, embedding, candidates)
    else:
        by_vector = vector_ranking(memories, embedding, candidates, user=user, exact=exact or None)
    # The same resemblance as similar_existing's (memories.ranking): vector similarity plus the
    # weighted lexical match of the question's rarest words, here over the best few by each side.
    lexical = lexical_query(query, memories.db) if use_text else None
    weight = weight_for(lexical, question=True)
    distances = {pk: float(distance) for pk, distance in by_vector}
    distinct = _distinct(memories, embedding, query_vectors, by_vector) if use_text else {}
    matches = lexical_scores(memories, lexical, limit=candidates) if lexical is not None else {}
    if lexical is not None:
        unmatched = [pk for pk in distances if pk not in matches]
        matches |= lexical_scores(memories, lexical, ids=unmatched) if unmatched else {}
    missing = [pk for pk in [*matches, *distinct] if pk not in distances]
    if missing:
        distances |= {
            pk: float(distance)
            for pk, distance in Memory.objects.filter(pk__in=missing)
            .annotate(distance=CosineDistance("embedding", embedding))
            .values_list("pk", "distance")
        }
    scores = {
        pk: (1.0 - distance) + weight * matches.get(pk, 0.0) + DISTINCT_WEIGHT * distinct.get(pk, 0.0)
        for pk, distance in distances.items()
    }
    ranked = sorted(scores, key=lambda pk: (-scores[pk], distances[pk], pk))
    if not include_superseded and as_of is None:
        rows = hit_rows(ranked[:limit])
        chosen = [pk for pk in ranked[:limit] if pk in rows]
    else:
        # A purged memory may still stand as a superseded version (or as live at as_of) but has
        # no words left to answer with. Left out after ranking, where it costs nothing: a filter
        # on purged_at would take the covering scans off their indexes.
        rows = hit_rows(ranked[: limit * 2])
        chosen = [pk for pk in ranked[: limit * 2] if pk in rows and rows[pk].purged_at is None][:limit]
    return [RecallHit(memory=rows[pk], distance=distances[pk], score=scores[pk]) for pk in chosen]
