"""similar_existing and hint (SPEC R-N1 to R-N4)."""

from __future__ import annotations

import random
from datetime import timedelta

import numpy as np
import pytest
from django.db import connection
from django.db.models import Q
from django.utils import timezone

from memories import search
from memories.agent.results import similar_hint
from memories.choices import State
from memories.models import Memory, MemorySentence
from memories.selectors import similar_existing
from memories.services import memory_sentences_store
from memories.text import content_fingerprint
from tests.factories import ProjectFactory, make_memory
from tests.helpers import backdate, remember, supersedes


def test_the_first_memory_gets_an_empty_list_and_no_hint(alice):
    body = remember(alice, "The first thing alice tells us").json()

    assert body["similar_existing"] == []
    assert "hint" not in body


def test_the_most_similar_memories_are_ranked_by_score_with_the_fields_of_r_n3(alice, acme):
    old = make_memory(alice.user, "The deploy window is Monday 10:00 UTC.", project=acme)
    backdate(old, timezone.now() - timedelta(days=23))
    make_memory(alice.user, "I like my coffee black.")
    make_memory(alice.user, "Deploys need two approvals in the Acme repo.", project=acme)

    body = remember(alice, "Deploys now happen on Friday 14:00 UTC.", project="acme", session="another").json()

    listed = body["similar_existing"]
    assert listed[0]["id"] == old.id  # older and from another session: still first
    assert len(listed) == 3
    scores = [entry["score"] for entry in listed]
    assert scores == sorted(scores, reverse=True)
    first = listed[0]
    assert set(first) == {"id", "kind", "project", "distance", "score", "age", "age_seconds", "created_at", "preview"}
    assert first["kind"] == "fact"
    assert first["project"] == "acme"
    assert first["age"] == "3 weeks"
    assert 23 * 86400 <= first["age_seconds"] < 23 * 86400 + 60
    assert first["preview"] == "The deploy window is Monday 10:00 UTC."
    assert old.id in body["hint"]
    assert '"links": [{"type": "supersedes", "dst": "' + old.id + '"}]' in body["hint"]


UNNAMED_HINT = (
    "These are your live memories most like what you just wrote, best match first. None is close "
    "enough to look like an older version of it: if what you wrote is a new fact, do nothing. If one "
    "of them is an older version all the same, replace it: remember the same content again with "
    '"links": [{"type": "supersedes", "dst": "<id>"}], with that entry\'s id (the repeat is absorbed '
    "into the memory you just wrote and the declaration still applies)."
)


def named_hint(memory_id):
    return (
        f"The first of these, {memory_id}, is close enough to be an older version of what you just "
        "wrote. If it is, replace it: remember the same content again with "
        f'"links": [{{"type": "supersedes", "dst": "{memory_id}"}}] (the repeat is absorbed into '
        "the memory you just wrote and the declaration still applies). If it is a different fact, "
        "do nothing."
    )


def _a_small_store(alice, acme):
    return [
        make_memory(alice.user, "The deploy window is Friday 16:00 UTC.", project=acme),
        make_memory(alice.user, "Ana owns the checkout service.", project=acme),
        make_memory(alice.user, "The Kafka cluster has 3 brokers.", project=acme),
        make_memory(alice.user, "I drink my coffee black."),
        make_memory(alice.user, "My dentist appointment is on June 3 at 10:00."),
    ]


def test_an_unrelated_write_still_lists_its_weak_matches_but_its_hint_names_no_one(alice, acme):
    stored = _a_small_store(alice, acme)

    body = remember(alice, "Staging runs on db-4.", project="acme").json()

    listed = body["similar_existing"]
    assert sorted(entry["id"] for entry in listed) == sorted(memory.id for memory in stored)  # no floor (R-N1)
    assert min(entry["distance"] for entry in listed) > search.LIKELY_PREDECESSOR_FAR_DISTANCE
    assert body["hint"] == UNNAMED_HINT  # the call shape (R-N4), with no memory to replace


