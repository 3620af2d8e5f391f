"""Shared set-up for benchmarks: a separate database on the embedded server, seeded with
synthetic but realistically clustered vectors, so runs never touch real data."""

from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zeromemory.settings")
os.environ.setdefault("ZEROMEMORY_DB_POOL", "false")
BENCH_DATABASE = "zeromemory_bench"


def setup_django(fresh: bool, database: str = BENCH_DATABASE) -> str:
    """Point Django at a bench database (dropped and migrated when ``fresh``); its URL."""
    import django
    import psycopg

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connections

    if not settings.EMBEDDED_DATABASE:
        sys.exit("Benchmarks run on the embedded database; unset DATABASE_URL.")
    from zeromemory.embedded_db import EmbeddedServer, join_configured_server

    # Django starts the server on its first connection; the admin connection below comes first.
    join_configured_server()
    server = EmbeddedServer(settings.DATA_DIR)
    with psycopg.connect(server.url("postgres"), autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [database]).fetchone()
        if fresh and exists:
            conn.execute(f'DROP DATABASE "{database}" WITH (FORCE)')
        if fresh or not exists:
            conn.execute(f'CREATE DATABASE "{database}"')
    connections.close_all()
    settings.DATABASES["default"]["NAME"] = database
    connections["default"].settings_dict["NAME"] = database
    call_command("migrate", verbosity=0)
    return server.url(database)


def clustered_vectors(count: int, seed: int, clusters: int = 300, noise: float = 0.6) -> Iterator[list[float]]:
    """Unit vectors around ``clusters`` topics, like embeddings of many notes on few subjects."""
    import numpy as np

    rng = np.random.default_rng(seed)
    centers = rng.normal(size=(clusters, 384))
    for start in range(0, count, 1000):
        size = min(1000, count - start)
        picks = centers[rng.integers(0, clusters, size)] + noise * rng.normal(size=(size, 384))
        picks /= np.linalg.norm(picks, axis=1, keepdims=True)
        yield from picks.tolist()


def embed_texts(texts: list[str], label: str) -> Any:
    """The server's own embedder over ``texts``, as a (len, dimensions) float32 array, with a
    progress bar. Batches of similar length waste no work on padding."""
    import numpy as np
    from tqdm import tqdm

    from memories.embedding import get_embedder

    embedder = get_embedder()
    vectors = np.zeros((len(texts), embedder.dimensions), dtype=np.float32)
    order = sorted(range(len(texts)), key=lambda n: len(texts[n]))
    with tqdm(total=len(texts), unit="text", desc=label) as progress:
        for start in range(0, len(texts), 128):
            picked = order[start : start + 128]
            vectors[picked] = embedder.embed([texts[n] for n in picked])
            progress.update(len(picked))
    return vectors


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return ordered[index]


class Timer:
    def __enter__(self) -> Timer:
        self.started = time.perf_counter()
        return self

    def __exit__(self, *exc: object) -> None:
        self.ms = (time.perf_counter() - self.started) * 1000


def in_process_breakdown(
    operations: Mapping[str, Callable[[int], Any]], runs: int, *, warm: int, first: int = 0
) -> dict[str, dict[str, float]]:
    """Where each operation's time goes, in process (the same code as the server): the median of
    its total, of the embedding, of the SQL (every statement, timed at the driver) and the rest
    (Python: Django, DRF, the ORM building queries, serialising). Each operation is called with
    ``first``, ``first + 1``, …: ``warm`` calls untimed, then ``runs`` timed; an answer other than
    200 or 201 stops the benchmark."""
    from statistics import median

    from django.db import connection

    from memories.embedding import get_embedder

    spent = {"embedding": 0.0, "sql": 0.0}
    embedder = get_embedder()
    original = embedder.embed

    def timed_embed(texts: Any) -> Any:
        with Timer() as timer:
            vectors = original(texts)
        spent["embedding"] += timer.ms
        return vectors

    def sql_wrapper(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            spent["sql"] += (time.perf_counter() - started) * 1000

    result = {}
    embedder.embed = timed_embed  # type: ignore[method-assign]
    try:
        for name, operation in operations.items():
            for n in range(first, first + warm):
                operation(n)
            rows = []
            with connection.execute_wrapper(sql_wrapper):
                for n in range(first + warm, first + warm + runs):
                    spent.update(embedding=0.0, sql=0.0)
                    with Timer() as timer:
                        response = operation(n)
                    if response.status_code not in (200, 201):
                        raise SystemExit(f"{name} answered {response.status_code}: {response.content[:300]!r}")
                    rows.append((timer.ms, spent["embedding"], spent["sql"]))
            total, embedding, sql = (median(row[i] for row in rows) for i in range(3))
            result[name] = {"total": total, "embedding": embedding, "sql": sql, "python": total - embedding - sql}
            print(
                f"  in process, {name}: {total:.1f} ms = embedding {embedding:.1f} + SQL {sql:.1f} "
                f"+ Python {total - embedding - sql:.1f}",
                flush=True,
            )
    finally:
        embedder.embed = original  # type: ignore[method-assign]
    return result


SERVICES = ["billing", "search", "auth", "payments", "ingest", "reports", "mailer", "gateway", "scheduler", "cdn"]
FACTS = [
    "The {s} service deploys on {d} at {h}:00 UTC.",
    "{p} owns the {s} service since {m}.",
    "The {s} rate limit is {n} requests per minute.",
    "The {s} database runs PostgreSQL {v} on db-{n}.",
    "Alerts for {s} page {p} after {n} minutes.",
    "The {s} team decided to move to {v}-based workers in {m}.",
    "{p} prefers {s} changes reviewed by two people.",
    "Open question: should {s} keep its {n}-day retention?",
]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
PEOPLE = ["Ana", "Bilal", "Chen", "Dara", "Eli", "Fatima", "Goran", "Hana"]
MONTHS = ["January", "March", "May", "July", "September", "November"]


def sentence(rng: random.Random, n: int) -> str:
    template = rng.choice(FACTS)
    return (
        template.format(
            s=rng.choice(SERVICES),
            d=rng.choice(DAYS),
            h=rng.randint(6, 20),
            p=rng.choice(PEOPLE),
            m=rng.choice(MONTHS),
            n=rng.randint(2, 900),
            v=rng.randint(10, 18),
        )
        + f" (note {n})"
    )


def supersede_groups(live: Iterable[tuple[str | None, str]]) -> list[tuple[str | None, list[str]]]:
    """Disjoint triples of live memories of one scope, in a fixed shuffled order: the targets of
    the declared supersedes the write-path benchmarks time (same seeds in both)."""
    live = list(live)
    random.Random(1).shuffle(live)
    by_scope: dict[str | None, list[str]] = {}
    for scope, pk in live:
        by_scope.setdefault(scope, []).append(pk)
    groups = [(scope, ids[i : i + 3]) for scope, ids in by_scope.items() for i in range(0, len(ids) - 2, 3)]
    random.Random(2).shuffle(groups)
    return groups
