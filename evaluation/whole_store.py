"""Run a synthetic agent's life (``evaluation.store``) through the real API and a real
hygiene worker, and score what hygiene did to the whole store.

The deployment is ``evaluation.harness``'s: a fresh embedded PostgreSQL, gunicorn as
``./zm serve`` runs it and one ``manage.py db_worker`` beside it while one agent POSTs every memory
in order (no ``links``: every write goes to hygiene); the outcome is read from the database once
the queue is drained and scored against the store's ground truth.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaluation.harness import (
    DEFAULT_ONNX_CACHE,
    EvaluationError,
    PlannedWrite,
    Posted,
    StoreAfterRun,
    run_counts,
    run_through_api,
)
from evaluation.queue_shape import queue_shape
from evaluation.store import (
    ACCEPTABLE_RELATIONS,
    CUED_UPDATE,
    DEFAULT_SEED,
    DIFFERENT_ATTRIBUTE,
    DIFFERENT_SUBJECT,
    HARMFUL_CLASSES,
    LOOP_OUTCOME,
    PAIR_CLASSES,
    PARAPHRASE,
    Store,
    Write,
    generate_store,
    may_retire,
    pair_class,
)

__all__ = ["DEFAULT_ONNX_CACHE", "EvaluationError", "format_report", "run_whole_store", "score"]

USERNAME = "life-agent"
EXAMPLES = 20
CONFLICT_EXAMPLES = 10
COVERAGE_SPLIT = {CUED_UPDATE: "cued_updates", LOOP_OUTCOME: "loop_outcomes", PARAPHRASE: "duplicates"}


def run_whole_store(
    *,
    size: int = 2400,
    seed: int = DEFAULT_SEED,
    data_dir: Path | None = None,
    workers: int = 2,
    threads: int = 4,
    drain_timeout: float = 900.0,
    onnx_cache: Path | None = DEFAULT_ONNX_CACHE,
    progress: bool = True,
) -> dict[str, Any]:
    """Write the store through the API with a worker running, wait for hygiene, score it.

    ``data_dir``: an embedded cluster's data folder to run in (a fresh database
    ``zeromemory_hygiene_eval`` is made there and left for inspection); None, a temporary one
    that is deleted afterwards. ``onnx_cache``: where the embedding model's ONNX export is kept
    between runs (None: exported into the data folder).
    """
    began = time.monotonic()
    store = generate_store(size=size, seed=seed)
    writes = [PlannedWrite(write.index, USERNAME, write.content, write.kind, write.project) for write in store.writes]
    run = run_through_api(
        writes,
        projects={store.project: [USERNAME]},
        data_dir=data_dir,
        workers=workers,
        threads=threads,
        drain_timeout=drain_timeout,
        onnx_cache=onnx_cache,
        progress=progress,
    )
    result = score(store, run.posted, run.outcome)
    result["drained"] = run.drained
    result["timings"] = {**run.timings, "total_seconds": round(time.monotonic() - began, 3)}
    result["run"] = {"size": size, "seed": seed, **run.run}
    return result


# -- scoring --------------------------------------------------------------------------------------


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


@dataclass
class _Scoring:
    """One run's store, what was posted and what hygiene did, with the lookups between them."""

    store: Store
    posted: Posted
    outcome: StoreAfterRun
    write_of: dict[str, int] = field(default_factory=dict)  # memory id → the write that created it

    def __post_init__(self) -> None:
        self.write_of = {self.posted.memory_of[index]: index for index in sorted(self.posted.created)}

    def write_for(self, memory_id: str) -> Write | None:
        index = self.write_of.get(memory_id)
        return None if index is None else self.store.writes[index]

    def judgment(self, older: Write, newer: Write) -> tuple[str, float, str] | None:
        return self.outcome.judgments.get((self.posted.memory_of[older.index], self.posted.memory_of[newer.index]))

    def example(self, older: Write, newer: Write, cls: str) -> dict[str, Any]:
        judged = self.judgment(older, newer)
        return {
            "class": cls,
            "older": older.content,
            "newer": newer.content,
            "older_write": older.index,
            "newer_write": newer.index,
            "relation": judged[0] if judged else None,
            "confidence": round(judged[1], 3) if judged else None,
        }

    def retirements(self) -> dict[str, Any]:
        """Every superseded memory against the memory that retired it."""
        by_class: Counter[str] = Counter()
        wrongful: list[tuple[Write, Write, str]] = []
        for memory_id, successor_id in self.outcome.superseded_by.items():
            older, newer = self.write_for(memory_id), self.write_for(successor_id)
            if older is None or newer is None or self.outcome.state.get(memory_id) != "superseded":
                continue
            cls = pair_class(older, newer)
            by_class[cls] += 1
            if not may_retire(older, newer):
                wrongful.append((older, newer, cls))
        wrongful.sort(key=lambda item: item[0].index)
        wrongful_classes = Counter(cls for _, _, cls in wrongful)
        return {
            "wrongful_retirements": len(wrongful),
            "wrongful_harmful": sum(1 for _, _, cls in wrongful if cls in HARMFUL_CLASSES),
            "wrongful_by_class": _by_class(wrongful_classes),
            "retirements_by_class": _by_class(by_class),
            "wrongful_examples": _diverse(wrongful, EXAMPLES, self.example),
        }

    def coverage(self) -> dict[str, Any]:
        """The legitimate (older, newer) pairs of the ground truth: retired by that newer, or why not."""
        covered: Counter[str] = Counter()
        total: Counter[str] = Counter()
        misses: dict[str, Counter[str]] = defaultdict(Counter)
        writes, created = self.store.writes, self.posted.created
        for newer in writes:
            for older in (writes[index] for index in newer.retires):
                if older.index not in created or newer.index not in created:
                    continue  # absorbed by the dedup cascade: not hygiene's pair
                split = COVERAGE_SPLIT[newer.category]
                total[split] += 1
                retirer = self.outcome.superseded_by.get(self.posted.memory_of[older.index])
                if retirer == self.posted.memory_of[newer.index]:
                    covered[split] += 1
                    continue
                misses[split][self._miss_reason(older, newer, retirer)] += 1
        return {
            "true_update_coverage": _share(sum(covered.values()), sum(total.values())),
            "true_update_coverage_split": {
                split: {"covered": covered[split], "pairs": total[split], "share": _share(covered[split], total[split])}
                for split in COVERAGE_SPLIT.values()
            },
            "coverage_misses": {split: dict(misses[split].most_common()) for split in COVERAGE_SPLIT.values()},
        }

    def _miss_reason(self, older: Write, newer: Write, retirer: str | None) -> str:
        judged = self.judgment(older, newer)
        if judged is not None:
            return f"judged {judged[0]} ({judged[2]})"
        if retirer is not None:
            other = self.write_for(retirer)
            if other is not None and may_retire(older, other):
                return "older retired by another legitimate successor"
            return "older retired wrongly before"
        return "never judged (not among the candidates)"

    def queue(self) -> dict[str, Any]:
        pending = self.outcome.pending
        classes: Counter[str] = Counter()
        relations: Counter[str] = Counter()
        queued: list[tuple[Write, Write, str]] = []
        for conflict in pending:
            older, newer = self.write_for(conflict.older), self.write_for(conflict.newer)
            if older is not None and newer is not None:
                cls = pair_class(older, newer)
                classes[cls] += 1
                queued.append((older, newer, cls))
            relations[conflict.relation] += 1
        return {
            "pending_conflicts_per_100_writes": round(100 * len(pending) / len(self.store.writes), 2),
            "conflicts_different_subject_share": _share(classes[DIFFERENT_SUBJECT], len(pending)),
            "conflicts_different_attribute_share": _share(classes[DIFFERENT_ATTRIBUTE], len(pending)),
            # The "about one subject and attribute": neither of the two above.
            "conflicts_same_slot_share": _share(
                len(pending) - classes[DIFFERENT_SUBJECT] - classes[DIFFERENT_ATTRIBUTE], len(pending)
            ),
            "conflicts_by_class": _by_class(classes),
            "conflicts_by_relation": dict(relations.most_common()),
            "queue_shape": queue_shape(pending, writes=len(self.store.writes), slot_column=self.outcome.slot_column),
            # Pairs that should never be in the queue (R-H7) first.
            "conflict_examples": _diverse(queued, CONFLICT_EXAMPLES, self.example),
        }

    def judgments(self) -> dict[str, Any]:
        """Every judgment against the ground truth's class of its pair."""
        confusion: dict[str, Counter[str]] = defaultdict(Counter)
        agreeing = 0
        for (older_id, newer_id), (relation, _confidence, _outcome) in self.outcome.judgments.items():
            older, newer = self.write_for(older_id), self.write_for(newer_id)
            if older is None or newer is None:
                continue
            cls = pair_class(older, newer)
            confusion[cls][relation] += 1
            agreeing += relation in ACCEPTABLE_RELATIONS[cls]
        return {
            "judge_agreement": _share(agreeing, len(self.outcome.judgments)),
            "judgments_by_class": {cls: dict(confusion[cls].most_common()) for cls in PAIR_CLASSES if confusion[cls]},
        }

    def counts(self) -> dict[str, Any]:
        return run_counts(len(self.store.writes), self.posted, self.outcome)


