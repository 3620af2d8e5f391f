from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from memories.integrity import find_breaches, repair


class Command(BaseCommand):
    help = (
        "Verify the lifecycle invariants of the whole store and print each breach with the ids "
        "of the memories involved: every superseded memory has an existing successor and an "
        "active supersedes link from it; no live memory names a successor or is the target of "
        "an active retiring link; there are no supersede cycles; a loop closed by a supersede "
        "names its successor and one closed by forget has closed_at and a forget event; every "
        "memory has its creation event; and the database triggers that keep events append-only "
        "and the store forward-only are in place. Exits 0 when all hold, 1 otherwise. With "
        "--fix, repairs what is safe to repair (a missing link, a link a restore should have "
        "marked reverted), records each repair as an event, and checks again."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--fix", action="store_true", help="Repair what is safe to repair, then check again.")

    def handle(self, *args: Any, fix: bool, **options: Any) -> None:
        breaches = list(find_breaches())
        if fix and breaches:
            repaired = [breach for breach in breaches if repair(breach)]
            for breach in repaired:
                self.stdout.write(f"fixed {breach}")
            breaches = list(find_breaches())
        for breach in breaches:
            self.stdout.write(f"BREACH {breach}")
        if breaches:
            self.stderr.write(f"{len(breaches)} breach(es) of the lifecycle invariants.")
            sys.exit(1)
        self.stdout.write("All lifecycle invariants hold.")
