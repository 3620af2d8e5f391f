"""``manage.py restore FILE`` (``./zm restore FILE``): a backup of ``backup`` back into the
database, whole, never half (zeromemory.backup), then migrated to this version and its event
feed moved to a new epoch (memories.services.feed_epoch)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connections
from django.db.migrations.loader import MigrationLoader

from memories.services import feed_epoch_advance
from zeromemory.backup import BackupError, archive_read, restore, target_from_settings
from zeromemory.direct_connection import connection_go_direct
from zeromemory.embedded_db import join_configured_server


class Command(BaseCommand):
    help = (
        "Restore a backup made by the backup command into the database. Into an empty database it "
        "restores in one transaction; over one that holds data only with --replace, which restores "
        "into a new database beside it and swaps the two when all of it is in (stop the server, the "
        "worker and the sender first). Either way nothing is half-restored, and a refused or failed "
        "restore changes nothing. Afterwards the migrations are applied and the event feed moves to "
        "a new epoch: feed cursors from before answer feed_epoch_changed (410)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument(
            "--replace",
            action="store_true",
            help="Replace a database that holds data with the backup (everything in it is replaced).",
        )
        parser.add_argument("--database", default="default", help="The database settings' alias (default: default).")

    def execute(self, *args: Any, **options: Any) -> Any:
        # Behind a transaction pooler, on the database itself (DATABASE_DIRECT_URL).
        connection_go_direct(connections[options.get("database") or "default"])
        return super().execute(*args, **options)

    def handle(self, *args: Any, file: Path, replace: bool, database: str, **options: Any) -> None:
        verbose = options["verbosity"] >= 1
        try:
            archive = archive_read(file)
        except BackupError as exc:
            raise CommandError(str(exc)) from None
        # Checked before anything is touched: a backup of a newer version has tables and columns
        # this code does not know, and its migrations cannot be undone here.
        known = set(MigrationLoader(None, ignore_no_migrations=True).disk_migrations)
        unknown = sorted(archive.migrations - known)
        if unknown:
            listed = ", ".join(f"{app}.{name}" for app, name in unknown[:5])
            raise CommandError(
                f"{archive.path} was made by a newer version of zeromemory (migrations {listed} are not in this "
                "one). Nothing was changed. Upgrade this installation first, then restore."
            )
        join_configured_server()
        connection = connections[database]
        target = target_from_settings(connection.settings_dict)
        epoch: list[int] = []

        def then() -> None:
            # The restore runs on its own connections; Django's start afresh on the restored
            # database (a backup of an older version is brought up to this one's tables).
            connection.close()
            call_command("migrate", database=database, interactive=False, verbosity=0)
            epoch.append(feed_epoch_advance(reason=f"restored from {archive.path.name}", using=database).epoch)
            connection.close()
            if hasattr(connection, "close_pool"):
                connection.close_pool()

        try:
            summary = restore(
                archive, target, replace=replace, progress=self._progress if verbose else lambda _: None, then=then
            )
        except BackupError as exc:
            raise CommandError(str(exc)) from None
        if verbose:
            self.stdout.write(
                f"Restored {archive.path} into {summary.dbname} in {summary.seconds:.1f} s"
                f"{' (the data that was there is replaced)' if summary.replaced else ''}. The event feed is "
                f"now at epoch {epoch[0]}: feed readers' saved cursors answer feed_epoch_changed (410) and they "
                "read the feed again from the start."
            )

    def _progress(self, line: str) -> None:
        self.stderr.write(f"restore: {line}")
