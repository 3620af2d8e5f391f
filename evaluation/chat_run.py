"""The whole-store run on chat text: a store of chat turns (``evaluation.chat_store``)
written undeclared through the real API with a real worker (``evaluation.harness``), as an
agent that stores chat turns verbatim would (no kind, so the server's default; no project; no
links), and scored from the database once the queue is drained:

- **wrongful retirements**: every superseded memory whose successor is not a later version of the
  same chain's fact nor an exact or near-exact restatement of it (each one listed, both texts);
- **the queue**: pending conflicts per 100 writes, the share that name a real update or a
  restatement (both memories of one chain, or one statement written twice), and every conflict by
  the kind of pair (two unrelated turns, a chain turn against a distractor or a near turn, turns of
  two chains, a real pair) and the judge's relation;
- **the decisions a person faces**: conflict groups per 100 writes, and R-H9's counts
  (``evaluation.queue_shape``);
- **the real updates**: each chain's latest version against the one before it — retired by it
  automatically, queued (a pending conflict names the two), or neither and why.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaluation.chat_store import (
    PAIR_CLASSES,
    REAL_PAIRS,
    ChatStore,
    ChatWrite,
    may_retire,
    pair_class,
)
from evaluation.harness import (
    DEFAULT_ONNX_CACHE,
    ApiRun,
    PlannedWrite,
    Posted,
    StoreAfterRun,
    run_counts,
    run_through_api,
)
from evaluation.queue_shape import queue_shape

TEXT_LIMIT = 160  # characters of each text in the printed examples
CONFLICT_EXAMPLES = 8
PAIR_DESCRIPTIONS = {
    "real_update": "a real update (two versions of one chain's fact)",
    "restatement": "a restatement (the same turn, or nearly)",
    "chain_vs_own_near": "a chain turn and a near turn of its subject",
    "chain_vs_other": "a chain turn and a distractor or another chain's near turn",
    "different_chains": "turns of two different chains",
    "unrelated_turns": "two unrelated turns (distractors, near turns)",
}


def run_chat_store(
    store: ChatStore,
    *,
    kind: str | None = None,
    data_dir: Path | None = None,
    workers: int = 2,
    threads: int = 4,
    drain_timeout: float = 900.0,
    onnx_cache: Path | None = DEFAULT_ONNX_CACHE,
    progress: bool = True,
    keep_outcome: Path | None = None,
) -> dict[str, Any]:
    """Write ``store`` through the API with a worker running, wait for hygiene, score it.
    ``keep_outcome``: a file to keep the raw outcome in (``rescore_chat`` reads it)."""
    began = time.monotonic()
    writes = [PlannedWrite(write.index, write.owner, write.content, kind, None) for write in store.writes]
    run = run_through_api(
        writes,
        data_dir=data_dir,
        workers=workers,
        threads=threads,
        drain_timeout=drain_timeout,
        onnx_cache=onnx_cache,
        progress=progress,
    )
    run.timings["total_seconds"] = round(time.monotonic() - began, 3)
    run.run["kind"] = kind or "(server default)"
    if keep_outcome is not None:
        run.save(keep_outcome)
    return _scored(store, run)


def rescore_chat(store: ChatStore, kept: Path) -> dict[str, Any]:
    """Score again the outcome ``run_chat_store`` kept (the same store, the current scoring)."""
    return _scored(store, ApiRun.load(kept))


def _scored(store: ChatStore, run: ApiRun) -> dict[str, Any]:
    result = score_chat(store, run.posted, run.outcome)
    result["drained"] = run.drained
    result["timings"] = run.timings
    result["run"] = run.run
    return result


# -- scoring --------------------------------------------------------------------------------------


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _clip(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= TEXT_LIMIT else flat[: TEXT_LIMIT - 1] + "…"


@dataclass
class _ChatScoring:
    store: ChatStore
    posted: Posted
    outcome: StoreAfterRun
    write_of: dict[str, int] = field(default_factory=dict)  # memory id → the write that created it

    def __post_init__(self) -> None:
        self.write_of = {self.posted.memory_of[index]: index for index in sorted(self.posted.created)}

    def write_for(self, memory_id: str) -> ChatWrite | None:
        index = self.write_of.get(memory_id)
        return None if index is None else self.store.writes[index]

    def memory(self, write: ChatWrite) -> str | None:
        return self.posted.memory_of.get(write.index)

    def example(self, older: ChatWrite, newer: ChatWrite, cls: str) -> dict[str, Any]:
        judged = self.outcome.judgments.get((self.memory(older) or "", self.memory(newer) or ""))
        return {
            "class": cls,
            "older_write": older.index,
            "older_label": older.label,
            "older": _clip(older.content),
            "newer_write": newer.index,
            "newer_label": newer.label,
            "newer": _clip(newer.content),
            "relation": judged[0] if judged else None,
            "confidence": round(judged[1], 3) if judged else None,
        }

    def retirements(self) -> dict[str, Any]:
        by_class: Counter[str] = Counter()
        wrongful: list[dict[str, Any]] = []
        for memory_id, successor_id in self.outcome.superseded_by.items():
            older, newer = self.write_for(memory_id), self.write_for(successor_id)
            if older is None or newer is None or self.outcome.state.get(memory_id) != "superseded":
                continue
            cls = pair_class(older, newer)
            by_class[cls] += 1
            if not may_retire(older, newer):
                wrongful.append(self.example(older, newer, cls))
        wrongful.sort(key=lambda item: item["older_write"])
        return {
            "retirements": sum(by_class.values()),
            "wrongful_retirements": len(wrongful),
            "retirements_by_class": _by_class(by_class),
            "wrongful_by_class": _by_class(Counter(item["class"] for item in wrongful)),
            "wrongful_examples": wrongful,  # every one
        }

    def queue(self) -> dict[str, Any]:
        pending = self.outcome.pending
        classes: Counter[str] = Counter()
        by_relation: dict[str, Counter[str]] = defaultdict(Counter)
        relations: Counter[str] = Counter()
        examples: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for conflict in pending:
            relations[conflict.relation] += 1
            older, newer = self.write_for(conflict.older), self.write_for(conflict.newer)
            if older is None or newer is None:
                continue
            cls = pair_class(older, newer)
            classes[cls] += 1
            by_relation[cls][conflict.relation] += 1
            if len(examples[cls]) < CONFLICT_EXAMPLES:
                examples[cls].append(self.example(older, newer, cls))
        real = sum(classes[cls] for cls in REAL_PAIRS)
        writes = len(self.store.writes)
        return {
            "pending_conflicts_per_100_writes": round(100 * len(pending) / writes, 2) if writes else None,
            "conflicts_naming_real_pair": real,
            "conflicts_naming_real_pair_share": _share(real, len(pending)),
            "conflicts_by_class": _by_class(classes),
            "conflicts_by_class_and_relation": {
                cls: dict(by_relation[cls].most_common()) for cls in PAIR_CLASSES if by_relation[cls]
            },
            "conflicts_by_relation": dict(relations.most_common()),
            "conflict_examples": _interleave(examples, CONFLICT_EXAMPLES),
            "queue_shape": queue_shape(pending, writes=writes, slot_column=self.outcome.slot_column),
        }

    def updates(self) -> dict[str, Any]:
        """Each chain's update against the version before it."""
        pending_pairs = {frozenset((conflict.older, conflict.newer)) for conflict in self.outcome.pending}
        outcomes: Counter[str] = Counter()
        pairs = resolved = queued = 0
        for older_index, newer_index in self.store.updates:
            if older_index not in self.posted.created or newer_index not in self.posted.created:
                continue  # absorbed: not hygiene's pair
            pairs += 1
            older, newer = self.posted.memory_of[older_index], self.posted.memory_of[newer_index]
            retirer = self.outcome.superseded_by.get(older)
            if retirer == newer:
                resolved += 1
                outcomes["retired by its update"] += 1
            elif frozenset((older, newer)) in pending_pairs:
                queued += 1
                outcomes["queued"] += 1
            elif retirer is not None:
                outcomes["predecessor retired by another memory"] += 1
            elif (judged := self.outcome.judgments.get((older, newer))) is not None:
                outcomes[f"judged {judged[0]} ({judged[2]})"] += 1
            else:
                outcomes["never judged (not among the candidates)"] += 1
        return {
            "real_updates": pairs,
            "real_updates_auto_resolved": resolved,
            "real_updates_queued": queued,
            "real_update_outcomes": dict(outcomes.most_common()),
        }

    def counts(self) -> dict[str, Any]:
        return run_counts(len(self.store.writes), self.posted, self.outcome)


