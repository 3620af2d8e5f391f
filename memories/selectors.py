"""Reads. Every function starts from memories.visibility.visible_memories."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db.models import F, Q, QuerySet
from pgvector.django import CosineDistance

from memories.choices import LinkType, State
from memories.errors import memory_not_found, project_not_found
from memories.ids import is_memory_id
from memories.models import Link, Memory, Project
from memories.visibility import member_projects, visible_memories

_MEMORY_RELATED = ("owner", "project")
# Columns no answer shows: parsing 384 floats per row costs more than the query itself.
HEAVY_COLUMNS = ("embedding", "search_vector")


def project_for_member(*, user: User, slug: str) -> Project:
    """The project ``slug`` if ``user`` is a member; missing and foreign answer alike."""
    project = member_projects(user).filter(slug=slug).first()
    if project is None:
        raise project_not_found(slug)
    return project


def memory_get(*, user: User, memory_id: str) -> Memory:
    if not is_memory_id(memory_id):
        raise memory_not_found(memory_id)
    memory = visible_memories(user).select_related(*_MEMORY_RELATED).defer(*HEAVY_COLUMNS).filter(pk=memory_id).first()
    if memory is None:
        raise memory_not_found(memory_id)
    return memory


FEED_STATES = ("live", "superseded", "forgotten", "all")


def memory_feed(
    *,
    user: User,
    state: str = State.LIVE,
    kind: str | None = None,
    project: Project | None = None,
    query: str | None = None,
) -> QuerySet[Memory]:
    """Visible memories, newest first, for the feed (SPEC R-O7)."""
    memories = visible_memories(user).select_related(*_MEMORY_RELATED).defer(*HEAVY_COLUMNS)
    if state != "all":
        memories = memories.filter(state=state)
    if kind:
        memories = memories.filter(kind=kind)
    if project is not None:
        memories = memories.filter(project=project)
    if query:
        memories = memories.filter(content__icontains=query)
    return memories.order_by("-created_at", "-id")


SIMILAR_LIMIT = 10


@dataclass(frozen=True)
class SimilarMemory:
    memory: Memory
    distance: float


def similar_existing_ranking(
    *, user: User, embedding: list[float], project: Project | None, exclude_ids: list[str]
) -> QuerySet[Any, tuple[str, float]]:
    """The ranked candidates of similar_existing as (pk, distance) rows: exact, never approximate.

    Everything it reads is in memory_owner_scan_idx, so PostgreSQL answers with an index-only
    scan of the owner's live memories and a top-N sort. It orders by ``distance + 0`` on
    purpose: the HNSW index can serve ``ORDER BY embedding <=> q`` itself, and would then
    filter after its scan and silently drop true neighbours (bench/similar_existing.py
    measured recall@10 of 0.18 to 0.46 that way); an expression the index cannot serve keeps
    the plan exact without a SET round trip. (enable_indexscan=off, used before, also turned
    off index-only scans: 15 ms of heap reads at 100,000 memories against 6 ms now.)
    """
    scope = Q(project__isnull=True)
    if project is not None:
        scope |= Q(project=project)
    return (
        visible_memories(user)
        .filter(scope, owner_id=user.pk, state=State.LIVE)
        .exclude(pk__in=exclude_ids)
        .annotate(distance=CosineDistance("embedding", embedding))
        .order_by(F("distance") + 0.0, "pk")
        .values_list("pk", "distance")
    )


def similar_existing(
    *,
    user: User,
    embedding: list[float],
    project: Project | None,
    exclude_ids: list[str],
    limit: int = SIMILAR_LIMIT,
) -> list[SimilarMemory]:
    """The caller's own live memories nearest to ``embedding`` (SPEC R-N1, R-N2).

    Ranked by cosine distance with no floor or ceiling; candidates come from the personal
    scope and the project written into, never another project. Exact, never approximate.
    """
    ranking = similar_existing_ranking(user=user, embedding=embedding, project=project, exclude_ids=exclude_ids)
    ranked = list(ranking[:limit])
    rows = Memory.objects.select_related(*_MEMORY_RELATED).defer(*HEAVY_COLUMNS).in_bulk([pk for pk, _ in ranked])
    return [SimilarMemory(memory=rows[pk], distance=float(distance)) for pk, distance in ranked]


HISTORY_MAX_VERSIONS = 1000


@dataclass(frozen=True)
class History:
    head: str | None
    versions: list[Memory]
    edges: list[Link]


def memory_history(*, user: User, memory_id: str) -> History:
    """Every memory joined to ``memory_id`` by supersedes links, either way (SPEC R-O6).

    Reverted and graph-only links are part of the history too. Versions the caller cannot see
    are omitted, and so are the edges that touch them, so no hidden id leaks.
    """
    start = memory_get(user=user, memory_id=memory_id)
    component = {start.pk}
    frontier = {start.pk}
    edges: dict[str, Link] = {}
    while frontier and len(component) < HISTORY_MAX_VERSIONS:
        links = Link.objects.filter(type=LinkType.SUPERSEDES).filter(Q(src_id__in=frontier) | Q(dst_id__in=frontier))
        frontier = set()
        for link in links:
            edges[link.pk] = link
            for end in (link.src_id, link.dst_id):
                if end not in component:
                    component.add(end)
                    frontier.add(end)
    versions = list(
        visible_memories(user)
        .filter(pk__in=component)
        .select_related(*_MEMORY_RELATED)
        .defer(*HEAVY_COLUMNS)
        .order_by("created_at", "pk")
    )
    shown = {memory.pk for memory in versions}
    live = [memory for memory in versions if memory.state == State.LIVE]
    return History(
        head=live[-1].pk if live else None,
        versions=versions,
        edges=sorted(
            (link for link in edges.values() if link.src_id in shown and link.dst_id in shown),
            key=lambda link: (link.created_at, link.pk),
        ),
    )
