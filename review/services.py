"""Writes of the review app: resolving conflicts, and closing them when a writer declares."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from memories.choices import LinkOrigin
from memories.errors import NotFound, NotLive, ValidationFailed
from memories.models import TOMBSTONE, Memory
from memories.services import memory_forget, memory_supersede
from review.forks import forks_move, pending_naming
from review.models import MODERATOR_ACTIONS, Conflict, ConflictStatus, Judgment, Resolution
from review.selectors import conflicts_for


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
        conflict = conflicts_for(user).select_for_update(of=("self",)).filter(pk=conflict_id).first()
        if conflict is None:
            raise NotFound(f"Conflict {conflict_id} not found.")
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
