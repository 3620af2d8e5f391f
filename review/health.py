"""Is anything judging? The hygiene task queue as `manage.py check` and the admin see it (SPEC R-H10).

django-tasks-db keeps one row per task: READY while it waits, then a worker claims it (RUNNING,
``started_at`` set) and finishes it (SUCCESSFUL or FAILED). The workers leave no other trace, so
"a worker is running" is read from the rows: the queue is **stalled** when a hygiene task has been
waiting longer than ``HYGIENE_STALL_SECONDS`` and no worker has started one within that time either.
Writes still succeed while it is stalled; only nothing new is judged.

The status is one statement, cheap however many tasks the table has kept (it is never pruned):
the waiting side reads django-tasks-db's partial index on READY rows, and the last start walks
review's index on ``started_at`` backwards from its end (migration 0002; without it, that side was a
scan of every task ever run: 0.3 s on a million rows).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connections, router
from django.utils import timezone
from django_tasks import task_backends
from django_tasks_db import DatabaseBackend
from django_tasks_db.models import DBTaskResult, get_date_max

from memories.humanize import age

# review.tasks.hygiene_check_task's path as django-tasks stores it (not imported: that would load
# the pipeline and its judge into every `check`; a test keeps the two equal).
HYGIENE_TASK_PATH = "review.tasks.hygiene_check_task"

START_THE_WORKER = (
    "Start the worker: `./zm serve` starts it beside the server; alone: python manage.py db_worker --queue-name '*'."
)


@dataclass(frozen=True)
class HygieneQueueStatus:
    waiting: int  # hygiene tasks that could run now and wait for a worker
    oldest_waiting_since: datetime | None  # since when the longest-waiting of them could have run
    last_started_at: datetime | None  # when a worker last took a hygiene task (None: never)
    checked_at: datetime
    stall_seconds: int

    @property
    def oldest_wait_seconds(self) -> float | None:
        if self.oldest_waiting_since is None:
            return None
        return max(0.0, (self.checked_at - self.oldest_waiting_since).total_seconds())

    @property
    def stalled(self) -> bool:
        """A task has waited longer than the threshold, and no worker has started one within it."""
        if not self.waiting or self.oldest_waiting_since is None:
            return False
        cutoff = self.checked_at - timedelta(seconds=self.stall_seconds)
        taken_recently = self.last_started_at is not None and self.last_started_at >= cutoff
        return self.oldest_waiting_since < cutoff and not taken_recently

    def describe(self) -> str:
        """The figures, in one sentence: how many wait, since when, and when a worker last took one."""
        tasks = "1 hygiene task has" if self.waiting == 1 else f"{self.waiting} hygiene tasks have"
        since = (
            f" since {_when(self.oldest_waiting_since)} ({age(self.oldest_wait_seconds or 0)})"
            if self.oldest_waiting_since is not None
            else ""
        )
        if self.last_started_at is None:
            last = "no worker has ever taken one"
        else:
            ago = age((self.checked_at - self.last_started_at).total_seconds())
            last = f"a worker last took one at {_when(self.last_started_at)} ({ago} ago)"
        return f"{tasks} been waiting{since} and {last}: no new memory is being judged."


def _when(moment: datetime) -> str:
    return f"{timezone.localtime(moment):%Y-%m-%d %H:%M:%S %Z}"


def _queue_backend_aliases() -> list[str]:
    """The configured task backends that queue in django-tasks-db's table."""
    return [backend.alias for backend in task_backends.all() if isinstance(backend, DatabaseBackend)]


def hygiene_queue_status(*, now: datetime | None = None, using: str | None = None) -> HygieneQueueStatus | None:
    """The hygiene queue's figures in one query; None when tasks are not queued in the database
    (the immediate or dummy backend: nothing waits for a worker then)."""
    aliases = _queue_backend_aliases()
    if not aliases:
        return None
    now = now or timezone.now()
    alias = using or router.db_for_read(DBTaskResult) or "default"
    table = connections[alias].ops.quote_name(DBTaskResult._meta.db_table)
    # The literals 'READY' and IS NOT NULL are the predicates of the two partial indexes, written out
    # so that the planner can match them whatever the parameter binding. A task deferred with
    # run_after waits from then, not from when it was enqueued.
    sql = f"""
        SELECT count(*),
               min(CASE WHEN run_after = %(never)s THEN enqueued_at ELSE greatest(enqueued_at, run_after) END),
               (SELECT max(started_at) FROM {table}
                 WHERE started_at IS NOT NULL AND task_path = %(path)s AND backend_name = ANY(%(aliases)s))
          FROM {table}
         WHERE status = 'READY' AND task_path = %(path)s AND backend_name = ANY(%(aliases)s)
           AND (run_after = %(never)s OR run_after <= %(now)s)
    """  # the table name comes from the model; every value is a parameter
    params: dict[str, Any] = {"never": get_date_max(), "path": HYGIENE_TASK_PATH, "aliases": aliases, "now": now}
    with connections[alias].cursor() as cursor:
        cursor.execute(sql, params)
        waiting, oldest_waiting_since, last_started_at = cursor.fetchone()
    return HygieneQueueStatus(
        waiting=waiting,
        oldest_waiting_since=oldest_waiting_since,
        last_started_at=last_started_at,
        checked_at=now,
        stall_seconds=settings.HYGIENE_STALL_SECONDS,
    )


def hygiene_queue_stalled() -> HygieneQueueStatus | None:
    """The status when the queue is stalled (for the admin banner), else None."""
    status = hygiene_queue_status()
    return status if status is not None and status.stalled else None
