"""Writes of the review app: resolving conflicts, and closing them when a writer declares."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from memories.choices import LinkOrigin
from memories.errors import NotFound, NotLive, ValidationFailed
from memories.models import TOMBSTONE, Memory
from memories.services import Supersession, memory_forget, memory_supersede, memory_supersede_many
from review.errors import GroupChanged
from review.forks import forks_move, pending_naming
from review.models import GROUP_ACTIONS, MODERATOR_ACTIONS, Conflict, ConflictStatus, GroupAction, Judgment, Resolution
from review.selectors import ConflictGroup, conflict_group_of, conflicts_for


def conflict_resolve(*, user: User, conflict_id: int, action: str) -> Conflict:
    """Apply a moderator's decision through the same domain operations as the API.

    ``action`` is checked here, not only by the callers that validate it (API, admin): any other
    value used to settle the conflict as "resolved" with no effect on either memory.
    """
    if action not in MODERATOR_ACTIONS:
        choices = ", ".join(MODERATOR_ACTIONS[:-1]) + f" or {MODERATOR_ACTIONS[-1]}"
        raise ValidationFailed(
            f"Unknown action {action!r}: choose {choices}.", fields={"action": [f"must be {choices}"]}
        )
    with transaction.atomic():
        conflict = conflicts_for(user).filter(pk=conflict_id).first()
        if conflict is None:
            raise NotFound(f"Conflict {conflict_id} not found.")
        # Every pending conflict naming either memory, locked in id order before any memory is:
        # the retirement's hook (review.forks) locks those naming the retired memory, and taken
        # there, after this conflict, they deadlocked with a decision on a neighbouring conflict
        # (tests/review/test_conflict_group_races.py).
        pending_naming([conflict.older_id, conflict.newer_id])
        conflict.refresh_from_db()
        if conflict.status != ConflictStatus.PENDING:
            raise NotLive(f"Conflict {conflict_id} is already {conflict.status}.")
        older_id, newer_id = conflict.older_id, conflict.newer_id
        reason = f"conflict {conflict.pk}: {action}"
        try:
            if action == Resolution.NEWER_SUPERSEDES:
                memory_supersede(
                    actor=user, target_id=older_id, successor_id=newer_id, origin=LinkOrigin.MODERATOR, reason=reason
                )
            elif action == Resolution.OLDER_STANDS:
                memory_forget(
                    user=user, credential=None, memory_id=newer_id, reason=reason, require_live=[older_id, newer_id]
                )
        except NotLive as refused:
            raise NotLive(f"{refused.memory_id} is no longer live; dismiss this conflict.") from None
        status = ConflictStatus.DISMISSED if action == Resolution.DISMISS else ConflictStatus.RESOLVED
        Conflict.objects.filter(pk=conflict.pk, status=ConflictStatus.PENDING).update(
            status=status, resolution=action, resolved_at=timezone.now(), resolved_by=user
        )
        conflict.refresh_from_db()
    return conflict


def _choices(actions: tuple[str, ...]) -> str:
    return ", ".join(actions[:-1]) + f" or {actions[-1]}"


def conflict_group_resolve(
    *,
    user: User,
    conflict_id: int,
    action: str,
    memory_id: str | None = None,
    expected: list[int] | None = None,
) -> ConflictGroup:
    """Settle the whole group of pending conflict ``conflict_id`` (review.selectors.ConflictGroup)
    with one decision, all of it or nothing:

    * ``stands``: ``memory_id``, one of the group's live values, stands; every other live value
      of the group is retired as superseded by it (memory_supersede_many, link origin moderator:
      reversible by a restore), and every conflict of the group is resolved as ``group_stands``;
    * ``keep_all``: no memory changes; every conflict is resolved as ``keep_both``;
    * ``dismiss``: no memory changes; every conflict is dismissed.

    ``expected`` is the group the moderator saw (its conflict ids): if the group differs now,
    GroupChanged (409) names the current one. Every pending conflict naming the group's
    memories is locked in id order and the group read again under the lock: one that changed
    while this decision waited (a concurrent decision, a conflict opened or settled meanwhile)
    is refused the same way, so two moderators deciding one group at once never both apply.
    Returns the group as decided (its values as they were before the decision).
    """
    if action not in GROUP_ACTIONS:
        choices = _choices(GROUP_ACTIONS)
        raise ValidationFailed(
            f"Unknown action {action!r}: choose {choices}.", fields={"action": [f"must be {choices}"]}
        )
    if action == GroupAction.STANDS and not memory_id:
        raise ValidationFailed(
            "Name the memory that stands.", fields={"memory": ["This field is required with stands."]}
        )
    if action != GroupAction.STANDS and memory_id is not None:
        raise ValidationFailed(
            f"{action} keeps or dismisses every value: name no memory.",
            fields={"memory": ["Only with stands."]},
        )
    with transaction.atomic():
        group = _group_or_refusal(user, conflict_id)
        if expected is not None and sorted(set(expected)) != list(group.conflicts):
            raise GroupChanged(f"Conflict {conflict_id}'s group is not the one you decided on.", group=group)
        # Every pending conflict naming a memory of the group (the group's own, and any the
        # retirements' hook would lock later) locked in id order before any memory is, as
        # conflict_resolve locks; then the group read again: a decision that waited here for
        # another one sees what that one left.
        locked = {row.pk for row in pending_naming(list(group.memories))}
        current = _group_or_refusal(user, conflict_id)
        if current.conflicts != group.conflicts or not locked.issuperset(group.conflicts):
            raise GroupChanged(f"Conflict {conflict_id}'s group changed meanwhile.", group=current)
        group = current
        if action == GroupAction.STANDS:
            if memory_id not in group.memories:  # (None too: refused before the transaction)
                raise ValidationFailed(
                    f"{memory_id} is not one of this group's memories.",
                    fields={"memory": ["Must be one of the group's values."]},
                )
            if memory_id not in group.values:
                raise NotLive(f"{memory_id} is no longer live; choose another value or dismiss.", memory_id=memory_id)
        resolution, status = {
            GroupAction.STANDS: (Resolution.GROUP_STANDS, ConflictStatus.RESOLVED),
            GroupAction.KEEP_ALL: (Resolution.KEEP_BOTH, ConflictStatus.RESOLVED),
            GroupAction.DISMISS: (Resolution.DISMISS, ConflictStatus.DISMISSED),
        }[GroupAction(action)]
        # Settled before the memories change: the forks' hook then finds none of the group's
        # conflicts pending to move on (each of them is settled by this decision).
        settled = Conflict.objects.filter(pk__in=group.conflicts, status=ConflictStatus.PENDING).update(
            status=status, resolution=resolution, resolved_at=timezone.now(), resolved_by=user
        )
        if settled != len(group.conflicts):  # pragma: no cover - the rows are locked and were read pending
            raise GroupChanged(f"Conflict {conflict_id}'s group changed meanwhile.", group=group)
        if action == GroupAction.STANDS and memory_id is not None:
            reason = f"conflict group of {group.lead} ({len(group.conflicts)} conflicts): {memory_id} stands"
            retired = [value for value in group.values if value != memory_id]
            if retired:
                try:
                    memory_supersede_many(
                        actor=user,
                        supersessions=[Supersession(target, memory_id, reason) for target in retired],
                        origin=LinkOrigin.MODERATOR,
                    )
                except NotLive as refused:
                    raise NotLive(
                        f"{refused.memory_id} is no longer live; look at the group again.",
                        memory_id=refused.memory_id,
                    ) from None
    return group


def _group_or_refusal(user: User, conflict_id: int) -> ConflictGroup:
    """The conflict's group; NotFound if ``user`` may not moderate it, NotLive if it is settled."""
    group = conflict_group_of(user=user, conflict_id=conflict_id)
    if group is not None:
        return group
    status = conflicts_for(user).filter(pk=conflict_id).values_list("status", flat=True).first()
    if status is None:
        raise NotFound(f"Conflict {conflict_id} not found.")
    raise NotLive(f"Conflict {conflict_id} is already {status}.")


