"""``manage.py task_worker``: django-tasks-db's ``db_worker``, outliving the database (SPEC R-P3).

Its loop raised the first OperationalError of a lost connection (a restart, a failover, the
database not up yet) and the worker exited, leaving the hygiene queue to grow with nothing to
take it. Here the loop is run again after a growing pause, logged; a task it was running when
the connection went is left to the database's own guards (the pipeline's writes are guarded by
the expected state and run in transactions that a lost connection rolls back)."""

from __future__ import annotations

import logging
import time
from typing import Any

from django import db as django_db
from django_tasks_db.management.commands import db_worker as upstream

from memories.platform.reconnect import DATABASE_LOST, RECONNECT_FIRST_SECONDS, RECONNECT_MAX_SECONDS, next_pause

logger = logging.getLogger("zeromemory.worker")


class Worker(upstream.Worker):
    def run(self) -> None:
        pause = RECONNECT_FIRST_SECONDS
        while self.running:
            started = time.monotonic()
            try:
                super().run()
                return
            except DATABASE_LOST as lost:
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