def test_a_rewrite_gets_a_hint_naming_its_predecessor(alice, acme):
    old, *others = _a_small_store(alice, acme)

    body = remember(alice, "The deploy window moved to Thursday 10:00 UTC.", project="acme").json()

    listed = body["similar_existing"]
    assert listed[0]["id"] == old.id
    assert sorted(entry["id"] for entry in listed[1:]) == sorted(memory.id for memory in others)
    assert body["hint"] == named_hint(old.id)


def test_in_a_store_of_one_memory_a_near_restatement_is_still_named(alice):
    """With one memory there is no sentence side to stand out from (its score is little more than
    the similarity): the distance alone names it."""
    old = make_memory(alice.user, "Deploy window is Monday 10:00 UTC.")

    body = remember(alice, "Deploy window is Friday 14:00 UTC (moved from Monday).").json()

    [entry] = body["similar_existing"]
    assert entry["id"] == old.id
    assert entry["score"] < search.LIKELY_PREDECESSOR_SCORE
    assert entry["distance"] <= search.LIKELY_PREDECESSOR_DISTANCE
    assert body["hint"] == named_hint(old.id)


@pytest.mark.parametrize(
    ("distance", "score", "named"),
    [
        (0.30, 0.0, True),  # the vectors alone
        (0.31, 3.49, False),
        (0.31, 3.5, True),  # near enough, and standing out from the other nearest memories
        (0.50, 3.5, True),
        (0.51, 50.0, False),  # too far to be the same fact however it stands out
    ],
)
def test_the_hint_names_the_first_entry_exactly_at_the_thresholds(distance, score, named):
    listed = [{"id": "mem_first", "distance": distance, "score": score}, {"id": "mem_second", "distance": 0.2}]

    hint = similar_hint(listed)

    assert hint == (named_hint("mem_first") if named else UNNAMED_HINT)


def test_distances_are_the_exact_cosine_distances(alice):
    others = [make_memory(alice.user, text) for text in ("Paris is in France", "The sky is blue", "Tea or coffee")]

    body = remember(alice, "Berlin is in Germany").json()

    new = Memory.objects.get(pk=body["memory"]["id"])
    expected = {m.id: 1 - float(np.dot(np.array(new.embedding), np.array(m.embedding))) for m in others}
    assert {entry["id"] for entry in body["similar_existing"]} == set(expected)
    similarities = sorted((1 - distance for distance in expected.values()), reverse=True)
    mean = sum(similarities) / 3
    for entry in body["similar_existing"]:
        assert abs(entry["distance"] - expected[entry["id"]]) < 1e-5
        # No word in common, one sentence each: the vector similarity, plus the sentence side's
        # weight times how far it stands above the mean of the three nearest.
        similarity = 1 - entry["distance"]
        distinct = max(0.0, similarity - mean)
        assert abs(entry["score"] - (similarity + search.DISTINCT_WEIGHT * distinct)) < 1e-4
    assert sum(1 for entry in body["similar_existing"] if entry["score"] > 1 - entry["distance"] + 1e-3) >= 1


def test_no_floor_an_unrelated_memory_is_still_shown(alice):
    unrelated = make_memory(alice.user, "My cat is called Miso")

    body = remember(alice, "Quarterly revenue grew 12%").json()

    assert [entry["id"] for entry in body["similar_existing"]] == [unrelated.id]


def test_capped_at_ten(alice):
    for n in range(12):
        make_memory(alice.user, f"Service number {n} runs on port {8000 + n}")

    body = remember(alice, "Service number 99 runs on port 9999").json()

    assert len(body["similar_existing"]) == 10


