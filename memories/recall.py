"""recall: hybrid semantic + full-text search over what the caller may see (SPEC R-O1).

Memories are scored as similar_existing scores them (memories.search): vector similarity
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

import functools
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import DEFAULT_DB_ALIAS
from django.db.models import OuterRef, Q, QuerySet, Subquery

from memories.choices import EventAction, State
from memories.compiled import USER_ID, CompiledQuery, Slot, id_slots, id_values, ids_of
from memories.embedding import EmbeddingError, embed_one, embed_sentences
from memories.errors import EmbeddingFailed
from memories.models import Memory, MemoryEvent
from memories.search import Scope, question_ranking
from memories.selectors import HEAVY_COLUMNS, metadata_contains, project_for_member, valid_condition
from memories.visibility import compiled_rule_applies, visible_memories

MIN_CANDIDATES = 30
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


def _state_then(when: datetime, include_superseded: bool) -> tuple[Subquery, list[EventAction]]:
    """Each memory's last state-changing action up to ``when`` (replayed from the event log), and
    the actions after which it stood in the wanted states."""
    last_action = Subquery(
        MemoryEvent.objects.filter(memory=OuterRef("pk"), created_at__lte=when, action__in=list(_STATE_AFTER))
        .order_by("-created_at", "-id")
        .values("action")[:1]
    )
    wanted = [action for action, state in _STATE_AFTER.items() if state in _states(include_superseded)]
    return last_action, wanted


@functools.cache
def _hit_rows_read(count: int) -> CompiledQuery[Memory]:
    """hit_rows' read of ``count`` ids (Memory.objects…in_bulk), compiled once per count
    (memories.compiled): recall makes it on every request."""

    def build(**ids: str) -> QuerySet[Memory]:
        query = Memory.objects.select_related("owner", "project").defer(*HEAVY_COLUMNS)
        return query.filter(pk__in=ids_of(ids, count))

    return CompiledQuery(Memory, build, id_slots(count))


def hit_rows(ids: list[str]) -> dict[str, Memory]:
    """The ranked memories' rows, by id. Read where the ranking was (a replica inside
    replica_reads()); any it lacks come from the primary, so a row the ranking found and the
    replica no longer shows is never a 500. One gone from both (deleted since) is left out."""
    query = Memory.objects.select_related("owner", "project").defer(*HEAVY_COLUMNS)
    rows = {memory.pk: memory for memory in _hit_rows_read(len(ids)).run(len(ids), **id_values(ids))} if ids else {}
    missing = [pk for pk in ids if pk not in rows]
    if missing and query.db != DEFAULT_DB_ALIAS:
        rows |= query.using(DEFAULT_DB_ALIAS).in_bulk(missing)
    return rows


@dataclass(frozen=True)
class _Filters:
    kinds: tuple[str, ...]
    metadata: dict[str, Any] | None
    valid_at: datetime | None
    include_expired: bool
    as_of: datetime | None
    include_superseded: bool


def _unscoped(user: User, filters: _Filters) -> QuerySet[Memory]:
    """What ``user`` may see that passes ``filters``: recall's scope before the project."""
    unscoped = visible_memories(user)
    if filters.kinds:
        unscoped = unscoped.filter(kind__in=list(filters.kinds))
    if filters.metadata:
        unscoped = unscoped.filter(metadata_contains(filters.metadata))
    if filters.valid_at is not None or not filters.include_expired:
        unscoped = unscoped.filter(valid_condition(filters.valid_at))
    if filters.as_of is not None:
        last_action, wanted = _state_then(filters.as_of, filters.include_superseded)
        unscoped = (
            unscoped.filter(created_at__lte=filters.as_of)
            .annotate(action_then=last_action)
            .filter(action_then__in=wanted)
        )
    else:
        unscoped = unscoped.filter(state__in=_states(filters.include_superseded))
    return unscoped


def _in_project(unscoped: QuerySet[Memory], user_id: int, project_id: int | None) -> QuerySet[Memory]:
    """The scope within a project: its memories and the caller's personal ones."""
    if project_id is None:
        return unscoped
    return unscoped.filter(Q(project_id=project_id) | Q(project__isnull=True, owner_id=user_id))


# The stand-ins of a compiled scope's values (memories.compiled).
_VALID_AT = Slot("valid_at", datetime(1900, 1, 2, 3, 4, 5, 678_901, tzinfo=UTC))
_PROJECT_ID = Slot("project_id", -7_310_002)


