from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from evaluation.pairs import evaluate_pairs
from memories.embedding import get_embedder

CHAT_STORES = ("own", "longmemeval")
# Where LongMemEval's knowledge-update set (its ku.jsonl) is, when --external does not say: the
# evaluation reads nothing outside the repository unless told to (docs/hygiene.md).
EXTERNAL_VARIABLE = "ZEROMEMORY_EVAL_EXTERNAL"


def external_set(given: Path | None) -> Path | None:
    """The external set's file: --external, else the environment's; None when neither names one.
    A named file that is not there is an error, not a quieter report."""
    if given is None and os.environ.get(EXTERNAL_VARIABLE):
        given, origin = Path(os.environ[EXTERNAL_VARIABLE]), EXTERNAL_VARIABLE
    else:
        origin = "--external"
    if given is not None and not given.is_file():
        raise CommandError(f"{origin} names {given}, which is not a file (LongMemEval's ku.jsonl; docs/hygiene.md).")
    return given


class Command(BaseCommand):
    help = (
        "Evaluate the hygiene judge and pipeline (./zm eval): per-relation precision and recall "
        "out of source on the labelled pairs and on the external LongMemEval set, what auto-"
        "resolution does at the default threshold (share resolved, wrongful retirements), for "
        "the first model alone and the current guarded judge; similar_existing's and recall's ranking "
        "on update chains (the external set and the project's own); then whole-store runs through the "
        "real API and worker: the short-fact store, the project's own chat histories and LongMemEval's "
        "chat turns. Prints a readable report; --json adds the figures as JSON."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--external",
            type=Path,
            help=f"LongMemEval's ku.jsonl (default: ${EXTERNAL_VARIABLE}; with neither, only the project's own sets).",
        )
        parser.add_argument("--skip-pairs", action="store_true", help="No judging of the labelled pairs.")
        parser.add_argument(
            "--skip-store", action="store_true", help="No whole-store run through the API (short facts or chat)."
        )
        parser.add_argument(
            "--skip-retrieval", action="store_true", help="No similar_existing / recall run on update chains."
        )
        parser.add_argument("--skip-chat", action="store_true", help="No whole-store runs on chat text.")
        parser.add_argument(
            "--chat-only",
            action="store_true",
            help="Only the whole-store runs on chat text (no pairs, no retrieval, no short-fact store).",
        )
        parser.add_argument(
            "--chat-stores",
            nargs="+",
            choices=CHAT_STORES,
            default=list(CHAT_STORES),
            help="Which chat stores to run: the project's own chat histories, LongMemEval (default both).",
        )
        parser.add_argument(
            "--chat-users", type=int, default=2, help="Users (histories) of the own chat store (default 2)."
        )
        parser.add_argument("--store-size", type=int, default=2400, help="Writes of the short-fact store run.")
        parser.add_argument(
            "--drain-timeout",
            type=float,
            default=1800.0,
            help="Seconds a whole-store run waits for the hygiene queue after its writes (default 1800).",
        )
        parser.add_argument(
            "--keep-outcomes",
            type=Path,
            metavar="DIR",
            help="Keep each chat run's raw outcome in DIR (<store>.outcome.json) for --rescore-from.",
        )
        parser.add_argument(
            "--rescore-from",
            type=Path,
            metavar="DIR",
            help="Score the chat stores' outcomes kept in DIR again instead of running them.",
        )
        parser.add_argument("--json", type=Path, help="Also write every figure to this JSON file.")

    def handle(
        self,
        *args: Any,
        external: Path | None,
        skip_pairs: bool,
        skip_store: bool,
        skip_retrieval: bool,
        skip_chat: bool,
        chat_only: bool,
        chat_stores: list[str],
        chat_users: int,
        store_size: int,
        drain_timeout: float,
        keep_outcomes: Path | None,
        rescore_from: Path | None,
        json: Path | None,
        **options: Any,
    ) -> None:
        if rescore_from is not None and keep_outcomes is not None:
            raise CommandError("--rescore-from reads kept outcomes: it cannot be combined with --keep-outcomes.")
        if chat_only and (skip_chat or skip_store):
            raise CommandError(
                "--chat-only runs only the chat stores: it cannot be combined with --skip-chat or --skip-store."
            )
        if chat_users < 1:
            raise CommandError("--chat-users must be at least 1.")
        if chat_only:
            skip_pairs = skip_retrieval = True
        external = external_set(external)
        if external is None:
            self.stderr.write(
                f"No external set (--external FILE or {EXTERNAL_VARIABLE}); only the project's own sets are evaluated."
            )
        report: dict[str, Any] = {}
        if not skip_pairs:
            self.stdout.write("Judging the labelled pairs (out of source) and the external set…")
            report["pairs"] = evaluate_pairs(embed=get_embedder().embed, external=external)
            self.stdout.write(render_pairs(report["pairs"]))
        if not skip_retrieval:
            from evaluation.retrieval import run_retrieval

            self.stdout.write(
                "\nFinding predecessors and current versions (similar_existing, recall) on update chains…"
            )
            report["retrieval"] = run_retrieval(external, progress=self.stdout.write)
            self.stdout.write(render_retrieval(report["retrieval"]))
        if not skip_store and not chat_only:
            from evaluation.whole_store import format_report, run_whole_store

            self.stdout.write(f"\nWhole-store run: {store_size} undeclared writes through the API, worker on…")
            report["store"] = run_whole_store(size=store_size, drain_timeout=drain_timeout)
            self.stdout.write(format_report(report["store"]))
        if not skip_store and not skip_chat:
            report["chat_stores"] = self._chat_runs(
                chat_stores, chat_users, external, drain_timeout, keep=keep_outcomes, rescore=rescore_from
            )
        if "store" in report or report.get("chat_stores"):
            self.stdout.write(render_store_summary(report))
        if json is not None:
            import json as json_module

            json.write_text(json_module.dumps(report, indent=1, default=str) + "\n")
            self.stdout.write(f"\nWrote {json}.")

    def _chat_runs(
        self,
        chosen: list[str],
        users: int,
        external: Path | None,
        drain_timeout: float,
        *,
        keep: Path | None,
        rescore: Path | None,
    ) -> dict[str, Any]:
        from evaluation.chat_run import format_chat_report, rescore_chat, run_chat_store
        from evaluation.chat_store import longmemeval_store, own_chat_store

        results: dict[str, Any] = {}
        for name in CHAT_STORES:
            if name not in chosen:
                continue
            if name == "own":
                store = own_chat_store(users=users)
            elif external is None:
                self.stderr.write("No LongMemEval whole-store run: no external set was given.")
                continue
            else:
                store = longmemeval_store(external)
            if rescore is not None:
                self.stdout.write(f"\nScoring the kept outcome of the run on {store.name} again…")
                results[name] = rescore_chat(store, rescore / f"{name}.outcome.json")
            else:
                self.stdout.write(
                    f"\nWhole-store run on chat text ({store.name}): {len(store.writes)} undeclared writes "
                    f"by {len(store.owners)} user(s) through the API, worker on…"
                )
                if keep is not None:
                    keep.mkdir(parents=True, exist_ok=True)
                results[name] = run_chat_store(
                    store,
                    drain_timeout=drain_timeout,
                    keep_outcome=None if keep is None else keep / f"{name}.outcome.json",
                )
            self.stdout.write(format_chat_report(results[name]))
        return results


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