def test_only_own_live_memories_from_personal_scope_and_the_project_written_into(alice, bob, carol, acme):
    personal = make_memory(alice.user, "Deploys: I always run the smoke tests first")
    in_acme = make_memory(alice.user, "Acme deploys on Mondays", project=acme)
    elsewhere_project = ProjectFactory.create(slug="initech")
    from memories.services import membership_set

    membership_set(actor=None, via="tests", project=elsewhere_project, user=alice.user, role="member")
    make_memory(alice.user, "Initech deploys on Mondays", project=elsewhere_project)
    make_memory(bob.user, "Acme deploys on Mondays, says bob", project=acme)
    make_memory(carol.user, "Globex deploys on Mondays")
    retired = make_memory(alice.user, "Acme deploys on Sundays", project=acme)
    remember(alice, "Acme deploys on Saturdays", project="acme", links=supersedes(retired.id))

    body = remember(alice, "Acme deploys on Tuesdays now", project="acme").json()

    listed = {entry["id"] for entry in body["similar_existing"]}
    saturday = Memory.objects.get(content="Acme deploys on Saturdays").id
    assert listed == {personal.id, in_acme.id, saturday}
    assert body["memory"]["id"] not in listed


def test_a_personal_write_sees_only_the_personal_scope(alice, acme):
    personal = make_memory(alice.user, "I deploy on Mondays")
    make_memory(alice.user, "Acme deploys on Mondays", project=acme)

    body = remember(alice, "I deploy on Tuesdays now").json()

    assert [entry["id"] for entry in body["similar_existing"]] == [personal.id]


def test_an_absorbed_write_lists_neighbours_but_not_the_absorbing_memory(alice):
    neighbour = make_memory(alice.user, "The staging DB is db-2")
    first = remember(alice, "The staging DB is db-3").json()["memory"]

    body = remember(alice, "the staging db is DB-3").json()

    assert body["absorbed"] is True
    assert [entry["id"] for entry in body["similar_existing"]] == [neighbour.id]
    assert first["id"] not in body["hint"]


def test_the_list_is_the_exact_top_ten_among_hundreds(alice, acme):
    rng = random.Random(7)
    dims = 384
    rows = []
    for n in range(600):
        vector = np.array([rng.gauss(0, 1) for _ in range(dims)])
        vector /= np.linalg.norm(vector)
        rows.append(
            Memory(
                content=f"synthetic {n}",
                content_fingerprint=content_fingerprint(f"synthetic {n}"),
                owner=alice.user,
                project=acme if n % 3 else None,
                visibility="project" if n % 3 else "private",
                embedding=vector.tolist(),
                state=State.LIVE,
            )
        )
    Memory.objects.bulk_create(rows)
    query = np.array([rng.gauss(0, 1) for _ in range(dims)])
    query /= np.linalg.norm(query)

    found = similar_existing(
        user=alice.user, embedding=query.tolist(), text="a question about nothing", project=acme, exclude_ids=[]
    )

    exact = sorted(rows, key=lambda m: 1 - float(np.dot(query, np.array(m.embedding))))[:10]
    assert [item.memory.pk for item in found] == [m.pk for m in exact]


WORDS = [
    "deploy",
    "billing",
    "search",
    "invoice",
    "ledger",
    "postcard",
    "garden",
    "budget",
    "flight",
    "hotel",
    "kafka",
    "broker",
    "replica",
    "retention",
    "window",
    "standup",
    "oncall",
    "rotation",
    "coffee",
    "espresso",
    "dentist",
    "appointment",
    "renewal",
    "contract",
    "migration",
    "postgres",
    "redis",
    "cache",
    "timeout",
    "gateway",
    "checkout",
    "login",
    "seats",
    "plan",
    "tier",
    "region",
    "bucket",
]


