"""Signed webhooks: the sender of the outbox that the database fills (docs/api.md, "Webhooks").

A change and its deliveries commit together: a trigger turns each event of the feed into one
``WebhookDelivery`` per active endpoint of the project that asked for its type (migration 0016).
The sender (``manage.py deliver_webhooks``, beside the task worker) claims due deliveries with
``SKIP LOCKED`` and a lease, POSTs them signed, and records each attempt; a failure waits out the
next backoff delay, and after the last one the delivery is dead until an admin sends it again.
A sender that dies mid-delivery leaves the claim to expire, and the delivery is sent again: at
least once, deduplicated by the receiver on the event id, which every retry repeats.

Signature (Stripe's scheme): ``Zeromemory-Signature: t=<unix seconds>,v1=<hex>`` where hex is
HMAC-SHA256 keyed with the endpoint's secret over ``"<t>.<body>"``, the exact bytes sent.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import http.client
import json
import logging
import socket
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ImproperlyConfigured
from django.db import connection, transaction
from django.utils import timezone

from memories.agent.results import feed_event_body, memory_body
from memories.choices import DeliveryState, Visibility
from memories.models import FeedEvent, Memory, WebhookAttempt, WebhookDelivery, WebhookEndpoint
from memories.platform import webhook_targets
from memories.platform.reconnect import DATABASE_LOST, RECONNECT_FIRST_SECONDS, next_pause

logger = logging.getLogger(__name__)

CHANNEL = "zeromemory_webhooks"
SIGNATURE_HEADER = "Zeromemory-Signature"
# How far a receiver should accept a signature's timestamp from its own clock (a replay window).
SIGNATURE_TOLERANCE_SECONDS = 300
USER_AGENT = "zeromemory-webhooks/1"
# Kept of a failed answer's body, for the delivery log.
ERROR_EXCERPT = 300


# -- signing ---------------------------------------------------------------------------------


def signature(secret: str, timestamp: int, body: bytes) -> str:
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={digest}"


def verify(secret: str, header: str, body: bytes, *, now: float | None = None) -> bool:
    """What a receiver does (docs/api.md has the same in a few lines): the signature matches the
    body as received, and its timestamp is recent."""
    try:
        parts = dict(item.split("=", 1) for item in header.split(","))
        timestamp = int(parts["t"])
    except (ValueError, KeyError):
        return False
    if abs((time.time() if now is None else now) - timestamp) > SIGNATURE_TOLERANCE_SECONDS:
        return False
    expected = signature(secret, timestamp, body).split("v1=", 1)[1]
    return hmac.compare_digest(expected, parts.get("v1", ""))


# -- what is sent ----------------------------------------------------------------------------


def payload(event: FeedEvent) -> dict[str, Any]:
    """The event as the feed shows it, with the memories it names as they stand now (a purged
    one as its tombstone, a retired one retired). Only the project's shared memories are ever
    named: the outbox trigger queues nothing about a private one."""
    ids = [event.memory_id, *([event.other_memory_id] if event.other_memory_id else [])]
    if event.project_id is None:
        return feed_event_body(event) | {"memories": {}}
    memories = (
        Memory.objects.filter(pk__in=ids, project_id=event.project_id, visibility=Visibility.PROJECT)
        .select_related("owner", "project")
        .defer("embedding", "search_vector")
    )
    return feed_event_body(event) | {"memories": {memory.pk: memory_body(memory) for memory in memories}}


# -- claiming and attempting ------------------------------------------------------------------


def _lease() -> timedelta:
    # Longer than any attempt can take, so a live sender always records its attempt first.
    return timedelta(seconds=settings.WEBHOOK_TIMEOUT_SECONDS + 30)


def deliveries_claim(*, limit: int) -> list[int]:
    """Take up to ``limit`` due deliveries for this sender: pushed past a lease, so that no other
    sender takes them meanwhile and a crashed one's become due again.

    At most WEBHOOK_ENDPOINT_CONCURRENCY of one endpoint's deliveries are in flight at once,
    across every sender thread and process: a receiver that answers slowly (or trickles its
    answer until the deadline) held every thread it was given, and four of them stalled every
    webhook. The count is the database's (``claimed_until``), taken under a lock on the
    endpoint's row, so two senders never both fill the same endpoint's room."""
    if limit <= 0:
        return []
    now = timezone.now()
    until = now + _lease()
    deliveries, endpoints = WebhookDelivery._meta.db_table, WebhookEndpoint._meta.db_table
    with transaction.atomic(), connection.cursor() as cursor:
        # The endpoints with something due, locked in id order; one another sender is counting
        # is skipped (this sender takes others'). NO KEY UPDATE: the outbox trigger's inserts
        # (a foreign key's KEY SHARE) go on meanwhile.
        cursor.execute(
            f"""
            SELECT endpoint.id FROM {endpoints} AS endpoint
             WHERE endpoint.active AND EXISTS (
                   SELECT 1 FROM {deliveries} AS due
                    WHERE due.endpoint_id = endpoint.id AND due.state = 'pending' AND due.next_attempt_at <= %s)
             ORDER BY endpoint.id
               FOR NO KEY UPDATE OF endpoint SKIP LOCKED
            """,
            [now],
        )
        locked = [row[0] for row in cursor.fetchall()]
        if not locked:
            return []
        # A statement of its own, so its snapshot sees every claim committed by the sender that
        # held these locks before. Each endpoint's room is the cap less what is in flight; the
        # earliest due fill it, the earliest of all first. Guarded by the state it was read in.
        cursor.execute(
            f"""
            WITH room AS (
                SELECT locked.id, %(cap)s - (
                       SELECT count(*) FROM {deliveries} AS held
                        WHERE held.endpoint_id = locked.id AND held.state = 'pending'
                          AND held.claimed_until > %(now)s) AS free
                  FROM unnest(%(locked)s::bigint[]) AS locked(id)
            ), chosen AS (
                SELECT due.id FROM room CROSS JOIN LATERAL (
                       SELECT candidate.id, candidate.next_attempt_at FROM {deliveries} AS candidate
                        WHERE candidate.endpoint_id = room.id AND candidate.state = 'pending'
                          AND candidate.next_attempt_at <= %(now)s
                        ORDER BY candidate.next_attempt_at, candidate.id
                        LIMIT greatest(room.free, 0)) AS due
                 ORDER BY due.next_attempt_at, due.id
                 LIMIT %(limit)s
            )
            UPDATE {deliveries} AS delivery SET next_attempt_at = %(until)s, claimed_until = %(until)s
              FROM chosen
             WHERE delivery.id = chosen.id AND delivery.state = 'pending' AND delivery.next_attempt_at <= %(now)s
            RETURNING delivery.id
            """,
            {
                "cap": settings.WEBHOOK_ENDPOINT_CONCURRENCY,
                "now": now,
                "locked": locked,
                "limit": limit,
                "until": until,
            },
        )
        return sorted(row[0] for row in cursor.fetchall())


@dataclass(frozen=True)
class Sent:
    status: int | None  # None: no HTTP answer
    error: str
    milliseconds: int

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


def _answer(status: int, excerpt: str, location: str) -> str:
    """The delivery log's note on an HTTP answer ("" for a success)."""
    if 200 <= status < 300:
        return ""
    if 300 <= status < 400:
        # Not followed: a redirect is this attempt's answer, and following it would send the
        # event (and read the answer) somewhere nobody checked.
        return f"HTTP {status}: redirect to {location[:200]} not followed"
    return f"HTTP {status}: {excerpt}".strip()


