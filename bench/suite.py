"""The benchmark suite: latency, throughput, memory and result quality at 10k and 100k memories.

    ./zm bench                      # both sizes, writes docs/performance.md and its chart
    ./zm bench --sizes 10000        # one size, quicker
    ./zm bench --peers              # unforget and mem0 side by side with ours (bench/peers.py)
    ./zm bench --longtext           # chat turns against short notes (bench/longtext.py)
    ./zm bench --topology           # the deployed topology under faults (bench/topology.py)
    ./zm bench --profile            # where a request's time goes (bench/request_profile.py)
    ./zm bench --throughput         # 4 and 16 clients, the worker's rate, before/after (bench/throughput.py)
    ./zm bench --scale 1000000      # a million memories on one primary (bench/scale.py)

For each size it clones a seeded store (bench/seed.py; seeded once, then reused), starts the
production server exactly as ``./zm serve`` does (uvicorn, 2 workers, DEBUG off, pooled
connections) on that copy and, from one keep-alive HTTP client on loopback, times remember
(no declaration), remember with three declared supersedes, recall, history and the feed. In
the same run it times the floor: the embedding alone and the bare SQL of the write path
(the same statements issued by psycopg with no Django). Then 4 clients at once for
throughput, the server's peak memory, recall@10 against an exact scan with the visibility
filters on, and a hygiene sweep of the benchmarking user's memories (at the largest size).
The hygiene worker does not run during the latency runs (its sweep is timed on its own).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from common import ROOT, Timer, in_process_breakdown, percentile, setup_django
from corpus import note, question
from throughput_report import Load, p50_p95

RUN_DATABASE = "zm_bench_run"
WORKERS = 2
THREADS = 4


@dataclass
class SizeResult:
    size: int
    latency: dict[str, list[float]] = field(default_factory=dict)
    throughput: dict[str, float] = field(default_factory=dict)
    peak_rss_mb: float = 0.0
    quality: dict[str, float] = field(default_factory=dict)
    breakdown: dict[str, dict[str, float]] = field(default_factory=dict)
    hygiene_seconds: float | None = None
    hygiene_memories: int = 0
    notes: list[str] = field(default_factory=list)


class Client:
    """One keep-alive HTTP connection, as an agent's HTTP session would hold."""

    def __init__(self, port: int, token: str) -> None:
        self.port = port
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any, float]:
        payload = json.dumps(body).encode() if body is not None else None
        with Timer() as timer:
            try:
                self.connection.request(method, path, body=payload, headers=self.headers)
                response = self.connection.getresponse()
                raw = response.read()
            except (ConnectionError, http.client.HTTPException):
                self.connection.close()
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
                raise
        return response.status, json.loads(raw) if raw else None, timer.ms


def use_database(name: str) -> None:
    from django.conf import settings
    from django.db import connections

    connections.close_all()
    settings.DATABASES["default"]["NAME"] = name
    connections["default"].settings_dict["NAME"] = name


def admin_connection() -> Any:
    import psycopg
    from django.conf import settings

    from zeromemory.embedded_db import EmbeddedServer

    return psycopg.connect(EmbeddedServer(settings.DATA_DIR).url("postgres"), autocommit=True)


def ensure_seeded(size: int, reseed: bool, corpus_size: int) -> str:
    from django.conf import settings
    from seed import is_seeded, seed, seed_marker

    template = f"zm_bench_seed_{size}"
    setup_django(fresh=False, database=template)
    if reseed or not is_seeded(size):
        setup_django(fresh=True, database=template)
        with Timer() as timer:
            seed(size, Path(settings.DATA_DIR) / "bench", corpus_size)
        print(f"seeded {size:,} memories in {timer.ms / 1000:.0f} s ({seed_marker(size)})", flush=True)
    return template


def clone(template: str, name: str = RUN_DATABASE) -> str:
    """A fresh copy of ``template`` named ``name``, Django pointed at it: its URL."""
    from django.conf import settings
    from django.db import connections

    from zeromemory.embedded_db import EmbeddedServer

    connections.close_all()
    with admin_connection() as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}" STRATEGY FILE_COPY')
    use_database(name)
    return EmbeddedServer(settings.DATA_DIR).url(name)