def score(store: Store, posted: Posted, outcome: StoreAfterRun) -> dict[str, Any]:
    """The metrics of one run (described in ``bench/hygiene_store.py``)."""
    scoring = _Scoring(store, posted, outcome)
    return {
        "store": store.summary(),
        "counts": scoring.counts(),
        **scoring.retirements(),
        **scoring.coverage(),
        **scoring.queue(),
        **scoring.judgments(),
    }


def _by_class(counter: Counter[str]) -> dict[str, int]:
    return {cls: counter[cls] for cls in PAIR_CLASSES if counter[cls]}


def _diverse(items: list[tuple[Write, Write, str]], limit: int, render: Any) -> list[dict[str, Any]]:
    """Up to ``limit`` examples, taken in turn from each class (the harmful ones first)."""
    by_class: dict[str, list[tuple[Write, Write, str]]] = defaultdict(list)
    for item in items:
        by_class[item[2]].append(item)
    order = sorted(by_class, key=lambda cls: (cls not in HARMFUL_CLASSES, -len(by_class[cls])))
    chosen: list[dict[str, Any]] = []
    depth = 0
    while len(chosen) < limit and any(depth < len(by_class[cls]) for cls in order):
        for cls in order:
            if depth < len(by_class[cls]) and len(chosen) < limit:
                chosen.append(render(*by_class[cls][depth]))
        depth += 1
    return chosen


