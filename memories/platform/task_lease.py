"""Tasks a dead worker held go back to the queue (SPEC R-P3; manage.py task_worker).

django-tasks-db marks a task RUNNING when a worker claims it (``started_at``, the worker's id
appended to ``worker_ids``) and finishes it when the task returns. A worker killed in between
(SIGKILL, the OOM killer, its machine lost) left the task RUNNING for ever: nothing else ever
took it up. Each worker now beats — ``WorkerHeartbeat.seen_at``, in the database's clock, from a
thread of its own so that a long task does not stop it — and every worker reaps: a task RUNNING
since before the lease under a worker with no heartbeat within the lease is put back to READY,
and a worker takes it from there. Our tasks are safe to run again (review/tasks.py says why).
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django_tasks_db.models import DBTaskResult

from memories.models import WorkerHeartbeat
from memories.platform.reconnect import DATABASE_LOST

logger = logging.getLogger("zeromemory.worker")

# Heartbeats of workers gone this long are deleted (each worker process has an id of its own).
FORGET_AFTER_SECONDS = 86400.0


def worker_beat(*, worker_id: str) -> None:
    """Record that ``worker_id`` is alive now (the database's clock: workers' clocks differ)."""
    table = WorkerHeartbeat._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (worker_id, seen_at) VALUES (%s, now())"
            " ON CONFLICT (worker_id) DO UPDATE SET seen_at = excluded.seen_at",
            [worker_id],
        )


def worker_forget(*, worker_id: str) -> None:
    """A worker that stops cleanly takes its heartbeat with it."""
    WorkerHeartbeat.objects.filter(worker_id=worker_id).delete()


def _requeue(cursor: Any, condition: str, params: dict[str, object]) -> list[tuple[int, str]]:
    """The one guarded UPDATE both requeues share: ``backend``'s tasks still RUNNING (the
    expected state, re-checked on the row as it stands after a racing reaper) that meet
    ``condition`` go back to READY; each id with the worker that held it."""
    tasks = DBTaskResult._meta.db_table
    cursor.execute(
        f"""
        UPDATE {tasks} AS task SET status = 'READY', started_at = NULL
         WHERE task.status = 'RUNNING'
           AND task.backend_name = %(backend)s
           AND {condition}
        RETURNING task.id, task.worker_ids ->> -1
        """,
        params,
    )
    return list(cursor.fetchall())


def tasks_requeue_abandoned(*, backend_name: str, lease_seconds: float) -> list[str]:
    """Put back to READY the tasks of ``backend_name`` RUNNING under a worker that has not beaten
    within ``lease_seconds``; the ids requeued.

    One guarded UPDATE: the conditions are the expected state. Two reapers at once: the second
    waits for the first's row lock, re-checks ``status = 'RUNNING'`` on the row as it now stands,
    and leaves it. A task claimed again meanwhile has a fresh ``started_at`` (set NULL here, set
    by the claim), so it is never robbed; nor is a slow task whose worker still beats."""
    beats = WorkerHeartbeat._meta.db_table
    with transaction.atomic(), connection.cursor() as cursor:
        requeued = _requeue(
            cursor,
            f"""task.started_at < now() - make_interval(secs => %(lease)s)
               AND NOT EXISTS (
                   SELECT 1 FROM {beats} AS beat
                    WHERE beat.worker_id = task.worker_ids ->> -1
                      AND beat.seen_at >= now() - make_interval(secs => %(lease)s))""",
            {"backend": backend_name, "lease": lease_seconds},
        )
        cursor.execute(
            f"DELETE FROM {beats} WHERE seen_at < now() - make_interval(secs => %s)",
            [max(FORGET_AFTER_SECONDS, lease_seconds * 10)],
        )
    for task_id, worker_id in requeued:
        logger.warning("task %s was held by worker %s, silent beyond the lease; back in the queue", task_id, worker_id)
    return [str(task_id) for task_id, _ in requeued]


def tasks_requeue_own(*, worker_id: str, backend_name: str) -> list[str]:
    """Put back to READY the tasks of ``backend_name`` RUNNING under ``worker_id``; the ids requeued.

    For a worker that lost the database in the middle of a task and is about to take up its loop
    again: it runs one task at a time and runs none now, so a task still RUNNING under its id is
    one it will never finish. The lease cannot see it — the worker is alive and beats — and it
    stayed RUNNING for ever (./zm bench --topology, restarting the primary mid-task). Guarded by
    the expected state: a task that another worker took up since (its id now last) is left."""
    with transaction.atomic(), connection.cursor() as cursor:
        requeued = [
            str(task_id)
            for task_id, _ in _requeue(
                cursor, "task.worker_ids ->> -1 = %(worker)s", {"backend": backend_name, "worker": worker_id}
            )
        ]
    for task_id in requeued:
        logger.warning("task %s was running when this worker lost the database; back in the queue", task_id)
    return requeued


class Heartbeat(threading.Thread):
    """Beats for ``worker_id`` every quarter lease and reaps the tasks of silent workers, until
    ``stop`` is set. A daemon thread: it dies with the worker, which is the point.

    It reaps only after beating without a break for a whole lease itself: after a database
    outage every heartbeat is stale, and a live worker must have had its chance to beat again
    before anyone judges it gone."""

    def __init__(self, *, worker_id: str, backend_name: str, stop: threading.Event) -> None:
        super().__init__(name="task-heartbeat", daemon=True)
        self.worker_id = worker_id
        self.backend_name = backend_name
        self.stop = stop

    def run(self) -> None:
        lease = settings.TASK_LEASE_SECONDS
        beating_since: float | None = None
        while True:
            try:
                worker_beat(worker_id=self.worker_id)
                if beating_since is None:
                    beating_since = time.monotonic()
                if time.monotonic() - beating_since >= lease:
                    tasks_requeue_abandoned(backend_name=self.backend_name, lease_seconds=lease)
            except DATABASE_LOST as lost:
                if beating_since is not None:
                    logger.warning("task worker heartbeat lost the database (%s); beating again shortly", lost)
                beating_since = None
                connection.close()
            except Exception:
                # A surprise must not stop the beat: a live worker that stops beating is robbed.
                logger.exception("task worker heartbeat failed; beating again shortly")
                beating_since = None
                connection.close()
            if self.stop.wait(lease / 4):
                break
        try:
            worker_forget(worker_id=self.worker_id)
        except DATABASE_LOST:
            pass  # its heartbeat goes stale instead
        finally:
            connection.close()