def brute_force_top(user, project, text, query, exclude, limit=10, query_vectors=None):
    """SPEC R-N1's ranking recomputed row by row in Python: every live memory of the caller in
    the personal scope and ``project``, scored by memories.search's definition (vector, lexical
    and sentence sides)."""
    lexical = search.lexical_query(text, "default")
    weight = search.weight_for(lexical)
    terms = dict(zip(lexical.lexemes, lexical.idfs, strict=True)) if lexical else {}
    candidates = list(
        Memory.objects.filter(owner=user, state=State.LIVE)
        .filter(Q(project__isnull=True) | Q(project=project))
        .exclude(pk__in=exclude)
    )
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT id, length(search_vector), lexeme, coalesce(cardinality(positions), 1) "
            "FROM memories_memory, unnest(search_vector) WHERE owner_id = %s",
            [user.pk],
        )
        lexemes: dict[str, tuple[int, dict[str, int]]] = {}
        for pk, length, lexeme, count in cursor.fetchall():
            lexemes.setdefault(pk, (length, {}))[1][lexeme] = count
    # Each memory's vectors: its whole text's and its sentences'.
    vectors = {memory.pk: [np.array(memory.embedding)] for memory in candidates}
    for memory_id, embedding in MemorySentence.objects.filter(memory_id__in=list(vectors)).values_list(
        "memory_id", "embedding"
    ):
        vectors[memory_id].append(np.array(embedding))
    distinct: dict[str, float] = {}
    for vector in query_vectors if query_vectors is not None else [query]:
        best = sorted((-max(float(np.dot(vector, v)) for v in own), pk) for pk, own in vectors.items())[:3]
        mean = -sum(score for score, _ in best) / len(best)
        for score, pk in best:
            distinct[pk] = distinct.get(pk, 0.0) + max(0.0, -score - mean)
    scored = []
    for memory in candidates:
        distance = 1 - float(np.dot(query, np.array(memory.embedding)))
        length, counts = lexemes.get(memory.pk, (0, {}))
        share = 0.0
        if lexical is not None:
            matched = sum(
                idf * search.saturation(counts[lexeme], length, lexical.average_lexemes)
                for lexeme, idf in terms.items()
                if lexeme in counts
            )
            share = matched / lexical.self_score
        score = 1 - distance + weight * share + search.DISTINCT_WEIGHT * distinct.get(memory.pk, 0.0)
        scored.append((-score, distance, memory.pk))
    return [(pk, -score) for score, _, pk in sorted(scored)[:limit]]


def _unit(rng):
    vector = np.array([rng.gauss(0, 1) for _ in range(384)])
    return vector / np.linalg.norm(vector)


@pytest.mark.parametrize("text_words", [3, 12, 60])
def test_the_fused_list_is_the_exact_top_ten_under_its_own_ranking(alice, acme, text_words):
    """Vectors, sentence vectors and words drawn independently, so the three sides disagree
    everywhere and the threshold test has to work for its answer; checked against a
    row-by-row brute force. The long text has sentences of its own; a third of the memories
    have sentence rows, some of them near the query's sentences."""
    rng = random.Random(text_words)
    rows = []
    for n in range(400):
        content = " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 40))) + f" n{n}"
        rows.append(
            Memory(
                content=content,
                content_fingerprint=content_fingerprint(content),
                owner=alice.user,
                project=acme if n % 3 else None,
                visibility="project" if n % 3 else "private",
                embedding=_unit(rng).tolist(),
            )
        )
    Memory.objects.bulk_create(rows)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memories_memory")
    search.forget_lexical_stats()
    query = _unit(rng)
    text = " ".join(rng.choice(WORDS) for _ in range(text_words))
    query_sentences = [_unit(rng) for _ in range(4)] if text_words == 60 else []
    wanted = query_sentences or [query]
    sentence_rows = {}
    for n, row in enumerate(rows):
        if n % 3 == 0:
            found = [_unit(rng) for _ in range(rng.randint(2, 5))]
            if n % 9 == 0:  # near one of the query's sentences, by varying amounts
                nudge = wanted[n % len(wanted)] * rng.uniform(0.2, 0.9) + found[0]
                found[0] = nudge / np.linalg.norm(nudge)
            sentence_rows[row.pk] = [vector.tolist() for vector in found]
    memory_sentences_store(vectors_by_memory=sentence_rows)
    excluded = [rows[0].pk, rows[1].pk]

    def listed(excluded):
        return similar_existing(
            user=alice.user,
            embedding=query.tolist(),
            text=text,
            project=acme,
            exclude_ids=excluded,
            sentence_vectors=[vector.tolist() for vector in query_sentences],
        )

    found = listed(excluded)

    expected = brute_force_top(alice.user, acme, text, query, excluded, query_vectors=wanted)
    assert [item.memory.pk for item in found] == [pk for pk, _ in expected]
    for item, (_, score) in zip(found, expected, strict=True):
        assert abs(item.score - score) < 1e-4
    assert any(item.score > 1 - item.distance + 1e-6 for item in found)  # the other sides took part
    # The same shape again (its compiled SQL is reused) with other ids excluded: they bind anew.
    excluded = [found[0].memory.pk, found[3].memory.pk]
    again = listed(excluded)
    expected = brute_force_top(alice.user, acme, text, query, excluded, query_vectors=wanted)
    assert [item.memory.pk for item in again] == [pk for pk, _ in expected]
    search.forget_lexical_stats()


