"""recall: hybrid semantic + full-text search over what the caller may see (SPEC R-O1).

Two exact rankings of the same filtered set — cosine distance of the embeddings, and
PostgreSQL full-text rank — fused by reciprocal rank fusion. The text side finds a memory
that names an exact identifier, error code or rare term even when the embedding does not
rank it near; the vector side finds paraphrases. Both are exact scans of the filtered rows,
so a filter never silently costs results: ``limit`` rows come back whenever that many
visible memories pass the filters.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.postgres.search import SearchRank
from django.db.models import F, OuterRef, Q, QuerySet, Subquery
from pgvector.django import CosineDistance

from memories.choices import EventAction, State
from memories.embeddings import EmbeddingError, embed_one
from memories.errors import ErrorCode, ServiceUnavailable
from memories.models import Memory, MemoryEvent, Project
from memories.ranking import LexemeQuery, lexical_stats, quoted_lexeme, text_lexemes
from memories.selectors import HEAVY_COLUMNS, exact_nearest, project_for_member
from memories.visibility import visible_memories

RRF_K = 60
TEXT_WEIGHT = 1.5  # bench/recall.py: identifiers ranked first 0.83 -> 1.00 going from 1.0 to 1.5
MIN_CANDIDATES = 30
_STATE_AFTER = {
    EventAction.CREATED: State.LIVE,
    EventAction.IMPORTED: State.LIVE,
    EventAction.RESTORED: State.LIVE,
    EventAction.SUPERSEDED: State.SUPERSEDED,
    EventAction.FORGOTTEN: State.FORGOTTEN,
}


def any_word_query(text: str, alias: str) -> LexemeQuery | None:
    """A full-text query matching memories that contain any of the telling words of ``text``.

    Questions rarely repeat every word of the memory they look for ("What does ERR-4471
    mean?"), so the words are OR-ed; ts_rank then favours memories matching more of them.
    The words are normalised exactly as the stored search vectors were (english), and the
    common ones are dropped (memories.ranking.LexicalStats.common: a word in more than 1% of
    the memories selects nothing, and ranking every memory that says "service" cost 17 ms at
    100,000 memories). None when no telling word is left.
    """
    stats = lexical_stats(alias)
    telling = sorted(lexeme for lexeme in text_lexemes(text, alias) if not stats.common(lexeme))
    if not telling:
        return None
    return LexemeQuery(" | ".join(quoted_lexeme(lexeme) for lexeme in telling))


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
    memories: QuerySet[Memory], embedding: list[float], count: int, *, exact: bool = False
) -> list[tuple[str, float]]:
    """The ``count`` memories of ``memories`` nearest to ``embedding``, as (pk, distance).

    Served by the HNSW index with pgvector's iterative scan (strict order), which keeps
    scanning until the filters have let ``count`` rows through (bench/recall.py measures its
    recall@10 against an exact scan, for questions and for identifier-style queries).
    An iterative scan still gives up after hnsw.max_scan_tuples; when it comes back short,
    the exact scan answers instead, so a selective filter never costs rows. ``exact`` skips
    the index: for narrow filters, where the graph walk is both slower and less accurate.
    """
    ranked = memories.annotate(distance=CosineDistance("embedding", embedding)).order_by("distance")
    rows = ranked.values_list("pk", "distance")[:count]
    # Every connection carries hnsw.ef_search and hnsw.iterative_scan (settings.HNSW_EF_SEARCH).
    found = list(rows) if count <= settings.HNSW_EF_SEARCH and not exact else []
    if len(found) < count:
        return exact_nearest([memories], embedding, count)
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
    use_text: bool = True,
) -> list[RecallHit]:
    """``use_text=False`` ranks by the vectors alone (for measuring what fusion adds)."""
    project = project_for_member(user=user, slug=project_slug) if project_slug else None
    try:
        embedding = embed_one(query)
    except EmbeddingError as exc:
        raise ServiceUnavailable("The embedding model failed; retry.", code=ErrorCode.EMBEDDING_FAILED) from exc

    unscoped = visible_memories(user)
    if kinds:
        unscoped = unscoped.filter(kind__in=kinds)
    if as_of is not None:
        unscoped = _as_of(unscoped, as_of, include_superseded)
    else:
        unscoped = unscoped.filter(state__in=_states(include_superseded))
    memories = unscoped
    if project is not None:
        memories = unscoped.filter(Q(project=project) | Q(project__isnull=True, owner_id=user.pk))

    candidates = max(limit * 3, MIN_CANDIDATES)
    if project is not None and as_of is None:
        by_vector = project_ranking(unscoped, user, project, embedding, candidates)
    else:
        exact = ranks_exactly(project=project, kinds=kinds, as_of=as_of)
        by_vector = vector_ranking(memories, embedding, candidates, exact=exact)
    text_query = any_word_query(query, memories.db) if use_text else None
    by_text = (
        list(
            memories.filter(search_vector=text_query)
            .annotate(rank=SearchRank(F("search_vector"), text_query))
            .order_by("-rank", "pk")
            .values_list("pk", flat=True)[:candidates]
        )
        if text_query is not None
        else []
    )

    scores: dict[str, float] = {}
    for ranking, weight in (([pk for pk, _ in by_vector], 1.0), (by_text, TEXT_WEIGHT)):
        for position, pk in enumerate(ranking, start=1):
            scores[pk] = scores.get(pk, 0.0) + weight / (RRF_K + position)
    distances = {pk: float(distance) for pk, distance in by_vector}
    missing = [pk for pk in scores if pk not in distances]
    if missing:
        distances |= {
            pk: float(distance)
            for pk, distance in Memory.objects.filter(pk__in=missing)
            .annotate(distance=CosineDistance("embedding", embedding))
            .values_list("pk", "distance")
        }
    chosen = sorted(scores, key=lambda pk: (-scores[pk], distances[pk], pk))[:limit]
    rows = Memory.objects.select_related("owner", "project").defer(*HEAVY_COLUMNS).in_bulk(chosen)
    return [RecallHit(memory=rows[pk], distance=distances[pk], score=scores[pk]) for pk in chosen]
