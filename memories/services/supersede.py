"""supersede: retire a memory in favour of another outside a write (hygiene, moderators).

The declared supersede of remember (SPEC R-S…) retires its targets inside the write itself;
this is the same retirement for callers that decide later — the hygiene worker on a judge's
verdict (R-H3), a moderator in the queue (R-A3). They call it instead of reaching into the
lifecycle steps and locks, so that the rules of a retirement stay here: rows locked in id
order, the expected state checked under the lock, the guarded update's row count checked, the
edge and the event written in the same transaction.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction

from memories.errors import Forbidden, ValidationFailed, memory_not_found, memory_not_live
from memories.ids import is_memory_id
from memories.locks import lock_memories
from memories.models import Link
from memories.services.lifecycle import LostRace, expect_live, retire_by_successor
from memories.visibility import Action, visible_memories

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Supersession:
    target_id: str
    successor_id: str
    reason: str = ""


def memory_supersede(*, actor: User | None, target_id: str, successor_id: str, origin: str, reason: str = "") -> Link:
    """Retire the live ``target_id`` in favour of the live ``successor_id``; the new edge.

    ``actor`` must be allowed to retire both (the successor gains an edge, as a link's source
    does); ``None`` is the hygiene worker, which acts on one owner's memories for no viewer.
    Raises NotLive, naming the target first, when either is retired already.
    """
    supersession = Supersession(target_id=target_id, successor_id=successor_id, reason=reason)
    return memory_supersede_many(actor=actor, supersessions=[supersession], origin=origin)[0]


def memory_supersede_many(*, actor: User | None, supersessions: Sequence[Supersession], origin: str) -> list[Link]:
    """``memory_supersede`` for several pairs at once, all or none, in the order given.

    One lock for every row before any is changed: a caller retiring many pairs in one
    transaction (the backlog sweep) would otherwise take its locks pair by pair, out of the
    global id order, and could deadlock with a concurrent write.
    """
    ids = [memory_id for s in supersessions for memory_id in (s.target_id, s.successor_id)]
    for memory_id in ids:
        if not is_memory_id(memory_id):  # before any query: PostgreSQL fails on a NUL byte
            raise memory_not_found(memory_id)
    for s in supersessions:
        if s.target_id == s.successor_id:
            raise ValidationFailed(
                "A memory cannot supersede itself.", fields={"successor": ["must differ from target"]}
            )
    links: list[Link] = []
    # Nested in a caller's transaction it is a savepoint: a refusal undoes only this call.
    with transaction.atomic():
        locked = lock_memories(ids)
        _check_actor(actor, ids)
        for s in supersessions:
            target, successor = locked.get(s.target_id), locked.get(s.successor_id)
            if target is None or successor is None:
                raise memory_not_found(s.target_id if target is None else s.successor_id)
            expect_live(locked, [target.pk, successor.pk])
            try:
                link = retire_by_successor(
                    target=target, successor=successor, origin=origin, actor=actor, reason=s.reason
                )
            except LostRace:  # pragma: no cover - the row is locked and was read live
                raise memory_not_live(target.pk) from None
            links.append(link)  # retire() left the target's new state on it: a later pair sees it
        done = [(s.target_id, s.successor_id) for s in supersessions]
        transaction.on_commit(lambda: _log_superseded(done, origin))
    return links


def _check_actor(actor: User | None, ids: list[str]) -> None:
    """Visibility first (404), then the right to retire (403), as forget checks (SPEC R-O2)."""
    if actor is None:
        return
    wanted = set(ids)
    visible = set(visible_memories(actor).filter(pk__in=wanted).values_list("pk", flat=True))
    retirable = set(visible_memories(actor, Action.RETIRE).filter(pk__in=wanted).values_list("pk", flat=True))
    for memory_id in ids:
        if memory_id not in visible:
            raise memory_not_found(memory_id)
        if memory_id not in retirable:
            raise Forbidden("Only the memory's owner or a maintainer of its project may do this.")


def _log_superseded(done: list[tuple[str, str]], origin: str) -> None:
    # After commit only: a line for a retirement that was rolled back would mislead an operator.
    for target_id, successor_id in done:
        logger.info("%s superseded by %s (%s)", target_id, successor_id, origin)
