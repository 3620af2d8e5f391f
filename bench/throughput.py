"""Requests per second under load, the hygiene worker's judgments per second and its backlog's
effect on request latency, for one version of the code or two side by side.

    ./zm bench --throughput                         # this checkout
    ./zm bench --throughput --before DIR            # another checkout beside it, alternated
    ./zm bench --throughput --code DIR              # serve DIR's code instead of this checkout's

Writes docs/performance-throughput.md (``--output -`` prints only) and prints the same page.

Each side (``--before DIR``, then ``--code DIR``, this checkout by default) gets its own copy of
the seeded store (bench/seed.py), and its own production server started as ``./zm serve`` does
(gunicorn, 2 workers of 4 threads; bench/suite.py's ``Server``) from its checkout. Both servers
run at once, idle in turn: every phase measures one side then the other, the order swapped from
phase to phase, so that a slow minute of the machine does not land on one side only.

1. **The worker's rate**: one task worker per side, as ``./zm serve`` starts it (nice 10), drains
   ``--checks`` hygiene checks of stored memories, enqueued at once as bench/hygiene_backlog.py
   does (the same memories on both sides), with no requests: checks and judgments per second,
   from the queue's own timestamps.
2. **The backlog's effect**: from one client, ``--requests`` remembers then as many recalls, timed
   with the worker idle and again just after ``--backlog`` more checks were enqueued
   (bench/hygiene_backlog.py's ``timed_remembers``), p50/p95 each.
3. **Load**, last and with the worker stopped (as in ``./zm bench``): 4 and 16 clients
   (``--clients``), each on one keep-alive connection, send remembers, then recalls, back to back
   for ``--seconds``, ``--rounds`` times: requests per second (each round's too, for the noise)
   and their p50/p95, through bench/suite.py's ``load`` (the loop ``./zm bench`` measures
   throughput with). One failed request fails the run.

The defaults take about 5½ minutes for two sides on 2 cores. Run it with nothing else busy.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from common import ROOT, Timer
from hygiene_backlog import (
    backlog_ids,
    enqueue_backlog,
    finished_tasks,
    start_worker,
    timed_recalls,
    timed_remembers,
    wait_drained,
    waiting_tasks,
)
from suite import Client, Fixtures, Server, clone, ensure_seeded, fixtures, load, use_database
from throughput_report import OPERATIONS, Context, Drain, Side, markdown, p50_p95

# The worker's priority under ./zm serve (zm: cmd_serve).
SERVE_NICENESS = 10


@dataclass
class Running:
    """A side while it is measured: its copy of the store, its server and its worker."""

    side: Side
    code: Path
    database: str
    url: str
    port: int
    fix: Fixtures
    server: Server
    worker: subprocess.Popen[bytes] | None = None
    # The notes and questions of the worker's phases: the same on every side, in the same order.
    rng: random.Random = field(default_factory=lambda: random.Random(37))

    def use(self) -> None:
        """Point this process's Django at this side's copy (to enqueue and count its tasks)."""
        use_database(self.database)


def commit_of(code: Path) -> str:
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=code, capture_output=True, text=True, check=False).stdout.strip()

    # Untracked files (the page this writes, among them) are not the code that was measured.
    edited = git("status", "--porcelain", "--untracked-files=no")
    return git("rev-parse", "--short", "HEAD") + (" + uncommitted changes" if edited else "")


def machine() -> str:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = f" ({line.split(':', 1)[1].strip()})"
                break
    except OSError:
        pass
    return f"{os.cpu_count()} cores{model}, Python {platform.python_version()}"


def drop_waiting() -> int:
    """Delete the checks still queued (not the one running): a copy of the store is thrown away
    after the run, and what is left must not keep a worker busy while the other side is timed."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM django_tasks_database_dbtaskresult WHERE status = 'READY'")
        return cursor.rowcount


