"""Exact scan vs HNSW for similar_existing: latency, recall@10 and row counts.

    python bench/similar_existing.py [--total 100000] [--queries 200]

Seeds ``--total`` memories (synthetic clustered 384-d vectors) into a separate database:
10% owned by "bench" (spread over a project and the personal scope) and 90% by "heavy", so
both a selective owner filter (10%) and an owner with nearly everything are measured. For
each owner it times the app's selector (an exact scan) and, for comparison, the same query
served by an HNSW index with pgvector 0.8 iterative scans, and reports recall@10 of the
index against the exact answer.
"""

from __future__ import annotations

import argparse

from common import Timer, clustered_vectors, percentile, setup_django


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--total", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    args = parser.parse_args()
    setup_django(fresh=True)

    from django.contrib.auth.models import User
    from django.db import connection, transaction

    from memories.models import Memory, Project
    from memories.selectors import similar_existing, similar_existing_ranking
    from memories.services import membership_set
    from memories.text import content_fingerprint

    project = Project.objects.create(slug="bench-project")
    bench = User.objects.create(username="bench")
    heavy = User.objects.create(username="heavy")
    membership_set(actor=None, via="bench", project=project, user=bench, role="member")
    membership_set(actor=None, via="bench", project=project, user=heavy, role="member")

    print(f"seeding {args.total} memories…", flush=True)
    batch: list[Memory] = []
    with Timer() as seeding:
        for n, vector in enumerate(clustered_vectors(args.total, seed=1)):
            owner = bench if n % 10 == 0 else heavy
            in_project = n % 3 != 0
            content = f"synthetic memory {n}"
            batch.append(
                Memory(
                    content=content,
                    content_fingerprint=content_fingerprint(content),
                    owner=owner,
                    project=project if in_project else None,
                    visibility="project" if in_project else "private",
                    embedding=vector,
                )
            )
            if len(batch) == 2000:
                Memory.objects.bulk_create(batch)
                batch = []
        Memory.objects.bulk_create(batch)
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE memories_memory")
    print(f"seeded in {seeding.ms / 1000:.1f}s")

    queries = list(clustered_vectors(args.queries, seed=2))

    results: dict[str, dict[str, object]] = {}
    exact_answers: dict[str, list[list[str]]] = {}
    for user in (bench, heavy):
        owned = Memory.objects.filter(owner=user).count()
        times = []
        answers = []
        for query in queries:
            with Timer() as timer:
                found = similar_existing(
                    user=user, embedding=query, text="synthetic memory", project=project, exclude_ids=[]
                )
            times.append(timer.ms)
            answers.append([item.memory.pk for item in found])
        exact_answers[user.username] = answers
        results[f"exact scan, owner {user.username} ({owned} memories)"] = {
            "p50": percentile(times, 0.5),
            "p95": percentile(times, 0.95),
            "recall": 1.0,
            "short": sum(len(a) < 10 for a in answers),
        }

    # The plan of the app's query, as the app runs it.
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        similar_existing_ranking(
            user=bench, embedding=queries[0], text="synthetic memory", project=project, exclude_ids=[], limit=10
        )
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) " + captured.captured_queries[-1]["sql"])
        plan = "\n".join(row[0] for row in cursor.fetchall())

    print("building an HNSW index for the comparison…", flush=True)
    with Timer() as building, connection.cursor() as cursor:
        cursor.execute("SET maintenance_work_mem = '1GB'")
        cursor.execute("CREATE INDEX bench_hnsw ON memories_memory USING hnsw (embedding vector_cosine_ops)")
    print(f"index built in {building.ms / 1000:.1f}s")
    ann_sql = (
        "SELECT id FROM memories_memory WHERE owner_id = %s AND state = 'live' "
        "AND (project_id IS NULL OR project_id = %s) ORDER BY embedding <=> %s::vector LIMIT 10"
    )
    for ef_search, mode in ((40, "strict_order"), (100, "strict_order"), (200, "relaxed_order")):
        for user in (bench, heavy):
            times = []
            hits = 0
            short = 0
            for query, exact in zip(queries, exact_answers[user.username], strict=True):
                with transaction.atomic(), connection.cursor() as cursor:
                    cursor.execute(f"SET LOCAL hnsw.ef_search = {ef_search}")
                    cursor.execute(f"SET LOCAL hnsw.iterative_scan = {mode}")
                    with Timer() as timer:
                        cursor.execute(ann_sql, [user.pk, project.pk, str(query)])
                        rows = [row[0] for row in cursor.fetchall()]
                times.append(timer.ms)
                hits += len(set(rows) & set(exact))
                short += len(rows) < 10
            results[f"HNSW ef_search={ef_search} {mode}, owner {user.username}"] = {
                "p50": percentile(times, 0.5),
                "p95": percentile(times, 0.95),
                "recall": hits / (10 * len(queries)),
                "short": short,
            }
    with connection.cursor() as cursor:
        cursor.execute("DROP INDEX bench_hnsw")

    print(f"\nsimilar_existing over {args.total} memories, {len(queries)} queries\n")
    print("| plan | p50 ms | p95 ms | recall@10 | answers with < 10 rows |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, row in results.items():
        print(f"| {name} | {row['p50']:.1f} | {row['p95']:.1f} | {row['recall']:.3f} | {row['short']} |")
    print("\nPlan of the app's query (owner bench):\n")
    print(plan)


if __name__ == "__main__":
    main()
