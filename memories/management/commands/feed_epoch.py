from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from memories.services import feed_epoch_advance, feed_epoch_check


class Command(BaseCommand):
    help = (
        "Show the event feed's epoch, or with --new move it to a new one: run it after restoring "
        "the database by other means than ./zm restore that keep the cluster (a point-in-time "
        "recovery on a managed service, a snapshot rolled back). Cursors given out before then "
        "answer feed_epoch_changed (410) instead of skipping the events written after the "
        "restore. Not after a failover to a replica: that continues the same history "
        "(docs/operations.md)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--new", action="store_true", help="Move the feed to a new epoch.")
        parser.add_argument(
            "--reason", default="", help="Recorded with the new epoch (default: 'manage.py feed_epoch --new')."
        )

    def handle(self, *args: Any, new: bool, reason: str, **options: Any) -> None:
        row = feed_epoch_advance(reason=reason or "manage.py feed_epoch --new") if new else feed_epoch_check()
        self.stdout.write(
            f"feed epoch {row.epoch} since {row.changed_at.isoformat(timespec='seconds')} ({row.reason}); "
            f"cluster {row.system_identifier if row.system_identifier is not None else 'unknown'}, "
            f"timeline {row.timeline if row.timeline is not None else 'unknown'}"
        )
