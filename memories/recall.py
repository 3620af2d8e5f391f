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

from django.contrib.auth.models import User
from django.contrib.postgres.search import SearchQuery, SearchRank
from django.db.models import F, OuterRef, Q, QuerySet, Subquery
from pgvector.django import CosineDistance

from memories.choices import EventAction, State
from memories.embeddings import EmbeddingError, embed_one
from memories.errors import ErrorCode, ServiceUnavailable
from memories.models import Memory, MemoryEvent
from memories.selectors import HEAVY_COLUMNS, project_for_member
from memories.visibility import visible_memories

RRF_K = 60
MIN_CANDIDATES = 30
_STATE_AFTER = {
    EventAction.CREATED: State.LIVE,
    EventAction.IMPORTED: State.LIVE,
    EventAction.RESTORED: State.LIVE,
    EventAction.SUPERSEDED: State.SUPERSEDED,
    EventAction.FORGOTTEN: State.FORGOTTEN,
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


def recall(
    *,
    user: User,
    query: str,
    project_slug: str | None = None,
    kinds: list[str] | None = None,
    limit: int = 10,
    include_superseded: bool = False,
    as_of: datetime | None = None,
) -> list[RecallHit]:
    project = project_for_member(user=user, slug=project_slug) if project_slug else None
    try:
        embedding = embed_one(query)
    except EmbeddingError as exc:
        raise ServiceUnavailable("The embedding model failed; retry.", code=ErrorCode.EMBEDDING_FAILED) from exc

    memories = visible_memories(user)
    if project is not None:
        memories = memories.filter(Q(project=project) | Q(project__isnull=True, owner_id=user.pk))
    if kinds:
        memories = memories.filter(kind__in=kinds)
    if as_of is not None:
        memories = _as_of(memories, as_of, include_superseded)
    else:
        memories = memories.filter(state__in=_states(include_superseded))

    candidates = max(limit * 3, MIN_CANDIDATES)
    by_vector = list(
        memories.annotate(distance=CosineDistance("embedding", embedding))
        .order_by("distance", "pk")
        .values_list("pk", "distance")[:candidates]
    )
    text_query = SearchQuery(query, search_type="websearch", config="english")
    by_text = list(
        memories.filter(search_vector=text_query)
        .annotate(rank=SearchRank(F("search_vector"), text_query))
        .order_by("-rank", "pk")
        .values_list("pk", flat=True)[:candidates]
    )

    scores: dict[str, float] = {}
    for ranking in ([pk for pk, _ in by_vector], by_text):
        for position, pk in enumerate(ranking, start=1):
            scores[pk] = scores.get(pk, 0.0) + 1.0 / (RRF_K + position)
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
