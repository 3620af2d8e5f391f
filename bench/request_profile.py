"""Where a whole request spends its time: Python by layer, SQL by statement, the embedding.

    ./zm bench --profile [--size 10000] [--runs 200] [--ops detail,forget,remember,declared,recall,context]
    python bench/request_profile.py …   # the same; --output - prints without writing the page

Writes docs/performance-requests.md.

On a copy of the seeded store (bench/seed.py, as bench/writepath.py), in process, through
Django's test client with the server's whole middleware stack, pooled connections and its
logging (written to /dev/null, so it is paid as the server pays it). For each operation:

* the request's median, split into the embedding (the model's wall time), SQL (each statement
  timed at the driver) and Python (the rest), as the caller times it; and the median the server
  itself logs (zeromemory.request_log's "ms", from its first middleware to the response: the
  server-side time, without the test client's own work);
* the statements one request sends, each with its count per request and median time;
* Python's own time per request by layer, from cProfile over the same requests (each
  function's own time, so layers do not overlap; cProfile slows Python down about twice, so read
  the layers as shares of the Python column, not as milliseconds to add).

The layers are the parts of a request: the middleware, authentication and the rate limit, the
agent contract (argument checking), the domain (services, selectors, search, visibility),
Django's ORM building SQL, the database driver (with the wait for the database's answer, which
cProfile counts as the driver's), serialization, logging, the request and
response machinery (Django's handler, DRF's view, URL routing), the test client (the caller's
side, not the server's) and the embedding.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import logging
import os
import pstats
import random
import re
import time
from collections import defaultdict
from collections.abc import Callable
from statistics import median
from typing import Any

os.environ.setdefault("ZEROMEMORY_DB_POOL", "true")
os.environ.setdefault("ZEROMEMORY_RATE_LIMIT_PER_MINUTE", "1000000")
os.environ.setdefault("DJANGO_DEBUG", "false")
# The server logs every request at INFO (zeromemory.requests): so here, before bench/writepath.py
# (imported below) sets WARNING for its own runs, which left the request log off here too.
os.environ.setdefault("ZEROMEMORY_LOG_LEVEL", "INFO")

import platform
import subprocess
import sys
from datetime import date

from common import ROOT, Timer, percentile, setup_django
from corpus import note, question
from suite import ensure_seeded
from writepath import clone

# (layer, the path fragments of the functions it holds), first match wins: order matters.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("test client", ("/django/test/",)),
    ("embedding", ("/memories/embedding/", "/onnxruntime/", "/tokenizers/")),
    ("logging", ("/logging/", "/zeromemory/request_log.py")),
    (
        "middleware",
        (
            "/django/middleware/",
            "/django/contrib/sessions/",
            "/django/contrib/messages/",
            "/django/contrib/auth/middleware.py",
            "/zeromemory/probes.py",
            "/zeromemory/slash.py",
            "/zeromemory/static.py",
            "/zeromemory/metrics.py",
        ),
    ),
    (
        "auth and rate limit",
        (
            "/memories/api/auth.py",
            "/memories/api/throttling.py",
            "/memories/platform/tokens.py",
            "/memories/platform/ratelimit.py",
            "/django/contrib/auth/",
            "/hashlib",
            "/hmac",
        ),
    ),
    ("agent contract", ("/memories/agent/contract.py", "/memories/agent/fields.py", "/memories/api/parsers.py")),
    (
        "serialization",
        (
            "/memories/agent/results.py",
            "/memories/api/serializers.py",
            "/rest_framework/renderers.py",
            "/rest_framework/serializers.py",
            "/rest_framework/fields.py",
            "/json/",
            "/rest_framework/parsers.py",
        ),
    ),
    ("SQL driver", ("/psycopg/", "/psycopg_pool/", "/pgvector/")),
    ("ORM (building SQL, rows to objects)", ("/django/db/",)),
    ("domain (services, selectors, search)", ("/memories/", "/review/", "/numpy/")),
    ("request machinery (Django, DRF, URLs)", ("/django/", "/rest_framework/", "/asgiref/", "/zeromemory/")),
]


def layer_of(filename: str) -> str:
    for layer, fragments in LAYERS:
        if any(fragment in filename for fragment in fragments):
            return layer
    return "other (the standard library: copy, inspect, uuid…)" if "/python3" in filename else "other"


def layer_table(profiler: cProfile.Profile, runs: int) -> list[str]:
    """Python's own time by layer, as a Markdown table."""
    layers: dict[str, float] = defaultdict(float)
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    for (filename, _line, _function), (_cc, _nc, own, _cum, callers) in stats.items():
        if filename == "~":
            # A built-in (a socket's wait, a dict's method): its time goes to the layers that
            # called it, each its part.
            for (caller, _l, _f), (_ccc, _cnc, caller_own, _ccum) in callers.items():
                layers[layer_of(caller)] += caller_own
        else:
            layers[layer_of(filename)] += own
    whole = sum(layers.values())
    lines = [
        "| Python, by layer (cProfile, own time) | share | ms per request under cProfile |",
        "| --- | ---: | ---: |",
    ]
    for layer, seconds in sorted(layers.items(), key=lambda item: -item[1]):
        lines.append(f"| {layer} | {seconds / whole:.0%} | {seconds * 1000 / runs:.2f} |")
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=10_000, help="the seeded store to copy (bench/seed.py)")
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--ops", default="detail,forget,remember,declared,recall,context")
    parser.add_argument("--output", default=str(ROOT / "docs" / "performance-requests.md"), help="- to print only")
    args = parser.parse_args(argv)

    setup_django(fresh=False)
    # The same store ./zm bench measures: its notes drawn from the 100,000-note corpus (bench/suite.py).
    clone(ensure_seeded(args.size, False, max(args.size, 100_000)))
    lines: list[str] = []

    def say(text: str = "") -> None:
        print(text, flush=True)
        lines.append(text)

    from django.contrib.auth.models import User
    from django.db import connection
    from django.test import Client

    from memories import embedding as embeddings
    from memories.models import Memory
    from memories.services import credential_issue

    # The server logs every request (zeromemory.requests, INFO): paid here too, written nowhere.
    sink = open(os.devnull, "w")  # noqa: SIM115 - open for the whole run
    for handler in logging.getLogger().handlers + logging.getLogger("zeromemory").handlers:
        if isinstance(handler, logging.StreamHandler):
            handler.setStream(sink)

    bench = User.objects.get(username="bench")
    _, token = credential_issue(actor=None, via="bench", user=bench, provenance="authoritative", label="profile")
    client = Client(HTTP_AUTHORIZATION=f"Bearer {token}", HTTP_HOST="127.0.0.1")
    rng = random.Random(23)
    live = list(
        Memory.objects.filter(owner=bench, state="live").order_by("id").values_list("project__slug", "pk")[:20000]
    )
    # Half the caller's live memories for the declared supersedes' targets (one each, the common
    # case), half for forget and detail; each run of an operation takes its own.
    targets = [(scope, [pk]) for scope, pk in live[::2]]
    random.Random(2).shuffle(targets)
    loose = [pk for _, pk in live[1::2]]
    rng.shuffle(loose)
    if min(len(targets), len(loose)) < 2 * args.runs + 10:
        raise SystemExit(
            f"the store has too few of the caller's live memories for {args.runs} runs: use a larger --size"
        )
    projects = sorted({scope for scope, _ in live if scope})

    def call(method: str, path: str, body: dict[str, Any] | None = None) -> None:
        if method == "GET":
            response = client.get(path)
        else:
            response = client.post(path, body or {}, content_type="application/json")
        if response.status_code not in (200, 201):
            raise SystemExit(f"{method} {path} answered {response.status_code}: {response.content[:300]!r}")

    def detail(n: int) -> None:
        call("GET", f"/api/v1/memories/{loose[n % len(loose)]}/")

    def forget(n: int) -> None:
        call("POST", f"/api/v1/memories/{loose.pop()}/forget/", {"reason": "profile"})

    def remember(n: int) -> None:
        kind, content = note(rng)
        call("POST", "/api/v1/memories/", {"content": content, "kind": kind, "project": projects[n % len(projects)]})

    def declared(n: int) -> None:
        scope, named = targets.pop()
        kind, content = note(rng)
        links = [{"type": "supersedes", "dst": target} for target in named]
        call("POST", "/api/v1/memories/", {"content": content, "kind": kind, "project": scope, "links": links})

    def recall(n: int) -> None:
        call("POST", "/api/v1/recall/", {"query": question(rng), "limit": 10})

    def context(n: int) -> None:
        call("POST", "/api/v1/context/", {"query": question(rng), "max_tokens": 300})

    operations: dict[str, Callable[[int], None]] = {
        "detail": detail,
        "forget": forget,
        "remember": remember,
        "declared": declared,
        "recall": recall,
        "context": context,
    }

    # What the server itself logs per request (zeromemory.request_log's "ms": from the request
    # middleware's entry to the response, the issue's "server-side" time, without the client).
    logged: list[float] = []

    class ServerSide(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            ms = json.loads(record.getMessage()).get("ms")
            if ms is not None:
                logged.append(ms)

    logging.getLogger("zeromemory.requests").addHandler(ServerSide())

    embedder = embeddings.get_embedder()
    original = embedder.embed
    spent = {"embedding": 0.0, "sql": 0.0}
    statements: dict[str, list[float]] = defaultdict(list)

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
            ms = (time.perf_counter() - started) * 1000
            spent["sql"] += ms
            text = re.sub(r'"s\d+_x\d+"', '"s…"', " ".join(sql.split()))  # one savepoint is one statement
            statements[text[:100]].append(ms)

    embedder.embed = timed_embed  # type: ignore[method-assign]
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=False
    ).stdout
    say("# Where a request's time goes")
    say()
    say("<!-- Written by `./zm bench --profile` (bench/request_profile.py); edit the text there, not here. -->")
    say()
    say(
        f"Measured {date.today().isoformat()} on {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"commit `{commit.strip()}`: a copy of the seeded {args.size:,}-memory store, {args.runs} requests per "
        "operation after 10 to warm up, in process through Django's test client with the server's whole "
        "middleware stack, pooled connections and its request log. How to read it: the module docstring of "
        "bench/request_profile.py."
    )
    say()
    for name in args.ops.split(","):
        operation = operations[name]
        for n in range(10):  # warm the pool, the model and the caches
            operation(n)
        statements.clear()
        rows = []
        logged.clear()
        with connection.execute_wrapper(sql_wrapper):
            for n in range(args.runs):
                spent.update(embedding=0.0, sql=0.0)
                with Timer() as timer:
                    operation(n)
                rows.append((timer.ms, spent["embedding"], spent["sql"]))
        server_side = list(logged)
        profiler = cProfile.Profile()
        profiler.enable()
        for n in range(args.runs):
            operation(n)
        profiler.disable()

        total = [row[0] for row in rows]
        embed, sql = median(row[1] for row in rows), median(row[2] for row in rows)
        python = median(row[0] - row[1] - row[2] for row in rows)
        per_request = sum(len(times) for times in statements.values()) / args.runs
        say(f"## {name}")
        say()
        say(
            f"p50 {median(total):.1f} ms (p90 {percentile(total, 0.9):.1f}) = embedding {embed:.1f} + SQL {sql:.1f}"
            f" ({per_request:.1f} statements) + Python {python:.1f}; server-side (its request log) p50"
            f" {median(server_side):.1f} ms (p90 {percentile(server_side, 0.9):.1f})"
        )
        say()
        say("| statement | per request | median ms |\n| --- | ---: | ---: |")
        for text, times in sorted(statements.items(), key=lambda item: -sum(item[1])):
            say(f"| `{text}` | {len(times) / args.runs:.2f} | {median(times):.2f} |")
        say()
        for line in layer_table(profiler, args.runs):
            say(line)
        say()
    embedder.embed = original  # type: ignore[method-assign]
    if args.output != "-":
        with open(args.output, "w") as page:
            page.write("\n".join(lines).rstrip() + "\n")
        print(f"wrote {args.output}", file=sys.stderr)


if __name__ == "__main__":
    main()
