"""docs/performance.md and its chart, from the suite's measurements."""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from common import percentile

SERVERS = {
    "gunicorn": "gunicorn, 2 workers of 4 threads, WSGI",
    "uvicorn": "uvicorn, 2 workers, ASGI",
}
HTTP_OPERATIONS = (
    "remember",
    "remember + 3 supersedes",
    "recall",
    "recall in a project",
    "history",
    "feed",
    "context (1,000 tokens)",
    "batch of 50, per item",
)
FLOOR = ("embedding alone", "bare SQL (write path)")


def _p(result: Any, operation: str, share: float) -> float:
    return percentile(result.latency[operation], share)


def targets(results: list[Any]) -> list[tuple[str, str, str, bool]]:
    """(target, wanted, measured, met) for the issue's targets, at the largest and smallest size."""
    large, small = results[-1], results[0]
    rows: list[tuple[str, str, str, bool]] = []

    def add(name: str, wanted: str, value: float, ok: bool, unit: str = "ms") -> None:
        rows.append((name, wanted, f"{value:.1f} {unit}".strip(), ok))

    at = f" at {large.size:,}"
    add("remember p50" + at, "≤ 25 ms", _p(large, "remember", 0.5), _p(large, "remember", 0.5) <= 25)
    add("remember p95" + at, "≤ 60 ms", _p(large, "remember", 0.95), _p(large, "remember", 0.95) <= 60)
    declared = _p(large, "remember + 3 supersedes", 0.5)
    add("remember + 3 supersedes p50" + at, "≤ 30 ms", declared, declared <= 30)
    add("recall p50" + at, "≤ 20 ms", _p(large, "recall", 0.5), _p(large, "recall", 0.5) <= 20)
    add("recall p95" + at, "≤ 50 ms", _p(large, "recall", 0.95), _p(large, "recall", 0.95) <= 50)
    floor = _p(large, "embedding alone", 0.5) + _p(large, "bare SQL (write path)", 0.5)
    ratio = _p(large, "remember", 0.5) / floor
    add("remember p50 ÷ (embedding p50 + bare SQL p50)" + at, "≤ 2.5", ratio, ratio <= 2.5, "x")
    # Issue 20: the context pack within a few milliseconds of recall, a batch item cheaper than a write.
    context_over = _p(large, "context (1,000 tokens)", 0.5) - _p(large, "recall", 0.5)
    add("context (1,000 tokens) p50 minus recall p50" + at, "≤ 5 ms", context_over, context_over <= 5)
    per_item = _p(large, "batch of 50, per item", 0.5) / _p(large, "remember", 0.5)
    add("batch of 50, per item p50 ÷ remember p50" + at, "< 1", per_item, per_item < 1, "x")
    if small is not large:
        for operation in HTTP_OPERATIONS:
            growth = _p(large, operation, 0.5) / _p(small, operation, 0.5)
            add(
                f"{operation} p50, {large.size:,} ÷ {small.size:,}",
                "≤ 1.5",
                growth,
                growth <= 1.5,
                "x",
            )
    add(
        "remembers per second, 4 clients" + at,
        "≥ 60",
        large.throughput["remember"],
        large.throughput["remember"] >= 60,
        "/s",
    )
    add(
        "recalls per second, 4 clients" + at,
        "≥ 120",
        large.throughput["recall"],
        large.throughput["recall"] >= 120,
        "/s",
    )
    for name, value in large.quality.items():
        if name.endswith("recall@10"):
            rows.append((name + at, "≥ 0.98", f"{value:.3f}", value >= 0.98))
    add(
        "answers short of 10 rows where 10 matched" + at,
        "0",
        large.quality["short answers"],
        large.quality["short answers"] == 0,
        "",
    )
    if large.hygiene_seconds is not None:
        add(
            f"hygiene sweep of {large.hygiene_memories:,} memories of one owner",
            "≤ 30 s",
            large.hygiene_seconds,
            large.hygiene_seconds <= 30,
            "s",
        )
    return rows


