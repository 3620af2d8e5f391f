from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from tqdm import tqdm

from memories.transfer import ImportReport, import_rows, parse_lines


class Command(BaseCommand):
    help = (
        "Read FILE, JSON Lines as written by export_memories, into this deployment. Every line is "
        "validated first; each bad line is reported on stderr with its number and reason, and the "
        "good ones are kept. Import is idempotent: memories, links and events that exist already "
        "are skipped, so running it twice changes nothing. Users and projects named in the file "
        "are created when missing. A memory whose own events the file leaves out gets an 'imported' "
        "event, so every memory has its creation event. Writes happen in atomic batches; memories without an embedding "
        "are embedded with the configured model. Exits 1 if any line was bad. --dry-run validates "
        "and reports without writing."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument("--dry-run", action="store_true", help="Validate and report; write nothing.")

    def handle(self, *args: Any, file: Path, dry_run: bool, **options: Any) -> None:
        if not file.exists():
            raise CommandError(f"No such file: {file}")
        report = ImportReport()
        with file.open(encoding="utf-8") as lines:
            rows = parse_lines(lines, report)
        for number, reason in report.bad:
            sys.stderr.write(f"line {number}: {reason}\n")
        counts = {kind: len(found) for kind, found in rows.items()}
        if dry_run:
            self.stdout.write(f"Dry run: {counts} valid, {len(report.bad)} bad line(s); nothing written.")
        else:
            with tqdm(total=counts["memory"], unit="memory", disable=None, file=sys.stderr) as progress:
                import_rows(rows, report, progress)
            self.stdout.write(
                f"Imported {report.created}; already present {report.skipped}; bad lines: {len(report.bad)}."
            )
        if report.bad:
            sys.exit(1)
