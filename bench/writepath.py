"""Where a remember, a declared supersede and a recall spend their time beyond the embedding,
in process (the same code as the server, through Django's test client, DRF included), on a copy
of the seeded 100,000-memory store (bench/seed.py).

    python bench/writepath.py [--size 100000] [--runs 200] [--ops remember,declared,recall]
    python bench/writepath.py --profile remember      # cProfile of one operation
    python bench/writepath.py --queries               # the statements of one request of each

For each operation: the median (and p90) of the whole request, of the embedding, of the SQL
(timed at the driver) and of the rest (Python), and the number of SQL statements a request
sends (counted, so free of the machine's noise). Connections are pooled, as the server runs.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import time
from collections.abc import Callable
from statistics import median
from typing import Any

os.environ.setdefault("ZEROMEMORY_DB_POOL", "true")
os.environ.setdefault("ZEROMEMORY_RATE_LIMIT_PER_MINUTE", "1000000")
os.environ.setdefault("DJANGO_DEBUG", "false")
os.environ.setdefault("ZEROMEMORY_LOG_LEVEL", "WARNING")

from common import Timer, percentile, setup_django, supersede_groups
from corpus import note, question

RUN_DATABASE = "zm_writepath_run"


def clone(template: str) -> None:
    import psycopg
    from django.conf import settings
    from django.db import connections

    from zeromemory.embedded_db import EmbeddedServer

    connections.close_all()
    if hasattr(connections["default"], "close_pool"):
        connections["default"].close_pool()
    with psycopg.connect(EmbeddedServer(settings.DATA_DIR).url("postgres"), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{RUN_DATABASE}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{RUN_DATABASE}" TEMPLATE "{template}" STRATEGY FILE_COPY')
    settings.DATABASES["default"]["NAME"] = RUN_DATABASE
    connections["default"].settings_dict["NAME"] = RUN_DATABASE


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--ops", default="remember,declared,recall")
    parser.add_argument("--profile", default="")
    parser.add_argument("--queries", action="store_true")
    parser.add_argument("--statements", action="store_true", help="median time of each statement")
    parser.add_argument("--no-clone", action="store_true", help="write into the seeded store itself")
    parser.add_argument(
        "--without-feed",
        action="store_true",
        help="an experiment: the event feed's and webhooks' triggers switched off on the copy (their cost)",
    )
    args = parser.parse_args()

    template = f"zm_bench_seed_{args.size}"
    if os.environ.get("WRITEPATH_SERVER_SIDE_BINDING"):  # an experiment: psycopg's server-side binding
        from django.conf import settings

        settings.DATABASES["default"]["OPTIONS"]["server_side_binding"] = True
        threshold = os.environ["WRITEPATH_SERVER_SIDE_BINDING"]
        settings.DATABASES["default"]["OPTIONS"]["prepare_threshold"] = None if threshold == "none" else int(threshold)
    setup_django(fresh=False, database=template)
    if not args.no_clone:
        clone(template)
    if args.without_feed:
        from django.db import connection as admin_connection

        with admin_connection.cursor() as cursor:
            cursor.execute("ALTER TABLE memories_memoryevent DISABLE TRIGGER memory_event_feed")
            cursor.execute("ALTER TABLE memories_feedevent DISABLE TRIGGER feed_event_outbox")

    from django.contrib.auth.models import User
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from memories import embedding as embeddings
    from memories.models import Memory
    from memories.services import credential_issue

    bench = User.objects.get(username="bench")
    _, token = credential_issue(actor=None, via="bench", user=bench, provenance="authoritative", label="writepath")
    projects = list(bench.memberships.order_by("project__slug").values_list("project__slug", flat=True))
    scopes: list[str | None] = [*projects, None]
    rng = random.Random(19)
    live = list(
        Memory.objects.filter(owner=bench, state="live").order_by("id").values_list("project__slug", "pk")[:20000]
    )
    groups = supersede_groups(live)

    client = Client(HTTP_AUTHORIZATION=f"Bearer {token}", HTTP_HOST="127.0.0.1")

    def post(path: str, body: dict[str, Any]) -> Any:
        response = client.post(path, body, content_type="application/json")
        if response.status_code not in (200, 201):
            raise SystemExit(f"{path} answered {response.status_code}: {response.content[:300]!r}")
        return response.json()

    def remember(n: int) -> None:
        kind, content = note(rng)
        post("/api/v1/memories/", {"content": content, "kind": kind, "project": scopes[n % len(scopes)]})

    def declared(n: int) -> None:
        scope, targets = groups.pop()
        kind, content = note(rng)
        links = [{"type": "supersedes", "dst": target} for target in targets]
        body = post("/api/v1/memories/", {"content": content, "kind": kind, "project": scope, "links": links})
        if sorted(body["superseded"]) != sorted(targets):
            raise SystemExit(f"declared supersede did not retire its targets: {body}")

    def recall(n: int) -> None:
        body = post("/api/v1/recall/", {"query": question(rng), "limit": 10})
        assert len(body["results"]) == 10

    def recall_project(n: int) -> None:
        post("/api/v1/recall/", {"query": question(rng), "limit": 10, "project": projects[n % len(projects)]})

    operations: dict[str, Callable[[int], None]] = {
        "remember": remember,
        "declared": declared,
        "recall": recall,
        "recall-project": recall_project,
    }

    spent = {"embedding": 0.0, "sql": 0.0, "embedding_cpu": 0.0}
    embedder = embeddings.get_embedder()
    original = embedder.embed

    def timed_embed(texts: Any) -> Any:
        cpu = time.thread_time()
        with Timer() as timer:
            vectors = original(texts)
        spent["embedding"] += timer.ms
        spent["embedding_cpu"] += (time.thread_time() - cpu) * 1000
        return vectors

    by_statement: dict[str, list[float]] = {}

    def sql_wrapper(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            ms = (time.perf_counter() - started) * 1000
            spent["sql"] += ms
            by_statement.setdefault(" ".join(sql.split())[:70], []).append(ms)

    embedder.embed = timed_embed  # type: ignore[method-assign]
    for name in args.ops.split(","):
        operation = operations[name]
        for n in range(20):  # warm caches, the pool and the model
            operation(n)
        with CaptureQueriesContext(connection) as captured:
            operation(0)
        statements = len(captured.captured_queries)
        if args.queries:
            print(f"\n{name}: {statements} statements")
            for query in captured.captured_queries:
                print("   ", query["sql"][:220] + " … " + query["sql"][-160:].replace("\n", " "))
        if args.profile == name:
            profiler = cProfile.Profile()
            profiler.enable()
            for n in range(args.runs):
                operation(n)
            profiler.disable()
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(r"wt19c/(memories|review|zeromemory)/", 60)
            pstats.Stats(profiler).sort_stats("tottime").print_stats(40)
            continue
        rows = []
        with connection.execute_wrapper(sql_wrapper):
            for n in range(args.runs):
                spent.update(embedding=0.0, sql=0.0, embedding_cpu=0.0)
                cpu = time.thread_time()
                with Timer() as timer:
                    operation(n)
                cpu_ms = (time.thread_time() - cpu) * 1000 - spent["embedding_cpu"]
                rows.append((timer.ms, spent["embedding"], spent["sql"], cpu_ms))
        total = [row[0] for row in rows]
        beyond = [row[0] - row[1] for row in rows]
        embed = median(row[1] for row in rows)
        sql = median(row[2] for row in rows)
        python = median(row[0] - row[1] - row[2] for row in rows)
        print(
            f"{name:<15} {statements:3d} statements  total p50 {median(total):6.1f} p90 {percentile(total, 0.9):6.1f}"
            f"  beyond embedding p50 {median(beyond):6.1f} p90 {percentile(beyond, 0.9):6.1f}"
            f"  = embedding {embed:5.1f} + SQL {sql:5.1f} + Python {python:5.1f} ms"
            f"  | client CPU beyond embedding p50 {median(row[3] for row in rows):5.1f} ms",
            flush=True,
        )
        if args.statements:
            for text, times in sorted(by_statement.items(), key=lambda item: -sum(item[1])):
                print(f"    {len(times):5d} x median {median(times):5.2f} ms  {text}")
        by_statement.clear()
    embedder.embed = original  # type: ignore[method-assign]


if __name__ == "__main__":
    main()
