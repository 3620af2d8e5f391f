"""The row-level security of zeromemory (SPEC §2), in exactly one place.

Every read path — API, recall, similar_existing, supersede targets, links, history, admin —
starts from :func:`visible_memories`. A memory is visible to a user when

* the user owns it; or
* it is project-visible and the user is a member of its project; or
* it was shared with the user, or with one of the user's groups, by a guardian grant of
  ``memories.view_memory`` on that very memory (no global permission ever stands in).

Anything else is invisible and answers 404, exactly like a memory that does not exist.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q, QuerySet

from memories.choices import Role, Visibility
from memories.models import (
    Membership,
    Memory,
    MemoryGroupObjectPermission,
    MemoryUserObjectPermission,
    Project,
)

VIEW_PERMISSION = "view_memory"


def visibility_condition(user: User | AnonymousUser) -> Q:
    """The rule as a filter on Memory, for use inside larger queries."""
    if not user.is_authenticated:
        return Q(pk__in=[])
    if user.is_superuser:
        # The one bypass: superusers administer the whole deployment (console and API alike).
        return Q()
    member_projects = Membership.objects.filter(user_id=user.pk).values("project_id")
    user_grants = MemoryUserObjectPermission.objects.filter(
        user_id=user.pk, permission__codename=VIEW_PERMISSION
    ).values("content_object_id")
    group_grants = MemoryGroupObjectPermission.objects.filter(
        group__user=user.pk, permission__codename=VIEW_PERMISSION
    ).values("content_object_id")
    return (
        Q(owner_id=user.pk)
        | Q(visibility=Visibility.PROJECT, project_id__in=member_projects)
        | Q(pk__in=user_grants)
        | Q(pk__in=group_grants)
    )


def visible_memories(user: User | AnonymousUser) -> QuerySet[Memory]:
    """All memories ``user`` may read. Start every read of memories from here."""
    return Memory.objects.filter(visibility_condition(user))


def can_retire(user: User | AnonymousUser, memory: Memory) -> bool:
    """Owner, or a maintainer of the memory's project (forget, restore, supersede)."""
    if not user.is_authenticated:
        return False
    if user.is_superuser or memory.owner_id == user.pk:
        return True
    if memory.project_id is None:
        return False
    return Membership.objects.filter(project_id=memory.project_id, user_id=user.pk, role=Role.MAINTAINER).exists()


def retirable_ids(user: User | AnonymousUser, memories: list[Memory]) -> set[str]:
    """Which of ``memories`` ``user`` may retire; one query however many are asked about."""
    if not user.is_authenticated:
        return set()
    if user.is_superuser:
        return {memory.pk for memory in memories}
    maintained = set(
        Membership.objects.filter(user_id=user.pk, role=Role.MAINTAINER).values_list("project_id", flat=True)
    )
    return {
        m.pk for m in memories if m.owner_id == user.pk or (m.project_id is not None and m.project_id in maintained)
    }


def member_projects(user: User | AnonymousUser) -> QuerySet[Project]:
    if not user.is_authenticated:
        return Project.objects.none()
    return Project.objects.filter(memberships__user_id=user.pk)