# -- the report -----------------------------------------------------------------------------------


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def _listing(counts: dict[str, int]) -> str:
    return ", ".join(f"{name} {count}" for name, count in counts.items()) or "none"


def _examples(items: list[dict[str, Any]]) -> list[str]:
    lines = []
    for item in items:
        verdict = f"{item['relation']} {item['confidence']}" if item["relation"] else "no judgment recorded"
        lines.append(f"  [{item['class']}; judged {verdict}]")
        lines.append(f"    older #{item['older_write']}: {item['older']}")
        lines.append(f"    newer #{item['newer_write']}: {item['newer']}")
    return lines


def queue_shape_lines(shape: dict[str, Any]) -> list[str]:
    """The decisions a person faces and R-H9, as the reports print them."""
    joined = "shared memories and slot keys" if shape["grouped_by_slot"] else "shared memories (no slot column)"
    return [
        f"Decisions a person faces: {shape['groups']} conflict groups "
        f"({shape['groups_per_100_writes']} per 100 writes; largest {shape['largest_group']} conflicts; "
        f"joined through {joined})",
        f"R-H9: {shape['memories_newer_in_several']} memories are the newer side of more than one pending "
        f"conflict; {shape['memories_in_several']} are in more than one at all",
    ]


def format_report(result: dict[str, Any]) -> str:
    counts, timings, store = result["counts"], result["timings"], result["store"]
    lines = [
        "Whole-store hygiene evaluation",
        f"  store: {store['writes']} writes, {store['subjects']} subjects, {store['slots']} slots "
        f"({store['project_writes']} in the project, {store['personal_writes']} personal), "
        f"seed {result['run']['seed']}",
        "  categories: " + ", ".join(f"{name} {count}" for name, count in store["categories"].items()),
        f"  judge: {result['run']['judge']}; queue drained: {result['drained']}",
        "",
        f"Counts: {counts['created']} created, {counts['absorbed']} absorbed, {counts['judgments']} judgments, "
        f"{counts['auto_resolved']} auto-resolved, {counts['queued']} queued, {counts['no_action']} no action; "
        f"{counts['superseded']} memories superseded; tasks {counts['tasks']}",
        "",
        f"Wrongful retirements: {result['wrongful_retirements']} of {counts['superseded']} retirements "
        f"({result['wrongful_harmful']} harmful: a distinct fact taken out of the live store)",
        "  by class: " + _listing(result["wrongful_by_class"]),
        "  all retirements by class: " + _listing(result["retirements_by_class"]),
        f"True-update coverage: {_pct(result['true_update_coverage'])}",
    ]
    for split, figures in result["true_update_coverage_split"].items():
        misses = result["coverage_misses"][split]
        top = "; ".join(f"{reason} {count}" for reason, count in list(misses.items())[:4])
        lines.append(f"  {split}: {figures['covered']}/{figures['pairs']} ({_pct(figures['share'])}); missed: {top}")
    lines += [
        f"Pending conflicts: {counts['pending_conflicts']} "
        f"({result['pending_conflicts_per_100_writes']} per 100 writes)",
        f"  about one subject and attribute: {_pct(result['conflicts_same_slot_share'])}; "
        f"different subject: {_pct(result['conflicts_different_subject_share'])}, "
        f"different attribute: {_pct(result['conflicts_different_attribute_share'])}",
        "  by class: " + _listing(result["conflicts_by_class"]),
        *queue_shape_lines(result["queue_shape"]),
        f"Judge agreement with the ground truth: {_pct(result['judge_agreement'])} of {counts['judgments']} judgments",
    ]
    for cls, relations in result["judgments_by_class"].items():
        lines.append(f"  {cls}: " + _listing(relations))
    lines += [
        "",
        f"Time: setup {timings.get('setup_seconds', 0):.0f}s, writes {timings.get('write_seconds', 0):.0f}s "
        f"(p50 {timings.get('write_p50_ms', 0):.0f} ms, p95 {timings.get('write_p95_ms', 0):.0f} ms), "
        f"drain after writes {timings.get('drain_after_writes_seconds', 0):.0f}s, "
        f"worker wall {timings.get('worker_wall_seconds', 0):.0f}s "
        f"(busy {timings.get('worker_busy_seconds', 0):.0f}s), "
        f"total {timings.get('total_seconds', 0):.0f}s",
        "",
        "Wrongful retirement examples (older → retired by newer):",
        *_examples(result["wrongful_examples"]),
        "",
        "Pending conflict examples:",
        *_examples(result["conflict_examples"]),
    ]
    return "\n".join(lines)
