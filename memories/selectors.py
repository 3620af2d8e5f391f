"""Reads. Every function starts from memories.visibility.visible_memories."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet
from django.db.models.expressions import RawSQL
from django.db.models.functions import Now

from memories.choices import LinkType, State
from memories.compiled import MEMORY_ID, USER_ID, CompiledQuery
from memories.errors import FeedEpochChanged, memory_not_found, project_not_found
from memories.ids import is_memory_id
from memories.models import FeedEpoch, FeedEvent, Link, Memory, MemoryEvent, MemorySentence, Project, token_scope
from memories.search import CompiledParts, Ranked, compile_parts, fused_ranking, lexical_query
from memories.visibility import Action, compiled_rule_applies, member_projects, visibility_condition, visible_memories

_MEMORY_RELATED = ("owner", "project")
# Columns no answer shows: parsing 384 floats per row costs more than the query itself.
HEAVY_COLUMNS = ("embedding", "search_vector")


def valid_condition(at: datetime | None = None) -> Q:
    """Memories whose valid time holds ``at`` (from valid_from, up to valid_until); without
    ``at``, those whose validity has not ended (the database's clock, at each run)."""
    if at is None:
        return Q(valid_until__isnull=True) | Q(valid_until__gt=Now())
    return (Q(valid_from__isnull=True) | Q(valid_from__lte=at)) & (Q(valid_until__isnull=True) | Q(valid_until__gt=at))


def project_for_member(*, user: User, slug: str) -> Project:
    """The project ``slug`` if ``user`` is a member; missing and foreign answer alike."""
    project = member_projects(user).filter(slug=slug).first()
    if project is None:
        raise project_not_found(slug)
    return project


def _memory_by_id(user: User, memory_id: str) -> QuerySet[Memory]:
    """A memory by id through the visibility rule: what detail, forget, restore and history read."""
    return (
        visible_memories(user)
        .select_related(*_MEMORY_RELATED)
        .defer(*HEAVY_COLUMNS)
        .filter(pk=memory_id)
        .order_by("pk")[:1]
    )


# The same read, compiled once per process for the common caller (a user's full token): every
# request of detail, forget and restore makes it (memories.compiled).
_MEMORY_BY_ID = CompiledQuery(
    Memory,
    lambda user_id, memory_id: _memory_by_id(User(pk=user_id, is_active=True), memory_id),
    [USER_ID, MEMORY_ID],
)


def memory_get(*, user: User, memory_id: str) -> Memory:
    if not is_memory_id(memory_id):
        raise memory_not_found(memory_id)
    if compiled_rule_applies(user):
        found = _MEMORY_BY_ID.run("view", user_id=user.pk, memory_id=memory_id)
    else:  # a superuser's or a scoped token's rule has another shape: built as it comes
        found = list(_memory_by_id(user, memory_id))
    if not found:
        raise memory_not_found(memory_id)
    return found[0]


FEED_STATES = ("live", "superseded", "forgotten", "pending", "all")


def metadata_contains(metadata: dict[str, Any]) -> Q:
    """The metadata filter: JSON containment (@>). The second clause changes no answer (a
    memory without metadata contains no non-empty object) but lets PostgreSQL use the partial
    index, which leaves such memories out (models.memory)."""
    return Q(metadata__contains=metadata) & ~Q(metadata={})


def memory_feed(
    *,
    user: User,
    state: str = State.LIVE,
    kind: str | None = None,
    project: Project | None = None,
    query: str | None = None,
    metadata: dict[str, Any] | None = None,
) -> QuerySet[Memory]:
    """Visible memories, newest first, for the feed (SPEC R-O7); ``metadata``: those whose
    metadata contains it (JSON containment)."""
    memories = visible_memories(user).select_related(*_MEMORY_RELATED).defer(*HEAVY_COLUMNS)
    if state != "all":
        memories = memories.filter(state=state)
    if kind:
        memories = memories.filter(kind=kind)
    if project is not None:
        memories = memories.filter(project=project)
    if query:
        memories = memories.filter(content__icontains=query)
    if metadata:
        memories = memories.filter(metadata_contains(metadata))
    return memories.order_by("-created_at", "-id")


@dataclass(frozen=True)
class FeedPage:
    memories: list[Memory]
    # Where the next page starts (the last row's created_at and id), or None after the last page.
    next_after: tuple[datetime, str] | None


def memory_feed_page(
    *,
    user: User,
    state: str = State.LIVE,
    kind: str | None = None,
    project: Project | None = None,
    query: str | None = None,
    metadata: dict[str, Any] | None = None,
    after: tuple[datetime, str] | None = None,
    size: int,
) -> FeedPage:
    """One page of the feed by keyset: the rows strictly older than ``after`` in feed order.

    A page is read from where the last one ended, not counted from the top, so memories written
    meanwhile neither shift nor repeat rows.
    """
    memories = memory_feed(user=user, state=state, kind=kind, project=project, query=query, metadata=metadata)
    if after is not None:
        created_at, memory_id = after
        memories = memories.filter(Q(created_at__lt=created_at) | Q(created_at=created_at, id__lt=memory_id))
    rows = list(memories[: size + 1])
    page, more = rows[:size], len(rows) > size
    return FeedPage(memories=page, next_after=(page[-1].created_at, page[-1].id) if more else None)


SIMILAR_LIMIT = 10


@dataclass(frozen=True)
class SimilarMemory:
    memory: Memory
    distance: float
    score: float


def similar_existing_ranking(
    *,
    user: User,
    embedding: list[float],
    text: str,
    project: Project | None,
    exclude_ids: list[str],
    limit: int,
    lexemes: Mapping[str, int] | None = None,
    sentence_vectors: Sequence[list[float]] = (),
    with_memories: bool = False,
) -> list[Ranked]:
    """The caller's own live memories most like ``text``, personal scope plus ``project``.
    ``lexemes``: the text's, when known (memories.search.lexical_query); ``sentence_vectors``:
    its sentences' vectors, none for a text of one sentence (memories.text.sentences)."""
    parts = _similar_parts(user, project, len(exclude_ids), limit)
    query = lexical_query(text, parts.alias, counts=lexemes)
    bind = {_excluded_slot(n): memory_id for n, memory_id in enumerate(exclude_ids)}
    return fused_ranking(
        parts,
        embedding,
        query,
        limit,
        query_vectors=list(sentence_vectors) or [embedding],
        with_memories=with_memories,
        bind=bind,
    )


def _excluded_slot(n: int) -> str:
    return f"zm:slot:excluded:{n}"


_PARTS_CACHE_SIZE = 1024
_parts_cache: OrderedDict[tuple[Any, ...], CompiledParts] = OrderedDict()
_parts_cache_lock = threading.Lock()


def _similar_parts(user: User, project: Project | None, excluded: int, limit: int) -> CompiledParts:
    """similar_existing's scope, compiled once per caller and project (memories.search.CompiledParts):
    the caller's own live memories, from visible_memories like every read, personal scope plus
    ``project``, less ``excluded`` ids bound per call. The SQL depends on nothing else: the
    rule's memberships and grants are subqueries PostgreSQL evaluates at each run, so a change
    of membership applies at once; a change of superuser status changes the key."""
    # The database visible_memories reads from (the router's choice), without building the
    # rule's queryset on a hit: that alone cost about half of what the cache saves.
    alias = Memory.objects.db
    # A scoped token's rule differs from its user's (memories.visibility): the scope is in the key.
    scope = token_scope(user)
    key = (alias, user.pk, user.is_superuser, scope, project.pk if project is not None else None, excluded, limit)
    with _parts_cache_lock:
        compiled = _parts_cache.get(key)
        if compiled is not None:
            _parts_cache.move_to_end(key)
            return compiled
    slots = [_excluded_slot(n) for n in range(excluded)]
    own = (
        visible_memories(user)
        .using(alias)
        .filter(valid_condition(), owner_id=user.pk, state=State.LIVE)
        .exclude(pk__in=slots)
    )
    parts = [own.filter(project__isnull=True)]
    if project is not None:
        parts.append(own.filter(project=project))
    compiled = compile_parts(parts, limit)
    with _parts_cache_lock:
        _parts_cache[key] = compiled
        while len(_parts_cache) > _PARTS_CACHE_SIZE:
            _parts_cache.popitem(last=False)
    return compiled


def similar_existing(
    *,
    user: User,
    embedding: list[float],
    text: str,
    project: Project | None,
    exclude_ids: list[str],
    limit: int = SIMILAR_LIMIT,
    lexemes: Mapping[str, int] | None = None,
    sentence_vectors: Sequence[list[float]] = (),
) -> list[SimilarMemory]:
    """The caller's own live memories most like what was just written (SPEC R-N1, R-N2).

    Ranked by memories.search's score (vector similarity fused with full-text matching), with
    no floor or ceiling; candidates come from the personal scope and the project written
    into, never another project. Exact under that ranking, never approximate. Each entry's
    memory carries what an entry shows (memories.search.MEMORY_COLUMNS and the project's
    slug), read by the ranking's own statement. ``lexemes``: the text's, when known.
    """
    ranked = similar_existing_ranking(
        user=user,
        embedding=embedding,
        text=text,
        project=project,
        exclude_ids=exclude_ids,
        limit=limit,
        lexemes=lexemes,
        sentence_vectors=sentence_vectors,
        with_memories=True,
    )
    return [SimilarMemory(memory=r.memory, distance=r.distance, score=r.score) for r in ranked if r.memory is not None]


def sentence_vectors(*, memory_ids: Sequence[str]) -> dict[str, list[list[float]]]:
    """The stored sentence vectors of these memories, in sentence order, by id (none for a
    memory of one sentence). Derived data of memories the caller already holds: no visibility
    rule applies here, only to how the ids were found."""
    found: dict[str, list[list[float]]] = {}
    rows = MemorySentence.objects.filter(memory_id__in=list(memory_ids)).order_by("memory_id", "position")
    for memory_id, embedding in rows.values_list("memory_id", "embedding"):
        found.setdefault(memory_id, []).append([float(x) for x in embedding])
    return found


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


@dataclass(frozen=True)
class MemoryLinks:
    outgoing: list[Link]
    incoming: list[Link]


def memory_links(*, user: User, memory: Memory) -> MemoryLinks:
    """Every link of a memory ``user`` can see whose other end ``user`` can see too.

    A link to or from a hidden memory is left out whole, type included, as the history's edges
    are: its id would tell that the memory exists. ``memory`` comes from a visible read.
    """
    visible = visible_memories(user).values("pk")
    order = ("created_at", "pk")
    return MemoryLinks(
        outgoing=list(Link.objects.filter(src=memory, dst__in=visible).order_by(*order)),
        incoming=list(Link.objects.filter(dst=memory, src__in=visible).order_by(*order)),
    )


def _named_memory_ids(value: Any) -> Iterator[str]:
    """The memory ids anywhere in an event's data (successor, dst, previous_successor…)."""
    if is_memory_id(value):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _named_memory_ids(item)
    elif isinstance(value, list):
        for item in value:
            yield from _named_memory_ids(item)


def memory_events(*, user: User, memory: Memory) -> list[MemoryEvent]:
    """A visible memory's lifecycle events, oldest first, less those that name a memory ``user``
    cannot see (a link made to it, a supersede by it), like the links and the history."""
    events = list(MemoryEvent.objects.filter(memory=memory).select_related("actor").order_by("created_at", "id"))
    named = {memory_id for event in events for memory_id in _named_memory_ids(event.data)}
    shown = set(visible_memories(user).filter(pk__in=named).values_list("pk", flat=True)) if named else set()
    return [event for event in events if set(_named_memory_ids(event.data)) <= shown]


# Transactions older than every one still running have all committed or rolled back: no event
# can appear below this txid any more (FeedEvent's docstring).
_SETTLED_BELOW = RawSQL("txid_snapshot_xmin(txid_current_snapshot())", ())


def feed_event_condition(user: User) -> Q:
    """The events ``user`` may read: a memory's own when they may see the memory; one another
    app appended about a subject and a pair of memories (review's conflicts, as its queue shows
    them, SPEC R-A6) when they may moderate both memories."""
    return (Q(subject_id__isnull=True) & visibility_condition(user, through="memory__")) | (
        Q(subject_id__isnull=False)
        & visibility_condition(user, Action.MODERATE, through="memory__")
        & visibility_condition(user, Action.MODERATE, through="other_memory__")
    )


@dataclass(frozen=True)
class EventPage:
    events: list[FeedEvent]
    # Where the next page starts, (epoch, txid, id) of the last event, or None when the page is
    # empty.
    last: tuple[int, int, int] | None
    more: bool
    # The feed's current epoch (FeedEpoch): where a reader with no events yet stands.
    epoch: int


def feed_epoch_current() -> int:
    """The feed's epoch now (memories.models.FeedEpoch)."""
    row = FeedEpoch.objects.values_list("epoch", flat=True).first()
    return int(row) if row is not None else 0


def feed_events_page(
    *,
    user: User,
    project: Project | None = None,
    types: Sequence[str] = (),
    since: datetime | None = None,
    after: tuple[int, int, int] | None = None,
    size: int,
) -> EventPage:
    """One page of the events ``user`` may read, oldest first, strictly after ``after``.

    Only events of settled transactions are read, so a page never passes an event that commits
    later: a reader who keeps the last position and asks again misses nothing and sees nothing
    twice. The price is a lag while a long write (an import, a sweep) is still running.

    Positions are (epoch, txid, id). Only the current epoch is still being written: the rows of
    earlier ones (restored from a backup) are all settled, and their transaction ids, counted
    in another cluster's history, mean nothing to this one's snapshot. ``after`` from an earlier
    epoch raises FeedEpochChanged: its txid cannot be compared with this history's.
    """
    epoch = feed_epoch_current()
    if after is not None and after[0] < epoch:
        raise FeedEpochChanged(cursor_epoch=after[0], epoch=epoch)
    if after is not None and after[0] > epoch:
        # A later epoch than this database knows: a replica that has not yet replayed the
        # restore's new epoch. Nothing new here yet; the reader keeps the cursor.
        return EventPage(events=[], last=None, more=False, epoch=epoch)
    settled = Q(epoch__lt=epoch) | Q(epoch=epoch, txid__lt=_SETTLED_BELOW)
    events = FeedEvent.objects.filter(feed_event_condition(user), settled)
    if project is not None:
        events = events.filter(project=project)
    if types:
        events = events.filter(type__in=list(types))
    if since is not None:
        events = events.filter(created_at__gte=since)
    if after is not None:
        _, txid, event_id = after
        events = events.filter(Q(txid__gt=txid) | Q(txid=txid, id__gt=event_id), epoch=epoch)
    rows = list(events.select_related("project").order_by("epoch", "txid", "id")[: size + 1])
    page = rows[:size]
    last = (page[-1].epoch, page[-1].txid, page[-1].pk) if page else None
    return EventPage(events=page, last=last, more=len(rows) > size, epoch=epoch)
