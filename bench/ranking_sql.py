"""SQL time of similar_existing's ranking on the seeded 100,000-memory store, vector-only vs fused.

    python bench/ranking_sql.py [--size 100000] [--queries 200]

Uses the store `./zm bench` seeds (bench/seed.py; seeded on first use), read-only. For each
of ``--queries`` new notes from the benchmark corpus (and, with ``--long``, as many long
turns made by joining three notes), times the statements of
``memories.selectors.similar_existing_ranking`` at the driver (its SQL compiled once, as the
write path caches it), as the write path runs them
for the benchmarking user writing into one of its projects: the lexical query's statements
(the text's lexemes) and the ranking itself. The same is timed for the vector-only exact scan
it replaced (``memories.search.exact_nearest``). Prints p50/p95 in milliseconds.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from common import percentile
from corpus import note


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--long", action="store_true", help="also time long, three-note texts")
    args = parser.parse_args()

    from suite import ensure_seeded

    ensure_seeded(args.size, reseed=False, corpus_size=args.size)

    from django.contrib.auth.models import User
    from django.db import connection

    from memories.choices import State
    from memories.embedding import embed_sentences, get_embedder
    from memories.models import Project
    from memories.search import FIRST_K, compile_parts, exact_nearest, fused_ranking, lexical_query
    from memories.visibility import visible_memories

    bench = User.objects.get(username="bench")
    project = Project.objects.filter(memberships__user=bench).order_by("slug").first()
    assert project is not None
    rng = random.Random(11)
    texts = [note(rng)[1] for _ in range(args.queries)]
    if args.long:
        texts += [" ".join(note(rng)[1] for _ in range(3)) for _ in range(args.queries)]
    vectors = get_embedder().embed(texts)
    sentence_sets = embed_sentences(texts)

    spent: list[float] = []

    def timed(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            spent.append((time.perf_counter() - started) * 1000)

    own = visible_memories(bench).filter(owner_id=bench.pk, state=State.LIVE)
    parts = [own.filter(project__isnull=True), own.filter(project=project)]
    # Compiled once, as the write path caches them per caller (memories.selectors._similar_parts).
    compiled = compile_parts(parts, FIRST_K)
    plans = {
        "vector only (exact_nearest)": lambda text, vector, found: exact_nearest(parts, vector, 10),
        "vector + lexical": lambda text, vector, found: fused_ranking(
            compiled, vector, lexical_query(text, "default"), 10
        ),
        "vector + lexical + sentences (now)": lambda text, vector, found: fused_ranking(
            compiled,
            vector,
            lexical_query(text, "default"),
            10,
            query_vectors=found or [vector],
        ),
    }
    # Warm the caches (statistics, plans) once.
    for plan in plans.values():
        plan(texts[0], vectors[0], sentence_sets[0])
    print(f"similar_existing SQL at {args.size:,} memories, owner bench, project {project.slug}")
    print("| plan | texts | SQL p50 ms | SQL p95 ms | statements |")
    print("| --- | --- | ---: | ---: | ---: |")
    for name, plan in plans.items():
        for label, chunk in (("notes", range(args.queries)), ("long turns", range(args.queries, len(texts)))):
            if not chunk:
                continue
            totals = []
            statements = 0
            for i in chunk:
                spent.clear()
                with connection.execute_wrapper(timed):
                    plan(texts[i], vectors[i], sentence_sets[i])
                totals.append(sum(spent))
                statements = len(spent)
            p50, p95 = percentile(totals, 0.5), percentile(totals, 0.95)
            print(f"| {name} | {label} | {p50:.2f} | {p95:.2f} | {statements} |")


if __name__ == "__main__":
    main()
