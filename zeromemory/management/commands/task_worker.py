"""``manage.py task_worker``: django-tasks-db's ``db_worker``, outliving the database (SPEC R-P3).

Its loop raised the first OperationalError of a lost connection (a restart, a failover, the
database not up yet) and the worker exited, leaving the hygiene queue to grow with nothing to
take it. Here the loop is run again after a growing pause, logged; a task it was running when
the connection went is put back in the queue by the worker itself once the database answers
again, before it takes up its loop (the lease cannot: the worker is alive and beats).

Tasks a worker held when it died (SIGKILL, the OOM killer, a lost machine) stayed RUNNING for
ever. Each worker now beats from a thread of its own and puts back in the queue the tasks of a
worker silent for longer than ZEROMEMORY_TASK_LEASE_SECONDS (memories.platform.task_lease).

And the workers prune what grows with use (finished tasks, old deliveries, spent rate-limit and
idempotency rows) once per ZEROMEMORY_RETENTION_INTERVAL_SECONDS among them all
(memories.platform.retention)."""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django import db as django_db
from django_tasks_db.management.commands import db_worker as upstream

from memories.platform.reconnect import DATABASE_LOST, RECONNECT_FIRST_SECONDS, RECONNECT_MAX_SECONDS, next_pause
from memories.platform.retention import RetentionPruner
from memories.platform.task_lease import Heartbeat, tasks_requeue_own

logger = logging.getLogger("zeromemory.worker")


class Worker(upstream.Worker):
    def run(self) -> None:
        # The lease (memories.platform.task_lease): beating from a thread of its own, so that a
        # task running long on this one never looks abandoned, and reaping for the workers that
        # died holding one.
        stop = threading.Event()
        heartbeat = Heartbeat(worker_id=self.worker_id, backend_name=self.backend_name, stop=stop)
        heartbeat.start()
        # Retention (memories.platform.retention): the workers prune the tables that grow with
        # use, at most once per interval among them all, so no operator has to remember to.
        pruner = RetentionPruner(stop=stop)
        pruner.start()
        try:
            self._run_outliving_the_database()
        finally:
            stop.set()
            heartbeat.join(timeout=5)
            pruner.join(timeout=5)

    def _run_outliving_the_database(self) -> None:
        pause = RECONNECT_FIRST_SECONDS
        lost_once = False
        while self.running:
            started = time.monotonic()
            try:
                if lost_once:
                    # The task it was running when the connection went, if any: never finished.
                    tasks_requeue_own(worker_id=self.worker_id, backend_name=self.backend_name)
                    lost_once = False
                super().run()
                return
            except DATABASE_LOST as lost:
                lost_once = True
                if time.monotonic() - started > RECONNECT_MAX_SECONDS:
                    pause = RECONNECT_FIRST_SECONDS  # it had been working: a new outage
                logger.warning("task worker lost the database (%s); trying again in %g s", lost, pause)
                django_db.connections.close_all()
                # In short steps, so a SIGTERM meanwhile (self.running cleared) stops it promptly.
                waited = 0.0
                while self.running and waited < pause:
                    time.sleep(0.1)
                    waited += 0.1
                pause = next_pause(pause)


class Command(upstream.Command):
    help = f"{upstream.Command.help} Outlives a lost database connection (tries again)."

    def handle(self, *args: Any, **options: Any) -> None:
        # upstream's handle builds its Worker by the module's name: ours for this run.
        original = upstream.Worker
        upstream.Worker = Worker  # type: ignore[misc]
        try:
            super().handle(*args, **options)
        finally:
            upstream.Worker = original  # type: ignore[misc]
