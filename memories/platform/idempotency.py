"""Idempotent retries of remember (REST's ``Idempotency-Key`` header, MCP's ``idempotency_key``).

Agents retry on timeouts. A replay with the same key and arguments gets the original answer
and changes nothing, whichever door either call came through; the same key with other
arguments is refused (422); a replay while the first request still runs is refused (409).
Keys are per credential and kept for IDEMPOTENCY_TTL (24 hours).

The claim on a key is a transaction-scoped advisory lock, taken without waiting in the write's
own transaction, and the record of the answer is inserted in that same transaction. A retry
that finds the lock held answers 409 at once; one that gets it reads the record: the answer to
replay, or none, and then it runs the write. A first attempt whose process dies (SIGKILL, the
OOM killer) loses its connection, PostgreSQL aborts its transaction, and the lock, the
uncommitted write and its record vanish together: the retry runs at once. (The release before
this one committed an IN_PROGRESS row first, in a transaction of its own; a killed process left
it behind, and every retry with that key answered 409 until it was two minutes old.) A
transaction-scoped lock lives and dies with its transaction, so it holds behind a
transaction-mode pooler (ZEROMEMORY_DB_POOLER=transaction), which keeps no session state.

The embedding runs before that transaction opens (``prepare``): a batch's can take seconds, and
a pooled connection is held only for the write.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from memories.errors import IdempotencyInProgress, IdempotencyKeyReused, ValidationFailed
from memories.models import Credential, IdempotencyRecord

IDEMPOTENCY_TTL = timedelta(hours=24)
# Only for IN_PROGRESS rows, which this release never writes: the release before it committed
# one as its claim, and during a rolling upgrade one of its processes may still be running the
# write (409), or may have died doing so, which a row this old says (taken over).
ABANDONED_AFTER = timedelta(minutes=2)
MAX_KEY_LENGTH = 255


def request_fingerprint(verb: str, arguments: Any) -> str:
    """What a key is bound to: the verb and its arguments as the caller sent them."""
    canonical = json.dumps([verb, arguments], sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def run_idempotently(
    *, credential: Credential, key: str, request_hash: str, prepare: Callable[[], Callable[[], Any]]
) -> Any:
    """Run the write once per (credential, key); replays answer what the first run did.

    ``prepare`` checks the arguments and embeds (outside any transaction) and returns the write,
    which runs in the claim's transaction. Neither runs for a replay."""
    if not key or len(key) > MAX_KEY_LENGTH:
        raise ValidationFailed(
            f"Idempotency-Key must be 1 to {MAX_KEY_LENGTH} characters.",
            fields={"Idempotency-Key": ["1 to 255 characters"]},
        )
    now = timezone.now()
    # In a statement of its own: in the claim's transaction, two keys of one credential would
    # queue on the same expired rows' locks for as long as the first one's write runs.
    IdempotencyRecord.objects.filter(credential=credential, created_at__lt=now - IDEMPOTENCY_TTL).delete()
    # A replay, the common retry, answers from the record without embedding or a transaction.
    record = IdempotencyRecord.objects.filter(credential=credential, key=key).first()
    if record is not None and _replayable(record, request_hash, now):
        return record.response_body

    write = prepare()
    with transaction.atomic():
        if not _claim(credential, key):
            raise _in_progress()  # the first attempt's transaction is still open
        # Locked: a process of the release before this one taking over the same abandoned row
        # waits for our commit, then finds it COMPLETED.
        record = IdempotencyRecord.objects.select_for_update().filter(credential=credential, key=key).first()
        if record is not None and _replayable(record, request_hash, now):
            return record.response_body  # the first attempt committed since our first look
        body = write()
        answer = {
            "status": IdempotencyRecord.Status.COMPLETED,
            "response_status": _rest_status(body),
            "response_body": _storable(body),
            "created_at": now,
        }
        if record is not None:
            updated = IdempotencyRecord.objects.filter(
                pk=record.pk, status=IdempotencyRecord.Status.IN_PROGRESS
            ).update(**answer)
            if updated != 1:  # cannot happen under the row lock; never record over another answer
                raise _in_progress()
            return body
        try:
            with transaction.atomic():
                IdempotencyRecord.objects.create(credential=credential, key=key, request_hash=request_hash, **answer)
        except IntegrityError:
            # A process of the release before this one claimed the key meanwhile (its
            # IN_PROGRESS row, committed on its own): its attempt runs, ours is undone.
            raise _in_progress() from None
    return body


def _claim(credential: Credential, key: str) -> bool:
    """Take the key's transaction-scoped advisory lock (pg_try_advisory_xact_lock's bigint form,
    the key hashed to 64 bits; a collision between two keys costs a spurious 409), without
    waiting: False when another transaction holds it."""
    digest = hashlib.sha256(f"idempotency\x1f{credential.pk}\x1f{key}".encode()).digest()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [int.from_bytes(digest[:8], "big", signed=True)])
        row = cursor.fetchone()
    return bool(row and row[0])


def _replayable(record: IdempotencyRecord, request_hash: str, now: Any) -> bool:
    """Whether ``record`` answers the request (COMPLETED); False when the write is to run (an
    abandoned claim of the release before this one); 422 for another request, 409 for a claim of
    that release still young enough to be running."""
    if record.request_hash != request_hash:
        raise IdempotencyKeyReused(
            "This Idempotency-Key was used with a different request body; use a new key for a new request."
        )
    if record.status == IdempotencyRecord.Status.COMPLETED:
        return True
    if now - record.created_at < ABANDONED_AFTER:
        raise _in_progress()
    return False


def _storable(value: Any) -> Any:
    """``value`` as jsonb can hold it. An answer may echo a NUL the request sent (a batch item's
    error naming an unknown argument), and PostgreSQL refuses NUL in jsonb: storing it failed
    the whole request with a 503. The stored copy has U+FFFD in its place."""
    if isinstance(value, str):
        return value.replace("\x00", "\ufffd")
    if isinstance(value, list):
        return [_storable(item) for item in value]
    if isinstance(value, dict):
        return {_storable(key): _storable(item) for key, item in value.items()}
    return value


def _rest_status(body: Any) -> int:
    """The status REST answers a remember with. Replays read only the body (each door derives its
    own answer from it), but the release before this one replays from this column, and a row it
    finds without one fails: kept so a rollback within the keys' 24 hours stays safe."""
    return 200 if isinstance(body, dict) and body.get("absorbed") else 201


def _in_progress() -> IdempotencyInProgress:
    return IdempotencyInProgress("A request with this Idempotency-Key is still being processed; retry shortly.")