def _post(url: str, body: bytes, headers: dict[str, str]) -> Sent:
    started = time.monotonic()

    def took() -> int:
        return round((time.monotonic() - started) * 1000)

    # Checked at every attempt, not only when the endpoint was saved: what a name resolves to
    # changes. The connection goes to an address this check passed (no second lookup).
    try:
        target = webhook_targets.target_check(url)
    except webhook_targets.TargetRefused as refused:
        return Sent(None, f"refused: {refused}", took())
    except (OSError, ValueError, UnicodeError) as failure:
        return Sent(None, f"{type(failure).__name__}: {failure}", took())
    limit = settings.WEBHOOK_TIMEOUT_SECONDS
    connection = target.connection(timeout=limit)
    # The whole attempt within the limit, not each socket read: a receiver that trickles a byte
    # at a time never let a read time out, and held a sender thread for as long as it liked
    # (four of them stalled every webhook). At the deadline the socket is shut down under the
    # blocked read. Kept apart from the connection, which lets go of it once the response is
    # read to the close (HTTP/1.0) while the response still reads from it.
    cut = threading.Event()
    sockets: list[socket.socket] = []

    def cut_off() -> None:
        cut.set()
        for sock in [connection.sock, *sockets]:
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)

    deadline = threading.Timer(limit, cut_off)
    deadline.daemon = True
    deadline.start()
    try:
        connection.connect()
        sockets.append(connection.sock)
        connection.request("POST", target.path, body=body, headers=headers)
        response = connection.getresponse()
        excerpt = response.read(ERROR_EXCERPT).decode(errors="replace")
        sent = Sent(response.status, _answer(response.status, excerpt, response.getheader("Location", "")), took())
    except TimeoutError:
        sent = Sent(None, f"no answer within {limit:g} s", took())
    except (OSError, http.client.HTTPException) as failure:
        sent = Sent(None, f"{type(failure).__name__}: {failure}", took())
    finally:
        deadline.cancel()
        connection.close()
    if cut.is_set():
        return Sent(None, f"no answer within {limit:g} s", took())
    return sent


