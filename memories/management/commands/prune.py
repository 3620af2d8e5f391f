"""``manage.py prune`` (``./zm manage prune``): the retention's pruning now, by hand.

The task workers prune on their own once per ZEROMEMORY_RETENTION_INTERVAL_SECONDS
(memories.platform.retention); this is for an operator who wants it now, or to see with
``--dry-run`` how many rows each rule would take. It is safe beside running workers: the
batches skip rows another pruner holds."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from memories.platform.retention import DEFAULT_BATCH, Rule, retention_prune


class Command(BaseCommand):
    help = "Delete finished tasks, old webhook deliveries, spent rate-limit and idempotency rows (never the feed)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dry-run", action="store_true", help="Count what would go; delete nothing.")
        parser.add_argument(
            "--batch",
            type=int,
            default=DEFAULT_BATCH,
            help=f"Rows per transaction (default {DEFAULT_BATCH}).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        batch: int = options["batch"]
        dry_run: bool = options["dry_run"]
        if batch < 1:
            raise CommandError("--batch must be at least 1.")

        def progress(rule: Rule, count: int | None) -> None:
            if count is None:
                self.stdout.write(f"{rule.name}: kept for ever (retention off)")
            elif dry_run:
                self.stdout.write(f"{rule.name}: {count} would be deleted")
            else:
                self.stdout.write(f"{rule.name}: {count} deleted")

        retention_prune(batch=batch, dry_run=dry_run, progress=progress)
