"""Throughput under load, the hygiene worker's rate and its backlog's effect: the figures and
docs/performance-throughput.md (``./zm bench --throughput``, bench/throughput.py).

Pure functions of what was measured, standard library only, so that they are tested without
running anything (tests/bench/test_throughput_report.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

OPERATIONS = ("remember", "recall")


def percentile(values: list[float], share: float) -> float:
    """Nearest rank, as bench/common.py's percentile (which the suite's report uses)."""
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return ordered[index]


def p50_p95(values: list[float]) -> str:
    return f"{percentile(values, 0.5):.1f} / {percentile(values, 0.95):.1f}"


@dataclass
class Load:
    """``clients`` keep-alive clients sending one operation back to back for ``seconds``: the
    milliseconds of each answered request (a failed one fails the run before this is built)."""

    operation: str
    clients: int
    seconds: float
    latencies: list[float]

    @property
    def per_second(self) -> float:
        return len(self.latencies) / self.seconds


@dataclass
class Drain:
    """The worker draining ``checks`` hygiene checks alone, from the first one it started to the
    last one it finished; ``judgments``: the judgments those checks recorded."""

    checks: int
    judgments: int
    seconds: float

    @property
    def checks_per_second(self) -> float:
        return self.checks / self.seconds

    @property
    def judgments_per_second(self) -> float:
        return self.judgments / self.seconds


@dataclass
class Side:
    """One version of the code, measured on its own copy of the store."""

    label: str  # "before", "after" or "this code"
    commit: str  # what the page names it by: "c4fdd4f"
    loads: list[Load] = field(default_factory=list)
    drain: Drain | None = None
    # One client, per operation: the worker idle, and while it drains a backlog.
    idle: dict[str, list[float]] = field(default_factory=dict)
    backlog: dict[str, list[float]] = field(default_factory=dict)
    judged_during_backlog: int = 0  # checks the worker finished while the backlog phase was timed
    backlog_seconds: float = 0.0  # how long that phase took
    left_after_backlog: int = 0  # checks still waiting when it ended: > 0, the backlog lasted

    def rounds(self, operation: str, clients: int) -> list[Load]:
        return [load for load in self.loads if (load.operation, load.clients) == (operation, clients)]

    def load(self, operation: str, clients: int) -> Load:
        """Its rounds as one: every request over the time they took together."""
        rounds = self.rounds(operation, clients)
        latencies = [ms for load in rounds for ms in load.latencies]
        return Load(operation, clients, sum(load.seconds for load in rounds), latencies)


@dataclass
class Context:
    date: str
    machine: str  # "2 cores (AMD EPYC), Python 3.11.7"
    size: int  # memories in the seeded store
    clients: list[int]
    seconds: float  # each load phase
    rounds: int  # of the load phases, each side in turn each time
    requests: int  # per operation and phase, from one client
    checks: int  # the drained backlog
    backlog: int  # enqueued before the backlog phase
    niceness: int  # the worker's, as ./zm serve gives it
    minutes: float  # the whole command
    command: str  # how to reproduce it


def _heading(sides: list[Side]) -> str:
    return " | ".join(f"{side.label} `{side.commit}`" for side in sides)


def markdown(sides: list[Side], context: Context) -> str:
    together = ", both running at once and measured in turn, phase by phase, the order swapped every phase"
    lines = [
        "# Throughput",
        "",
        "<!-- Written by `./zm bench --throughput` (bench/throughput.py); edit the text there, not here. -->",
        "",
        f"Measured {context.date} on {context.machine}, on copies of the seeded {context.size:,}-memory "
        f"store (bench/seed.py), one per side; the whole run took {context.minutes:.1f} minutes. "
        f"Reproduce with `{context.command}`.",
        "",
        "Each side's server is the production one, started as `./zm serve` starts it (gunicorn, 2 "
        "workers of 4 threads, WSGI, DEBUG off, pooled connections), from its own checkout"
        + (together if len(sides) > 1 else "")
        + ". The clients run on the same machine, over loopback, each on one keep-alive connection.",
        "",
        "## Requests per second under load",
        "",
        f"Each client sends one operation back to back for {context.seconds:.0f} s: a remember (a "
        "new note, no declaration) or a recall (a question, 10 results). "
        + (
            f"{context.rounds} rounds of every phase: requests per second over them all, each round's "
            "in brackets (their spread is the noise to read a difference against); p50 / p95 over "
            "every request. "
            if context.rounds > 1
            else ""
        )
        + "Not one request failed (a "
        "failure fails the run). Measured last, with the hygiene worker stopped, as in `./zm bench` "
        "(its cost to the requests is the last table): the checks these writes enqueue wait unjudged.",
        "",
        "| operation | clients | "
        + " | ".join(f"{side.label}: per second | {side.label}: p50 / p95 ms" for side in sides)
        + " |",
        "| --- | ---: | " + " | ".join("---: | ---:" for _ in sides) + " |",
    ]
    for clients in context.clients:
        for operation in OPERATIONS:
            cells = []
            for side in sides:
                load, rounds = side.load(operation, clients), side.rounds(operation, clients)
                each = f" ({', '.join(f'{one.per_second:.1f}' for one in rounds)})" if len(rounds) > 1 else ""
                cells += [f"{load.per_second:.1f}{each}", p50_p95(load.latencies)]
            lines.append(f"| {operation} | {clients} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "## The hygiene worker's rate",
        "",
        f"One task worker (`manage.py task_worker`, at nice {context.niceness} as `./zm serve` runs it) "
        f"drains {context.checks} hygiene checks of stored memories, enqueued at once (as "
        "bench/hygiene_backlog.py enqueues them; the same memories on every side), with no requests "
        "coming in. Timed from the first check it started to the last it finished (the queue's own "
        "timestamps). A check screens one memory's nearest neighbours and has the judge "
        "(`ZEROMEMORY_JUDGE`, by default the local trained one) give a verdict on each pair worth "
        "judging; a judgment is one such "
        "verdict, recorded. How many pairs a check judges depends on what the store holds: compare "
        "judgments per second between sides, on copies alike.",
        "",
        f"| | {_heading(sides)} |",
        "| --- | " + " | ".join("---:" for _ in sides) + " |",
    ]
    drains = [side.drain for side in sides]
    if all(drain is not None for drain in drains):
        rows = {
            "checks drained": lambda d: f"{d.checks}",
            "seconds": lambda d: f"{d.seconds:.1f}",
            "checks per second": lambda d: f"{d.checks_per_second:.1f}",
            "judgments recorded": lambda d: f"{d.judgments}",
            "**judgments per second**": lambda d: f"**{d.judgments_per_second:.1f}**",
        }
        for name, cell in rows.items():
            lines.append(f"| {name} | " + " | ".join(cell(drain) for drain in drains if drain is not None) + " |")
    lines += [
        "",
        "## The backlog's effect on request latency",
        "",
        f"One client, {context.requests} remembers then {context.requests} recalls per phase, with the "
        "task worker running: **idle** (nothing queued but the check each timed remember enqueues "
        f"itself, as in a steady state) and **draining** ({context.backlog} checks enqueued just before "
        "the phase, as after a burst of writes or a worker restart). p50 / p95 ms:",
        "",
        f"| operation | worker | {_heading(sides)} |",
        "| --- | --- | " + " | ".join("---:" for _ in sides) + " |",
    ]
    for operation in OPERATIONS:
        for phase, name in (("idle", "idle"), ("backlog", "draining a backlog")):
            cells = [p50_p95(getattr(side, phase)[operation]) for side in sides]
            lines.append(f"| {operation} | {name} | " + " | ".join(cells) + " |")
    lines.append(
        "| checks judged during the draining phase (still waiting at its end) | | "
        + " | ".join(f"{side.judged_during_backlog} ({side.left_after_backlog})" for side in sides)
        + " |"
    )
    lines.append(
        "| checks judged per second while the requests ran | | "
        + " | ".join(f"{side.judged_during_backlog / side.backlog_seconds:.1f}" for side in sides)
        + " |"
    )
    short = [side.label for side in sides if side.left_after_backlog == 0]
    if short:
        lines += [
            "",
            f"**The backlog ran out before the draining phase ended** ({', '.join(short)}): part of that "
            "phase ran with the worker idle. Run again with a larger `--backlog`.",
        ]
    return "\n".join(lines) + "\n"
