"""The row-level security of zeromemory (SPEC §2), in exactly one place.

Every read of memories on behalf of someone — API, recall, similar_existing, supersede targets,
links, history, admin, the conflict queue — starts from :func:`visible_memories`, which takes the
action the reader means to perform (NetBox's ``restrict(user, action)``):

* ``view`` — the user owns the memory; or it is project-visible and the user is a member of its
  project; or it was shared with the user, or with one of the user's groups, by a guardian grant
  of ``memories.view_memory`` on that very memory (no global permission ever stands in). A
  memory pending review is seen only by its owner and its project's maintainers.
* ``retire`` — forget, restore, supersede, link from: what the user may view *and* owns, or
  belongs to a project the user maintains. Retiring starts from seeing (SPEC R-O2, R-S6): a
  maintainer may retire the project's memories, but a member's private one stays hidden from him.
* ``moderate`` — settle a pair in the review queue (SPEC R-A6): the same right as ``retire``,
  asked for under its own name so that the queue says what it needs.

A superuser may do everything: they administer the whole deployment, console and API alike.
Anything else is invisible and answers 404, exactly like a memory that does not exist.

Reads that act for no one (the hygiene worker, operators' commands) go through
:func:`unrestricted_memories`, which takes the reason in writing so that every bypass is found
by searching for its name.
"""

from __future__ import annotations

import operator
from enum import StrEnum
from functools import reduce
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q, QuerySet

from memories.choices import Role, State, Visibility
from memories.compiled import MEMORY_ID, USER_ID, CompiledQuery
from memories.models import (
    Membership,
    Memory,
    MemoryGroupObjectPermission,
    MemoryUserObjectPermission,
    Project,
    token_scope,
)

VIEW_PERMISSION = "view_memory"


class Action(StrEnum):
    VIEW = "view"
    RETIRE = "retire"
    MODERATE = "moderate"


def visibility_condition(user: User | AnonymousUser, action: Action = Action.VIEW, *, through: str = "") -> Q:
    """The rule as a filter, for use inside larger queries.

    ``through`` names the path from the filtered model to the memory (``"older__"`` on a
    Conflict), so that rows about memories are restricted by the very same rule.
    """
    action = Action(action)  # an unknown action fails here, never as an empty or open filter
    if not user.is_authenticated:
        return Q(pk__in=[])
    # A scoped token narrows whatever its user may do (the rule below), never widens it.
    scope = token_scope(user)
    if scope is not None and scope.read_only and action != Action.VIEW:
        return Q(pk__in=[])
    narrowed = Q(**{f"{through}project_id__in": sorted(scope.project_ids)}) if scope and scope.project_ids else Q()
    return _rule(user, action, through) & narrowed


def maintained_project_ids(user: User) -> QuerySet[Membership, Any]:
    """The maintainer rule, written once: the ids (``project_id``) of the projects ``user``
    maintains, a membership with the maintainer role. Retiring, moderating, seeing a pending
    write, the admin's review actions and a project's webhooks all ask it here.

    A subquery, so that it nests in larger filters. A superuser's rights come from being one,
    never from here: callers that let a superuser through say so themselves."""
    return Membership.objects.filter(user_id=user.pk, role=Role.MAINTAINER).values("project_id")


def maintains(user: User, project_id: int | None) -> bool:
    """Whether ``user`` maintains the project ``project_id`` (no project: nobody does)."""
    return project_id is not None and maintained_project_ids(user).filter(project_id=project_id).exists()


def _rule(user: User, action: Action, through: str) -> Q:
    if user.is_superuser:
        return Q()
    owned = Q(**{f"{through}owner_id": user.pk})
    maintained = Q(**{f"{through}project_id__in": maintained_project_ids(user)})
    view = reduce(operator.or_, _ways_to_see(user, through))
    # A write waiting for review is its writer's and the project's maintainers' until approved:
    # the other members would otherwise read what nobody has checked yet.
    view &= ~Q(**{f"{through}state": State.PENDING}) | owned | maintained
    if action == Action.VIEW:
        return view
    return view & (owned | maintained)


