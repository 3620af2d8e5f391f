"""The audited purge: the one deliberate exception to the forward-only store (docs/security.md,
"Purging a memory").

An erasure request ("forget me", a pasted secret, a legal hold lifted) needs the words gone, not
retired. A purge replaces a memory's content by the tombstone, its metadata by nothing and its
vectors by a constant, and keeps everything that makes the history hold together: its id, its
links and its events, with a ``purged`` event saying who did it, through what and why. The
database allows this change on this path only (migration 0020): the transaction names the
memories it purges in ``zeromemory.purging``, and the trigger refuses any other content change.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.db.models import TextField
from django.db.models.functions import Cast
from django.utils import timezone

from memories import hooks
from memories.choices import EventAction, State
from memories.errors import ValidationFailed, memory_not_found
from memories.ids import is_memory_id
from memories.locks import lock_memories
from memories.models import TOMBSTONE, IdempotencyRecord, Memory, MemorySentence
from memories.services.lifecycle import event_append, retire
from memories.text import content_fingerprint

logger = logging.getLogger(__name__)

# A purged memory's vector: a constant unit vector (never live, so never searched; a zero
# vector would have no cosine distance at all).
PURGED_VECTOR = [1.0] + [0.0] * (settings.EMBEDDING_DIMENSIONS - 1)


@dataclass(frozen=True)
class Purged:
    purged: list[str]
    already: list[str]


def memory_purge(*, actor: User | None, via: str, memory_ids: Sequence[str], reason: str) -> Purged:
    """Erase these memories' content, all or none. Operators' and superusers' tool: no
    visibility rule applies (``actor`` is recorded; the callers check who may)."""
    ids = sorted(set(memory_ids))
    if not reason.strip():
        raise ValidationFailed("Say why these memories are purged.", fields={"reason": ["This field is required."]})
    if not ids:
        raise ValidationFailed("Name the memories to purge.", fields={"memory_ids": ["This list may not be empty."]})
    for memory_id in ids:
        if not is_memory_id(memory_id):
            raise memory_not_found(memory_id)
    with transaction.atomic():
        locked = lock_memories(ids)
        for memory_id in ids:
            if memory_id not in locked:
                raise memory_not_found(memory_id)
        already = [pk for pk in ids if locked[pk].purged_at is not None]
        todo = [locked[pk] for pk in ids if locked[pk].purged_at is None]
        if todo:
            _purge(actor=actor, via=via, memories=todo, reason=reason)
    for memory in todo:
        logger.warning("purged %s (via %s, by %s): %s", memory.pk, via, actor or "an operator", reason)
    return Purged(purged=[memory.pk for memory in todo], already=already)


def _purge(*, actor: User | None, via: str, memories: list[Memory], reason: str) -> None:
    now = timezone.now()
    ids = [memory.pk for memory in memories]
    was = {memory.pk: memory.state for memory in memories}
    for memory in memories:
        if memory.state in (State.LIVE, State.PENDING):
            # Purged words can never count again: retired first, as a forget would.
            closes_loop = retire(memory=memory, successor=None, now=now, from_state=memory.state)
            event_append(
                memory=memory,
                action=EventAction.FORGOTTEN,
                actor=actor,
                reason=f"purged: {reason}",
                data={"loop_closed": closes_loop, "purge": True},
            )
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('zeromemory.purging', %s, true)", [",".join(ids)])
    Memory.objects.filter(pk__in=ids, purged_at__isnull=True).update(
        content=TOMBSTONE,
        content_fingerprint=content_fingerprint(TOMBSTONE),
        metadata={},
        session=None,
        session_key="",
        embedding=PURGED_VECTOR,
        purged_at=now,
        updated_at=now,
    )
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('zeromemory.purging', '', true)")
    MemorySentence.objects.filter(memory_id__in=ids).delete()
    scrubbed = _scrub_idempotency_records(ids)
    for memory in memories:
        event_append(
            memory=memory,
            action=EventAction.PURGED,
            actor=actor,
            reason=reason,
            data={"via": via, "was": was[memory.pk], "replays_scrubbed": scrubbed.get(memory.pk, 0)},
        )
    for hook in hooks.on_memories_purged:
        hook(ids)


def _scrub_idempotency_records(ids: list[str]) -> dict[str, int]:
    """The stored answers of writes (kept for replays, 24 hours) quote memories: their content,
    metadata and previews. Each quote of a purged memory becomes its tombstone, so a replay
    answers what the store now holds."""
    counts: dict[str, int] = {}
    wanted = set(ids)
    candidates = IdempotencyRecord.objects.annotate(text=Cast("response_body", TextField())).filter(
        response_body__isnull=False
    )
    for memory_id in ids:
        for record in candidates.filter(text__contains=memory_id).only("pk", "response_body"):
            body = _scrub(record.response_body, wanted, counts)
            IdempotencyRecord.objects.filter(pk=record.pk).update(response_body=body)
    return counts


def _scrub(value: Any, ids: set[str], counts: dict[str, int]) -> Any:
    if isinstance(value, list):
        return [_scrub(item, ids, counts) for item in value]
    if not isinstance(value, dict):
        return value
    scrubbed = {key: _scrub(item, ids, counts) for key, item in value.items()}
    if scrubbed.get("id") in ids:
        counts[scrubbed["id"]] = counts.get(scrubbed["id"], 0) + 1
        for key, tombstone in (("content", TOMBSTONE), ("preview", TOMBSTONE), ("metadata", {}), ("session", None)):
            if key in scrubbed:
                scrubbed[key] = tombstone
    return scrubbed
