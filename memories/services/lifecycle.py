"""The lifecycle steps shared by every write: events, retirement by a successor, links.

These run inside a caller's transaction on rows the caller has locked
(memories.locks.lock_memories); they never open transactions or take locks themselves.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Case, F, Value, When
from django.utils import timezone

from memories import hooks, secret_guard
from memories.choices import EventAction, LinkType, LoopStatus, State
from memories.errors import memory_not_live
from memories.models import Credential, Link, Memory, MemoryEvent


class LostRace(RuntimeError):
    """A guarded update found the row no longer in the state it was read in."""


def expect_live(locked: dict[str, Memory], memory_ids: Iterable[str]) -> None:
    """The caller's expected state, checked in the order given (the first one retired is named)."""
    for memory_id in memory_ids:
        memory = locked.get(memory_id)
        if memory is None or memory.state != State.LIVE:
            raise memory_not_live(memory_id)


def event_append(
    *,
    memory: Memory,
    action: str,
    actor: User | None,
    credential: Credential | None = None,
    reason: str = "",
    data: dict[str, Any] | None = None,
) -> MemoryEvent:
    # A reason is the writer's free text, read back in history, the feed and webhooks: a key
    # pasted into it ("forgot: it held AKIA…") is redacted as one in content would be.
    reason = secret_guard.redacted(reason) if reason else reason
    return MemoryEvent.objects.create(
        memory=memory, action=action, actor=actor, credential=credential, reason=reason, data=data or {}
    )


def retire(*, memory: Memory, successor: Memory | None, now: datetime, from_state: str = State.LIVE) -> bool:
    """Move a live (or, for the review, pending) locked ``memory`` to superseded (by
    ``successor``) or, without one, to forgotten; an open loop closes with it. True if a loop
    was closed.

    The update is guarded by the expected state: a row that stopped being live since it was
    locked and read is reported as LostRace, never overwritten.
    """
    closes_loop = memory.loop_status == LoopStatus.OPEN
    changes: dict[str, Any] = {
        "state": State.SUPERSEDED if successor is not None else State.FORGOTTEN,
        "superseded_by": successor,
        "invalidated_at": now,
        # Retired from review: a restore reads this to send it back there (services.retire).
        "retired_while_pending": from_state == State.PENDING,
        "updated_at": now,
    }
    if closes_loop:
        changes |= {"loop_status": LoopStatus.CLOSED, "closed_by": successor, "closed_at": now}
    updated = Memory.objects.filter(pk=memory.pk, state=from_state, superseded_by__isnull=True).update(**changes)
    if updated != 1:
        raise LostRace(f"{memory.pk} is no longer live")
    for field, value in changes.items():
        setattr(memory, field, value)
    return closes_loop


def retire_by_successor(
    *,
    target: Memory,
    successor: Memory,
    origin: str,
    actor: User | None,
    credential: Credential | None = None,
    reason: str = "",
    from_state: str = State.LIVE,
) -> Link:
    """Retire a live (or pending), locked ``target`` in favour of ``successor`` and record the edge."""
    now = timezone.now()
    closes_loop = retire(memory=target, successor=successor, now=now, from_state=from_state)
    # The same edge may already be active as a graph-only link (POST /links/ records one; the
    # docs then tell the writer to declare it). One active edge per (src, dst, type) exists, so
    # the retiring edge replaces it: marked reverted, it stays in history, and the event names it.
    replaced = list(
        Link.objects.filter(src=successor, dst=target, type=LinkType.SUPERSEDES, reverted=False).values_list(
            "pk", flat=True
        )
    )
    if replaced:
        Link.objects.filter(pk__in=replaced).update(reverted=True, reverted_at=now)
    link = Link.objects.create(
        src=successor, dst=target, type=LinkType.SUPERSEDES, origin=origin, created_by=actor, created_at=now
    )
    event_append(
        memory=target,
        action=EventAction.SUPERSEDED,
        actor=actor,
        credential=credential,
        reason=reason,
        data=_superseded_data(successor=successor, origin=origin, link=link, loop_closed=closes_loop, replaced=replaced)
        # Replaced while pending review: a restore sends it back to review.
        | ({"review": "replaced"} if from_state == State.PENDING else {}),
    )
    for hook in hooks.on_superseded:
        hook(successor, [target])
    return link


