"""POST /api/v1/recall/ (R-O1): hybrid search over what the caller may see."""

from __future__ import annotations

import random
import time

import numpy as np
import pytest
from django.db import connection
from django.utils import timezone
from pgvector.django import CosineDistance

from memories import recall as recall_module
from memories import search
from memories.choices import Visibility
from memories.models import Memory
from memories.search import _lexical  # its thresholds, patched
from memories.text import content_fingerprint
from tests.factories import make_memory
from tests.helpers import remember, supersedes

RECALL = "/api/v1/recall/"


def recall(persona, query, **options):
    return persona.client.post(RECALL, {"query": query, **options}, format="json")


def ids(response):
    return [hit["memory"]["id"] for hit in response.json()["results"]]


def test_the_nearest_memory_comes_first_with_distance_and_score(alice):
    deploy = make_memory(alice.user, "The deploy window is Friday 14:00 UTC")
    make_memory(alice.user, "My favourite tea is sencha")

    response = recall(alice, "When can we deploy?")

    assert response.status_code == 200
    first = response.json()["results"][0]
    assert first["memory"]["id"] == deploy.id
    assert set(first) == {"memory", "distance", "score"}
    assert 0 <= first["distance"] < 1
    assert first["score"] > 0


def test_only_visible_live_memories_unless_superseded_are_asked_for(alice, bob, carol, acme):
    old = make_memory(alice.user, "Acme's VPN is vpn1.acme.io", project=acme)
    new = remember(alice, "Acme's VPN is vpn2.acme.io", project="acme", links=supersedes(old.id)).json()["memory"]
    forgotten = make_memory(alice.user, "Acme's VPN password rotates monthly", project=acme)
    alice.client.post(f"/api/v1/memories/{forgotten.id}/forget/", {}, format="json")
    make_memory(alice.user, "alice's private VPN note", project=acme, visibility=Visibility.PRIVATE)
    make_memory(carol.user, "Globex VPN is vpn.globex.com")

    bob_sees = ids(recall(bob, "VPN address"))
    with_history = ids(recall(bob, "VPN address", include_superseded=True))

    assert bob_sees == [new["id"]]
    assert set(with_history) == {new["id"], old.id}
    carol_sees = ids(recall(carol, "acme VPN"))
    assert len(carol_sees) == 1  # only her own Globex memory
    assert Memory.objects.get(pk=carol_sees[0]).owner == carol.user


def test_project_means_that_project_plus_the_personal_scope(alice, acme):
    from memories.services import membership_set, project_create

    other, _ = project_create(actor=None, via="tests", slug="initech")
    membership_set(actor=None, via="tests", project=other, user=alice.user, role="member")
    personal = make_memory(alice.user, "I review deploys on Fridays")
    in_acme = make_memory(alice.user, "Acme deploys on Fridays", project=acme)
    make_memory(alice.user, "Initech deploys on Fridays", project=other)

    assert set(ids(recall(alice, "deploys", project="acme"))) == {personal.id, in_acme.id}


def test_kinds_filter(alice):
    task = make_memory(alice.user, "Deploy the hotfix", kind="task")
    make_memory(alice.user, "Deploys are on Fridays")

    assert ids(recall(alice, "deploy", kinds=["task"])) == [task.id]


def test_limit_is_always_honoured_when_enough_memories_exist(alice):
    for n in range(25):
        make_memory(alice.user, f"Unrelated note number {n} about gardening")

    assert len(ids(recall(alice, "quantum chromodynamics", limit=20))) == 20
    assert len(ids(recall(alice, "quantum chromodynamics"))) == 10


@pytest.mark.parametrize("limit", [0, 51, "ten"])
def test_limit_outside_1_to_50_is_a_400(alice, limit):
    response = recall(alice, "anything", limit=limit)

    assert response.status_code == 400
    assert "limit" in response.json()["error"]["fields"]


def test_bad_input_is_a_400(alice):
    assert recall(alice, "").status_code == 400
    assert recall(alice, "x", kinds=["rumour"]).status_code == 400
    assert recall(alice, "x", as_of="yesterday").status_code == 400