def _percent(share: float | None) -> str:
    return "n/a" if share is None else f"{100 * share:.1f}%"


def _summary_cells(result: dict[str, Any]) -> dict[str, str]:
    """One whole-store run's column of the summary (the short-fact run has no chains: "-")."""
    counts, shape = result["counts"], result["queue_shape"]
    share = result.get("conflicts_naming_real_pair_share")
    return {
        "writes": str(counts["writes"]),
        "wrongful": f"{result['wrongful_retirements']} of {counts['superseded']}",
        "pending": f"{counts['pending_conflicts']} ({result['pending_conflicts_per_100_writes']})",
        "real": "-"
        if "conflicts_naming_real_pair" not in result
        else f"{result['conflicts_naming_real_pair']} ({_percent(share)})",
        "same_slot": "-"
        if "conflicts_same_slot_share" not in result
        else _percent(result["conflicts_same_slot_share"]),
        "groups": f"{shape['groups']} ({shape['groups_per_100_writes']})",
        "rh9": f"{shape['memories_newer_in_several']} / {shape['memories_in_several']}",
        "updates": "-"
        if "real_updates" not in result
        else f"{result['real_updates_auto_resolved']} / {result['real_updates_queued']} of {result['real_updates']}",
        "time": f"{result['timings'].get('total_seconds', 0):.0f}s",
    }


SUMMARY_FIGURES = (
    ("writes", "writes"),
    ("wrongful", "wrongful retirements (of all retirements)"),
    ("pending", "pending conflicts (per 100 writes)"),
    ("real", "conflicts naming a real update or restatement"),
    ("same_slot", "conflicts about one subject and attribute (short facts)"),
    ("groups", "conflict groups: decisions (per 100 writes)"),
    ("rh9", "memories newer in >1 pending conflict / in >1 at all"),
    ("updates", "real updates resolved / queued"),
    ("time", "run time"),
)


def render_store_summary(report: dict[str, Any]) -> str:
    """The whole-store runs side by side: the figures issue 31 sets targets for."""
    columns: list[tuple[str, dict[str, str]]] = []
    if "store" in report:
        columns.append(("short facts", _summary_cells(report["store"])))
    names = {"own": "own chat", "longmemeval": "LongMemEval"}
    columns += [(names[name], _summary_cells(result)) for name, result in report.get("chat_stores", {}).items()]
    lines = [
        "",
        "Whole-store runs",
        "",
        "| figure | " + " | ".join(name for name, _ in columns) + " |",
        "| --- | " + " | ".join("---:" for _ in columns) + " |",
    ]
    lines += [f"| {label} | " + " | ".join(cells[key] for _, cells in columns) + " |" for key, label in SUMMARY_FIGURES]
    return "\n".join(lines)