def _ways_to_see(user: User, through: str) -> list[Q]:
    """Each way a memory is in view (the ``view`` rule is their OR): owned; project-visible in a
    member project; shared with the user; shared with one of the user's groups."""
    member_projects = Membership.objects.filter(user_id=user.pk).values("project_id")
    user_grants = MemoryUserObjectPermission.objects.filter(
        user_id=user.pk, permission__codename=VIEW_PERMISSION
    ).values("content_object_id")
    group_grants = MemoryGroupObjectPermission.objects.filter(
        group__user=user.pk, permission__codename=VIEW_PERMISSION
    ).values("content_object_id")
    return [
        Q(**{f"{through}owner_id": user.pk}),
        Q(**{f"{through}visibility": Visibility.PROJECT, f"{through}project_id__in": member_projects}),
        Q(**{f"{through}pk__in": user_grants}),
        Q(**{f"{through}pk__in": group_grants}),
    ]


def visible_parts(user: User | AnonymousUser, memories: QuerySet[Memory]) -> list[QuerySet[Memory]]:
    """``memories`` — a queryset read from :func:`visible_memories` for ``user`` — as parts whose
    union is the same rows: one per way a memory is in view, each also narrowed by that way alone.

    The rule itself stays in every part; the narrowing only gives each part a condition an index
    serves (the owner's rows from memory_owner_scan_idx, a member project's from
    memory_project_scan_idx, a grant's by its key). An exact scan of everything a user sees
    (memories.search.exact_nearest) then reads what the user sees, where the OR-ed rule alone
    read the whole table: 830 ms at a million memories for a user who sees 1,303 (bench/scale.py).
    Parts may overlap (an owned memory in a member project); their reader removes repeats. A
    superuser sees every row: one part."""
    if not user.is_authenticated or user.is_superuser:
        return [memories]
    owned, _, user_granted, group_granted = _ways_to_see(user, "")
    # The member projects as values rather than the rule's subquery: each is then an index
    # condition (project_id = ANY(...)), whatever the planner guesses of the subquery's size.
    projects = sorted(Membership.objects.filter(user_id=user.pk).values_list("project_id", flat=True))
    in_project = [Q(visibility=Visibility.PROJECT, project_id__in=projects)] if projects else []
    return [memories.filter(way) for way in [owned, *in_project, user_granted, group_granted]]


def visible_memories(user: User | AnonymousUser, action: Action = Action.VIEW) -> QuerySet[Memory]:
    """The memories ``user`` may ``action``. Start every read of memories for someone from here."""
    return Memory.objects.filter(visibility_condition(user, action))


def permits(user: User | AnonymousUser, action: Action, memory: Memory) -> bool:
    """Whether ``user`` may ``action`` this one memory, by the same rule as every list."""
    return permits_id(user, action, memory.pk)


def _one_permitted(action: Action) -> CompiledQuery[Memory]:
    # The rule for one memory, compiled once per process for the common caller (a user's full
    # token; memories.compiled): forget and restore ask it of every memory they touch.
    def build(user_id: int, memory_id: str) -> QuerySet[Memory]:
        return visible_memories(User(pk=user_id, is_active=True), action).filter(pk=memory_id).only("pk")[:1]

    return CompiledQuery(Memory, build, [USER_ID, MEMORY_ID])


_PERMITTED = {action: _one_permitted(action) for action in Action}


def compiled_rule_applies(user: User | AnonymousUser) -> bool:
    """Whether ``user``'s rule has the compiled shape: a user with a full token. A superuser's
    (no rule) and a scoped token's (narrowed) are built as they come."""
    return user.is_authenticated and not user.is_superuser and token_scope(user) is None


def permits_id(user: User | AnonymousUser, action: Action, memory_id: str) -> bool:
    """:func:`permits` by the memory's id."""
    action = Action(action)
    if compiled_rule_applies(user):
        return bool(_PERMITTED[action].run(action.value, user_id=user.pk, memory_id=memory_id))
    return visible_memories(user, action).filter(pk=memory_id).exists()


def unrestricted_memories(*, reason: str) -> QuerySet[Memory]:
    """Every memory, for a reader acting for no one. The bypass of the rule, named as such.

    ``reason`` says who reads and why; it is required so that no call site can be silent.
    """
    if not reason.strip():
        raise ValueError("unrestricted_memories() needs the reason for reading around visibility")
    return Memory.objects.all()


def member_projects(user: User | AnonymousUser) -> QuerySet[Project]:
    if not user.is_authenticated:
        return Project.objects.none()
    projects = Project.objects.filter(memberships__user_id=user.pk)
    scope = token_scope(user)
    if scope is not None and scope.project_ids:
        projects = projects.filter(pk__in=sorted(scope.project_ids))
    return projects