def test_a_project_the_caller_is_not_in_is_a_404(alice, carol):
    response = recall(alice, "anything", project="globex")

    assert (response.status_code, response.json()["error"]["code"]) == (404, "project_not_found")


def test_an_exact_identifier_is_found_by_the_text_side(alice):
    target = make_memory(alice.user, "Error ZX-4471 means the upstream ledger rejected the batch")
    for n in range(40):
        make_memory(alice.user, f"Error handling note {n}: the upstream ledger rejected a batch once")

    assert ids(recall(alice, "ZX-4471", limit=3))[0] == target.id


def test_as_of_answers_as_the_store_stood_then(alice):
    old = make_memory(alice.user, "The on-call lead is Ana")
    time.sleep(0.05)
    before_change = timezone.now()
    time.sleep(0.05)
    new = remember(alice, "The on-call lead is Bilal", links=supersedes(old.id)).json()["memory"]

    then = ids(recall(alice, "on-call lead", as_of=before_change.isoformat()))
    then_all = ids(recall(alice, "on-call lead", as_of=before_change.isoformat(), include_superseded=True))
    now = ids(recall(alice, "on-call lead"))

    assert then == [old.id]
    assert then_all == [old.id]  # the successor did not exist yet
    assert now == [new["id"]]


def test_as_of_sees_a_restored_memory_as_retired_in_between(alice):
    memory = make_memory(alice.user, "The build cache is on NFS")
    alice.client.post(f"/api/v1/memories/{memory.id}/forget/", {}, format="json")
    time.sleep(0.05)
    in_between = timezone.now()
    time.sleep(0.05)
    alice.client.post(f"/api/v1/memories/{memory.id}/restore/", {}, format="json")

    assert ids(recall(alice, "build cache", as_of=in_between.isoformat())) == []
    assert ids(recall(alice, "build cache")) == [memory.id]


def test_recall_at_10_equals_an_exact_scan_on_thousands_of_memories(alice, acme, monkeypatch):
    rng = np.random.default_rng(11)
    centers = rng.normal(size=(50, 384))
    vectors = centers[rng.integers(0, 50, 3000)] + 0.5 * rng.normal(size=(3000, 384))
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    rows = [
        Memory(
            content=f"synthetic record {n}",
            content_fingerprint=content_fingerprint(f"synthetic record {n}"),
            owner=alice.user,
            project=acme if n % 2 else None,
            visibility="project" if n % 2 else "private",
            kind=random.Random(n).choice(["fact", "decision"]),
            embedding=vector.tolist(),
        )
        for n, vector in enumerate(vectors)
    ]
    Memory.objects.bulk_create(rows)
    hits = 0
    for query_number in range(20):
        query = centers[query_number] + 0.5 * rng.normal(size=384)
        query /= np.linalg.norm(query)
        monkeypatch.setattr(recall_module, "embed_one", lambda text, q=query: q.tolist())
        found = ids(recall(alice, "zzqx nothing matches this text", kinds=["fact"], project="acme"))
        eligible = [(1 - float(np.dot(query, vectors[n])), rows[n].pk) for n in range(3000) if rows[n].kind == "fact"]
        exact = [pk for _, pk in sorted(eligible)[:10]]
        hits += len(set(found) & set(exact))
        assert len(found) == 10
    assert hits / 200 >= 0.98


def test_a_short_iterative_index_scan_falls_back_to_an_exact_scan(alice):

    from memories.search import vector_ranking

    rng = np.random.default_rng(3)
    query = rng.normal(size=384)
    query /= np.linalg.norm(query)
    rows = []
    for n in range(400):
        far = n % 40 == 0  # 10 tasks, all pointing away from the query
        vector = (-query if far else query) + 0.3 * rng.normal(size=384)
        vector /= np.linalg.norm(vector)
        content = f"vector row {n}"
        rows.append(
            Memory(
                content=content,
                content_fingerprint=content_fingerprint(content),
                owner=alice.user,
                visibility="private",
                kind="task" if far else "fact",
                loop_status="open" if far else None,
                embedding=vector.tolist(),
            )
        )
    Memory.objects.bulk_create(rows)
    tasks = Memory.objects.filter(kind="task")
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL hnsw.max_scan_tuples = 50")  # the index gives up early
        cursor.execute("SET LOCAL enable_seqscan = off")  # and is the planner's choice
        cursor.execute("SET LOCAL hnsw.iterative_scan = strict_order")
        cursor.execute("SET LOCAL hnsw.ef_search = 10")
        index_alone = list(tasks.annotate(d=CosineDistance("embedding", query.tolist())).order_by("d")[:10])

    found = vector_ranking(tasks, query.tolist(), 10, user=alice.user, exact=False)

    assert len(index_alone) < 10  # what an index scan alone would silently answer
    assert sorted(pk for pk, _ in found) == sorted(tasks.values_list("pk", flat=True))


