"""Reads of the review app, restricted like every read in zeromemory."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet

from memories.visibility import Action, visibility_condition
from review.models import Conflict, Judgment


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
