"""The sentence side through the HNSW indexes against the exact scan, on the long-text store.

    python bench/longtext_quality.py [--sizes 10000,100000] [--queries 100]

memories.search finds each sentence's nearest memories through HNSW indexes once the
caller's memories are many (``sentence_neighbours``); before, an exact scan found them. On a
clone of bench/longtext.py's chat store of N turns (one owner), the project's own chat chains
(evaluation.chat_histories, its default seed: 2,080 turns, 80 chains) are added, and
each case is ranked twice, through the indexes as served and by the exact scan:

* the nearest DISTINCT_TOP memories of each sentence of held-out chat turns (recall@3 of the
  index search against the exact scan; a tie at the third place counts as found);
* similar_existing of held-out chat turns and of each chain's update (as its write ranks it)
  and recall with held-out turns and with each chain's question: how often both rankings have
  the same first entry, their overlap in the top 10, and for the chains the predecessor's
  hit@1/3/10 both ways.
"""

from __future__ import annotations

import argparse
import functools
import os
import random
from collections.abc import Callable
from typing import Any

from common import setup_django


def plant_chains(user: Any) -> tuple[dict[str, str], list[Any]]:
    """The own chat set's haystack stored for ``user`` (ids by text) and its chains."""
    from evaluation.chat_histories import chat_histories
    from memories.embedding import embed_with_sentences, get_embedder
    from memories.models import Memory
    from memories.services import memory_sentences_store
    from memories.text import content_fingerprint

    haystack, chains = chat_histories()
    texts = list(dict.fromkeys(haystack))
    ids: dict[str, str] = {}
    for start in range(0, len(texts), 256):
        batch = texts[start : start + 256]
        embedded = embed_with_sentences(batch)
        rows = [
            Memory(
                content=text,
                content_fingerprint=content_fingerprint(text),
                owner=user,
                visibility="private",
                embedding=vector,
                embedding_model=get_embedder().name,
            )
            for text, (vector, _) in zip(batch, embedded, strict=True)
        ]
        Memory.objects.bulk_create(rows)
        memory_sentences_store(
            vectors_by_memory={row.pk: found for row, (_, found) in zip(rows, embedded, strict=True) if found}
        )
        ids.update({row.content: row.pk for row in rows})
    return ids, chains


def exactly(action: Callable[[], Any]) -> Any:
    """``action`` with the sentence side's neighbours found by the exact scan only."""
    from memories.search import _sentences as ranking  # its statement, swapped for the exact one

    original = ranking._neighbour_sql

    def exact_only(*args: Any, **kwargs: Any) -> Any:
        return original(*args, **{**kwargs, "exact": True})

    ranking._neighbour_sql = exact_only
    try:
        return action()
    finally:
        ranking._neighbour_sql = original


def nearest_memories(rows: list[tuple[str, float]]) -> list[tuple[str, float]]:
    """The DISTINCT_TOP nearest memories of one query vector's rows, as (pk, distance)."""
    from memories.search import DISTINCT_TOP

    best: dict[str, float] = {}
    for pk, distance in rows:
        best[pk] = min(best.get(pk, 2.0), distance)
    return sorted(best.items(), key=lambda item: (item[1], item[0]))[:DISTINCT_TOP]