def test_the_vector_side_sends_its_hnsw_search_settings_with_its_statement(alice):
    """Not on the connection (a transaction pooler drops startup options): in the statement's
    own message, memories.statement_settings."""
    from memories.search import vector_ranking

    sent: list[str] = []

    def capture(execute, sql, params, many, context):
        sent.append(sql)
        return execute(sql, params, many, context)

    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('hnsw.ef_search', true), current_setting('jit')")
        outside = cursor.fetchone()
    with connection.execute_wrapper(capture):
        vector_ranking(Memory.objects.all(), [1.0] * 384, 10, user=alice.user, exact=False)

    assert outside in {(None, "off"), ("40", "off")}  # pgvector's default; jit still on the connection
    # The walk, then (an empty store: it came back short) the exact scan by the ways alice sees
    # memories (visible_parts: her member projects read first).
    assert len(sent) == 3
    assert "memories_membership" in sent[1]
    assert not sent[2].startswith("SELECT set_config")
    assert sent[0].startswith(
        "SELECT set_config('hnsw.ef_search', '400', true), set_config('hnsw.iterative_scan', 'strict_order', true); "
    )


def test_words_common_in_the_store_are_left_to_the_vector_side(alice, monkeypatch):
    for n in range(12):
        make_memory(alice.user, f"The billing service note number {n} mentions ledger {1000 + n}.")
    make_memory(alice.user, "Ticket ZX-81 is about the billing service.")
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memories_memory")
    monkeypatch.setattr(_lexical, "COMMON_LEXEME_MIN_ROWS", 5)
    monkeypatch.setattr(_lexical, "COMMON_LEXEME_SHARE", 0.5)
    search.forget_lexical_stats()

    stats = search.lexical_stats("default")
    common = {lexeme for lexeme in stats.frequencies if stats.common(lexeme)}
    query = search.lexical_query("billing service ticket ZX-81", "default")
    only_common = search.lexical_query("the billing service", "default")
    response = recall(alice, "billing service ticket ZX-81")

    assert {"bill", "servic"} <= common
    assert "ticket" not in common
    assert query is not None
    assert "bill" not in query.lexemes
    assert "ticket" in query.lexemes
    assert only_common is None
    assert response.status_code == 200
    assert response.json()["results"][0]["memory"]["content"] == "Ticket ZX-81 is about the billing service."
    assert len(response.json()["results"]) == 10
    search.forget_lexical_stats()


def test_the_planners_estimates_for_the_vector_side_are_kept_a_minute_per_caller(alice, bob, acme):
    """recall's vector side chooses between the HNSW walk and the exact scan from the planner's
    estimates (memories.search.walk_is_cheaper): one EXPLAIN, about 3 ms, which an agent that
    recalls again and again pays once a minute, not on every recall; another caller pays its own."""
    from django.test.utils import CaptureQueriesContext

    from memories import recall as recall_module

    search.forget_estimates()
    make_memory(alice.user, "The billing service runs on Postgres 16.", project=acme)

    def explains(persona: object, query: str) -> int:
        with CaptureQueriesContext(connection) as ctx:
            recall_module.recall(user=persona.user, query=query)  # type: ignore[attr-defined]
        return sum(entry["sql"].startswith("EXPLAIN") for entry in ctx.captured_queries)

    assert explains(alice, "Which database does billing use?") == 1
    assert explains(alice, "What runs the billing service?") == 0
    assert explains(bob, "What runs the billing service?") == 1
