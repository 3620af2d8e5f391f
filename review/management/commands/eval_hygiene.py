from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from memories.embedding import get_embedder
from review.evaluation.pairs import EXTERNAL_DEFAULT, evaluate_pairs


class Command(BaseCommand):
    help = (
        "Evaluate the hygiene judge and pipeline (./zm eval): per-relation precision and recall "
        "out of source on the labelled pairs and on the external LongMemEval set, what auto-"
        "resolution does at the default threshold (share resolved, wrongful retirements), for "
        "the first model alone and the current guarded judge; similar_existing's and recall's ranking "
        "on update chains (the external set and the project's own); then a whole-store run through the "
        "real API and worker. Prints a readable report; --json adds the figures as JSON."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--external", type=Path, default=EXTERNAL_DEFAULT, help="LongMemEval ku.jsonl.")
        parser.add_argument("--skip-pairs", action="store_true", help="No judging of the labelled pairs.")
        parser.add_argument("--skip-store", action="store_true", help="No whole-store run through the API.")
        parser.add_argument(
            "--skip-retrieval", action="store_true", help="No similar_existing / recall run on update chains."
        )
        parser.add_argument("--store-size", type=int, default=2400, help="Writes of the whole-store run.")
        parser.add_argument("--json", type=Path, help="Also write every figure to this JSON file.")

    def handle(
        self,
        *args: Any,
        external: Path,
        skip_pairs: bool,
        skip_store: bool,
        skip_retrieval: bool,
        store_size: int,
        json: Path | None,
        **options: Any,
    ) -> None:
        if not external.exists():
            self.stderr.write(f"No external set at {external}; only the project's own sets are evaluated.")
        report: dict[str, Any] = {}
        if not skip_pairs:
            self.stdout.write("Judging the labelled pairs (out of source) and the external set…")
            report["pairs"] = evaluate_pairs(embed=get_embedder().embed, external=external)
            self.stdout.write(render_pairs(report["pairs"]))
        if not skip_retrieval:
            from review.evaluation.retrieval import run_retrieval

            self.stdout.write(
                "\nFinding predecessors and current versions (similar_existing, recall) on update chains…"
            )
            report["retrieval"] = run_retrieval(external if external.exists() else None, progress=self.stdout.write)
            self.stdout.write(render_retrieval(report["retrieval"]))
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


def render_retrieval(report: dict[str, Any]) -> str:
    lines = [
        "",
        "| set | updates | similar_existing hit@1 / @3 / @10 | (vector only) | recall: later first, both live "
        "| current at 1 | current in 5 | old version marked |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for block in report["sets"]:
        fused, vector = block["similar_existing"], block["similar_existing_vector_only"]
        lines.append(
            f"| {block['name']} | {block['updates']} "
            f"| {fused['hit@1']:.2f} / {fused['hit@3']:.2f} / {fused['hit@10']:.2f} "
            f"| {vector['hit@1']:.2f} / {vector['hit@3']:.2f} / {vector['hit@10']:.2f} "
            f"| {block['recall_both_live_later_first']:.2f} | {block['recall_current_at_1']:.2f} "
            f"| {block['recall_current_in_5']:.2f} | {block['recall_history_marked']:.2f} |"
        )
    return "\n".join(lines)


def render_pairs(report: dict[str, Any]) -> str:
    lines = [f"\nLabelled sources: {report['sources']}; external pairs: {report['external_pairs']}."]
    lines.append(f"Auto-resolve threshold {report['threshold']}.")
    for name, judge in report["judges"].items():
        for scope, block in (
            ("labelled, out of source", judge.get("labelled", {}).get("pooled")),
            ("external", judge.get("external")),
            ("blind source (never read, never trained on)", judge.get("blind")),
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
        if name != "baseline" and "labelled" in judge:
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
