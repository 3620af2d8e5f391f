"""Reads of the review app, restricted like every read in zeromemory."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet

from memories.choices import Role
from memories.models import Membership
from memories.visibility import visible_memories
from review.models import Conflict, Judgment


def retirable_condition(user: User, prefix: str) -> Q:
    """Memories (under ``prefix``) that ``user`` may retire: theirs, or their maintained projects'."""
    maintained = Membership.objects.filter(user_id=user.pk, role=Role.MAINTAINER).values("project_id")
    return Q(**{f"{prefix}owner_id": user.pk}) | Q(**{f"{prefix}project_id__in": maintained})


def moderatable_condition(user: User, prefix: str) -> Q:
    """Memories (under ``prefix``) that ``user`` may see and retire.

    Retiring starts from seeing (SPEC R-O2: an invisible memory is a 404 before any 403): a
    maintainer may retire the project's memories, but a member's private one stays hidden from
    him, and so does any pair it is part of.
    """
    return retirable_condition(user, prefix) & Q(**{f"{prefix}in": visible_memories(user).values("pk")})


def conflicts_for(user: User) -> QuerySet[Conflict]:
    """The conflicts both of whose memories ``user`` may see and retire (SPEC R-A6)."""
    if user.is_superuser:
        return Conflict.objects.all()
    return Conflict.objects.filter(moderatable_condition(user, "older__"), moderatable_condition(user, "newer__"))


def judgments_for(user: User) -> QuerySet[Judgment]:
    """The judgments of pairs ``user`` could moderate, as conflicts_for chooses conflicts."""
    if user.is_superuser:
        return Judgment.objects.all()
    return Judgment.objects.filter(moderatable_condition(user, "older__"), moderatable_condition(user, "newer__"))