class Server:
    """The production server (what ``./zm serve`` runs) on the run database."""

    def __init__(
        self, url: str, port: int, kind: str = "gunicorn", code: Path = ROOT, env: dict[str, str] | None = None
    ) -> None:
        """``code``: the checkout to serve (another version, for an A/B); ``env``: extra settings."""
        self.port = port
        extra = env or {}
        env = {
            **os.environ,
            "DATABASE_URL": url,
            "DJANGO_DEBUG": "false",
            "ZEROMEMORY_LOG_LEVEL": "WARNING",
            # As in production; the benchmark process itself runs without the pool.
            "ZEROMEMORY_DB_POOL": "true",
            # One token sends thousands of requests a minute here: a limit too high to refuse
            # any keeps the per-request check (and its cost) in what is measured.
            "ZEROMEMORY_RATE_LIMIT_PER_MINUTE": "1000000",
            **extra,
        }
        bin_dir = Path(sys.executable).parent
        if kind == "gunicorn":
            command = [
                str(bin_dir / "gunicorn"),
                "zeromemory.wsgi:application",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                str(WORKERS),
                "--worker-class",
                "gthread",
                "--threads",
                str(THREADS),
                "--log-level",
                "warning",
            ]
        else:
            command = [
                str(bin_dir / "uvicorn"),
                "zeromemory.asgi:application",
                "--port",
                str(port),
                "--workers",
                str(WORKERS),
                "--lifespan",
                "off",
                "--no-access-log",
                "--log-level",
                "warning",
            ]
        self.process = subprocess.Popen(command, cwd=code, env=env)
        self.peak_rss = 0
        self._stop = threading.Event()
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                connection.request("GET", "/api/v1/memories/")
                if connection.getresponse().status in (401, 403):
                    break
            except OSError:
                time.sleep(0.3)
        else:
            self.stop()
            raise SystemExit("the server did not start")
        self._watcher = threading.Thread(target=self._watch_memory, daemon=True)
        self._watcher.start()

    def _watch_memory(self) -> None:
        import psutil

        master = psutil.Process(self.process.pid)
        while not self._stop.wait(0.1):
            try:
                for process in master.children(recursive=True):
                    self.peak_rss = max(self.peak_rss, process.memory_info().rss)
            except psutil.Error:
                continue

    def stop(self) -> None:
        self._stop.set()
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()


@dataclass
class Fixtures:
    token: str
    projects: list[str]
    supersede_groups: list[tuple[str | None, list[str]]]
    history_ids: list[str]


def fixtures(requests: int) -> Fixtures:
    """Ids for the run, read from the store before the server starts."""
    from collections import defaultdict

    from django.contrib.auth.models import User

    from memories.models import Link, Memory
    from memories.services import credential_issue

    bench = User.objects.get(username="bench")
    _, token = credential_issue(actor=None, via="bench", user=bench, provenance="authoritative", label="bench")
    projects = list(bench.memberships.order_by("project__slug").values_list("project__slug", flat=True))
    by_scope: dict[str | None, list[str]] = defaultdict(list)
    live = Memory.objects.filter(owner=bench, state="live").order_by("?").values_list("project__slug", "pk")
    for scope, pk in live[: requests * 3 * 3]:
        by_scope[scope].append(pk)
    groups: list[tuple[str | None, list[str]]] = []
    for slug, ids in by_scope.items():
        groups += [(slug, ids[i : i + 3]) for i in range(0, len(ids) - 2, 3)]
    random.Random(1).shuffle(groups)
    chains = Link.objects.filter(type="supersedes", src__owner=bench).values_list("src_id", flat=True)
    return Fixtures(token, projects, groups[:requests], list(chains[:requests]))


def timed(label: str, runs: int, action: Any) -> list[float]:
    times = []
    for n in range(runs):
        times.append(action(n))
    print(f"  {label:<34} p50 {percentile(times, 0.5):7.1f} ms   p95 {percentile(times, 0.95):7.1f} ms", flush=True)
    return times


def expect(status: int, wanted: int, body: Any) -> None:
    if status != wanted:
        raise SystemExit(f"unexpected answer {status}: {json.dumps(body)[:500]}")


# Items per batch write in the latency run (timed per item; a tenth as many batches as requests).
BATCH_ITEMS = 50