def _kind_slot(n: int) -> Slot:
    return Slot(f"kind:{n}", f"zm:slot:kind:{n}")


def _scope(user: User, filters: _Filters, project_id: int | None) -> Scope:
    """Recall's scope (``_unscoped`` within the project), compiled once per shape for the
    common caller (memories.visibility.compiled_rule_applies) and the filters slots stand for;
    a metadata filter or a point in time is built as it comes."""
    if not compiled_rule_applies(user) or filters.metadata or filters.as_of is not None:
        return Scope.of(_in_project(_unscoped(user, filters), user.pk, project_id))
    kinds = len(filters.kinds)
    slots = [USER_ID, *(_kind_slot(n) for n in range(kinds))]
    values: dict[str, Any] = {USER_ID.name: user.pk, **{_kind_slot(n).name: k for n, k in enumerate(filters.kinds)}}
    if filters.valid_at is not None:
        slots.append(_VALID_AT)
        values[_VALID_AT.name] = filters.valid_at
    if project_id is not None:
        slots.append(_PROJECT_ID)
        values[_PROJECT_ID.name] = project_id
    shape = (kinds, filters.valid_at is None, filters.include_expired, filters.include_superseded, project_id is None)

    def build(values: Mapping[str, Any]) -> QuerySet[Memory]:
        # The same rule and filters, for the caller's values or the stand-ins (memories.compiled).
        caller = User(pk=values[USER_ID.name], is_active=True)
        built = replace(
            filters,
            kinds=tuple(values[_kind_slot(n).name] for n in range(kinds)),
            valid_at=values.get(_VALID_AT.name),
        )
        return _in_project(_unscoped(caller, built), values[USER_ID.name], values.get(_PROJECT_ID.name))

    return Scope(build, shape, slots, values)


def ranks_exactly(
    *, project: object, kinds: list[str] | None, as_of: datetime | None, metadata: dict[str, Any] | None = None
) -> bool:
    """Whether recall's vector side skips the HNSW index for these filters.

    A project, kinds or a point in time narrow the set to thousands of rows, where the exact
    scan is fast and the HNSW walk found only 0.91 of the true top 10 (bench/suite.py, a
    project and a kind at 100,000 memories); over everything visible the walk found 1.00.
    A metadata filter may keep as few as one row (a LangGraph key): an HNSW walk filtered
    after the fact would come back short, so it is exact as well.
    """
    return project is not None or bool(kinds) or as_of is not None or bool(metadata)


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
    metadata: dict[str, Any] | None = None,
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

    # The scope: the rule's queryset (memories.visibility) narrowed by the filters. The search
    # (memories.search) then finds and scores within it, in one call.
    filters = _Filters(
        kinds=tuple(dict.fromkeys(kinds or ())),  # each kind once, as kind__in would have them
        metadata=metadata,
        valid_at=valid_at,
        include_expired=include_expired,
        as_of=as_of,
        include_superseded=include_superseded,
    )
    memories = _scope(user, filters, project.pk if project is not None else None)
    unscoped = None
    if project is not None and as_of is None:
        unscoped = _unscoped(user, filters)

    candidates = max(candidates or limit * 3, limit, MIN_CANDIDATES)
    exact = ranks_exactly(project=project, kinds=kinds, as_of=as_of, metadata=metadata)
    # The same resemblance as similar_existing's (memories.search): vector similarity plus the
    # weighted lexical match of the question's rarest words plus the sentence side.
    scored = question_ranking(
        memories,
        user=user,
        text=query,
        embedding=embedding,
        query_vectors=query_vectors,
        candidates=candidates,
        exact=exact or None,
        use_text=use_text,
        by_project=(unscoped, project) if unscoped is not None and project is not None else None,
    )
    ranked = [entry.pk for entry in scored]
    found = {entry.pk: entry for entry in scored}
    if not include_superseded and as_of is None:
        rows = hit_rows(ranked[:limit])
        chosen = [pk for pk in ranked[:limit] if pk in rows]
    else:
        # A purged memory may still stand as a superseded version (or as live at as_of) but has
        # no words left to answer with. Left out after ranking, where it costs nothing: a filter
        # on purged_at would take the covering scans off their indexes.
        rows = hit_rows(ranked[: limit * 2])
        chosen = [pk for pk in ranked[: limit * 2] if pk in rows and rows[pk].purged_at is None][:limit]
    return [RecallHit(memory=rows[pk], distance=found[pk].distance, score=found[pk].score) for pk in chosen]
