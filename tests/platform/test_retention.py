"""Retention (issue 33; memories.platform.retention): the tables that grew with every task,
delivery and request are pruned — rows past their retention go, rows within it stay, and rows
still in play (a task READY or RUNNING, a delivery pending) stay whatever their age. The feed
is never pruned. Two pruners at once delete each row once; the task worker prunes on its own."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.contrib.sessions.models import Session
from django.core.management import CommandError, call_command
from django.utils import timezone
from django_tasks_db.models import DBTaskResult, get_date_max

from memories import services
from memories.choices import DeliveryState
from memories.models import (
    FeedEvent,
    IdempotencyRecord,
    MaintenanceRun,
    Project,
    RateLimitBucket,
    WebhookAttempt,
    WebhookDelivery,
    WebhookEndpoint,
)
from memories.platform.retention import retention_claim_run, retention_prune
from tests.factories import make_memory
from tests.memories.test_remember_concurrency import run_together
from tests.platform.helpers import ROOT, child_env, eventually
from tests.platform.server import session_database_url

pytestmark = pytest.mark.django_db(transaction=True)

DAY = timedelta(days=1)


@pytest.fixture(autouse=True)
def loopback_allowed(settings: Any) -> None:
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.1/32"]


def task(status: str, *, finished_ago: timedelta | None, enqueued_ago: timedelta = 100 * DAY) -> str:
    now = timezone.now()
    row = DBTaskResult.objects.create(
        status=status,
        args_kwargs={"args": ["m_1"], "kwargs": {}},
        task_path="review.tasks.hygiene_check_task",
        backend_name="default",
        run_after=get_date_max(),
        started_at=None if status == "READY" else now - enqueued_ago,
        finished_at=None if finished_ago is None else now - finished_ago,
    )
    # enqueued_at is auto_now_add: aged afterwards, as a row left in the queue for long would be.
    DBTaskResult.objects.filter(pk=row.pk).update(enqueued_at=now - enqueued_ago)
    return str(row.pk)


def tasks_left() -> set[str]:
    return {str(pk) for pk in DBTaskResult.objects.values_list("pk", flat=True)}


def deliveries(acme: Project, dave: Any, count: int) -> list[WebhookDelivery]:
    """``count`` deliveries, pending as the outbox trigger writes them, each with one attempt."""
    endpoint = services.webhook_endpoint_save(
        actor=dave.user, via="tests", endpoint=WebhookEndpoint(project=acme, url="http://127.0.0.1:9/hook")
    )
    for number in range(count):
        make_memory(dave.user, f"Release {number} ships on Thursday.", project=acme)
    rows = list(WebhookDelivery.objects.filter(endpoint=endpoint).order_by("id"))
    assert len(rows) == count
    WebhookAttempt.objects.bulk_create(
        [WebhookAttempt(delivery=row, number=1, status=500, error="boom") for row in rows]
    )
    return rows


def age(delivery: WebhookDelivery, state: str, ago: timedelta) -> int:
    """``delivery`` in ``state`` since ``ago``, its created_at and every time as old as that."""
    then = timezone.now() - ago
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        state=state,
        created_at=then,
        next_attempt_at=then,
        last_attempt_at=then,
        delivered_at=then if state == DeliveryState.DELIVERED else None,
    )
    return delivery.pk


def test_rows_past_retention_go_rows_within_and_in_play_stay(acme: Project, alice: Any, dave: Any) -> None:
    # Finished tasks: 7 days by default.
    old_success = task("SUCCESSFUL", finished_ago=8 * DAY)
    old_failure = task("FAILED", finished_ago=8 * DAY)
    recent = task("SUCCESSFUL", finished_ago=6 * DAY)
    waiting = task("READY", finished_ago=None)
    running = task("RUNNING", finished_ago=None)
    # A task run again keeps its earlier finished_at until it finishes: its status guards it.
    running_again = task("RUNNING", finished_ago=50 * DAY)

    # Deliveries: delivered 30 days, dead 90 days; pending ones for ever.
    rows = deliveries(acme, dave, 6)
    old_delivered = age(rows[0], DeliveryState.DELIVERED, 31 * DAY)
    new_delivered = age(rows[1], DeliveryState.DELIVERED, 29 * DAY)
    old_dead = age(rows[2], DeliveryState.DEAD, 91 * DAY)
    new_dead = age(rows[3], DeliveryState.DEAD, 89 * DAY)
    old_pending = age(rows[4], DeliveryState.PENDING, 400 * DAY)
    just_pending = rows[5].pk
    feed_before = FeedEvent.objects.count()

    # Idempotency keys: 24 hours (alice's own next write would drop her expired one; here she
    # never writes again, and only the retention takes it).
    now = timezone.now()
    stale_key = IdempotencyRecord.objects.create(
        credential=alice.credential, key="old", request_hash="h", created_at=now - timedelta(hours=25)
    ).pk
    live_key = IdempotencyRecord.objects.create(
        credential=alice.credential, key="new", request_hash="h", created_at=now - timedelta(hours=23)
    ).pk
    # Rate-limit windows: gone once their time has passed; API tokens and the login throttle alike.
    RateLimitBucket.objects.create(key="credential:1", tat=now - timedelta(seconds=5))
    RateLimitBucket.objects.create(key="login:127.0.0.0/24:alice", tat=now + timedelta(minutes=10))
    # Sessions: gone once expired.
    Session.objects.create(session_key="expired", session_data="", expire_date=now - timedelta(minutes=1))
    Session.objects.create(session_key="current", session_data="", expire_date=now + DAY)

    done = retention_prune(batch=1)  # one row per transaction: every batch boundary crossed

    assert done == {
        "finished tasks": 2,
        "delivered webhooks": 1,
        "dead webhooks": 1,
        "idempotency keys": 1,
        "rate-limit windows": 1,
        "expired admin sessions": 1,
    }
    assert tasks_left() == {recent, waiting, running, running_again}
    assert old_success not in tasks_left()
    assert old_failure not in tasks_left()
    kept = {new_delivered, new_dead, old_pending, just_pending}
    assert set(WebhookDelivery.objects.values_list("pk", flat=True)) == kept
    # Their attempt logs went with them, and only theirs.
    assert set(WebhookAttempt.objects.values_list("delivery_id", flat=True)) == kept
    assert {old_delivered, old_dead}.isdisjoint(kept)
    # The feed is the audit log and the feed's history: never pruned.
    assert FeedEvent.objects.count() == feed_before
    assert list(IdempotencyRecord.objects.values_list("pk", flat=True)) == [live_key]
    assert stale_key != live_key
    assert list(RateLimitBucket.objects.values_list("key", flat=True)) == ["login:127.0.0.0/24:alice"]
    assert list(Session.objects.values_list("session_key", flat=True)) == ["current"]
    # Nothing left to do.
    assert set(retention_prune().values()) == {0}


def test_a_retention_set_to_zero_keeps_that_kind_for_ever(settings: Any) -> None:
    settings.RETAIN_FINISHED_TASKS_DAYS = 0
    old = task("SUCCESSFUL", finished_ago=3000 * DAY)
    assert retention_prune()["finished tasks"] is None
    assert tasks_left() == {old}


def test_prune_command_reports_per_table_and_dry_run_deletes_nothing(acme: Project, dave: Any) -> None:
    old = [task("SUCCESSFUL", finished_ago=8 * DAY) for _ in range(3)]
    kept = task("SUCCESSFUL", finished_ago=DAY)
    rows = deliveries(acme, dave, 2)
    age(rows[0], DeliveryState.DEAD, 100 * DAY)

    out = io.StringIO()
    call_command("prune", "--dry-run", stdout=out)
    assert out.getvalue().splitlines() == [
        "finished tasks: 3 would be deleted",
        "delivered webhooks: 0 would be deleted",
        "dead webhooks: 1 would be deleted",
        "idempotency keys: 0 would be deleted",
        "rate-limit windows: 0 would be deleted",
        "expired admin sessions: 0 would be deleted",
    ]
    assert tasks_left() == {*old, kept}
    assert WebhookDelivery.objects.count() == 2

    out = io.StringIO()
    call_command("prune", "--batch", "2", stdout=out)
    assert out.getvalue().splitlines()[:3] == [
        "finished tasks: 3 deleted",
        "delivered webhooks: 0 deleted",
        "dead webhooks: 1 deleted",
    ]
    assert tasks_left() == {kept}
    assert list(WebhookDelivery.objects.values_list("pk", flat=True)) == [rows[1].pk]

    with pytest.raises(CommandError, match="--batch must be at least 1"):
        call_command("prune", "--batch", "0")


def test_two_pruners_at_once_delete_each_row_once(acme: Project, dave: Any) -> None:
    now = timezone.now()
    DBTaskResult.objects.bulk_create(
        [
            DBTaskResult(
                status="SUCCESSFUL",
                args_kwargs={"args": [], "kwargs": {}},
                task_path="review.tasks.hygiene_check_task",
                backend_name="default",
                run_after=get_date_max(),
                finished_at=now - 10 * DAY - timedelta(seconds=number),
            )
            for number in range(400)
        ]
    )
    running = task("RUNNING", finished_ago=None)
    rows = deliveries(acme, dave, 30)
    for row in rows:
        age(row, DeliveryState.DELIVERED, 40 * DAY)

    results = run_together([lambda: retention_prune(batch=7), lambda: retention_prune(batch=7)])

    assert not [result for result in results if isinstance(result, Exception)], results
    assert sum(result["finished tasks"] for result in results) == 400
    assert sum(result["delivered webhooks"] for result in results) == 30
    assert tasks_left() == {running}
    assert WebhookDelivery.objects.count() == 0
    assert WebhookAttempt.objects.count() == 0


def test_the_periodic_run_is_claimed_by_one_caller_per_interval() -> None:
    results = run_together([lambda: retention_claim_run(interval_seconds=3600)] * 4)
    assert sorted(results) == [False, False, False, True]
    assert retention_claim_run(interval_seconds=3600) is False
    # Once the interval has passed, the next caller (one only) runs it again.
    MaintenanceRun.objects.filter(name="retention").update(ran_at=timezone.now() - timedelta(hours=2))
    results = run_together([lambda: retention_claim_run(interval_seconds=3600)] * 3)
    assert sorted(results) == [False, False, True]


def test_a_real_task_worker_prunes_on_its_own(tmp_path: Path, acme: Project, dave: Any) -> None:
    old = task("SUCCESSFUL", finished_ago=8 * DAY)
    recent = task("SUCCESSFUL", finished_ago=DAY)
    running = task("RUNNING", finished_ago=None)
    rows = deliveries(acme, dave, 2)
    age(rows[0], DeliveryState.DELIVERED, 31 * DAY)
    pending = age(rows[1], DeliveryState.PENDING, 31 * DAY)
    log = tmp_path / "worker.log"
    env = child_env(
        DATABASE_URL=session_database_url(),
        ZEROMEMORY_DATA_DIR=str(tmp_path / "data"),
        ZEROMEMORY_LOG_LEVEL="INFO",
        ZEROMEMORY_RETENTION_INTERVAL_SECONDS="3600",
    )
    with open(log, "ab") as out:
        worker = subprocess.Popen(
            [
                *(sys.executable, str(ROOT / "manage.py"), "task_worker", "--queue-name", "not-a-queue"),
                *("--interval", "0.2", "--worker-id", "pruner", "--no-startup-delay"),
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=out,
            start_new_session=True,
        )
    try:
        eventually(lambda: tasks_left() == {recent, running}, 60, f"the worker pruned: {log.read_text()}")
        eventually(lambda: MaintenanceRun.objects.filter(name="retention").exists(), 10, "its run recorded")
        assert list(WebhookDelivery.objects.values_list("pk", flat=True)) == [pending]
        assert old not in tasks_left()
        # The worker logs its run after committing it: the line may trail the row by a moment.
        line = "retention: pruned finished tasks=1, delivered webhooks=1"
        eventually(lambda: line in log.read_text(), 10, f"its run logged: {log.read_text()}")
        assert worker.poll() is None, log.read_text()
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGTERM)
            worker.wait(timeout=30)


def test_a_dead_delivery_sent_again_while_pruning_is_kept(acme: Project, dave: Any) -> None:
    rows = deliveries(acme, dave, 1)
    dead = age(rows[0], DeliveryState.DEAD, 100 * DAY)
    # An admin sends it again (back to pending), in a transaction still open while the prune runs.
    with psycopg.connect(session_database_url()) as admin:
        admin.execute("UPDATE memories_webhookdelivery SET state = 'pending', attempts = 0 WHERE id = %s", [dead])
        # The prune neither waits for the row nor deletes it.
        assert retention_prune()["dead webhooks"] == 0
        admin.commit()
    # Committed: it is pending now, and pending deliveries stay whatever their age.
    assert retention_prune()["dead webhooks"] == 0
    assert WebhookDelivery.objects.get(pk=dead).state == DeliveryState.PENDING
    assert WebhookAttempt.objects.filter(delivery_id=dead).count() == 1