def measure(size: int, queries: int) -> dict[str, Any]:
    from chat_corpus import chat_turns, held_out_turns
    from django.contrib.auth.models import User
    from django.db import connection
    from longtext import ensure_store
    from suite import clone

    from memories.embedding import embed_with_sentences
    from memories.models import Project
    from memories.recall import recall
    from memories.selectors import similar_existing_ranking

    clone(ensure_store("chat", size, reseed=False))
    user = User.objects.get(username="bench")
    project = Project.objects.get(slug="chat")
    ids, chains = plant_chains(user)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memories_memory")
        cursor.execute("ANALYZE memories_memorysentence")
    from memories.search import forget_lexical_stats

    forget_lexical_stats()

    def ranked(text: str) -> Callable[[], list[str]]:
        [(vector, found)] = embed_with_sentences([text])

        def run() -> list[str]:
            rows = similar_existing_ranking(
                user=user,
                embedding=vector,
                text=text,
                project=project,
                exclude_ids=[],
                limit=10,
                sentence_vectors=found,
            )
            return [row.pk for row in rows]

        return run

    def recalled(question: str) -> Callable[[], list[str]]:
        return lambda: [hit.memory.pk for hit in recall(user=user, query=question, limit=10)]

    rng = random.Random(size)
    held = held_out_turns(2 * queries, stored=set(chat_turns(size)))
    rng.shuffle(held)
    report: dict[str, Any] = {}

    # The neighbours themselves.
    from memories.search import neighbour_scope, sentence_neighbours
    from memories.selectors import valid_condition
    from memories.visibility import visible_memories

    own = visible_memories(user).filter(valid_condition(), owner_id=user.pk, state="live")
    scope = neighbour_scope([own.filter(project__isnull=True), own.filter(project=project)])
    found = kept = 0
    for text in held[:queries]:
        [(_, vectors)] = embed_with_sentences([text])
        if not vectors:
            continue
        served = sentence_neighbours(scope, vectors)
        exact = exactly(functools.partial(sentence_neighbours, scope, vectors))
        for got, wanted in zip(served, exact, strict=True):
            truth = nearest_memories(wanted)
            third = truth[-1][1]
            got_ids = {pk for pk, _ in nearest_memories(got)}
            # A memory tied with the third is as near: either is right.
            found += sum(1 for pk, distance in truth if pk in got_ids or distance >= third - 1e-6)
            kept += len(truth)
    report["nearest 3 memories of each sentence"] = {"recall@3": found / kept, "sentences": kept // 3}
    print(f"  {size:,} nearest 3 memories of each sentence: recall@3 {found / kept:.4f}", flush=True)

    cases: dict[str, list[tuple[Callable[[], list[str]], str | None]]] = {
        "similar_existing, held-out chat turns": [(ranked(text), None) for text in held[:queries]],
        "similar_existing, own chat chains": [(ranked(c.update), ids[c.predecessor]) for c in chains],
        "recall with a held-out chat turn": [(recalled(text), None) for text in held[queries:]],
        "recall of the chain's question": [(recalled(c.question), ids[c.predecessor]) for c in chains],
    }
    for name, runs in cases.items():
        served_hits, exact_hits, first_same, overlap = [0, 0, 0], [0, 0, 0], 0, 0.0
        for run, wanted in runs:
            served_ids = run()
            exact_ids = exactly(run)
            first_same += served_ids[:1] == exact_ids[:1]
            overlap += len(set(served_ids) & set(exact_ids)) / max(1, len(exact_ids))
            if wanted is not None:
                for n, k in enumerate((1, 3, 10)):
                    served_hits[n] += wanted in served_ids[:k]
                    exact_hits[n] += wanted in exact_ids[:k]
        count = len(runs)
        row: dict[str, Any] = {
            "cases": count,
            "first entry the same": first_same / count,
            "overlap@10": overlap / count,
        }
        if runs[0][1] is not None:
            row["hit@1/3/10, served"] = [h / count for h in served_hits]
            row["hit@1/3/10, exact"] = [h / count for h in exact_hits]
        report[name] = row
        print(f"  {size:,} {name}: {row}", flush=True)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--queries", type=int, default=100, help="held-out turns written and asked")
    args = parser.parse_args()
    os.environ.setdefault("ZEROMEMORY_LOG_LEVEL", "WARNING")
    setup_django(fresh=False, database="zm_bench_scratch")
    results = {int(size): measure(int(size), args.queries) for size in args.sizes.split(",")}
    print("\nThe sentence side through the HNSW indexes (as served) against the exact scan\n")
    print("| store | case | first entry the same | overlap@10 | hit@1 / 3 / 10 served | exact |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for size, report in results.items():
        for name, row in report.items():
            if "recall@3" in row:
                label = f"{name} ({row['sentences']} sentences)"
                print(f"| {size:,} chat turns + 2,080 | {label} | recall@3 {row['recall@3']:.3f} | | | |")
                continue
            hits = [
                " / ".join(f"{h:.2f}" for h in row[key]) if key in row else "-"
                for key in ("hit@1/3/10, served", "hit@1/3/10, exact")
            ]
            print(
                f"| {size:,} chat turns + 2,080 | {name} ({row['cases']}) | {row['first entry the same']:.2f} "
                f"| {row['overlap@10']:.2f} | {hits[0]} | {hits[1]} |"
            )


if __name__ == "__main__":
    main()