def chart(results: list[Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    operations = [*HTTP_OPERATIONS, *FLOOR]
    figure, axis = plt.subplots(figsize=(10, 4.8), dpi=110)
    width = 0.8 / (2 * len(results))
    colours = ["#4c78a8", "#9ecae9", "#f58518", "#ffbf79"]
    for index, result in enumerate(results):
        for column, (share, label) in enumerate(((0.5, "p50"), (0.95, "p95"))):
            offset = (2 * index + column) * width - 0.4 + width / 2
            values = [percentile(result.latency[operation], share) for operation in operations]
            axis.bar(
                [n + offset for n in range(len(operations))],
                values,
                width,
                label=f"{label}, {result.size:,} memories",
                color=colours[(2 * index + column) % len(colours)],
            )
    axis.set_xticks(range(len(operations)), [name.replace(" + ", "\n+ ").replace(" (", "\n(") for name in operations])
    axis.set_ylabel("milliseconds")
    axis.set_title("zeromemory over HTTP, one client (floor: embedding and bare SQL in the same run)")
    axis.legend()
    axis.grid(axis="y", alpha=0.3)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)


def _machine() -> str:
    try:
        model = next(
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        )
    except (OSError, StopIteration):
        model = platform.processor()
    return f"{os.cpu_count()} cores ({model}), Python {platform.python_version()}"


def _commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def write_report(results: list[Any], path: Path, args: argparse.Namespace, seconds: float) -> None:
    from django.conf import settings

    from memories.embedding import get_embedder

    picture = path.with_suffix(".png")
    chart(results, picture)
    lines = [
        "# Performance",
        "",
        "<!-- Written by `./zm bench` (bench/suite.py); edit the text there, not here. -->",
        "",
        f"Measured {datetime.now(UTC):%Y-%m-%d} on {_machine()}, commit `{_commit()}`, "
        f"embedder `{get_embedder().name}` (backend `{getattr(settings, 'EMBEDDING_BACKEND', 'torch')}`). "
        f"The whole run took {seconds / 60:.1f} minutes. Reproduce with `./zm bench`.",
        "",
        "The peers side by side (unforget and mem0 in process, ours over HTTP, on one workload in one "
        "run) are in [performance-peers.md](performance-peers.md), written by `./zm bench --peers`. "
        "Where one request's time goes (SQL by statement, Python by layer) is in "
        "[performance-requests.md](performance-requests.md), written by `./zm bench --profile`. "
        "Requests per second with 4 and 16 clients, the hygiene worker's judgments per second and its "
        "backlog's effect on request latency are in [performance-throughput.md](performance-throughput.md), "
        "written by `./zm bench --throughput`.",
        "",
        "How: each store is seeded by `bench/seed.py` with notes from `bench/corpus.py` (about 40 "
        "sentence families of a software team's facts, preferences, decisions, tasks and questions, "
        "filled from vocabularies of services, people, customers, tools and numbers; 50 users in 20 "
        "projects; the benchmarking user owns 10%, 60% in its 3 projects and 40% personal; a tenth of "
        "each scope superseded into version chains). The server is the production one, started as "
        f"`./zm serve` starts it ({SERVERS[args.server]}, DEBUG off, pooled connections); one keep-alive "
        f"client on loopback sends {args.requests} requests per operation after a warm-up. The floor "
        "is timed in the same run: the embedding alone in process, and the write path's SQL (dedup "
        "lookup, insert, event, similar-existing top 10, in one transaction) sent by psycopg without "
        "Django. Throughput: "
        f"{args.clients} clients for {args.seconds:.0f} s each. recall@10 compares the served query "
        f"plan with an exact scan (numpy) over what the user may see, for {args.queries} questions.",
        "",
        f"![latency chart]({picture.name})",
        "",
        "## Latency over HTTP (ms)",
        "",
        "| operation | " + " | ".join(f"p50 / p95 / p99 at {r.size:,}" for r in results) + " |",
        "| --- | " + " | ".join("---:" for _ in results) + " |",
    ]
    for operation in (*HTTP_OPERATIONS, *FLOOR):
        cells = [
            " / ".join(f"{percentile(r.latency[operation], share):.1f}" for share in (0.5, 0.95, 0.99)) for r in results
        ]
        lines.append(f"| {operation} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "## Throughput and memory",
        "",
        "| | " + " | ".join(f"{r.size:,}" for r in results) + " |",
        "| --- | " + " | ".join("---:" for _ in results) + " |",
        f"| remembers per second, {args.clients} clients | "
        + " | ".join(f"{r.throughput['remember']:.0f}" for r in results)
        + " |",
        f"| recalls per second, {args.clients} clients | "
        + " | ".join(f"{r.throughput['recall']:.0f}" for r in results)
        + " |",
        "| peak RSS of one server process (MB) | " + " | ".join(f"{r.peak_rss_mb:.0f}" for r in results) + " |",
    ]
    quality_names = list(results[-1].quality)
    for name in quality_names:
        lines.append(f"| {name} | " + " | ".join(f"{r.quality[name]:.3f}" for r in results) + " |")
    lines += [
        "",
        "## Where the time goes",
        "",
        "The same requests in process (Django's test client, no HTTP), median milliseconds: the "
        "embedding, all SQL statements timed at the driver, and the rest (Python: Django, DRF, "
        "building queries, serialising).",
        "",
        "| operation | " + " | ".join(f"total / embedding / SQL / Python at {r.size:,}" for r in results) + " |",
        "| --- | " + " | ".join("---:" for _ in results) + " |",
    ]
    for operation in results[-1].breakdown:
        cells = [
            " / ".join(f"{r.breakdown[operation][part]:.1f}" for part in ("total", "embedding", "sql", "python"))
            for r in results
        ]
        lines.append(f"| {operation} | " + " | ".join(cells) + " |")
    lines += ["", "## Targets", "", "| target | wanted | measured | met |", "| --- | --- | ---: | :---: |"]
    for name, wanted, measured, met in targets(results):
        lines.append(f"| {name} | {wanted} | {measured} | {'yes' if met else '**no**'} |")
    notes_path = Path(__file__).with_name("performance-notes.md")
    if notes_path.exists():
        lines += ["", notes_path.read_text().strip()]
    lines.append("")
    path.write_text("\n".join(lines))
    raw = path.with_suffix(".json")
    raw.write_text(
        json.dumps(
            [
                {
                    "size": r.size,
                    "latency_ms": {
                        k: {s: percentile(v, q) for s, q in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99))}
                        for k, v in r.latency.items()
                    },
                    "throughput_per_s": r.throughput,
                    "peak_rss_mb": r.peak_rss_mb,
                    "quality": r.quality,
                    "breakdown_ms": r.breakdown,
                    "hygiene_seconds": r.hygiene_seconds,
                }
                for r in results
            ],
            indent=2,
        )
        + "\n"
    )