def score_chat(store: ChatStore, posted: Posted, outcome: StoreAfterRun) -> dict[str, Any]:
    """The figures of one chat run (see the module's docstring)."""
    scoring = _ChatScoring(store, posted, outcome)
    return {
        "store": store.summary(),
        "counts": scoring.counts(),
        **scoring.retirements(),
        **scoring.queue(),
        **scoring.updates(),
    }


def _by_class(counter: Counter[str]) -> dict[str, int]:
    return {cls: counter[cls] for cls in PAIR_CLASSES if counter[cls]}


def _interleave(by_class: dict[str, list[dict[str, Any]]], limit: int) -> list[dict[str, Any]]:
    """Up to ``limit`` examples, one of each class in turn, the most frequent classes first."""
    order = sorted(by_class, key=lambda cls: -len(by_class[cls]))
    chosen: list[dict[str, Any]] = []
    depth = 0
    while len(chosen) < limit and any(depth < len(by_class[cls]) for cls in order):
        for cls in order:
            if depth < len(by_class[cls]) and len(chosen) < limit:
                chosen.append(by_class[cls][depth])
        depth += 1
    return chosen


# -- the report -----------------------------------------------------------------------------------


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def _pair_lines(items: list[dict[str, Any]]) -> list[str]:
    lines = []
    for item in items:
        verdict = f"judged {item['relation']} {item['confidence']}" if item["relation"] else "no judgment recorded"
        lines.append(f"  [{item['class']}; {verdict}]")
        lines.append(f"    older #{item['older_write']} ({item['older_label']}): {item['older']}")
        lines.append(f"    newer #{item['newer_write']} ({item['newer_label']}): {item['newer']}")
    return lines


