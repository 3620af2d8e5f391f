"""Reads of the review app, restricted like every read in zeromemory."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db.models import Q, QuerySet

from memories.choices import Role
from memories.models import Membership
from review.models import Conflict


def retirable_condition(user: User, prefix: str) -> Q:
    """Memories (under ``prefix``) that ``user`` may retire: theirs, or their maintained projects'."""
    maintained = Membership.objects.filter(user_id=user.pk, role=Role.MAINTAINER).values("project_id")
    return Q(**{f"{prefix}owner_id": user.pk}) | Q(**{f"{prefix}project_id__in": maintained})


def conflicts_for(user: User) -> QuerySet[Conflict]:
    """The conflicts both of whose memories ``user`` may retire (SPEC R-A6)."""
    if user.is_superuser:
        return Conflict.objects.all()
    return Conflict.objects.filter(retirable_condition(user, "older__"), retirable_condition(user, "newer__"))
