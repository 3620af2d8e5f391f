"""remember over HTTP with and without a hygiene backlog, the task worker at normal or lowered priority.

    python bench/hygiene_backlog.py [--size 10000] [--requests 200] [--backlog 1500]

Does the hygiene worker take the request path's CPU? For each worker priority (nice 0, and the
nice 10 that ``./zm serve`` gives it), on a fresh copy of the seeded store (bench/seed.py), it
starts the production server as ``./zm serve`` does (gunicorn, 2 workers of 4 threads) and one
task worker beside it (``manage.py task_worker``, ``./zm serve``'s), then times undeclared remembers
from one keep-alive client:

* **idle**: no backlog; each timed write enqueues its own hygiene check, so the worker judges
  one write at a time, as in a steady state;
* **backlog**: first ``--backlog`` hygiene checks of the user's stored memories are enqueued at
  once (as after a burst of writes, or a worker restart), then the same number of remembers is
  timed while the worker drains them.

It prints p50/p95 per phase and priority, and how many checks the worker finished while the
backlog phase was timed. Run it with nothing else busy on the machine.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import cast

from common import ROOT, percentile
from corpus import note, question
from suite import Client, Server, clone, ensure_seeded, expect, fixtures


def count_tasks(*statuses: str) -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM django_tasks_database_dbtaskresult WHERE status = ANY(%s)", [list(statuses)]
        )
        return int(cursor.fetchone()[0])


def finished_tasks() -> int:
    return count_tasks("SUCCESSFUL", "FAILED")


def waiting_tasks() -> int:
    return count_tasks("READY", "RUNNING")


def start_worker(url: str, niceness: int, code: Path = ROOT) -> subprocess.Popen[bytes]:
    """The task worker as ``./zm serve`` starts it (its WORKER_COMMAND), from the checkout ``code``."""
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_DEBUG": "false", "ZEROMEMORY_LOG_LEVEL": "WARNING"}
    command = [sys.executable, str(code / "manage.py"), "task_worker", "--queue-name", "*"]
    if niceness:
        command = ["nice", "-n", str(niceness), *command]
    return subprocess.Popen(command, cwd=code, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def backlog_ids(count: int, seed: int = 0) -> list[str]:
    """``count`` of the benchmarking user's live memories in a fixed shuffled order: the same
    ones on two copies of one store, so that two runs judge the same checks."""
    from django.contrib.auth.models import User

    from memories.models import Memory

    bench = User.objects.get(username="bench")
    stored = sorted(Memory.objects.filter(owner=bench, state="live").values_list("pk", flat=True))
    random.Random(seed).shuffle(stored)
    return stored[:count]


def enqueue_backlog(memory_ids: list[str]) -> None:
    """A hygiene check per memory, enqueued at once, as a burst of writes leaves them."""
    from review.tasks import hygiene_check_task

    for memory_id in memory_ids:
        hygiene_check_task.enqueue(memory_id)


def timed_remembers(client: Client, projects: list[str], count: int, rng: random.Random) -> list[float]:
    scopes: list[str | None] = [*projects, None]
    times = []
    for n in range(count):
        kind, content = note(rng)
        status, body, ms = client.call(
            "POST", "/api/v1/memories/", {"content": content, "kind": kind, "project": scopes[n % len(scopes)]}
        )
        expect(status, 200 if body.get("absorbed") else 201, body)
        times.append(ms)
    return times


def timed_recalls(client: Client, count: int, rng: random.Random) -> list[float]:
    """Recalls of 10 results, timed the same way as ``timed_remembers``."""
    times = []
    for _ in range(count):
        status, body, ms = client.call("POST", "/api/v1/recall/", {"query": question(rng), "limit": 10})
        expect(status, 200, body)
        times.append(ms)
    return times


def wait_drained(timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while waiting_tasks() and time.monotonic() < deadline:
        time.sleep(0.5)


def run(template: str, niceness: int, args: argparse.Namespace) -> dict[str, object]:
    url = clone(template)
    rng = random.Random(niceness)
    fix = fixtures(args.requests)
    server = Server(url, args.port)
    worker = start_worker(url, niceness)
    try:
        # A fresh connection per phase: gunicorn closes one left idle while the queue drains.
        timed_remembers(Client(args.port, fix.token), fix.projects, 20, rng)  # warm-up
        wait_drained(120)
        idle = timed_remembers(Client(args.port, fix.token), fix.projects, args.requests, rng)
        wait_drained(300)
        enqueue_backlog(backlog_ids(args.backlog))
        before = finished_tasks()
        backlog = timed_remembers(Client(args.port, fix.token), fix.projects, args.requests, rng)
        judged = finished_tasks() - before
        left = waiting_tasks()
    finally:
        worker.terminate()
        worker.wait(timeout=60)
        server.stop()
    return {"idle": idle, "backlog": backlog, "judged": judged, "left": left}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--backlog", type=int, default=1500)
    parser.add_argument("--port", type=int, default=8797)
    parser.add_argument("--corpus-size", type=int, default=100_000)
    parser.add_argument("--niceness", type=int, nargs="+", default=[0, 10])
    args = parser.parse_args()
    template = ensure_seeded(args.size, False, args.corpus_size)
    results = {niceness: run(template, niceness, args) for niceness in args.niceness}
    # How much the request path slows while the worker drains, and how far the worker got.

    print(f"\nremember over HTTP at {args.size:,} memories, {args.requests} writes per phase, {os.cpu_count()} cores")
    print(f"(backlog: {args.backlog} hygiene checks enqueued before the phase; judged = finished while it was timed)\n")
    print("| worker | idle p50 / p95 ms | backlog p50 / p95 ms | judged during the phase | still waiting |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for niceness, result in results.items():
        idle, backlog = cast(list[float], result["idle"]), cast(list[float], result["backlog"])
        print(
            f"| nice {niceness} | {percentile(idle, 0.5):.1f} / {percentile(idle, 0.95):.1f} "
            f"| {percentile(backlog, 0.5):.1f} / {percentile(backlog, 0.95):.1f} "
            f"| {result['judged']} | {result['left']} |"
        )


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    main()
