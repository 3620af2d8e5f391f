"""Hygiene of one write at 100,000 memories: the worker's CPU, wall and SQL time per hygiene_check.

    python bench/hygiene_write.py                        # 200 new writes on the 100k store
    python bench/hygiene_write.py --writes 500 --json-out /tmp/hygiene-write.json
    python bench/hygiene_write.py --source existing      # re-check 200 seeded memories instead

Clones the seeded store of ``--size`` memories (bench/seed.py, seeded once and reused, see
bench/suite.py) into its own database, then, for the benchmarking user ``bench``, writes new
memories through ``memories.services.memory_remember`` (embedded by the server's embedder, like
an undeclared write over the API; corpus notes from another seed than the store's, round-robin
over bench's three projects and its personal scope) and runs ``review.pipeline.hygiene_check``
on each in this process, as the task worker would. The write and its embedding are outside
what is measured; per hygiene_check it records:

- worker CPU: ``time.process_time()`` delta (this process only: PostgreSQL's CPU is not in it);
- wall time;
- SQL time: every statement's execute, timed at the driver (``connection.execute_wrapper``),
  which holds PostgreSQL's work, the round trip and psycopg's side of it;
- candidates judged, judgments recorded, neighbours screened by structure (where the code has
  the screen), and the same three times split by the pipeline's phases.

New writes are the default because that is the case the worker meets: a memory with no
judgments yet, judged against a store that has not seen it. ``--source existing`` picks seeded
live memories of ``bench`` instead (spread over its scopes; the seed records no judgments
either, but their neighbours include memories written after them).

The first ``--warmup`` writes (default 1) are checked but not counted, and more until one check
has judged a pair (at most 20): the judge's weights, the ONNX session, Django's and the
structure analyser's first-use costs land there. Runs only on the
embedded database, in bench databases (the template ``zm_bench_seed_<size>`` and the clone
``zm_bench_hygiene``, dropped at the end unless ``--keep``); needs no network.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

os.environ.setdefault("ZEROMEMORY_LOG_LEVEL", "WARNING")

from common import percentile

RUN_DATABASE = "zm_bench_hygiene"
TARGET_CPU_MS = 50.0
MAX_WARMUP = 20
# The pipeline's steps, timed where present (the structural screen exists only in newer code).
PHASES = ["candidates_for", "worth_judging", "judge_with_retries", "judge model", "apply_verdict"]
PHASE_LABELS = {
    "candidates_for": "candidates (scan + screen)",
    "worth_judging": "  of which: structural screen",
    "judge_with_retries": "judging (guard + judge)",
    "judge model": "  of which: the judge itself",
    "apply_verdict": "recording / acting",
    "rest": "rest (load the memory, ...)",
}


class Meter:
    """Per-call accumulators: SQL time and statements, and CPU/wall/SQL per pipeline phase."""

    def __init__(self) -> None:
        self.stack: list[str] = []
        self.reset()

    def reset(self) -> None:
        self.sql_ms = 0.0
        self.sql_cpu_ms = 0.0
        self.statements = 0
        self.phase: dict[str, dict[str, float]] = {}
        self.candidates = 0
        self.screened: int | None = None

    def sql(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        cpu, wall = time.process_time(), time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            ms = (time.perf_counter() - wall) * 1000
            self.sql_ms += ms
            self.sql_cpu_ms += (time.process_time() - cpu) * 1000
            self.statements += 1
            for name in set(self.stack):
                self.phase.setdefault(name, {"cpu": 0.0, "wall": 0.0, "sql": 0.0})["sql"] += ms

    def timed(self, name: str, function: Any) -> Any:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            self.stack.append(name)
            cpu, wall = time.process_time(), time.perf_counter()
            try:
                return function(*args, **kwargs)
            finally:
                spent = self.phase.setdefault(name, {"cpu": 0.0, "wall": 0.0, "sql": 0.0})
                spent["cpu"] += (time.process_time() - cpu) * 1000
                spent["wall"] += (time.perf_counter() - wall) * 1000
                self.stack.pop()

        return wrapper


def instrument(meter: Meter) -> None:
    """Time the pipeline's steps through the module globals hygiene_check calls them by."""
    from review import eligibility, pipeline
    from review.judges import get_judge

    for name in ("candidates_for", "worth_judging", "judge_with_retries", "apply_verdict"):
        # The structural screen is part of the eligibility rule the sweep shares.
        module = eligibility if name == "worth_judging" else pipeline
        original = getattr(module, name, None)
        if original is None:
            continue
        timed = meter.timed(name, original)
        if name == "candidates_for":

            def counted(memory: Any, timed: Any = timed) -> Any:
                chosen = timed(memory)
                meter.candidates += len(chosen)
                return chosen

            setattr(pipeline, name, counted)
        elif name == "worth_judging":

            def screened(*args: Any, timed: Any = timed) -> Any:
                meter.screened = (meter.screened or 0) + 1
                return timed(*args)

            setattr(module, name, screened)
        else:
            setattr(pipeline, name, timed)
    judge = get_judge()
    judge.judge = meter.timed("judge model", judge.judge)  # type: ignore[method-assign]


