"""Idempotent retries of remember (REST's ``Idempotency-Key`` header, MCP's ``idempotency_key``).

Agents retry on timeouts. A replay with the same key and arguments gets the original answer
and changes nothing, whichever door either call came through; the same key with other
arguments is refused (422); a replay while the first request still runs is refused (409). The
record is written in the same transaction as the memory, so a crash can never leave a stored
memory whose key would run the write again. Keys are per credential and kept for IDEMPOTENCY_TTL (24 hours).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from memories.errors import IdempotencyInProgress, IdempotencyKeyReused, ValidationFailed
from memories.models import Credential, IdempotencyRecord

IDEMPOTENCY_TTL = timedelta(hours=24)
# A first attempt that has run this long without finishing died (its process crashed).
ABANDONED_AFTER = timedelta(minutes=2)
MAX_KEY_LENGTH = 255
CLAIM_ATTEMPTS = 3


def request_fingerprint(verb: str, arguments: Any) -> str:
    """What a key is bound to: the verb and its arguments as the caller sent them."""
    canonical = json.dumps([verb, arguments], sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def run_idempotently(*, credential: Credential, key: str, request_hash: str, perform: Callable[[], Any]) -> Any:
    """Run ``perform`` once per (credential, key); replays answer what the first run did."""
    if not key or len(key) > MAX_KEY_LENGTH:
        raise ValidationFailed(
            f"Idempotency-Key must be 1 to {MAX_KEY_LENGTH} characters.",
            fields={"Idempotency-Key": ["1 to 255 characters"]},
        )
    now = timezone.now()
    IdempotencyRecord.objects.filter(credential=credential, created_at__lt=now - IDEMPOTENCY_TTL).delete()
    record = _claim(credential, key, request_hash, now)
    if record.status == IdempotencyRecord.Status.COMPLETED:
        return record.response_body

    try:
        with transaction.atomic():
            body = perform()
            IdempotencyRecord.objects.filter(pk=record.pk).update(
                status=IdempotencyRecord.Status.COMPLETED,
                response_status=_rest_status(body),
                response_body=_storable(body),
            )
    except BaseException:
        # Nothing was stored; free the key so the client's retry runs the write afresh.
        IdempotencyRecord.objects.filter(pk=record.pk, status=IdempotencyRecord.Status.IN_PROGRESS).delete()
        raise
    return body


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


def _claim(credential: Credential, key: str, request_hash: str, now: Any) -> IdempotencyRecord:
    # The holder of a key may free it (its write failed) between our insert hitting its row and
    # our read of that row: then the key is free again and the claim starts over.
    for _ in range(CLAIM_ATTEMPTS):
        try:
            with transaction.atomic():
                return IdempotencyRecord.objects.create(
                    credential=credential, key=key, request_hash=request_hash, created_at=now
                )
        except IntegrityError:
            pass
        with transaction.atomic():
            record = IdempotencyRecord.objects.select_for_update().filter(credential=credential, key=key).first()
            if record is None:
                continue
            if record.request_hash != request_hash:
                raise IdempotencyKeyReused(
                    "This Idempotency-Key was used with a different request body; use a new key for a new request."
                )
            if record.status == IdempotencyRecord.Status.IN_PROGRESS:
                if now - record.created_at < ABANDONED_AFTER:
                    raise _in_progress()
                # The first attempt died mid-way (its transaction rolled back): take it over.
                record.created_at = now
                record.save(update_fields=["created_at"])
            return record
    # Other attempts with this key keep taking and freeing it: one of them is running.
    raise _in_progress()


def _in_progress() -> IdempotencyInProgress:
    return IdempotencyInProgress("A request with this Idempotency-Key is still being processed; retry shortly.")