def http_latencies(client: Client, fix: Fixtures, runs: int, rng: random.Random) -> dict[str, list[float]]:
    scopes: list[str | None] = [*fix.projects, None]

    def remember(n: int) -> float:
        kind, content = note(rng)
        status, body, ms = client.call(
            "POST", "/api/v1/memories/", {"content": content, "kind": kind, "project": scopes[n % len(scopes)]}
        )
        expect(status, 200 if body.get("absorbed") else 201, body)  # a repeated note is absorbed
        return ms

    def remember_declared(n: int) -> float:
        if n < len(fix.supersede_groups):
            scope, targets = fix.supersede_groups[n]
        else:  # a small store has too few live triples: write fresh ones first (not timed)
            scope = scopes[n % len(scopes)]
            targets = []
            for _ in range(3):
                status, made, _ = client.call("POST", "/api/v1/memories/", {"content": note(rng)[1], "project": scope})
                expect(status, 200 if made.get("absorbed") else 201, made)
                targets.append(made["memory"]["id"])
        kind, content = note(rng)
        links = [{"type": "supersedes", "dst": target} for target in targets]
        status, body, ms = client.call(
            "POST", "/api/v1/memories/", {"content": content, "kind": kind, "project": scope, "links": links}
        )
        expect(status, 200 if body.get("absorbed") else 201, body)  # a repeated note is absorbed
        if sorted(body["superseded"]) != sorted(targets):
            raise SystemExit(f"declared supersede did not retire its targets: {body}")
        return ms

    def recall(n: int) -> float:
        status, body, ms = client.call("POST", "/api/v1/recall/", {"query": question(rng), "limit": 10})
        expect(status, 200, body)
        if len(body["results"]) != 10:
            raise SystemExit(f"recall returned {len(body['results'])} rows")
        return ms

    def recall_in_project(n: int) -> float:
        project = fix.projects[n % len(fix.projects)]
        body = {"query": question(rng), "limit": 10, "project": project}
        status, answer, ms = client.call("POST", "/api/v1/recall/", body)
        expect(status, 200, answer)
        return ms

    def history(n: int) -> float:
        status, body, ms = client.call("GET", f"/api/v1/memories/{fix.history_ids[n % len(fix.history_ids)]}/history/")
        expect(status, 200, body)
        return ms

    def feed(n: int) -> float:
        query = f"?project={fix.projects[n % len(fix.projects)]}" if n % 2 else ""
        status, body, ms = client.call("GET", f"/api/v1/memories/{query}")
        expect(status, 200, body)
        return ms

    def context(n: int) -> float:
        status, body, ms = client.call("POST", "/api/v1/context/", {"query": question(rng), "max_tokens": 1000})
        expect(status, 200, body)
        if not body["items"] or body["tokens"] > 1000:
            raise SystemExit(f"context packed {len(body['items'])} items in {body['tokens']} tokens")
        return ms

    def batch_per_item(n: int) -> float:
        items = [{"content": content, "kind": kind} for kind, content in (note(rng) for _ in range(BATCH_ITEMS))]
        status, body, ms = client.call("POST", "/api/v1/memories/batch/", {"items": items})
        expect(status, 200, body)
        if any(result["status"] not in (200, 201) for result in body["results"]):
            raise SystemExit(f"a batch item failed: {body['results']}")
        return ms / BATCH_ITEMS

    for n in range(30):  # warm both workers' connections, caches and the model
        remember(n)
        recall(n)
    return {
        "remember": timed("remember", runs, remember),
        "remember + 3 supersedes": timed("remember + 3 declared supersedes", runs, remember_declared),
        "recall": timed("recall", runs, recall),
        "recall in a project": timed("recall in a project", runs, recall_in_project),
        "history": timed("history", runs, history),
        "feed": timed("feed (first page)", runs, feed),
        "context (1,000 tokens)": timed("context pack of 1,000 tokens", runs, context),
        f"batch of {BATCH_ITEMS}, per item": timed(
            f"batch writes of {BATCH_ITEMS}", max(5, runs // 10), batch_per_item
        ),
    }


def floor_latencies(url: str, runs: int, rng: random.Random) -> dict[str, list[float]]:
    """The embedding alone, and the write path's statements from psycopg with no Django."""
    import psycopg
    from pgvector.psycopg import register_vector

    from memories.embedding import get_embedder
    from memories.ids import new_memory_id
    from memories.text import content_fingerprint

    embedder = get_embedder()
    embeddings = []

    def embed(n: int) -> float:
        with Timer() as timer:
            embeddings.append(embedder.embed([note(rng)[1]])[0])
        return timer.ms

    embed_times = timed("embedding alone", runs, embed)
    import numpy as np

    with psycopg.connect(url) as conn:
        register_vector(conn)
        bench = conn.execute(
            "SELECT u.id, array_agg(m.project_id) FROM auth_user u JOIN memories_membership m ON m.user_id = u.id "
            "WHERE u.username = 'bench' GROUP BY u.id"
        ).fetchone()
        assert bench is not None
        owner, projects = bench

        def write(n: int) -> float:
            content = note(rng)[1]
            project = projects[n % len(projects)]
            vector = np.array(embeddings[n], dtype=np.float32)
            memory_id = new_memory_id()
            fingerprint = content_fingerprint(content)
            with Timer() as timer, conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", [fingerprint])
                conn.execute(
                    "SELECT id FROM memories_memory WHERE owner_id = %s AND project_id = %s AND session_key = '' "
                    "AND content_fingerprint = %s AND state = 'live' LIMIT 1",
                    [owner, project, fingerprint],
                ).fetchall()
                conn.execute(
                    "INSERT INTO memories_memory (id, content, content_fingerprint, kind, owner_id, project_id, "
                    "visibility, provenance, session_key, metadata, embedding, embedding_model, state, "
                    "created_at, updated_at) VALUES (%s, %s, %s, 'fact', %s, %s, 'project', 'authoritative', "
                    "'', '{}', %s, %s, 'live', now(), now())",
                    [memory_id, content, fingerprint, owner, project, vector, embedder.name],
                )
                conn.execute(
                    "INSERT INTO memories_memoryevent (memory_id, action, actor_id, reason, data, created_at) "
                    "VALUES (%s, 'created', %s, '', '{}', now())",
                    [memory_id, owner],
                )
                # The plan similar_existing runs (exact; see memories.selectors).
                conn.execute(
                    "SELECT id, embedding <=> %s AS d FROM memories_memory WHERE owner_id = %s AND state = 'live' "
                    "AND (project_id IS NULL OR project_id = %s) AND id <> %s ORDER BY (embedding <=> %s) + 0, id "
                    "LIMIT 10",
                    [vector, owner, project, memory_id, vector],
                ).fetchall()
            return timer.ms

        sql_times = timed("bare SQL of the write path", runs, write)
    return {"embedding alone": embed_times, "bare SQL (write path)": sql_times}


def load(port: int, token: str, operation: str, clients: int, seconds: float, scopes: list[str | None]) -> Load:
    """``clients`` keep-alive clients sending ``operation`` (a remember or a recall) back to back for
    ``seconds``, each from its own thread: every request's milliseconds. Any request that fails (an
    answer other than the operation's, or a broken connection) fails the run."""
    latencies: list[list[float]] = [[] for _ in range(clients)]
    failures: list[str] = []
    start = threading.Barrier(clients + 1)

    def run(slot: int) -> None:
        client = Client(port, token)
        rng = random.Random(1000 + slot)
        start.wait()
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                if operation == "remember":
                    kind, content = note(rng)
                    body = {"content": content, "kind": kind, "project": rng.choice(scopes)}
                    status, _, ms = client.call("POST", "/api/v1/memories/", body)
                    ok = status in (200, 201)  # 200: a restatement absorbed (the clients' notes may repeat)
                else:
                    status, _, ms = client.call("POST", "/api/v1/recall/", {"query": question(rng), "limit": 10})
                    ok = status == 200
            except (OSError, http.client.HTTPException) as error:
                failures.append(repr(error))
                return
            if not ok:
                failures.append(str(status))
            else:
                latencies[slot].append(ms)

    threads = [threading.Thread(target=run, args=(slot,)) for slot in range(clients)]
    for thread in threads:
        thread.start()
    start.wait()
    began = time.monotonic()
    for thread in threads:
        thread.join()
    elapsed = time.monotonic() - began
    if failures:
        raise SystemExit(f"{len(failures)} {operation} requests failed under load: {failures[:20]}")
    result = Load(operation, clients, elapsed, [ms for times in latencies for ms in times])
    print(
        f"  {clients} clients, {operation:<8} {result.per_second:7.1f} per second, "
        f"p50 / p95 {p50_p95(result.latencies)} ms",
        flush=True,
    )
    return result


def throughput(port: int, token: str, clients: int, seconds: float, fix: Fixtures) -> dict[str, float]:
    scopes: list[str | None] = [*fix.projects, None]
    return {
        operation: load(port, token, operation, clients, seconds, scopes).per_second
        for operation in ("remember", "recall")
    }


def quality(queries: int, rng: random.Random) -> dict[str, float]:
    """recall@10 of the served query plans against an exact scan, with the visibility filters on."""
    import numpy as np
    from django.contrib.auth.models import User

    from memories.embedding import get_embedder
    from memories.models import Project
    from memories.recall import ranks_exactly
    from memories.search import lexical_query, lexical_score, stored_lexemes, vector_ranking, weight_for
    from memories.selectors import similar_existing
    from memories.visibility import visible_memories

    bench = User.objects.get(username="bench")
    visible = visible_memories(bench).filter(state="live")
    rows = list(visible.values_list("pk", "embedding", "project_id", "owner_id", "kind"))
    ids = np.array([row[0] for row in rows])
    matrix = np.array([row[1] for row in rows], dtype=np.float32)
    project_of = np.array([row[2] or 0 for row in rows])
    owned = np.array([row[3] == bench.pk for row in rows])
    kinds = np.array([row[4] for row in rows])
    projects = list(Project.objects.filter(memberships__user=bench).order_by("slug"))
    found = {"recall": 0.0, "recall, project + kind filter": 0.0, "similar_existing": 0.0}
    short = 0
    embedder = get_embedder()
    lexemes = stored_lexemes(visible.filter(owner=bench))
    for n in range(queries):
        text = question(rng)
        vector = np.array(embedder.embed([text])[0], dtype=np.float32)
        distances = 1 - matrix @ vector
        truth = set(ids[np.argsort(distances, kind="stable")[:10]])
        got = vector_ranking(
            visible, vector.tolist(), 10, user=bench, exact=ranks_exactly(project=None, kinds=None, as_of=None)
        )
        short += len(got) < 10
        found["recall"] += len(truth & {pk for pk, _ in got}) / 10

        project = projects[n % len(projects)]
        wanted_kind = ["task", "open-question", "decision"][n % 3]
        mask = (project_of == project.pk) & (kinds == wanted_kind)
        truth = set(ids[mask][np.argsort(distances[mask], kind="stable")[:10]])
        exact = ranks_exactly(project=project, kinds=[wanted_kind], as_of=None)
        got = vector_ranking(
            visible.filter(project=project, kind=wanted_kind), vector.tolist(), 10, user=bench, exact=exact
        )
        short += len(got) < min(10, int(mask.sum()))
        found["recall, project + kind filter"] += len(truth & {pk for pk, _ in got}) / min(10, max(1, len(truth)))

        # similar_existing's own ranking (memories.search), recomputed row by row.
        mask = owned & ((project_of == 0) | (project_of == project.pk))
        lexical = lexical_query(text, "default")
        weight = weight_for(lexical)
        fused = np.array(
            [
                1 - distances[i] + (weight * lexical_score(lexical, lexemes.get(ids[i], {})) if lexical else 0.0)
                for i in np.flatnonzero(mask)
            ]
        )
        truth = set(ids[mask][np.argsort(-fused, kind="stable")[:10]])
        similar = similar_existing(user=bench, embedding=vector.tolist(), text=text, project=project, exclude_ids=[])
        found["similar_existing"] += len(truth & {hit.memory.pk for hit in similar}) / 10
    scores = {f"{name} recall@10": value / queries for name, value in found.items()}
    scores["short answers"] = float(short)
    print("  " + ", ".join(f"{k} {v:.3f}" for k, v in scores.items()), flush=True)
    return scores


def breakdown(fix: Fixtures, runs: int, rng: random.Random) -> dict[str, dict[str, float]]:
    """Where a remember's and a recall's time goes, in process (bench/common.py,
    ``in_process_breakdown``)."""
    from django.test import Client as DjangoClient

    client = DjangoClient(HTTP_AUTHORIZATION=f"Bearer {fix.token}", HTTP_HOST="127.0.0.1")
    scopes: list[str | None] = [*fix.projects, None]
    operations = {
        "remember": lambda n: client.post(
            "/api/v1/memories/",
            {"content": note(rng)[1], "project": scopes[n % len(scopes)]},
            content_type="application/json",
        ),
        "recall": lambda n: client.post(
            "/api/v1/recall/", {"query": question(rng), "limit": 10}, content_type="application/json"
        ),
    }
    return in_process_breakdown(operations, runs, warm=10)


def hygiene_sweep(url: str) -> tuple[float, int]:
    from django.contrib.auth.models import User

    count = User.objects.get(username="bench").memories.filter(state="live").count()
    env = {**os.environ, "DATABASE_URL": url, "ZEROMEMORY_LOG_LEVEL": "WARNING"}
    with Timer() as timer:
        subprocess.run([sys.executable, "manage.py", "hygiene", "--owner", "bench"], cwd=ROOT, env=env, check=True)
    print(f"  hygiene sweep of {count:,} memories: {timer.ms / 1000:.1f} s", flush=True)
    return timer.ms / 1000, count


def run_size(size: int, args: argparse.Namespace, sweep: bool) -> SizeResult:
    template = ensure_seeded(size, args.reseed, args.corpus_size)
    url = clone(template)
    result = SizeResult(size)
    rng = random.Random(size)
    fix = fixtures(args.requests)
    print(f"\n{size:,} memories", flush=True)
    server = Server(url, args.port, args.server)
    try:
        client = Client(args.port, fix.token)
        result.latency = http_latencies(client, fix, args.requests, rng)
        result.latency |= floor_latencies(url, args.requests, rng)
        result.throughput = throughput(args.port, fix.token, args.clients, args.seconds, fix)
        result.peak_rss_mb = server.peak_rss / 2**20
        print(f"  peak RSS of a server process: {result.peak_rss_mb:.0f} MB", flush=True)
    finally:
        server.stop()
    result.quality = quality(args.queries, rng)
    result.breakdown = breakdown(fix, min(args.requests, 100), rng)
    if sweep:
        result.hygiene_seconds, result.hygiene_memories = hygiene_sweep(url)
    return result


def main() -> None:
    if "--peers" in sys.argv[1:]:
        from peers import main as peers_main

        peers_main([arg for arg in sys.argv[1:] if arg != "--peers"])
        return
    if "--topology" in sys.argv[1:]:
        from topology import main as topology_main

        sys.exit(topology_main([arg for arg in sys.argv[1:] if arg != "--topology"]))
    if "--scale" in sys.argv[1:]:
        from scale import main as scale_main

        sys.exit(scale_main([arg for arg in sys.argv[1:] if arg != "--scale"]))
    if "--profile" in sys.argv[1:]:
        from request_profile import main as profile_main

        profile_main([arg for arg in sys.argv[1:] if arg != "--profile"])
        return
    if "--throughput" in sys.argv[1:]:
        from throughput import main as throughput_main

        throughput_main([arg for arg in sys.argv[1:] if arg != "--throughput"])
        return
    if "--longtext" in sys.argv[1:]:
        from longtext import main as longtext_main

        longtext_main([arg for arg in sys.argv[1:] if arg != "--longtext"])
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--peers", action="store_true", help="the peers side by side instead (bench/peers.py; see --peers --help)"
    )
    parser.add_argument(
        "--longtext",
        action="store_true",
        help="chat turns against short notes instead (bench/longtext.py; see --longtext --help)",
    )
    parser.add_argument("--sizes", default="10000,100000", help="comma-separated store sizes")
    parser.add_argument("--requests", type=int, default=300, help="timed requests per operation")
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=15, help="length of each throughput run")
    parser.add_argument("--queries", type=int, default=100, help="queries for the recall@10 check")
    parser.add_argument("--port", type=int, default=8791)
    parser.add_argument("--reseed", action="store_true", help="rebuild the seeded stores")
    parser.add_argument("--server", choices=["gunicorn", "uvicorn"], default="gunicorn")
    parser.add_argument("--no-sweep", action="store_true", help="skip the hygiene sweep")
    parser.add_argument("--seed-only", action="store_true", help="seed the stores and stop")
    parser.add_argument("--output", default=str(ROOT / "docs" / "performance.md"))
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    setup_django(fresh=False, database="zm_bench_scratch")
    if args.seed_only:
        for size in sizes:
            ensure_seeded(size, args.reseed, max(sizes))
        return
    args.corpus_size = max(sizes)
    with Timer() as total:
        results = [run_size(size, args, sweep=size == max(sizes) and not args.no_sweep) for size in sizes]
    from report import write_report

    write_report(results, Path(args.output), args, total.ms / 1000)
    print(f"\nwrote {args.output} in {total.ms / 60000:.1f} minutes")


if __name__ == "__main__":
    main()
