"""Reads of the review app, restricted like every read in zeromemory."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from typing import Any

from django.contrib.auth.models import User
from django.db.models import FloatField, Q, QuerySet
from django.db.models.functions import Cast, Extract

from memories.choices import State
from memories.models import Memory
from memories.visibility import Action, visibility_condition, visible_memories
from review.models import Conflict, ConflictStatus, Judgment

# The memories behind a conflict, read with it: the queue shows both side by side. Their vectors
# are never shown, and parsing them cost more than the rest of the row.
_PAIR_RELATED = ("older__owner", "older__project", "newer__owner", "newer__project")
_PAIR_HEAVY = ("older__embedding", "older__search_vector", "newer__embedding", "newer__search_vector")


def pair_condition(user: User) -> Q:
    """Rows about a pair (older, newer) that ``user`` may moderate: both memories, by the one
    visibility rule — a pair with a memory hidden from the viewer stays hidden whole."""
    return visibility_condition(user, Action.MODERATE, through="older__") & visibility_condition(
        user, Action.MODERATE, through="newer__"
    )


def conflicts_for(user: User) -> QuerySet[Conflict]:
    """The conflicts both of whose memories ``user`` may see and retire (SPEC R-A6)."""
    return Conflict.objects.filter(pair_condition(user))


def judgments_for(user: User) -> QuerySet[Judgment]:
    """The judgments of pairs ``user`` could moderate, as conflicts_for chooses conflicts."""
    return Judgment.objects.filter(pair_condition(user))


def conflict_list(*, user: User, status: str) -> QuerySet[Conflict]:
    """The queue as the API pages it (SPEC R-A6): ``status`` only, with both memories."""
    return conflicts_for(user).filter(status=status).select_related(*_PAIR_RELATED).defer(*_PAIR_HEAVY)


def conflicts_by_id(*, user: User, ids: Iterable[int]) -> dict[int, Conflict]:
    """These conflicts, if ``user`` may moderate them, with both memories (as conflict_list)."""
    rows = conflicts_for(user).filter(pk__in=list(ids)).select_related(*_PAIR_RELATED).defer(*_PAIR_HEAVY)
    return {conflict.pk: conflict for conflict in rows}


def group_memories(*, user: User, ids: Iterable[str]) -> dict[str, Memory]:
    """The memories of conflict groups, shown whole (one query for a page of groups); a group
    holds only memories ``user`` may moderate, so none is left out by the rule."""
    rows = (
        visible_memories(user, Action.MODERATE)
        .filter(pk__in=list(ids))
        .select_related("owner", "project")
        .defer("embedding", "search_vector")
    )
    return {memory.pk: memory for memory in rows}


def visible_stale_versions(user: User, conflicts: Iterable[Conflict]) -> set[str]:
    """Of the forks' stale versions among ``conflicts``, those ``user`` may see (one query)."""
    wanted = {conflict.stale_version_id for conflict in conflicts if conflict.stale_version_id is not None}
    if not wanted:
        return set()
    return set(visible_memories(user).filter(pk__in=wanted).values_list("pk", flat=True))


@dataclass(frozen=True)
class ConflictGroup:
    """Pending conflicts that are one decision for a person: connected through a memory they
    name, or disputing the same slot (Conflict.slot) within one owner and scope."""

    # The conflict that stands for the group where one conflict is shown (the API's top-level
    # fields, the queue's row): its earliest opened, so its place in a list stays put as
    # conflicts join the group.
    lead: int
    opened_at: datetime  # the lead's: groups are listed newest first by it
    conflicts: tuple[int, ...]  # every member, ascending
    owner_id: int
    project_id: int | None
    named: frozenset[str]  # every memory its conflicts name
    # Shared by all the groups of one read: when each memory was written, and which are live.
    created: Mapping[str, float] = field(repr=False, compare=False)  # seconds since the epoch
    live: AbstractSet[str] = field(repr=False, compare=False)

    @property
    def position(self) -> tuple[datetime, int]:
        """Where the group stands in the queue (newest first), for a stable cursor."""
        return (self.opened_at, self.lead)

    @cached_property
    def memories(self) -> tuple[str, ...]:
        """Every memory the group's conflicts name, live or not, newest first (ordered when
        asked: a listing shows a page of groups, and ordering them all cost more than grouping)."""
        return tuple(sorted(self.named, key=lambda memory: (self.created[memory], memory), reverse=True))

    @property
    def values(self) -> tuple[str, ...]:
        """The group's live memories, newest first: the values in dispute."""
        return tuple(memory for memory in self.memories if memory in self.live)


