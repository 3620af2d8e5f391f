"""remember over HTTP, with and without three declared supersedes.

    python bench/remember_latency.py [--seed-memories 2000] [--requests 200]

Runs a production-style server (uvicorn, one worker, DEBUG off) on a separate database,
seeds the benchmarking user with realistic notes (template sentences about services,
people, dates and numbers, embedded by the real model), then times remember calls from a
client on loopback. The embedding alone is timed in the same run as the floor.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
import urllib.request
from typing import Any

from common import ROOT, Timer, percentile, sentence, setup_django


def call(base: str, token: str, body: dict[str, Any]) -> tuple[int, dict[str, Any], float]:
    request = urllib.request.Request(
        f"{base}/api/v1/memories/",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    with Timer() as timer, urllib.request.urlopen(request, timeout=30) as response:
        payload = json.loads(response.read())
    return response.status, payload, timer.ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed-memories", type=int, default=2000)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--port", type=int, default=8799)
    args = parser.parse_args()
    url = setup_django(fresh=True, database="zeromemory_bench_remember")

    from django.contrib.auth.models import User
    from django.db import connection

    from memories.embedding import get_embedder
    from memories.models import Memory, Project
    from memories.services import credential_issue, membership_set
    from memories.text import content_fingerprint

    rng = random.Random(3)
    project = Project.objects.create(slug="bench")
    user = User.objects.create(username="bench")
    membership_set(actor=None, via="bench", project=project, user=user, role="member")
    _, token = credential_issue(actor=None, via="bench", user=user, provenance="authoritative")
    texts = [sentence(rng, n) for n in range(args.seed_memories)]
    embedder = get_embedder()
    vectors = embedder.embed(texts)
    Memory.objects.bulk_create(
        Memory(
            content=text,
            content_fingerprint=content_fingerprint(text),
            owner=user,
            project=project if n % 2 else None,
            visibility="project" if n % 2 else "private",
            embedding=vector,
        )
        for n, (text, vector) in enumerate(zip(texts, vectors, strict=True))
    )
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE memories_memory")
    embed_times = []
    for n in range(args.requests):
        with Timer() as timer:
            embedder.embed([sentence(rng, 10_000 + n)])
        embed_times.append(timer.ms)

    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_DEBUG": "false",
        "ZEROMEMORY_LOG_LEVEL": "WARNING",
        "ZEROMEMORY_DB_POOL": "true",
    }
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "zeromemory.asgi:application",
            "--port",
            str(args.port),
            "--no-access-log",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    base = f"http://127.0.0.1:{args.port}"
    try:
        for _ in range(120):
            try:
                urllib.request.urlopen(f"{base}/api/schema/", timeout=2)
                break
            except OSError:
                time.sleep(0.5)
        for n in range(20):  # warm-up
            call(base, token, {"content": sentence(rng, 20_000 + n), "project": "bench"})
        plain = []
        for n in range(args.requests):
            status, _, ms = call(base, token, {"content": sentence(rng, 30_000 + n), "project": "bench"})
            assert status == 201
            plain.append(ms)
        declared = []
        for n in range(args.requests):
            targets = [
                call(base, token, {"content": sentence(rng, 40_000 + 4 * n + k), "project": "bench"})[1]["memory"]["id"]
                for k in range(3)
            ]
            links = [{"type": "supersedes", "dst": target} for target in targets]
            status, body, ms = call(
                base, token, {"content": sentence(rng, 50_000 + n), "project": "bench", "links": links}
            )
            assert status == 201
            assert body["superseded"] == targets
            declared.append(ms)
    finally:
        server.terminate()
        server.wait(timeout=30)

    print(f"\nremember over HTTP, {args.seed_memories}+ memories of the caller, {args.requests} requests each\n")
    print("| operation | p50 ms | p95 ms | p99 ms |")
    print("| --- | ---: | ---: | ---: |")
    for name, times in (
        ("embedding alone (in process)", embed_times),
        ("remember, no declaration", plain),
        ("remember, 3 declared supersedes", declared),
    ):
        print(
            f"| {name} | {percentile(times, 0.5):.1f} | {percentile(times, 0.95):.1f} | {percentile(times, 0.99):.1f} |"
        )


if __name__ == "__main__":
    main()