def format_chat_report(result: dict[str, Any]) -> str:
    store, counts, shape, timings = result["store"], result["counts"], result["queue_shape"], result["timings"]
    pending = counts["pending_conflicts"]
    updates = result["real_updates"]
    rows = [
        ("writes (created / absorbed)", f"{counts['writes']} ({counts['created']} / {counts['absorbed']})"),
        ("wrongful retirements", f"{result['wrongful_retirements']} of {result['retirements']} retirements"),
        ("pending conflicts", f"{pending} ({result['pending_conflicts_per_100_writes']} per 100 writes)"),
        (
            "… naming a real update or restatement",
            f"{result['conflicts_naming_real_pair']} ({_pct(result['conflicts_naming_real_pair_share'])})",
        ),
        *(
            (f"… {PAIR_DESCRIPTIONS[cls]}", str(result["conflicts_by_class"].get(cls, 0)))
            for cls in PAIR_CLASSES
            if cls not in REAL_PAIRS
        ),
        (
            "decisions a person faces (conflict groups)",
            f"{shape['groups']} ({shape['groups_per_100_writes']} per 100 writes)",
        ),
        ("largest group", f"{shape['largest_group']} conflicts"),
        ("R-H9: memories newer in more than one pending conflict", str(shape["memories_newer_in_several"])),
        ("memories in more than one pending conflict", str(shape["memories_in_several"])),
        ("real updates resolved automatically", f"{result['real_updates_auto_resolved']} of {updates}"),
        ("real updates queued", f"{result['real_updates_queued']} of {updates}"),
        (
            "judgments (auto-resolved / queued / no action)",
            f"{counts['judgments']} ({counts['auto_resolved']} / {counts['queued']} / {counts['no_action']})",
        ),
        (
            "time",
            f"{timings.get('total_seconds', 0):.0f}s (writes {timings.get('write_seconds', 0):.0f}s, "
            f"p50 {timings.get('write_p50_ms', 0):.0f} ms, p95 {timings.get('write_p95_ms', 0):.0f} ms; "
            f"drain after writes {timings.get('drain_after_writes_seconds', 0):.0f}s)",
        ),
    ]
    width = max(len(name) for name, _ in rows)
    lines = [
        f"Whole-store run on chat text: {store['name']}",
        f"  {store['writes']} writes by {store['owners']} user(s), {store['chains']} update chains "
        f"({store['chain_turns']} chain turns, {store['near_turns']} near turns, {store['distractors']} distractors; "
        f"median {store['update_distance_median']} writes from a predecessor to its update); "
        f"source {store['source']}",
        f"  judge: {result['run']['judge']}; kind: {result['run']['kind']}; queue drained: {result['drained']}; "
        f"tasks {counts['tasks']}",
        "",
        f"  | {'figure':<{width}} | value |",
        f"  | {'-' * width} | ---: |",
        *(f"  | {name:<{width}} | {value} |" for name, value in rows),
        "",
        "  conflicts by pair and relation: "
        + "; ".join(
            f"{cls}: " + ", ".join(f"{relation} {count}" for relation, count in relations.items())
            for cls, relations in result["conflicts_by_class_and_relation"].items()
        ),
        "  real updates: " + ", ".join(f"{reason} {count}" for reason, count in result["real_update_outcomes"].items()),
        "",
        f"Wrongful retirements ({result['wrongful_retirements']}; older → retired by newer):",
        *(_pair_lines(result["wrongful_examples"]) or ["  none"]),
        "",
        "Pending conflict examples:",
        *(_pair_lines(result["conflict_examples"]) or ["  none"]),
    ]
    return "\n".join(lines)
