"""Two versions of the server side by side over HTTP, as ``./zm serve`` runs them (gunicorn, 2
threaded workers, pooled connections), each on its own copy of the seeded 100,000-memory store,
their requests interleaved so both see the same load on the machine.

    python bench/writepath_http.py --before /path/to/other/checkout [--requests 200]

Times remember, remember with three declared supersedes and recall (p50/p95 per version).
The hygiene worker does not run (as in bench/suite.py's latency runs).
"""

from __future__ import annotations

import argparse
import os
import random
from pathlib import Path

os.environ.setdefault("ZEROMEMORY_DB_POOL", "false")

from common import ROOT, percentile, setup_django, supersede_groups
from corpus import note, question
from suite import Client, Server, expect

WORKERS, THREADS = 2, 4


def clone(template: str, name: str) -> str:
    import psycopg
    from django.conf import settings
    from django.db import connections

    from zeromemory.embedded_db import EmbeddedServer

    connections.close_all()
    server = EmbeddedServer(settings.DATA_DIR)
    with psycopg.connect(server.url("postgres"), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}" STRATEGY FILE_COPY')
    return server.url(name)


def prepare(name: str) -> tuple[str, list[str], list[tuple[str | None, list[str]]]]:
    """A token for ``bench`` in database ``name``, its projects and live triples to supersede."""
    from django.conf import settings
    from django.contrib.auth.models import User
    from django.db import connections

    from memories.models import Memory
    from memories.services import credential_issue

    connections.close_all()
    settings.DATABASES["default"]["NAME"] = name
    connections["default"].settings_dict["NAME"] = name
    bench = User.objects.get(username="bench")
    _, token = credential_issue(actor=None, via="bench", user=bench, provenance="authoritative", label="http")
    projects = list(bench.memberships.order_by("project__slug").values_list("project__slug", flat=True))
    live = list(Memory.objects.filter(owner=bench, state="live").order_by("id").values_list("project__slug", "pk"))
    groups = supersede_groups(live)
    connections.close_all()
    return token, projects, groups


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="a checkout of the version to compare with")
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--port", type=int, default=8771)
    args = parser.parse_args()
    template = f"zm_bench_seed_{args.size}"
    setup_django(fresh=False, database=template)
    versions = {"before": Path(args.before).resolve(), "after": ROOT}
    servers, clients, fixtures = {}, {}, {}
    try:
        for n, (label, code) in enumerate(versions.items()):
            name = f"zm_writepath_http_{label}"
            url = clone(template, name)
            fixtures[label] = prepare(name)
            # The exported model is cached in this checkout's data folder; the other finds it there.
            servers[label] = Server(url, args.port + n, code=code, env={"ZEROMEMORY_DATA_DIR": str(ROOT / ".data")})
            clients[label] = Client(args.port + n, fixtures[label][0])
        rng = {label: random.Random(7) for label in versions}
        times: dict[str, dict[str, list[float]]] = {label: {} for label in versions}

        def run(label: str, operation: str, n: int) -> float:
            client, (_, projects, groups), r = clients[label], fixtures[label], rng[label]
            scopes: list[str | None] = [*projects, None]
            if operation == "remember":
                kind, content = note(r)
                body = {"content": content, "kind": kind, "project": scopes[n % len(scopes)]}
                status, answer, ms = client.call("POST", "/api/v1/memories/", body)
                expect(status, 200 if answer.get("absorbed") else 201, answer)
            elif operation == "remember + 3 supersedes":
                scope, targets = groups.pop()
                kind, content = note(r)
                links = [{"type": "supersedes", "dst": target} for target in targets]
                body = {"content": content, "kind": kind, "project": scope, "links": links}
                status, answer, ms = client.call("POST", "/api/v1/memories/", body)
                expect(status, 200 if answer.get("absorbed") else 201, answer)
                if sorted(answer["superseded"]) != sorted(targets):
                    raise SystemExit(f"declared supersede did not retire its targets: {answer}")
            else:
                status, answer, ms = client.call("POST", "/api/v1/recall/", {"query": question(r), "limit": 10})
                expect(status, 200, answer)
            return ms

        operations = ["remember", "remember + 3 supersedes", "recall"]
        for n in range(30):  # warm both servers' workers, connections and models
            for label in versions:
                run(label, "remember", n)
                run(label, "recall", n)
        for operation in operations:
            for n in range(args.requests):
                order = list(versions) if n % 2 else list(reversed(versions))
                for label in order:
                    times[label].setdefault(operation, []).append(run(label, operation, n))
        for operation in operations:
            line = f"  {operation:<26}"
            for label in versions:
                values = times[label][operation]
                line += f"  {label}: p50 {percentile(values, 0.5):6.1f} p95 {percentile(values, 0.95):6.1f} ms"
            print(line, flush=True)
    finally:
        for server in servers.values():
            server.stop()


if __name__ == "__main__":
    main()