def conflicts_close_declared(successor: Memory, targets: list[Memory]) -> None:
    """memories.hooks.on_supersede_declared: a writer declared the supersede. Pending conflicts
    of a pair it settles close as declared (R-S4), and a fork's conflict naming a version it
    retired moves on to it (review.forks). One statement for the common case, where no conflict
    names a target."""
    if not targets:
        return
    pending = pending_naming([target.pk for target in targets])
    if not pending:
        return
    retired = {target.pk for target in targets}
    settled = [row.pk for row in pending if {row.older_id, row.newer_id} & retired and successor.pk in row.pair]
    if settled:
        Conflict.objects.filter(pk__in=settled, status=ConflictStatus.PENDING).update(
            status=ConflictStatus.RESOLVED, resolution=Resolution.DECLARED, resolved_at=timezone.now()
        )
    forks_move(
        [row for row in pending if row.stale_version_id is not None and row.pk not in settled], successor, retired
    )


def enqueue_hygiene(memory: Memory) -> None:
    from review.tasks import hygiene_check_task

    hygiene_check_task.enqueue(memory.pk)


def rationales_scrub(memory_ids: list[str]) -> None:
    """A purge erases the words: a judge's rationale may quote them (an LLM judge's does)."""
    about = Q(older_id__in=memory_ids) | Q(newer_id__in=memory_ids)
    Judgment.objects.filter(about).update(rationale=TOMBSTONE)
    Conflict.objects.filter(about).update(rationale=TOMBSTONE)