def logged_url(url: str) -> str:
    """What a log line shows of an endpoint's URL: its scheme, host and port. A receiver's path
    and query are often its credential (a chat service's incoming-hook URL is one), and logs
    travel further than the admin's endpoint page."""
    parts = urlsplit(url)
    host = parts.hostname or "?"
    if ":" in host:
        host = f"[{host}]"
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}/…"


def delivery_attempt(*, delivery_id: int) -> str | None:
    """Send one claimed delivery and record the attempt; the state it is left in (None if it was
    no longer pending, e.g. an admin's action got there first)."""
    delivery = WebhookDelivery.objects.select_related("endpoint", "event", "event__project").get(pk=delivery_id)
    if delivery.state != DeliveryState.PENDING:
        return None
    number = delivery.attempts + 1
    body = json.dumps(payload(delivery.event), separators=(",", ":"), ensure_ascii=False).encode()
    stamp = int(time.time())
    sent = _post(
        delivery.endpoint.url,
        body,
        {
            "Content-Type": "application/json",
            "User-Agent": USER_AGENT,
            "Zeromemory-Event-Id": delivery.event.public_id,
            "Zeromemory-Event-Type": delivery.event.type,
            "Zeromemory-Delivery": str(delivery.pk),
            "Zeromemory-Attempt": str(number),
            SIGNATURE_HEADER: signature(delivery.endpoint.secret, stamp, body),
        },
    )
    now = timezone.now()
    delays = settings.WEBHOOK_RETRY_DELAYS
    if sent.ok:
        state, changes = DeliveryState.DELIVERED, {"delivered_at": now}
    elif number > len(delays):
        state, changes = DeliveryState.DEAD, {}
    else:
        state, changes = DeliveryState.PENDING, {"next_attempt_at": now + timedelta(seconds=delays[number - 1])}
    with transaction.atomic():
        # Guarded by the state it was claimed in: an admin's resend or a second sender after an
        # expired lease must not be overwritten by this (late) outcome.
        updated = WebhookDelivery.objects.filter(
            pk=delivery.pk, state=DeliveryState.PENDING, attempts=number - 1
        ).update(
            state=state,
            attempts=number,
            last_attempt_at=now,
            last_status=sent.status,
            last_error=sent.error[:2000],
            claimed_until=None,
            **changes,
        )
        if updated:
            # Room at its endpoint again: a sender waiting on the cap (this or another) takes the next.
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_notify(%s, '')", [CHANNEL])
            WebhookAttempt.objects.create(
                delivery=delivery,
                number=number,
                at=now,
                status=sent.status,
                error=sent.error[:2000],
                milliseconds=sent.milliseconds,
            )
    log = logger.info if sent.ok else logger.warning
    log(
        "webhook %s %s to endpoint %s (%s): attempt %d %s (%d ms) -> %s",
        delivery.event.public_id,
        delivery.event.type,
        delivery.endpoint_id,
        logged_url(delivery.endpoint.url),
        number,
        sent.status or sent.error,
        sent.milliseconds,
        state,
    )
    return state if updated else None


