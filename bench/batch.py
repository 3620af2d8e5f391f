"""Batch writes against single remembers on a copy of the seeded 100,000-memory store, in process
(Django's test client: the server's own code), interleaved so both see the same machine.

    python bench/batch.py [--size 100000] [--items 2000] [--batch 50]

Prints the milliseconds per stored item: remembered one request at a time, and in batches
(each item its own transaction, then "atomic": true).
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Mapping

os.environ.setdefault("ZEROMEMORY_DB_POOL", "true")
os.environ.setdefault("ZEROMEMORY_RATE_LIMIT_PER_MINUTE", "0")
os.environ.setdefault("DJANGO_DEBUG", "false")
os.environ.setdefault("ZEROMEMORY_LOG_LEVEL", "WARNING")

from common import setup_django
from corpus import note
from writepath import clone


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--items", type=int, default=1500, help="items stored by each way")
    parser.add_argument("--batch", type=int, default=50)
    args = parser.parse_args()

    template = f"zm_bench_seed_{args.size}"
    setup_django(fresh=False, database=template)
    clone(template)

    from django.contrib.auth.models import User
    from django.test import Client

    from memories.services import credential_issue

    bench = User.objects.get(username="bench")
    _, token = credential_issue(actor=None, via="bench", user=bench, provenance="authoritative", label="batch")
    client = Client(HTTP_AUTHORIZATION=f"Bearer {token}", HTTP_HOST="127.0.0.1")
    rng = random.Random(21)
    seen: set[str] = set()

    def fresh_items(count: int) -> list[dict[str, str]]:
        items: list[dict[str, str]] = []
        while len(items) < count:
            kind, content = note(rng)
            if content not in seen:
                seen.add(content)
                items.append({"content": content, "kind": kind})
        return items

    def post(path: str, body: Mapping[str, object], wanted: int) -> dict[str, object]:
        response = client.post(path, body, content_type="application/json")
        if response.status_code != wanted:
            raise SystemExit(f"{path} answered {response.status_code}: {response.content[:300]!r}")
        answer: dict[str, object] = response.json()
        return answer

    spent = {"single": 0.0, "batch": 0.0, "atomic batch": 0.0}
    stored = dict.fromkeys(spent, 0)
    post("/api/v1/memories/batch/", {"items": fresh_items(args.batch)}, 200)  # warm up
    rounds = args.items // args.batch
    for _ in range(rounds):
        for way in spent:
            items = fresh_items(args.batch)
            started = time.perf_counter()
            if way == "single":
                for item in items:
                    post("/api/v1/memories/", item, 201)
            else:
                body = post("/api/v1/memories/batch/", {"items": items, "atomic": way == "atomic batch"}, 200)
                results = body["results"]
                assert isinstance(results, list)
                assert all(result["status"] == 201 for result in results)
            spent[way] += (time.perf_counter() - started) * 1000
            stored[way] += len(items)
    print(f"{args.size:,} memories, {rounds} rounds of {args.batch} items each way, in process")
    for way, ms in spent.items():
        print(f"  {way:13s} {ms / stored[way]:6.2f} ms per item")


if __name__ == "__main__":
    main()
