"""``manage.py migrate`` under a PostgreSQL advisory lock (SPEC R-P3).

Several replicas that start at once (``./zm serve`` migrates on every start; a deploy runs
``migrate`` as a one-off step, and a rollout may start it more than once) each ran the same
migrations against one database: the second failed on tables the first had just created, or
applied a data migration twice. Here each run first takes one session-level advisory lock: the
others wait, then find nothing left to apply. The lock is the session's, and a concurrent index
build cannot run in a transaction: behind a transaction-mode pooler (ZEROMEMORY_DB_POOLER) the
command runs on DATABASE_DIRECT_URL instead (docs/scaling.md, "Behind a pooler")."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.commands.migrate import Command as DjangoMigrate
from django.db import DEFAULT_DB_ALIAS, connections

from zeromemory.direct_connection import connection_go_direct

# One key for every zeromemory database: 64-bit, from the name (pg_advisory_lock's bigint form).
LOCK_NAME = "zeromemory.migrate"
LOCK_POLL_SECONDS = 0.5


class Command(DjangoMigrate):
    help = f"{DjangoMigrate.help} One run at a time per database (a PostgreSQL advisory lock)."

    @staticmethod
    def _try_lock(connection: Any) -> bool:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_try_advisory_lock(hashtextextended(%s, 0))", [LOCK_NAME])
            return bool(cursor.fetchone()[0])

    def execute(self, *args: Any, **options: Any) -> Any:
        # Before the system checks, which query the database already.
        connection_go_direct(connections[options.get("database") or DEFAULT_DB_ALIAS])
        return super().execute(*args, **options)

    def handle(self, *args: Any, **options: Any) -> None:
        connection = connections[options["database"]]
        waited = False
        # Asked again and again, never waited for inside PostgreSQL: a waiting pg_advisory_lock
        # is an open transaction, and the migration the lock holder runs may build an index
        # CONCURRENTLY, which waits for every open transaction to end — a deadlock (seen with
        # migration 0025 and three replicas starting at once).
        while not self._try_lock(connection):
            if not waited and options["verbosity"] >= 1:
                self.stdout.write("Waiting for another migrate on this database to finish…")
            waited = True
            time.sleep(LOCK_POLL_SECONDS)
        try:
            super().handle(*args, **options)
        finally:
            # Released with the session anyway; unlocked here so a long-lived caller (the test
            # runner, call_command in a shell) does not hold it.
            if connection.connection is not None:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", [LOCK_NAME])