def test_a_long_statement_finds_its_predecessor_by_its_rare_words(alice):
    """A long, chatty turn whose embedding is an average of several topics still finds the
    earlier turn about the same thing: the rare words they share carry it."""
    make_memory(alice.user, "Can you suggest a good recipe for a weeknight pasta? I have basil and tomatoes.")
    make_memory(alice.user, "What are the best trails for a day hike near the coast in autumn?")
    old = make_memory(
        alice.user,
        "By the way, I've added 17 new postcards to my collection since I started collecting again, "
        "mostly vintage ones from flea markets.",
    )
    make_memory(alice.user, "I need to renew my passport before the trip in March, what documents do I need?")

    body = remember(
        alice,
        "I'm really excited to host the collectors' gathering next month and share my passion with "
        "like-minded people. Speaking of which, I just realized I've added 25 new postcards to my "
        "collection since I started collecting again. Any tips for displaying them on a wall?",
    ).json()

    assert body["similar_existing"][0]["id"] == old.id


def test_words_the_statistics_put_in_every_memory_tell_nothing_and_break_nothing(alice):
    """A small store, freshly analysed: every lexeme of the question is in every memory, so
    PostgreSQL's statistics give each a share of 1 and an idf of 0. The lexical side steps
    aside (it used to divide by a self-score of 0: a 500 from recall and remember)."""
    for when in ("at noon", "on Friday", "after the freeze"):
        make_memory(alice.user, f"deploy window {when}")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memories_memory")
    search.forget_lexical_stats()
    stats = search.lexical_stats("default")

    recalled = alice.client.post("/api/v1/recall/", {"query": "deploy window"}, format="json")
    written = remember(alice, "deploy window today")

    assert stats.frequency("deploy") == 1.0
    assert [recalled.status_code, written.status_code] == [200, 201]
    assert len(recalled.json()["results"]) == 3
    assert len(written.json()["similar_existing"]) == 3
    assert search.lexical_query("deploy window", "default") is None
    search.forget_lexical_stats()


@pytest.mark.parametrize(
    "literal",
    [
        "to_tsvector('english', 'Deploys now happen on Friday 14:00 UTC; deploy, deploy, DEPLOY! café O''Neil')",
        "to_tsvector('english', repeat('backup ', 400) || 'ZX-81 v2.3.1 https://acme.example/a?b=c')",
        "$$'it''s' 'back\\\\slash':1,2 'plain' 'weighted':3A,4B$$::tsvector",
    ],
)
def test_a_stored_vector_read_in_python_gives_the_lexemes_postgresql_gives(db, literal):
    """A write ranks with the lexemes of its INSERT's returned search_vector, parsed in Python,
    instead of asking PostgreSQL for them again: both must agree exactly."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT ({literal})::text")
        (text,) = cursor.fetchone()
        cursor.execute(f"SELECT lexeme, coalesce(cardinality(positions), 1) FROM unnest({literal})")
        expected = dict(cursor.fetchall())

    assert search.tsvector_counts(text) == expected


def test_a_write_ranks_with_the_lexemes_of_its_stored_vector(alice, acme):
    make_memory(alice.user, "The ZX-81 ticket tracks the billing outage.", project=acme)
    content = "ZX-81: billing is back after the outage"

    body = remember(alice, content, project="acme").json()

    stored = Memory.objects.get(pk=body["memory"]["id"]).search_vector
    assert search.tsvector_counts(stored) == search.text_lexemes(content, "default")
    assert len(body["similar_existing"]) == 1
