"""``manage.py backup FILE`` (``./zm backup FILE``): the whole database, in one consistent
snapshot, with pg_dump (zeromemory.backup)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections

from zeromemory.backup import BackupError, backup, target_from_settings
from zeromemory.direct_connection import connection_go_direct
from zeromemory.embedded_db import join_configured_server


class Command(BaseCommand):
    help = (
        "Back up the whole database (every table, sequence and extension: memories, users, tokens, "
        "memberships, grants, policies, webhooks, conflicts, the feed and the audit log) to FILE, in "
        "pg_dump's custom format, from one consistent snapshot while the server keeps running. "
        "Restore it with the restore command. Behind a transaction pooler (ZEROMEMORY_DB_POOLER) it "
        "connects to DATABASE_DIRECT_URL (docs/operations.md)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--force", action="store_true", help="Overwrite FILE if it exists.")
        parser.add_argument("--database", default="default", help="The database settings' alias (default: default).")

    def execute(self, *args: Any, **options: Any) -> Any:
        # Behind a transaction pooler, on the database itself (DATABASE_DIRECT_URL).
        connection_go_direct(connections[options.get("database") or "default"])
        return super().execute(*args, **options)

    def handle(self, *args: Any, file: Path, force: bool, database: str, **options: Any) -> None:
        join_configured_server()
        target = target_from_settings(connections[database].settings_dict)
        verbose = options["verbosity"] >= 1
        try:
            summary = backup(target, file, force=force, progress=self._progress if verbose else lambda _: None)
        except BackupError as exc:
            raise CommandError(str(exc)) from None
        if verbose:
            self.stdout.write(
                f"Backed up {target.dbname} ({summary.tables} tables) to {summary.path}: "
                f"{summary.size / 1e6:.1f} MB in {summary.seconds:.1f} s."
            )

    def _progress(self, line: str) -> None:
        self.stderr.write(f"backup: {line}")
