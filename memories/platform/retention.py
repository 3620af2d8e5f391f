"""Retention: the tables that grow with every request, task or delivery are pruned (issue 33).

Each rule names rows that no longer say anything: a finished task's result, a webhook delivery
that arrived (or was given up on) long ago, a rate-limit key whose window has passed, an
idempotency key past its 24 hours, an expired admin session. Rows still in play are never
touched whatever their age: a task READY or RUNNING has no ``finished_at``, a delivery still
pending is neither delivered nor dead, and every rule's condition is checked on the row as it
stands when it is locked. The feed (FeedEvent) and the lifecycle and account logs are NEVER
pruned: they are the audit log and the feed's history, which a reader may page from its start.

Deleted in batches of ``batch`` rows, each batch its own short transaction: no long lock, no
huge transaction, no WAL burst. Each batch picks its rows by an index on the column the cutoff
is on (migration 0031; EXPLAIN in docs/scaling.md), oldest first, and locks them FOR UPDATE SKIP
LOCKED: two pruners at once (two workers, a worker and ``manage.py prune``) delete disjoint rows
and never wait on each other or on a request, so each row goes once and nobody errs or stalls.

The task workers run it (``RetentionPruner``, a thread of ``manage.py task_worker``) at most once
per ZEROMEMORY_RETENTION_INTERVAL_SECONDS across all of them: the one whose guarded upsert of
``MaintenanceRun`` moves its time forward prunes; the others find the time already moved.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import connection, transaction
from django_tasks_db.models import DBTaskResult

from memories.models import (
    IdempotencyRecord,
    MaintenanceRun,
    RateLimitBucket,
    WebhookAttempt,
    WebhookDelivery,
)
from memories.platform.idempotency import IDEMPOTENCY_TTL
from memories.platform.reconnect import DATABASE_LOST

logger = logging.getLogger("zeromemory.retention")

DEFAULT_BATCH = 1000
RUN_NAME = "retention"
_DAY = 86400.0


@dataclass(frozen=True)
class Rule:
    """``table``'s rows matching ``condition`` (SQL over the row, ``%(keep)s`` the seconds kept)
    go, ``order`` first (the indexed column, so a batch reads the index from its oldest end)."""

    name: str
    table: str
    key: str
    condition: str
    order: str | None
    keep_seconds: Callable[[], float | None]  # None: this rule is off (kept for ever)
    # Rows of other tables that refer to the doomed ones and go with them (``doomed`` holds their keys).
    dependents: str = ""


def _days(setting: str) -> Callable[[], float | None]:
    def keep() -> float | None:
        days: float = getattr(settings, setting)
        return days * _DAY if days > 0 else None

    return keep


_WEBHOOK_ATTEMPTS = (
    f", attempts AS (DELETE FROM {WebhookAttempt._meta.db_table}"
    " WHERE delivery_id = ANY (ARRAY(SELECT id FROM doomed)))"
)

RULES: tuple[Rule, ...] = (
    Rule(
        name="finished tasks",
        table=DBTaskResult._meta.db_table,
        key="id",
        condition="status IN ('SUCCESSFUL', 'FAILED') AND finished_at < now() - make_interval(secs => %(keep)s)",
        order="finished_at",
        keep_seconds=_days("RETAIN_FINISHED_TASKS_DAYS"),
    ),
    Rule(
        name="delivered webhooks",
        table=WebhookDelivery._meta.db_table,
        key="id",
        condition="state = 'delivered' AND delivered_at < now() - make_interval(secs => %(keep)s)",
        order="delivered_at",
        keep_seconds=_days("RETAIN_DELIVERED_WEBHOOKS_DAYS"),
        dependents=_WEBHOOK_ATTEMPTS,
    ),
    Rule(
        name="dead webhooks",
        table=WebhookDelivery._meta.db_table,
        key="id",
        condition="state = 'dead' AND last_attempt_at < now() - make_interval(secs => %(keep)s)",
        order="last_attempt_at",
        keep_seconds=_days("RETAIN_DEAD_WEBHOOKS_DAYS"),
        dependents=_WEBHOOK_ATTEMPTS,
    ),
    Rule(
        # Past its 24 hours a key is replaced anyway (run_idempotently deletes its own
        # credential's); this takes those of credentials no longer used, which nothing else did.
        name="idempotency keys",
        table=IdempotencyRecord._meta.db_table,
        key="id",
        condition="created_at < now() - make_interval(secs => %(keep)s)",
        order="created_at",
        keep_seconds=IDEMPOTENCY_TTL.total_seconds,
    ),
    Rule(
        # A key whose theoretical arrival time has passed says the same as no row (API tokens'
        # budgets and the admin login throttle alike). Not indexed on purpose: every request
        # moves its key's ``tat``, and an index on it would turn each of those HOT updates into
        # an index write; the table holds one row per key active within a window plus what the
        # requests' own sampled sweep has not yet taken, so scanning it is cheap.
        name="rate-limit windows",
        table=RateLimitBucket._meta.db_table,
        key="key",
        condition="tat < clock_timestamp() - make_interval(secs => %(keep)s)",
        order=None,
        keep_seconds=lambda: 0.0,
    ),
    Rule(
        name="expired admin sessions",
        table=Session._meta.db_table,
        key="session_key",
        condition="expire_date < now() - make_interval(secs => %(keep)s)",
        order="expire_date",
        keep_seconds=lambda: 0.0,
    ),
)
# Worker heartbeats are not here: the task lease's reaper deletes those silent for a day
# (memories.platform.task_lease) every few seconds already.


def _batch_sql(rule: Rule) -> str:
    # ``= ANY (ARRAY(...))``, not ``IN (SELECT ...)``: planned as a semi-join, the delete of a
    # thousand keys read the whole table (a sequential scan under a hash join, every batch);
    # an array of keys is looked up in the primary key, a row at a time (docs/scaling.md).
    order = f"ORDER BY {rule.order}" if rule.order else ""
    return f"""
    WITH doomed AS MATERIALIZED (
        SELECT {rule.key} FROM {rule.table} WHERE {rule.condition} {order}
         LIMIT %(batch)s FOR UPDATE SKIP LOCKED
    ){rule.dependents},
    gone AS (DELETE FROM {rule.table} WHERE {rule.key} = ANY (ARRAY(SELECT {rule.key} FROM doomed)) RETURNING 1)
    SELECT count(*) FROM gone
    """


def _count_sql(rule: Rule) -> str:
    return f"SELECT count(*) FROM {rule.table} WHERE {rule.condition}"


def retention_rule_prune(*, rule: Rule, batch: int = DEFAULT_BATCH, dry_run: bool = False) -> int | None:
    """Deletes ``rule``'s rows in batches; how many went (or would go, ``dry_run``). None: off."""
    keep = rule.keep_seconds()
    if keep is None:
        return None
    params = {"keep": keep, "batch": batch}
    if dry_run:
        with connection.cursor() as cursor:
            cursor.execute(_count_sql(rule), params)
            return int(cursor.fetchone()[0])
    total = 0
    sql = _batch_sql(rule)
    while True:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, params)
            deleted = int(cursor.fetchone()[0])
        total += deleted
        # A short batch: nothing more matched, or the rest is locked by another pruner, which
        # takes it (SKIP LOCKED never waits).
        if deleted < batch:
            return total