def scopes_of(user: Any) -> list[str | None]:
    slugs = list(user.memberships.order_by("project__slug").values_list("project__slug", flat=True))
    return [*slugs, None]


def new_write(user: Any, rng: random.Random, scopes: list[str | None], index: int) -> str:
    """One undeclared write through the service layer (embedded there); the new memory's id."""
    from corpus import note

    from memories.services import memory_remember

    for _ in range(20):
        kind, content = note(rng)
        result = memory_remember(
            user=user, credential=None, content=content, kind=kind, project_slug=scopes[index % len(scopes)]
        )
        if not result.absorbed:  # a restatement of a stored note creates nothing and is not checked
            return str(result.memory.pk)
    raise SystemExit("too many writes were absorbed as restatements")


def existing_memories(user: Any, count: int, seed: int) -> list[str]:
    """``count`` live seeded memories of ``user``, evenly spread over its scopes, interleaved."""
    from memories.models import Memory

    rng = random.Random(seed)
    per_scope = []
    scopes = scopes_of(user)
    for slug in scopes:
        live = Memory.objects.filter(owner=user, state="live")
        live = live.filter(project__slug=slug) if slug else live.filter(project__isnull=True)
        ids = sorted(live.values_list("pk", flat=True))
        per_scope.append(rng.sample(ids, min(len(ids), -(-count // len(scopes)))))
    interleaved = [ids[n] for n in range(max(map(len, per_scope))) for ids in per_scope if n < len(ids)]
    return interleaved[:count]


def stats(values: list[float]) -> dict[str, float]:
    return {
        "p50": percentile(values, 0.5),
        "p95": percentile(values, 0.95),
        "max": max(values),
        "mean": sum(values) / len(values),
    }


def measure(args: argparse.Namespace, user: Any) -> tuple[list[dict[str, Any]], Counter[str], Counter[str], int]:
    """Run the warm-up and the measured checks; per-call rows, outcomes, relations, skipped."""
    from django.db import connection

    from review import pipeline

    total = args.warmup + MAX_WARMUP + args.writes
    rng = random.Random(args.seed)
    scopes = scopes_of(user)
    write_ahead = args.source == "existing" or args.write_first
    if args.source == "existing":
        subjects = existing_memories(user, total, args.seed)
    elif write_ahead:
        subjects = [new_write(user, rng, scopes, n) for n in range(total)]

    def subject(n: int) -> str:
        # By default each memory is written just before its check, as the worker would find it.
        return subjects[n] if write_ahead else new_write(user, rng, scopes, n)

    meter = Meter()
    instrument(meter)
    calls: list[dict[str, Any]] = []
    outcomes: Counter[str] = Counter()
    relations: Counter[str] = Counter()
    not_live = 0
    profiler = cProfile.Profile(time.process_time) if args.profile else None
    warmed = 0
    judged_once = False
    with connection.execute_wrapper(meter.sql):
        n = 0
        while len(calls) < args.writes:
            memory_id = subject(n)
            n += 1
            meter.reset()
            if profiler is not None and warmed >= args.warmup and judged_once:
                profiler.enable()
            cpu, wall = time.process_time(), time.perf_counter()
            judgments = pipeline.hygiene_check(memory_id)
            cpu_ms = (time.process_time() - cpu) * 1000
            wall_ms = (time.perf_counter() - wall) * 1000
            if profiler is not None:
                profiler.disable()
            # Warm up on --warmup checks, and on until one has judged a pair: the judge's and the
            # recording's first-use costs are then out of the measured checks too.
            if warmed < args.warmup or (not judged_once and warmed < MAX_WARMUP):
                warmed += 1
                judged_once = judged_once or bool(judgments)
                print(
                    f"  warm-up check {warmed}: {cpu_ms:.1f} ms CPU, {wall_ms:.1f} ms wall, "
                    f"{len(judgments)} judgments (not counted)",
                    flush=True,
                )
                continue
            if not meter.phase:
                not_live += 1  # retired since it was picked (--source existing): nothing was done
            outcomes.update(str(j.outcome) for j in judgments)
            relations.update(str(j.relation) for j in judgments)
            calls.append(
                {
                    "memory": memory_id,
                    "cpu_ms": cpu_ms,
                    "wall_ms": wall_ms,
                    "sql_ms": meter.sql_ms,
                    "sql_client_cpu_ms": meter.sql_cpu_ms,
                    "statements": meter.statements,
                    "candidates": meter.candidates,
                    "judgments": len(judgments),
                    "screened": meter.screened,
                    "phases": meter.phase,
                }
            )
    if profiler is not None:
        profiler.dump_stats(args.profile)
        print(f"\n  profile of the measured checks (CPU time; inflated by the profiler) in {args.profile}:")
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(35)
    return calls, outcomes, relations, not_live


METRICS = {
    "worker CPU (ms)": "cpu_ms",
    "wall (ms)": "wall_ms",
    "SQL (ms)": "sql_ms",
    "  of which this process's CPU": "sql_client_cpu_ms",
    "SQL statements": "statements",
    "candidates judged": "candidates",
    "judgments recorded": "judgments",
    "neighbours screened": "screened",
}


def summarise(calls: list[dict[str, Any]]) -> tuple[dict[str, dict[str, float]], dict[str, dict[str, float]]]:
    """p50/p95/max/mean of each metric, and each phase's mean CPU, wall and SQL per check."""
    summary = {
        key: stats([float(call[key] or 0) for call in calls])
        for key in METRICS.values()
        if key != "screened" or any(call["screened"] is not None for call in calls)
    }
    phases: dict[str, dict[str, float]] = {}
    for name in PHASES:
        rows = [call["phases"].get(name) for call in calls]
        if any(rows):
            phases[name] = {what: sum(row[what] for row in rows if row) / len(calls) for what in ("cpu", "wall", "sql")}
    top = [name for name in ("candidates_for", "judge_with_retries", "apply_verdict") if name in phases]
    phases["rest"] = {
        what: summary[f"{what}_ms"]["mean"] - sum(phases[name][what] for name in top) for what in ("cpu", "wall", "sql")
    }
    return summary, phases


def print_report(
    calls: list[dict[str, Any]],
    summary: dict[str, dict[str, float]],
    phases: dict[str, dict[str, float]],
    source: str,
) -> None:
    print(f"\n{len(calls)} hygiene checks ({source} memories), per check:")
    print(f"  {'':<32}{'p50':>9}{'p95':>9}{'max':>9}{'mean':>9}")
    for label, key in METRICS.items():
        if key in summary:
            row = summary[key]
            print(f"  {label:<32}" + "".join(f"{row[k]:9.1f}" for k in ("p50", "p95", "max", "mean")))
    print(f"\n  {'where the time goes (mean ms/check)':<36}{'CPU':>8}{'wall':>9}{'SQL':>9}   share of CPU")
    cpu_mean = summary["cpu_ms"]["mean"] or 1.0
    for name, spent in phases.items():
        print(
            f"  {PHASE_LABELS[name]:<36}{spent['cpu']:8.2f}{spent['wall']:9.2f}{spent['sql']:9.2f}"
            f"   {spent['cpu'] / cpu_mean:6.0%}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000, help="memories in the seeded store")
    parser.add_argument("--writes", type=int, default=200, help="hygiene checks measured")
    parser.add_argument("--warmup", type=int, default=1, help="checks run first and not counted")
    parser.add_argument("--source", choices=["new", "existing"], default="new")
    parser.add_argument(
        "--write-first",
        action="store_true",
        help="(new) write every memory before the first check, as a worker draining a backlog",
    )
    parser.add_argument("--seed", type=int, default=4242)
    parser.add_argument("--reseed", action="store_true", help="rebuild the seeded store")
    parser.add_argument("--keep", action="store_true", help=f"keep the {RUN_DATABASE} database afterwards")
    parser.add_argument("--json-out", type=Path, default=None, help="also write the result (and every call) as JSON")
    parser.add_argument("--profile", type=Path, default=None, help="cProfile the measured checks into this file")
    args = parser.parse_args()

    import suite

    template = suite.ensure_seeded(args.size, args.reseed, args.size)
    suite.RUN_DATABASE = RUN_DATABASE  # clone() copies into this name (not the suite's own run database)
    suite.clone(template)

    from django.conf import settings
    from django.contrib.auth.models import User
    from django.db import connection, connections

    from memories.embedding import get_embedder
    from memories.models import Memory
    from review import pipeline
    from review.judges import get_judge

    if connection.settings_dict["NAME"] != RUN_DATABASE:
        raise SystemExit(f"not on the bench clone ({connection.settings_dict['NAME']})")
    code_root = Path(pipeline.__file__).resolve().parent.parent
    bench = User.objects.get(username="bench")
    live = Memory.objects.filter(owner=bench, state="live")
    live_in_scope = {
        str(slug): (live.filter(project__slug=slug) if slug else live.filter(project__isnull=True)).count()
        for slug in scopes_of(bench)
    }
    get_embedder().embed(["warm the embedder"])
    judge = get_judge()
    print(
        f"hygiene_check at {Memory.objects.count():,} memories, code {code_root}, judge {judge.name}\n"
        f"  bench's live memories per scope: {live_in_scope}",
        flush=True,
    )
    calls, outcomes, relations, not_live = measure(args, bench)
    summary, phases = summarise(calls)
    print_report(calls, summary, phases, args.source)
    print(f"\n  outcomes: {dict(outcomes)}; relations: {dict(relations)}; not live when checked: {not_live}")
    verdict = "met" if summary["cpu_ms"]["p95"] <= TARGET_CPU_MS else "NOT met"
    print(
        f"  target <= {TARGET_CPU_MS:.0f} ms worker CPU per write: p50 {summary['cpu_ms']['p50']:.1f} ms, "
        f"p95 {summary['cpu_ms']['p95']:.1f} ms ({verdict} at p95)"
    )
    if args.json_out is not None:
        result = {
            "size": args.size,
            "writes": len(calls),
            "warmup": args.warmup,
            "source": args.source,
            "write_first": args.source == "existing" or args.write_first,
            "code_root": str(code_root),
            "data_dir": str(settings.DATA_DIR),
            "judge": judge.name,
            "settings": {
                name: getattr(settings, name, None)
                for name in (
                    "HYGIENE_MAX_CANDIDATES",
                    "HYGIENE_SCREEN_CANDIDATES",
                    "HYGIENE_AUTO_RESOLVE_THRESHOLD",
                    "EMBEDDING_BACKEND",
                )
            },
            "bench_live_per_scope": live_in_scope,
            "summary": summary,
            "phases_mean_ms": phases,
            "outcomes": dict(outcomes),
            "relations": dict(relations),
            "not_live": not_live,
            "calls": calls,
        }
        args.json_out.write_text(json.dumps(result, indent=2) + "\n")
        print(f"  wrote {args.json_out}")
    if not args.keep:
        connections.close_all()
        with suite.admin_connection() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{RUN_DATABASE}" WITH (FORCE)')


if __name__ == "__main__":
    main()
