"""Reads of the review app, restricted like every read in zeromemory."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet

from memories.visibility import Action, visibility_condition, visible_memories
from review.models import Conflict, Judgment

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


def visible_stale_versions(user: User, conflicts: Iterable[Conflict]) -> set[str]:
    """Of the forks' stale versions among ``conflicts``, those ``user`` may see (one query)."""
    wanted = {conflict.stale_version_id for conflict in conflicts if conflict.stale_version_id is not None}
    if not wanted:
        return set()
    return set(visible_memories(user).filter(pk__in=wanted).values_list("pk", flat=True))