def drained(memory_ids: list[str], since: float, timeout: float) -> Drain:
    """Wait for the checks of ``memory_ids`` enqueued after ``since`` (epoch seconds) to finish:
    how many, their judgments, and the seconds from the first start to the last finish."""
    from django.db import connection

    deadline = time.monotonic() + timeout
    while waiting_tasks() and time.monotonic() < deadline:
        time.sleep(0.5)
    if waiting_tasks():
        raise SystemExit(f"the worker did not drain {len(memory_ids)} checks in {timeout:.0f} s")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*), count(*) FILTER (WHERE status = 'SUCCESSFUL'), "
            "coalesce(sum((return_value #>> '{}')::int), 0), "
            "extract(epoch FROM max(finished_at) - min(started_at)) "
            "FROM django_tasks_database_dbtaskresult WHERE enqueued_at >= to_timestamp(%s) "
            "AND args_kwargs -> 'args' ->> 0 = ANY(%s)",
            [since, memory_ids],
        )
        count, succeeded, judgments, seconds = cursor.fetchone()
    if count != len(memory_ids) or succeeded != count:
        raise SystemExit(f"{count} of {len(memory_ids)} checks found, {succeeded} succeeded")
    return Drain(checks=count, judgments=int(judgments), seconds=float(seconds))


def start(label: str, code: Path, template: str, port: int, args: argparse.Namespace) -> Running:
    database = f"zm_bench_throughput_{label}"
    url = clone(template, database)
    fix = fixtures(args.requests)
    print(f"{label}: {code} ({commit_of(code)}) on port {port}", flush=True)
    server = Server(url, port, code=code)
    return Running(Side(label, commit_of(code)), code, database, url, port, fix, server)


def in_turn(sides: list[Running], phase: int) -> list[Running]:
    """Both sides, the order swapped every phase."""
    return sides if phase % 2 == 0 else sides[::-1]


def measure(sides: list[Running], args: argparse.Namespace) -> None:
    """Every phase on each side in turn. The worker's phases come first, while the copies of the
    store are still alike: each side is sent the same notes and questions in the same order (a
    random generator per side, one seed), and judges the same checks. The load comes last: how
    many writes it makes depends on the side's speed, and the copies part from there."""
    phase = 0
    # Checks of the same stored memories on every side: the first --checks for the drain, the
    # next --backlog for the backlog phase.
    sides[0].use()
    ids = backlog_ids(args.checks + args.backlog)
    if len(ids) < args.checks + args.backlog:
        raise SystemExit(f"only {len(ids)} of the benchmarking user's memories to check: lower --checks or --backlog")
    drain_ids, backlog_ids_ = ids[: args.checks], ids[args.checks :]

    print("\nthe task worker", flush=True)
    for running in sides:  # warm the server's connections, caches and model, then start the worker
        client = Client(running.port, running.fix.token)
        timed_remembers(client, running.fix.projects, 20, running.rng)
        timed_recalls(client, 20, running.rng)
        running.worker = start_worker(running.url, args.niceness, running.code)
    for running in sides:  # the worker up, its model loaded: the warm-up's checks judged
        running.use()
        wait_drained(120)

    for running in in_turn(sides, phase):
        running.use()
        since = time.time()
        enqueue_backlog(drain_ids)
        running.side.drain = drain = drained(drain_ids, since - 1, args.drain_timeout)
        print(
            f"  {running.side.label}: {drain.checks} checks in {drain.seconds:.1f} s, "
            f"{drain.checks_per_second:.1f} checks and {drain.judgments_per_second:.1f} judgments per second",
            flush=True,
        )
    phase += 1

    for running in in_turn(sides, phase):
        running.use()
        # A fresh connection per phase: gunicorn closes one left idle while the queue drains.
        client = Client(running.port, running.fix.token)
        running.side.idle["remember"] = timed_remembers(client, running.fix.projects, args.requests, running.rng)
        wait_drained(120)  # each timed write enqueued its own check
        client = Client(running.port, running.fix.token)
        running.side.idle["recall"] = timed_recalls(client, args.requests, running.rng)
        print(f"  {running.side.label}, worker idle: {summary(running.side.idle)}", flush=True)
    phase += 1

    for running in in_turn(sides, phase):
        running.use()
        enqueue_backlog(backlog_ids_)
        before = finished_tasks()
        client = Client(running.port, running.fix.token)
        with Timer() as timer:
            running.side.backlog["remember"] = timed_remembers(client, running.fix.projects, args.requests, running.rng)
            running.side.backlog["recall"] = timed_recalls(client, args.requests, running.rng)
        running.side.judged_during_backlog = finished_tasks() - before
        running.side.backlog_seconds = timer.ms / 1000
        running.side.left_after_backlog = waiting_tasks()
        drop_waiting()  # the rest must not run while the other side is timed
        wait_drained(120)  # the check it was running
        print(
            f"  {running.side.label}, worker draining: {summary(running.side.backlog)}; judged "
            f"{running.side.judged_during_backlog} in {running.side.backlog_seconds:.1f} s, "
            f"{running.side.left_after_backlog} still waiting",
            flush=True,
        )
    phase += 1

    for running in sides:  # SIGTERM: it finishes the check it holds (none: the queue is empty)
        assert running.worker is not None
        running.worker.terminate()
        running.worker.wait(timeout=60)
        running.worker = None

    for round_ in range(args.rounds):
        print(f"\nload, round {round_ + 1} of {args.rounds}", flush=True)
        for clients in args.clients:
            for operation in OPERATIONS:
                for running in in_turn(sides, phase):
                    print(f"  {running.side.label}:", end="", flush=True)
                    scopes: list[str | None] = [*running.fix.projects, None]
                    running.side.loads.append(
                        load(running.port, running.fix.token, operation, clients, args.seconds, scopes)
                    )
                phase += 1


