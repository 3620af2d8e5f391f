"""recall: latency at N memories, and hybrid vs vector-only ranking on exact identifiers.

    python bench/recall.py [--memories 10000] [--queries 200]

Seeds realistic notes (template sentences about services, people, dates and numbers,
embedded by the real model) for three users in one project; 300 of them carry a unique
identifier (an error code or ticket id). Times recall through the API view in process, and
for queries naming an identifier reports how often the memory holding it ranks first and in
the top 10, with the fused ranking and with the vectors alone.
"""

from __future__ import annotations

import argparse
import random

from common import Timer, percentile, sentence, setup_django


def identifier(rng: random.Random) -> str:
    letters = "ABCDEFGHJKLMNPQRSTUVWXYZ"
    return (
        rng.choice(["ERR", "INC", "CVE", "TKT"])
        + "-"
        + "".join(rng.choice(letters) for _ in range(2))
        + str(rng.randint(1000, 9999))
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    setup_django(fresh=True, database="zeromemory_bench_recall")

    from django.contrib.auth.models import User
    from django.db import connection, transaction
    from rest_framework.test import APIClient

    from memories.embedding import get_embedder
    from memories.models import Memory, Project
    from memories.recall import recall
    from memories.services import credential_issue, membership_set
    from memories.text import content_fingerprint

    rng = random.Random(5)
    project = Project.objects.create(slug="bench")
    users = [User.objects.create(username=name) for name in ("bench", "peer1", "peer2")]
    for user in users:
        membership_set(actor=None, via="bench", project=project, user=user, role="member")
    texts = [sentence(rng, n) for n in range(args.memories)]
    codes: dict[int, str] = {}
    for n in rng.sample(range(args.memories), 300):
        codes[n] = identifier(rng)
        texts[n] = f"{codes[n]}: " + texts[n].replace(f" (note {n})", "") + " Seen again after the last release."
    print(f"embedding {len(texts)} notes…", flush=True)
    with Timer() as embedding:
        vectors = get_embedder().embed(texts)
    print(f"embedded in {embedding.ms / 1000:.1f}s")
    Memory.objects.bulk_create(
        (
            Memory(
                content=text,
                content_fingerprint=content_fingerprint(text),
                owner=users[n % 3],
                project=None if n % 5 == 0 else project,
                visibility="private" if n % 5 == 0 else "project",
                embedding=vector,
            )
            for n, (text, vector) in enumerate(zip(texts, vectors, strict=True))
        ),
        batch_size=2000,
    )
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE memories_memory")
    ids = dict(Memory.objects.values_list("content", "pk"))
    bench = users[0]
    _, token = credential_issue(actor=None, via="bench", user=bench, provenance="authoritative")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")

    questions = [f"What did we note about {rng.choice(['billing', 'search', 'auth', 'deploys', 'alerts'])}?"]
    questions += [sentence(rng, 90_000 + n).split(" (note")[0] for n in range(args.queries)]
    for question in questions[:10]:
        client.post("/api/v1/recall/", {"query": question, "project": "bench"}, format="json")
    times = []
    for question in questions[: args.queries]:
        with Timer() as timer:
            response = client.post("/api/v1/recall/", {"query": question, "project": "bench"}, format="json")
        assert response.status_code == 200
        assert len(response.json()["results"]) == 10
        times.append(timer.ms)

    visible_codes = [(n, code) for n, code in codes.items() if n % 3 == 0 or n % 5 != 0]
    outcome = {"hybrid": [0, 0], "vector only": [0, 0]}
    for n, code in visible_codes:
        wanted = ids[texts[n]]
        query = f"What does {code} mean?"
        for name, use_text in (("hybrid", True), ("vector only", False)):
            found = [hit.memory.pk for hit in recall(user=bench, query=query, project_slug="bench", use_text=use_text)]
            outcome[name][0] += found[:1] == [wanted]
            outcome[name][1] += wanted in found

    # The vector side's plan: exact scan (what the app does) vs an HNSW index with pgvector
    # 0.8 iterative scans, on these real embeddings, with the same visibility-shaped filter.
    scoped = (
        "SELECT id FROM memories_memory WHERE state = 'live' AND (project_id = %s OR owner_id = %s) "
        "ORDER BY embedding <=> %s::vector LIMIT 10"
    )
    code_list = [code for _, code in visible_codes]
    query_vectors = get_embedder().embed(
        questions[: args.queries // 2] + [f"What does {c} mean?" for c in code_list][: args.queries // 2]
    )
    exact_answers = []
    exact_times = []
    for vector in query_vectors:
        with Timer() as timer, connection.cursor() as cursor:
            cursor.execute("SET enable_indexscan = off")
            cursor.execute(scoped, [project.pk, bench.pk, str(vector)])
            exact_answers.append({row[0] for row in cursor.fetchall()})
            cursor.execute("RESET enable_indexscan")
        exact_times.append(timer.ms)
    plans = {"exact scan": (exact_times, 1.0)}
    for ef_search in (100, 400):
        ann_times = []
        hits = 0
        for vector, exact in zip(query_vectors, exact_answers, strict=True):
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(f"SET LOCAL hnsw.ef_search = {ef_search}")
                cursor.execute("SET LOCAL hnsw.iterative_scan = strict_order")
                with Timer() as timer:
                    cursor.execute(scoped, [project.pk, bench.pk, str(vector)])
                    hits += len({row[0] for row in cursor.fetchall()} & exact)
            ann_times.append(timer.ms)
        plans[f"HNSW ef_search={ef_search}, iterative strict_order"] = (ann_times, hits / (10 * len(exact_answers)))

    print(f"\nrecall over {args.memories} memories ({args.queries} queries, through the API view, in process)\n")
    print("| p50 ms | p95 ms | p99 ms |\n| ---: | ---: | ---: |")
    print(f"| {percentile(times, 0.5):.1f} | {percentile(times, 0.95):.1f} | {percentile(times, 0.99):.1f} |")
    print(f"\nqueries naming an exact identifier ({len(visible_codes)} visible ones)\n")
    print("| ranking | found first | found in top 10 |\n| --- | ---: | ---: |")
    for name, (first, top10) in outcome.items():
        print(f"| {name} | {first / len(visible_codes):.3f} | {top10 / len(visible_codes):.3f} |")
    print("\nthe vector side alone, SQL only: exact scan vs HNSW (real embeddings; half questions, half identifiers)\n")
    print("| plan | p50 ms | p95 ms | recall@10 vs exact |\n| --- | ---: | ---: | ---: |")
    for name, (plan_times, plan_recall) in plans.items():
        print(
            f"| {name} | {percentile(plan_times, 0.5):.1f} | {percentile(plan_times, 0.95):.1f} | {plan_recall:.3f} |"
        )


if __name__ == "__main__":
    main()
