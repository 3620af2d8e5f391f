from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from memories.embeddings import get_embedder
from review.evaluation.pairs import EXTERNAL_DEFAULT, evaluate_pairs


class Command(BaseCommand):
    help = (
        "Evaluate the hygiene judge and pipeline (./zm eval): per-relation precision and recall "
        "out of source on the labelled pairs and on the external LongMemEval set, what auto-"
        "resolution does at the default threshold (share resolved, wrongful retirements), for "
        "the first model alone and the current guarded judge; then a whole-store run through the "
        "real API and worker. Prints a readable report; --json adds the figures as JSON."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--external", type=Path, default=EXTERNAL_DEFAULT, help="LongMemEval ku.jsonl.")
        parser.add_argument("--skip-store", action="store_true", help="Judge the pairs only; no whole-store run.")
        parser.add_argument("--store-size", type=int, default=2400, help="Writes of the whole-store run.")
        parser.add_argument("--json", type=Path, help="Also write every figure to this JSON file.")

    def handle(
        self, *args: Any, external: Path, skip_store: bool, store_size: int, json: Path | None, **options: Any
    ) -> None:
        if not external.exists():
            self.stderr.write(f"No external set at {external}; judging the labelled pairs only.")
        self.stdout.write("Judging the labelled pairs (out of source) and the external set…")
        report: dict[str, Any] = {"pairs": evaluate_pairs(embed=get_embedder().embed, external=external)}
        self.stdout.write(render_pairs(report["pairs"]))
        if not skip_store:
            from review.evaluation.whole_store import run_whole_store

            self.stdout.write(f"\nWhole-store run: {store_size} undeclared writes through the API, worker on…")
            report["store"] = run_whole_store(size=store_size)
            self.stdout.write(render_store(report["store"]))
        if json is not None:
            import json as json_module

            json.write_text(json_module.dumps(report, indent=1, default=str) + "\n")
            self.stdout.write(f"\nWrote {json}.")


RELATIONS = ("duplicate", "supersedes", "complementary", "contradicts", "unrelated")


def render_pairs(report: dict[str, Any]) -> str:
    lines = [f"\nLabelled sources: {report['sources']}; external pairs: {report['external_pairs']}."]
    lines.append(f"Auto-resolve threshold {report['threshold']}.")
    for name, judge in report["judges"].items():
        for scope, block in (
            ("labelled, out of source", judge["labelled"]["pooled"]),
            ("external", judge.get("external")),
        ):
            if not block:
                continue
            lines.append(f"\n{name} — {scope} ({block['pairs']} pairs), accuracy {block['accuracy']:.3f}")
            lines.append("  relation        precision  recall  pairs")
            for relation in RELATIONS:
                row = block["per_relation"][relation]
                if row["support"] or row["precision"]:
                    lines.append(f"  {relation:14}  {row['precision']:9.3f}  {row['recall']:6.3f}  {row['support']:5d}")
            lines.append(
                f"  auto-resolved {block['auto_resolved']} ({block['auto_resolved_share']:.1%} of pairs; "
                f"{block['auto_resolved_of_true_updates']:.1%} of true updates and duplicates); "
                f"wrongly retired {block['wrongly_retired']}; queued {block['queued']} "
                f"({block['queued_distinguishable']} of them distinguishable); "
                f"ECE {block['expected_calibration_error']:.3f}"
            )
            for example in block["wrongly_retired_examples"][:3]:
                lines.append(
                    f"    wrongly retired ({example['relation']}): {example['a'][:70]!r} -> {example['b'][:70]!r}"
                )
        if name != "baseline":
            lines.append("  per source:")
            for source, block in judge["labelled"].items():
                if source == "pooled":
                    continue
                lines.append(
                    f"    {source:10} accuracy {block['accuracy']:.3f}, auto-resolved "
                    f"{block['auto_resolved_of_true_updates']:.1%} of true updates, "
                    f"wrongly retired {block['wrongly_retired']}"
                )
    return "\n".join(lines)


def render_store(store: dict[str, Any]) -> str:
    return json.dumps(store, indent=1, default=str)