def retention_prune(
    *, batch: int = DEFAULT_BATCH, dry_run: bool = False, progress: Callable[[Rule, int | None], None] | None = None
) -> dict[str, int | None]:
    """Every rule in turn: rows deleted (or counted) per rule's name; None for a rule turned off."""
    done: dict[str, int | None] = {}
    for rule in RULES:
        done[rule.name] = retention_rule_prune(rule=rule, batch=batch, dry_run=dry_run)
        if progress is not None:
            progress(rule, done[rule.name])
    return done


def retention_claim_run(*, interval_seconds: float) -> bool:
    """True for the one caller that may prune now: none did within ``interval_seconds``.

    One upsert: concurrent callers queue on the row, and each re-checks the time on the row as
    the one before left it, so only the first moves it and gets True."""
    table = MaintenanceRun._meta.db_table
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} AS run (name, ran_at) VALUES (%(name)s, now())"
            " ON CONFLICT (name) DO UPDATE SET ran_at = excluded.ran_at"
            " WHERE run.ran_at <= now() - make_interval(secs => %(interval)s)"
            " RETURNING 1",
            {"name": RUN_NAME, "interval": interval_seconds},
        )
        return cursor.fetchone() is not None


def retention_prune_if_due(*, interval_seconds: float, batch: int = DEFAULT_BATCH) -> dict[str, int | None] | None:
    """Prunes if no worker has within ``interval_seconds``; what it deleted, or None if not due."""
    if not retention_claim_run(interval_seconds=interval_seconds):
        return None
    done = retention_prune(batch=batch)
    logger.info("retention: pruned %s", ", ".join(f"{name}={count}" for name, count in done.items()))
    return done


class RetentionPruner(threading.Thread):
    """Prunes when due, checking every minute (or every interval, if shorter), until ``stop``
    is set. A thread of its own, with its own connection: a long prune never delays the
    worker's heartbeat (a worker that stops beating is robbed of its task) nor its tasks."""

    def __init__(self, *, stop: threading.Event) -> None:
        super().__init__(name="retention-pruner", daemon=True)
        self.stop = stop

    def run(self) -> None:
        interval: float = settings.RETENTION_INTERVAL_SECONDS
        try:
            while not self.stop.is_set():
                try:
                    retention_prune_if_due(interval_seconds=interval)
                except DATABASE_LOST as lost:
                    logger.warning("retention pruning lost the database (%s); trying again later", lost)
                    connection.close()
                except Exception:
                    logger.exception("retention pruning failed; trying again later")
                    connection.close()
                if self.stop.wait(min(interval, 60.0)):
                    break
        finally:
            connection.close()