def _superseded_data(
    *, successor: Memory, origin: str, link: Link, loop_closed: bool, replaced: list[str]
) -> dict[str, object]:
    """A ``superseded`` event's data, one retirement or many alike."""
    return {
        "successor": successor.pk,
        "origin": origin,
        "link": link.pk,
        "loop_closed": loop_closed,
        **({"replaced_links": replaced} if replaced else {}),
    }


def retire_all_by_successor(
    *,
    targets: list[Memory],
    successor: Memory,
    origin: str,
    actor: User | None,
    credential: Credential | None = None,
    new_successor: bool = False,
) -> list[Link]:
    """``retire_by_successor`` for several live, locked targets of one successor, in a fixed
    number of statements however many there are: one UPDATE retires them all (closing the open
    loops among them), one INSERT records the edges and one the events. ``new_successor`` says
    the successor was created in this transaction, so no edge from it can exist yet to replace.

    A declared supersede of three targets sent twelve statements one by one (an UPDATE, a
    lookup of graph-only edges, an edge and an event per target); bench/writepath.py.
    """
    if not targets:
        return []
    now = timezone.now()
    ids = [target.pk for target in targets]
    closes = {target.pk for target in targets if target.loop_status == LoopStatus.OPEN}
    updated = Memory.objects.filter(pk__in=ids, state=State.LIVE, superseded_by__isnull=True).update(
        state=State.SUPERSEDED,
        superseded_by=successor,
        invalidated_at=now,
        updated_at=now,
        loop_status=Case(When(loop_status=LoopStatus.OPEN, then=Value(LoopStatus.CLOSED)), default=F("loop_status")),
        closed_by=Case(When(loop_status=LoopStatus.OPEN, then=Value(successor.pk)), default=F("closed_by")),
        closed_at=Case(When(loop_status=LoopStatus.OPEN, then=Value(now)), default=F("closed_at")),
    )
    if updated != len(ids):
        raise LostRace(f"{len(ids) - updated} of {ids} are no longer live")
    for target in targets:
        changes: dict[str, Any] = {
            "state": State.SUPERSEDED,
            "superseded_by": successor,
            "invalidated_at": now,
            "updated_at": now,
        }
        if target.pk in closes:
            changes |= {"loop_status": LoopStatus.CLOSED, "closed_by": successor, "closed_at": now}
        for field, value in changes.items():
            setattr(target, field, value)
    # As in retire_by_successor: an active graph-only edge of the same pair is replaced.
    replaced: dict[str, list[str]] = {}
    if not new_successor:
        for pk, dst_id in Link.objects.filter(
            src=successor, dst_id__in=ids, type=LinkType.SUPERSEDES, reverted=False
        ).values_list("pk", "dst_id"):
            replaced.setdefault(dst_id, []).append(pk)
        if replaced:
            Link.objects.filter(pk__in=[pk for pks in replaced.values() for pk in pks]).update(
                reverted=True, reverted_at=now
            )
    links = Link.objects.bulk_create(
        [
            Link(src=successor, dst=target, type=LinkType.SUPERSEDES, origin=origin, created_by=actor, created_at=now)
            for target in targets
        ]
    )
    MemoryEvent.objects.bulk_create(
        [
            MemoryEvent(
                memory=target,
                action=EventAction.SUPERSEDED,
                actor=actor,
                credential=credential,
                data=_superseded_data(
                    successor=successor,
                    origin=origin,
                    link=link,
                    loop_closed=target.pk in closes,
                    replaced=replaced.get(target.pk, []),
                ),
            )
            for target, link in zip(targets, links, strict=True)
        ]
    )
    # Only remember retires this way, and tells hooks.on_supersede_declared itself (which the
    # review app also handles forks in: one statement per declared write, not two).
    return links


def link_record(*, src: Memory, dst: Memory, type: str, origin: str, actor: User | None) -> tuple[Link, bool]:
    """The active link ``src -type-> dst``, created if it does not exist yet (race-safe)."""
    existing = Link.objects.filter(src=src, dst=dst, type=type, reverted=False).first()
    if existing is not None:
        return existing, False
    try:
        with transaction.atomic():
            return Link.objects.create(src=src, dst=dst, type=type, origin=origin, created_by=actor), True
    except IntegrityError:
        # A concurrent write created the same edge first; the unique index kept one.
        return Link.objects.get(src=src, dst=dst, type=type, reverted=False), False