def summary(times: dict[str, list[float]]) -> str:
    return ", ".join(f"{operation} p50 / p95 {p50_p95(values)} ms" for operation, values in times.items())


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10_000, help="the seeded store to copy (bench/seed.py)")
    parser.add_argument("--corpus-size", type=int, default=100_000, help="as bench/hygiene_backlog.py")
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout to serve (default: this one)")
    parser.add_argument("--before", type=Path, help="another checkout, measured beside --code (an A/B)")
    parser.add_argument("--clients", type=lambda text: [int(n) for n in text.split(",")], default=[4, 16])
    parser.add_argument("--seconds", type=float, default=10, help="each load phase, per operation and side")
    parser.add_argument("--rounds", type=int, default=3, help="of the load phases, the sides in turn each time")
    parser.add_argument("--requests", type=int, default=200, help="one client's requests per operation and phase")
    parser.add_argument("--checks", type=int, default=400, help="hygiene checks the worker drains alone")
    parser.add_argument("--backlog", type=int, default=400, help="checks enqueued before the backlog phase")
    parser.add_argument("--drain-timeout", type=float, default=300)
    parser.add_argument("--niceness", type=int, default=SERVE_NICENESS, help="the worker's (./zm serve's: 10)")
    parser.add_argument("--port", type=int, default=8793, help="the first side's; the second's is the next")
    parser.add_argument("--output", default=str(ROOT / "docs" / "performance-throughput.md"), help="- to print only")
    args = parser.parse_args(argv)
    for code in filter(None, (args.before, args.code)):
        if not (code / "manage.py").exists():
            raise SystemExit(f"{code} is not a checkout of zeromemory")

    with Timer() as total:
        template = ensure_seeded(args.size, False, args.corpus_size)
        labelled = [("before", args.before), ("after", args.code)] if args.before else [("this code", args.code)]
        sides: list[Running] = []
        try:
            for n, (label, code) in enumerate(labelled):
                sides.append(start(label, code.resolve(), template, args.port + n, args))
            measure(sides, args)
        finally:
            for running in sides:
                if running.worker is not None:
                    running.worker.terminate()
                    running.worker.wait(timeout=60)
                running.server.stop()

    command = "./zm bench --throughput" + (f" --before {args.before}" if args.before else "")
    context = Context(
        date=date.today().isoformat(),
        machine=machine(),
        size=args.size,
        clients=args.clients,
        seconds=args.seconds,
        rounds=args.rounds,
        requests=args.requests,
        checks=args.checks,
        backlog=args.backlog,
        niceness=args.niceness,
        minutes=total.ms / 60000,
        command=command,
    )
    page = markdown([running.side for running in sides], context)
    print("\n" + page)
    if args.output != "-":
        Path(args.output).write_text(page)
        print(f"wrote {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
