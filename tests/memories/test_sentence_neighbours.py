"""The sentence side's neighbours (memories.search.sentence_neighbours): through the HNSW
indexes where the planner takes them, exactly where the scope is small, and never short of the
scope's rows when an index search gives up."""

from __future__ import annotations

import random

import numpy as np
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from memories import search
from memories.choices import State
from memories.models import Memory
from memories.search import (
    DISTINCT_TOP,
    SENTENCE_ROWS_SEARCHED,
    distinct_from,
    neighbour_scope,
    sentence_neighbours,
)
from memories.search._sentences import _neighbour_sql  # the statement itself, to read its plan
from memories.services import memory_sentences_store
from memories.text import content_fingerprint
from tests.memories.test_similar_existing import brute_force_top


def _unit(rng: random.Random) -> np.ndarray:
    vector = np.array([rng.gauss(0, 1) for _ in range(384)])
    return vector / np.linalg.norm(vector)


def _near(vector: np.ndarray, similarity: float, rng: random.Random) -> np.ndarray:
    """A unit vector at cosine ``similarity`` from ``vector``."""
    away = _unit(rng)
    away -= np.dot(away, vector) * vector
    return similarity * vector + np.sqrt(1 - similarity**2) * away / np.linalg.norm(away)


def _store(user, wholes, sentences_of):
    rows = [
        Memory(
            content=f"{user.username} memory {n}",
            content_fingerprint=content_fingerprint(f"{user.username} memory {n}"),
            owner=user,
            visibility="private",
            embedding=vector.tolist(),
        )
        for n, vector in enumerate(wholes)
    ]
    Memory.objects.bulk_create(rows)
    memory_sentences_store(
        vectors_by_memory={rows[n].pk: [v.tolist() for v in found] for n, found in sentences_of.items()}
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memories_memory")
        cursor.execute("ANALYZE memories_memorysentence")
    return rows


def _truth(rows, sentences_of, query_vectors):
    """Each query vector's rows as distinct_from weighs them, by brute force: every memory's
    nearest vector, whole text or sentence."""
    nearest = []
    for vector in query_vectors:
        found = []
        for n, row in enumerate(rows):
            vectors = [np.array(row.embedding), *sentences_of.get(n, [])]
            found.append((row.pk, 1 - max(float(np.dot(vector, v)) for v in vectors)))
        nearest.append(found)
    return distinct_from(nearest)


def _scope(user):
    return neighbour_scope([Memory.objects.filter(owner=user, state=State.LIVE)])


def _uses_index(scope, vectors):
    sql, params = _neighbour_sql(scope, whole=True, sentence_rows=True, exact=False)
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN {sql}", [[str(v.tolist()) for v in vectors], *params])
        plan = "\n".join(row[0] for row in cursor.fetchall())
    return "memory_sentence_hnsw_idx" in plan and "memory_embedding_hnsw_idx" in plan


def test_through_the_indexes_the_nearest_memories_of_each_sentence_are_the_exact_ones(alice):
    """The planner is steered to the index-shaped plan (no sorting), as it takes it on a large
    store; the sentence side it gives is the exact scan's."""
    rng = random.Random(3)
    query_vectors = [_unit(rng) for _ in range(3)]
    wholes = [_unit(rng) for _ in range(200)]
    sentences_of = {n: [_unit(rng) for _ in range(3)] for n in range(0, 200, 2)}
    # Each query vector has memories near it by a sentence, and one by its whole text.
    for q, vector in enumerate(query_vectors):
        for place, similarity in enumerate((0.9, 0.8, 0.7, 0.6)):
            sentences_of[2 * (10 * q + place)][1] = _near(vector, similarity, rng)
        wholes[2 * (10 * q + 5) + 1] = _near(vector, 0.75, rng)
    rows = _store(alice.user, wholes, sentences_of)
    scope = _scope(alice.user)
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_sort = off")
        cursor.execute("SET LOCAL enable_seqscan = off")
    assert _uses_index(scope, query_vectors)

    found = sentence_neighbours(scope, [v.tolist() for v in query_vectors])

    assert all(len(rows_of) >= SENTENCE_ROWS_SEARCHED + DISTINCT_TOP for rows_of in found)
    got = distinct_from(found)
    assert got == pytest.approx(_truth(rows, sentences_of, query_vectors), abs=1e-5)
    # Each sentence's first: the memory saying it at 0.9, standing out from its next two.
    assert {rows[2 * 10 * q].pk for q in range(3)} <= got.keys()


def test_a_search_short_of_its_rows_is_answered_by_the_exact_scan(alice, bob):
    """Bob's many sentences lie nearer every query vector than alice's, and she has fewer
    sentence rows than a search keeps: a search of her scope through the index comes back
    short — as it does when it gives up after hnsw.max_scan_tuples rows held back by the
    scope's conditions — and the exact scan answers: all her rows, none of bob's."""
    rng = random.Random(5)
    query_vectors = [_unit(rng) for _ in range(2)]
    near_bob = {n: [_near(query_vectors[n % 2], 0.8, rng), _unit(rng)] for n in range(120)}
    _store(bob.user, [_near(query_vectors[n % 2], 0.7, rng) for n in range(120)], near_bob)
    # Nine sentence rows: fewer than the SENTENCE_ROWS_SEARCHED a search through the index keeps.
    sentences_of = {n: [_unit(rng), _unit(rng), _unit(rng)] for n in range(3)}
    sentences_of[2][0] = _near(query_vectors[0], 0.5, rng)
    rows = _store(alice.user, [_unit(rng) for _ in range(10)], sentences_of)
    scope = _scope(alice.user)
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_sort = off")
        cursor.execute("SET LOCAL enable_seqscan = off")
    assert _uses_index(scope, query_vectors)

    with CaptureQueriesContext(connection) as queries:
        found = sentence_neighbours(scope, [v.tolist() for v in query_vectors])

    searches = [q["sql"] for q in queries.captured_queries if "zm_qs" in q["sql"]]
    assert len(searches) == 2  # the index-shaped search, then the exact one
    assert "ORDER BY distance, id" not in searches[0]
    assert "ORDER BY distance, id" in searches[1]
    # Every sentence row of hers and her three nearest by whole text, for each query vector.
    assert [len(rows_of) for rows_of in found] == [9 + DISTINCT_TOP] * 2
    assert all({pk for pk, _ in rows_of} <= {row.pk for row in rows} for rows_of in found)
    got = distinct_from(found)
    assert got == pytest.approx(_truth(rows, sentences_of, query_vectors), abs=1e-5)
    assert rows[2].pk in got


@pytest.mark.parametrize("steered", [False, True])
def test_similar_existing_is_the_brute_force_ranking_whichever_plan_finds_the_neighbours(alice, steered):
    """A long write's list, with its sentences' neighbours found by the planner's own choice
    or through the indexes (steered), is the row-by-row ranking of tests.memories.test_similar_existing."""
    rng = random.Random(11)
    query = _unit(rng)
    said = [_near(query, 0.6, rng), _unit(rng), _unit(rng)]
    wholes = [_near(query, rng.uniform(0.1, 0.6), rng) for _ in range(150)]
    sentences_of = {n: [_unit(rng), _unit(rng)] for n in range(0, 150, 3)}
    sentences_of[30][0] = _near(said[1], 0.85, rng)
    sentences_of[60][1] = _near(said[2], 0.8, rng)
    rows = _store(alice.user, wholes, sentences_of)
    if steered:
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL enable_sort = off")
            cursor.execute("SET LOCAL enable_seqscan = off")
        assert _uses_index(_scope(alice.user), said)

    from memories.selectors import similar_existing

    found = similar_existing(
        user=alice.user,
        embedding=query.tolist(),
        text="zzz",
        project=None,
        exclude_ids=[],
        sentence_vectors=[v.tolist() for v in said],
    )

    expected = brute_force_top(alice.user, None, "zzz", query, [], query_vectors=said)
    assert [item.memory.pk for item in found] == [pk for pk, _ in expected]
    assert {rows[30].pk, rows[60].pk} <= {item.memory.pk for item in found[:3]}
    search.forget_lexical_stats()
