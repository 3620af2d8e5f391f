from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from memories.embeddings import get_embedder
from review.judges.local import WEIGHTS_FILE, LocalJudge
from review.judges.training import DATA_FILE, evaluate, featurize, load_examples, train


class Command(BaseCommand):
    help = (
        "Retrain the local hygiene judge on the labelled pairs (review/judges/data/pairs.jsonl by "
        "default): fit a multinomial logistic regression on the train split, calibrate its "
        "temperature on held-out training pairs, report per-relation precision and recall and "
        "what auto-resolution would do on the test split, and write the weights the server "
        "loads (review/judges/local_judge.json) unless --dry-run."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--data", type=Path, default=DATA_FILE, help="Labelled pairs, JSON Lines.")
        parser.add_argument("--output", type=Path, default=WEIGHTS_FILE, help="Where to write the weights.")
        parser.add_argument("--dry-run", action="store_true", help="Train and report; write nothing.")

    def handle(self, *args: Any, data: Path, output: Path, dry_run: bool, **options: Any) -> None:
        examples = load_examples(data)
        self.stdout.write(f"Embedding {len(examples)} pairs…")
        features = featurize(examples, get_embedder().embed)
        weights = train(examples, features)
        judge = LocalJudge(weights)
        test_rows = [i for i, e in enumerate(examples) if e.split == "test"]
        probabilities = judge.probabilities(features[test_rows])
        report = evaluate([examples[i] for i in test_rows], probabilities, settings.HYGIENE_AUTO_RESOLVE_THRESHOLD)
        weights["held_out"] = {key: value for key, value in report.items() if key != "wrongly_retired_ids"}
        self.stdout.write(json.dumps(report, indent=2))
        if not dry_run:
            output.write_text(json.dumps(weights, indent=1) + "\n")
            self.stdout.write(f"Wrote {output} (version {weights['version']}).")
