"""forget and restore_memory (SPEC R-O2, R-O3)."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import BooleanField, ExpressionWrapper, QuerySet
from django.utils import timezone

from memories.choices import EventAction, LinkOrigin, LinkType, LoopStatus, State
from memories.compiled import MEMORY_ID, USER_ID, CompiledQuery
from memories.errors import Forbidden, NotLive, memory_not_found
from memories.ids import is_memory_id
from memories.locks import locking
from memories.models import Credential, Link, Memory, MemoryEvent
from memories.services.lifecycle import LostRace, event_append, expect_live, retire
from memories.visibility import Action, compiled_rule_applies, visibility_condition


def _lockable(user: User, ids: list[str]) -> QuerySet[Memory]:
    """The memories among ``ids`` (sorted, distinct) that ``user`` may see, locked as every
    retiring write locks them (memories.locks), each annotated with whether ``user`` may retire
    it, and with what the memory's answer shows: the check, the lock and the read in one
    statement."""
    may_retire = ExpressionWrapper(visibility_condition(user, Action.RETIRE), output_field=BooleanField())
    return (
        locking(ids, annotations={"may_retire": may_retire})
        .filter(visibility_condition(user, Action.VIEW))
        .select_related("owner", "project")
    )


# forget and restore lock one memory per request: compiled once per process (memories.compiled).
_LOCK_ONE = CompiledQuery(
    Memory,
    lambda user_id, memory_id: _lockable(User(pk=user_id, is_active=True), [memory_id]),
    [USER_ID, MEMORY_ID],
    for_write=True,
)


def _locked_for_retirement(user: User, memory_id: str, *, with_ids: Sequence[str] = ()) -> dict[str, Memory]:
    """The memory, locked, if ``user`` may see it (else 404) and retire it (else 403); and,
    locked with it in id order, the visible ``with_ids`` its caller expects a state of. Each
    comes with its owner and project loaded, so the caller's answer needs no read of its own."""
    # Checked before any query: an id with a NUL byte (from a URL's %00) makes PostgreSQL fail
    # the query, which would answer 503 instead of 404.
    wanted = [memory_id, *with_ids]
    if not all(is_memory_id(i) for i in wanted):
        raise memory_not_found(next(i for i in wanted if not is_memory_id(i)))
    if not with_ids and compiled_rule_applies(user):  # the common case
        rows = _LOCK_ONE.run("retire", user_id=user.pk, memory_id=memory_id)
    else:
        rows = list(_lockable(user, sorted(set(wanted))))
    locked = {memory.pk: memory for memory in rows}
    for wanted_id in wanted:
        if wanted_id not in locked:
            raise memory_not_found(wanted_id)
    if not locked[memory_id].may_retire:  # type: ignore[attr-defined]  # _lockable's annotation
        raise Forbidden("Only the memory's owner or a maintainer of its project may do this.")
    return locked


def memory_forget(
    *,
    user: User,
    credential: Credential | None,
    memory_id: str,
    reason: str = "",
    require_live: Sequence[str] = (),
) -> Memory:
    """Retire a live memory with no successor. Idempotent on a forgotten memory.

    ``require_live`` is the caller's expected state: memories (this one among them, if named)
    that must still be live, checked under their locks, else NotLive and nothing changes. A
    moderator's "older stands" forgets the newer only while both stand.
    """
    with transaction.atomic():
        locked = _locked_for_retirement(user, memory_id, with_ids=require_live)
        expect_live(locked, require_live)
        memory = locked[memory_id]
        if memory.state == State.FORGOTTEN:
            return memory
        if memory.state == State.SUPERSEDED:
            raise NotLive(f"{memory_id} was superseded by {memory.superseded_by_id}; restore it first to forget it.")
        was_pending = memory.state == State.PENDING
        try:
            closes_loop = retire(memory=memory, successor=None, now=timezone.now(), from_state=memory.state)
        except LostRace:  # pragma: no cover - the row is locked
            raise NotLive(f"{memory_id} changed while being forgotten; retry.") from None
        event_append(
            memory=memory,
            action=EventAction.FORGOTTEN,
            actor=user,
            credential=credential,
            reason=reason,
            # A write withdrawn before review: a restore sends it back to review.
            data={"loop_closed": closes_loop, **({"review": "withdrawn"} if was_pending else {})},
        )
    return memory  # retire() already set the new lifecycle fields on it


def memory_restore(*, user: User, credential: Credential | None, memory_id: str, reason: str = "") -> Memory:
    """Make a retired memory live again. Idempotent on a live memory.

    The superseding link stays in history, marked reverted; the successor is untouched; a loop
    that the retirement closed opens again.
    """
    with transaction.atomic():
        memory = _locked_for_retirement(user, memory_id)[memory_id]
        if memory.state in (State.LIVE, State.PENDING):  # nothing retired to restore
            return memory
        if memory.purged_at is not None:
            raise NotLive(f"{memory_id} was purged: its content is erased and it cannot be restored.")
        retirement = (
            MemoryEvent.objects.filter(memory=memory, action__in=[EventAction.SUPERSEDED, EventAction.FORGOTTEN])
            .order_by("-created_at", "-id")
            .first()
        )
        reopen = memory.loop_status == LoopStatus.CLOSED and bool(retirement and retirement.data.get("loop_closed"))
        now = timezone.now()
        previous_successor = memory.superseded_by_id
        # A write retired while pending review (rejected, withdrawn, replaced by a moderator's
        # version) goes back to review, never straight into what counts: the row says so.
        rejected = memory.retired_while_pending
        changes: dict[str, object] = {
            "state": State.PENDING if rejected else State.LIVE,
            "superseded_by": None,
            "invalidated_at": None,
            "retired_while_pending": False,
            "updated_at": now,
        }
        if reopen:
            changes |= {"loop_status": LoopStatus.OPEN, "closed_by": None, "closed_at": None}
        from_state = memory.state
        updated = Memory.objects.filter(pk=memory.pk, state=from_state).update(**changes)
        if updated != 1:  # pragma: no cover - the row is locked
            raise NotLive(f"{memory_id} changed while being restored; retry.")
        for field, value in changes.items():
            setattr(memory, field, value)
        reverted = []
        if previous_successor is not None:
            for link in Link.objects.filter(
                src_id=previous_successor, dst=memory, type=LinkType.SUPERSEDES, reverted=False
            ).exclude(origin=LinkOrigin.LINK):
                Link.objects.filter(pk=link.pk).update(reverted=True, reverted_at=now)
                reverted.append(link.pk)
        event_append(
            memory=memory,
            action=EventAction.SUBMITTED if rejected else EventAction.RESTORED,
            actor=user,
            credential=credential,
            reason=reason,
            data={
                "from_state": from_state,
                "previous_successor": previous_successor,
                "reverted_links": reverted,
                "loop_reopened": reopen,
            },
        )
    return memory
