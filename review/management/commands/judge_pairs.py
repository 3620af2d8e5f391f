from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from review.judges import JudgeError, Pair, get_judge
from review.judges.guard import guarded_judge


class Command(BaseCommand):
    help = (
        'Run the configured judge over FILE, JSON Lines of {"id", "a", "b"} (a the older '
        'statement, b the newer; optional "kind_a", "kind_b"), as the server judges them (under '
        "the structure guard of SPEC R-H7 and R-H8), and print one JSON line per pair: "
        '{"id", "relation", "confidence", "rationale"}. Lines that cannot be read, or that the '
        "judge fails on, are reported on stderr with their line number; the command then exits 1."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)

    def handle(self, *args: Any, file: Path, **options: Any) -> None:
        if not file.exists():
            raise CommandError(f"No such file: {file}")
        judge = get_judge()
        failures = 0
        with file.open() as lines:
            for number, line in enumerate(lines, start=1):
                if not line.strip():
                    continue
                try:
                    row = json.loads(line)
                    if not isinstance(row, dict) or not all(isinstance(row.get(k), str) for k in ("a", "b")):
                        raise ValueError('needs string fields "a" and "b"')
                    pair = Pair(
                        a=row["a"], b=row["b"], kind_a=row.get("kind_a", "fact"), kind_b=row.get("kind_b", "fact")
                    )
                    verdict = guarded_judge(judge, pair)
                except (ValueError, JudgeError) as exc:
                    failures += 1
                    sys.stderr.write(f"line {number}: {exc}\n")
                    continue
                result = {
                    "id": row.get("id"),
                    "relation": verdict.relation,
                    "confidence": verdict.confidence,
                    "rationale": verdict.rationale,
                }
                self.stdout.write(json.dumps(result))
        if failures:
            sys.exit(1)
