"""The context pack against recall on the seeded 100,000-memory store, in process (Django's test
client: the server's own code, DRF included), interleaved so both see the same machine.

    python bench/context.py [--size 100000] [--runs 200] [--budgets 300,1000]

Prints p50/p95 of recall (limit 10) and of the context pack at each budget, how full the
packs are (tokens over the budget), and how often a pack is filled usefully: every recalled
memory is in it, or the smallest one left out would not have fitted in what remained.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from statistics import mean, median

os.environ.setdefault("ZEROMEMORY_DB_POOL", "true")
os.environ.setdefault("ZEROMEMORY_RATE_LIMIT_PER_MINUTE", "1000000")
os.environ.setdefault("DJANGO_DEBUG", "false")
os.environ.setdefault("ZEROMEMORY_LOG_LEVEL", "WARNING")

from common import percentile, setup_django
from corpus import question
from writepath import clone


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--budgets", default="300,1000")
    args = parser.parse_args()
    budgets = [int(budget) for budget in args.budgets.split(",")]

    template = f"zm_bench_seed_{args.size}"
    setup_django(fresh=False, database=template)
    clone(template)

    from django.contrib.auth.models import User
    from django.test import Client

    from memories.context import CANDIDATES, MIN_ITEM_TOKENS, context_pack
    from memories.services import credential_issue

    bench = User.objects.get(username="bench")
    _, token = credential_issue(actor=None, via="bench", user=bench, provenance="authoritative", label="context")
    client = Client(HTTP_AUTHORIZATION=f"Bearer {token}", HTTP_HOST="127.0.0.1")
    rng = random.Random(20)
    questions = [question(rng) for _ in range(args.runs + 20)]

    def post(path: str, body: dict[str, object]) -> dict[str, object]:
        response = client.post(path, body, content_type="application/json")
        if response.status_code != 200:
            raise SystemExit(f"{path} answered {response.status_code}: {response.content[:300]!r}")
        answer: dict[str, object] = response.json()
        return answer

    times: dict[str, list[float]] = {"recall": [], **{f"context {budget}": [] for budget in budgets}}
    fill: dict[int, list[float]] = {budget: [] for budget in budgets}
    useful: dict[int, int] = dict.fromkeys(budgets, 0)
    with_was: dict[int, int] = dict.fromkeys(budgets, 0)
    for n, query in enumerate(questions):
        timed = n >= 20  # the first 20 warm the pool, the caches and the model
        started = time.perf_counter()
        post("/api/v1/recall/", {"query": query, "limit": 10})
        if timed:
            times["recall"].append((time.perf_counter() - started) * 1000)
        for budget in budgets:
            started = time.perf_counter()
            body = post("/api/v1/context/", {"query": query, "max_tokens": budget})
            if not timed:
                continue
            times[f"context {budget}"].append((time.perf_counter() - started) * 1000)
            tokens = int(body["tokens"])  # type: ignore[call-overload]
            fill[budget].append(tokens / budget)
            items = body["items"]
            assert isinstance(items, list)
            with_was[budget] += any(item["was"] for item in items)
            if body["left_out"] == 0:
                useful[budget] += 1
                continue
            # The smallest recalled memory left out, measured as the pack measures it.
            pack = context_pack(user=bench, query=query, max_tokens=10**9)
            packed = {item["id"] for item in items}
            smallest = min(item.tokens for item in pack.items if item.memory.pk not in packed)
            useful[budget] += tokens + smallest > budget

    runs = len(times["recall"])
    print(
        f"{args.size:,} memories, {runs} questions (bench/corpus.py), in process; "
        f"candidates per pack: budget / {MIN_ITEM_TOKENS}, 10 to {CANDIDATES}"
    )
    for name, values in times.items():
        print(f"  {name:14s} p50 {median(values):6.1f} ms  p95 {percentile(values, 0.95):6.1f} ms")
    for budget in budgets:
        print(
            f"  budget {budget:5d}: mean fill {mean(fill[budget]):.2f}, filled usefully {useful[budget] / runs:.2f}, "
            f"packs with a 'was' line {with_was[budget] / runs:.2f}"
        )


if __name__ == "__main__":
    main()