_LIVE = State.LIVE.value  # a plain string: compared once per memory of the whole queue

GROUP_COLUMNS = (
    "pk",
    "older_id",
    "newer_id",
    "slot",
    "opened_epoch",
    "older__owner_id",
    "older__project_id",
    "older__state",
    "older_epoch",
    "newer__state",
    "newer_epoch",
)


def _epoch(field_name: str) -> Cast:
    """A timestamp as seconds since the epoch (a float): psycopg parses a timestamptz in Python,
    and the three of each row cost four times the rest of the query (bench/conflict_groups.py)."""
    return Cast(Extract(field_name, "epoch"), FloatField())


def conflict_groups(*, user: User, within: int | None = None) -> list[ConflictGroup]:
    """The pending conflicts ``user`` may moderate, as groups, newest (lead) first.

    One query, of narrow columns: the queue may hold thousands of pending conflicts, and grouping
    needs them all, since a conflict opened today may join one opened last month. ``within``
    narrows it to the scope (owner, project) of that conflict, where its whole group lies: both
    ways of joining stay inside one owner and scope (a conflict's memories share them)."""
    pending = conflicts_for(user).filter(status=ConflictStatus.PENDING)
    if within is not None:
        scope = conflicts_for(user).filter(pk=within).values_list("older__owner_id", "older__project_id").first()
        if scope is None:
            return []
        # filter(project=None) is IS NULL: a personal scope's conflicts too.
        pending = pending.filter(older__owner_id=scope[0], older__project_id=scope[1])
    epochs = {
        "opened_epoch": _epoch("opened_at"),
        "older_epoch": _epoch("older__created_at"),
        "newer_epoch": _epoch("newer__created_at"),
    }
    rows = list(pending.annotate(**epochs).values_list(*GROUP_COLUMNS))
    return group_rows(rows)


def conflict_group_of(*, user: User, conflict_id: int) -> ConflictGroup | None:
    """The group of the pending conflict ``conflict_id`` as ``user`` sees the queue; None when
    it is not a pending conflict ``user`` may moderate."""
    for group in conflict_groups(user=user, within=conflict_id):
        if conflict_id in group.conflicts:
            return group
    return None


def group_rows(rows: list[tuple[Any, ...]]) -> list[ConflictGroup]:
    """Pending conflicts as groups, newest (lead) first, from rows of GROUP_COLUMNS: (id,
    older_id, newer_id, slot, opened_at, owner_id, project_id, older's state, older's
    created_at, newer's state, newer's created_at), each time in seconds since the epoch.
    Pure, so that a store read without the ORM (./zm eval's whole-store runs) groups its queue
    the way the queue does. A union-find over the rows: each memory, and each (owner, project,
    slot), joins the rows that name it."""
    parent = list(range(len(rows)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first_naming: dict[object, int] = {}
    created: dict[str, float] = {}
    live: set[str] = set()
    for index, (_pk, older, newer, slot, _opened, owner, project, o_state, o_created, n_state, n_created) in enumerate(
        rows
    ):
        for key in (older, newer, (owner, project, slot)) if slot else (older, newer):
            first = first_naming.setdefault(key, index)
            if first != index:
                a, b = find(first), find(index)
                if a != b:
                    parent[max(a, b)] = min(a, b)
        created[older] = o_created
        created[newer] = n_created
        if o_state == _LIVE:
            live.add(older)
        if n_state == _LIVE:
            live.add(newer)
    members: dict[int, list[tuple[Any, ...]]] = {}
    for index, row in enumerate(rows):
        members.setdefault(find(index), []).append(row)
    groups = []
    for named_rows in members.values():
        lead = min(named_rows, key=lambda row: (row[4], row[0]))
        groups.append(
            ConflictGroup(
                lead=lead[0],
                opened_at=datetime.fromtimestamp(lead[4], tz=UTC),
                conflicts=tuple(sorted(row[0] for row in named_rows)),
                owner_id=lead[5],
                project_id=lead[6],
                named=frozenset(memory for row in named_rows for memory in (row[1], row[2])),
                created=created,
                live=live,
            )
        )
    groups.sort(key=lambda group: group.position, reverse=True)
    return groups