def deliveries_resend(*, actor: User | None, delivery_ids: list[int]) -> int:
    """Send these deliveries again now, delivered or dead ones included, with a fresh retry
    budget (the admin's action). The log keeps every earlier attempt."""
    with transaction.atomic():
        resent = WebhookDelivery.objects.filter(pk__in=delivery_ids).update(
            state=DeliveryState.PENDING, attempts=0, next_attempt_at=timezone.now(), delivered_at=None
        )
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, '')", [CHANNEL])
    logger.info("webhook deliveries %s sent again by %s", delivery_ids, actor)
    return resent


def next_due_in(*, cap: float) -> float:
    """Seconds until the next pending delivery a sender may take is due (0 if one is), at most
    ``cap``. An endpoint at its cap of deliveries in flight counts only by when those leases end:
    its due ones wait for room (an attempt recorded wakes the senders), or the sender would spin."""
    deliveries, endpoints = WebhookDelivery._meta.db_table, WebhookEndpoint._meta.db_table
    now = timezone.now()
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            WITH full_up AS (
                SELECT endpoint_id FROM {deliveries}
                 WHERE state = 'pending' AND claimed_until > %(now)s
                 GROUP BY endpoint_id HAVING count(*) >= %(cap)s
            )
            SELECT delivery.next_attempt_at FROM {deliveries} AS delivery
              JOIN {endpoints} AS endpoint ON endpoint.id = delivery.endpoint_id AND endpoint.active
             WHERE delivery.state = 'pending'
               AND (delivery.claimed_until > %(now)s
                    OR delivery.endpoint_id NOT IN (SELECT endpoint_id FROM full_up))
             ORDER BY delivery.next_attempt_at
             LIMIT 1
            """,
            {"now": now, "cap": settings.WEBHOOK_ENDPOINT_CONCURRENCY},
        )
        row = cursor.fetchone()
    if row is None:
        return cap
    due: datetime = row[0]
    return max(0.0, min(cap, (due - now).total_seconds()))


# -- the sender loop ----------------------------------------------------------------------------


class Sender:
    """Claims and sends deliveries until ``stop`` is set, ``concurrency`` at a time: a slow
    receiver holds at most WEBHOOK_ENDPOINT_CONCURRENCY threads of all the senders, not the
    queue. Woken by the trigger's NOTIFY at commit (and at each attempt recorded, which may make
    room at an endpoint), and by a timer for retries that fall due."""

    def __init__(self, *, concurrency: int, poll_seconds: float, stop: threading.Event) -> None:
        self.concurrency = concurrency
        self.poll_seconds = poll_seconds
        self.stop = stop
        self.sent = 0
        self.connected = False

    def run(self, *, until_idle: bool = False) -> int:
        """Send until stopped; with ``until_idle``, until nothing is due or in flight (for a
        one-off run). Returns how many attempts were made.

        Outlives the database: a lost connection (a restart, a failover, the database not up yet)
        is logged and tried again with a growing pause (up to RECONNECT_MAX_SECONDS), where the
        sender used to exit and leave the outbox to fill. Deliveries it held come back through
        their leases."""
        pause = RECONNECT_FIRST_SECONDS
        while not self.stop.is_set():
            self.connected = False
            try:
                return self._run(until_idle=until_idle)
            except DATABASE_LOST as lost:
                if self.connected:
                    pause = RECONNECT_FIRST_SECONDS
                logger.warning("webhook sender lost the database (%s); trying again in %g s", lost, pause)
                connection.close()
                self.stop.wait(pause)
                pause = next_pause(pause)
        return self.sent

    def _run(self, *, until_idle: bool) -> int:
        listener = _listen()
        in_flight: set[Future[str | None]] = set()
        with ThreadPoolExecutor(self.concurrency, thread_name_prefix="webhook") as pool:
            try:
                while not self.stop.is_set():
                    in_flight = {future for future in in_flight if not future.done()}
                    claimed = deliveries_claim(limit=self.concurrency - len(in_flight))
                    self.connected = True
                    for delivery_id in claimed:
                        in_flight.add(pool.submit(self._attempt, delivery_id))
                    if claimed:
                        continue
                    wait = next_due_in(cap=self.poll_seconds)
                    if until_idle and not in_flight and wait > 0:
                        break
                    if in_flight:
                        wait = min(wait, 0.05)
                    _wait_for_notify(listener, wait, stop=self.stop)
            finally:
                listener.close()
        return self.sent

    def _attempt(self, delivery_id: int) -> str | None:
        try:
            return delivery_attempt(delivery_id=delivery_id)
        except Exception:
            # One delivery's surprise must not stop the sender; its lease brings it back.
            logger.exception("webhook delivery %s failed unexpectedly", delivery_id)
            return None
        finally:
            self.sent += 1
            connection.close()


def _listen() -> Any:
    """A connection of the sender's own that LISTENs. A LISTEN belongs to its session, and a
    transaction-mode pooler hands the server connection to other clients between transactions
    (the NOTIFY would wake nobody, or another client): behind one (ZEROMEMORY_DB_POOLER), it
    connects to DATABASE_DIRECT_URL, the database itself (docs/scaling.md, "Behind a pooler")."""
    import psycopg

    if settings.DB_POOLER != "none":
        if settings.DATABASE_DIRECT_MISSING:
            raise ImproperlyConfigured(settings.DATABASE_DIRECT_MISSING_MESSAGE)
        listener = psycopg.connect(settings.DATABASE_DIRECT_URL, autocommit=True)
        listener.execute(f"LISTEN {CHANNEL}")
        return listener
    params = {
        key: value
        for key, value in connection.get_connection_params().items()
        if key not in {"cursor_factory", "context", "prepare_threshold"}
    }
    listener = psycopg.connect(**params, autocommit=True)
    listener.execute(f"LISTEN {CHANNEL}")
    return listener


# The longest the sender waits without looking at its stop flag. A signal does not end the
# wait (Python resumes an interrupted select), so with a long poll interval SIGTERM went unseen
# until the timer ran out: past R-P1's 30 seconds at ZEROMEMORY_WEBHOOK_POLL_SECONDS above 30.
STOP_CHECK_SECONDS = 1.0


def _wait_for_notify(listener: Any, seconds: float, *, stop: threading.Event) -> None:
    """Until a NOTIFY arrives, ``seconds`` pass or ``stop`` is set (seen within a second)."""
    deadline = time.monotonic() + seconds
    while not stop.is_set():
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return
        for _ in listener.notifies(timeout=min(remaining, STOP_CHECK_SECONDS), stop_after=1):
            return
