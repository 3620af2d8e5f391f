"""POST /api/v1/memories/batch/: many remember bodies in one request, each answered as it would
be alone; all or nothing with "atomic": true; one embedding call; Idempotency-Key; rate limit."""

from __future__ import annotations

from typing import Any

import pytest

from memories import embedding
from memories.agent import contract
from memories.choices import State
from memories.models import Memory, MemorySentence
from tests.factories import make_memory
from tests.helpers import assert_documented, remember, store_snapshot, supersedes

BATCH = "/api/v1/memories/batch/"


def batch(persona, items, **options):
    return persona.client.post(BATCH, {"items": items, **options}, format="json")


def test_each_item_is_answered_as_it_would_be_alone_in_item_order(alice, acme):
    existing = make_memory(alice.user, "The staging database is db-1.", project=acme)
    restated_id = remember(alice, "Alice prefers sencha tea.").json()["memory"]["id"]

    response = batch(
        alice,
        [
            {"content": "The billing service deploys on Tuesdays.", "project": "acme"},
            {"content": "Alice prefers sencha tea."},
            {"content": "A rumour.", "kind": "gossip"},
            {"content": "Globex pays net 30.", "project": "globex"},
            {"content": "The staging database is db-2.", "project": "acme", "links": supersedes(existing.id)},
        ],
    )

    assert response.status_code == 200
    results = response.json()["results"]
    assert [result["status"] for result in results] == [201, 200, 400, 404, 201]
    assert results[0]["memory"]["content"] == "The billing service deploys on Tuesdays."
    assert set(results[0]) == {"status", "memory", "absorbed", "superseded", "skipped", "similar_existing"} | (
        {"hint"} if results[0]["similar_existing"] else set()
    )
    assert results[1]["absorbed"] is True
    assert results[1]["memory"]["id"] == restated_id
    assert results[2]["error"]["code"] == "invalid"
    assert "kind" in results[2]["error"]["fields"]
    assert results[3]["error"] == {"code": "project_not_found", "message": "Project 'globex' not found."}
    assert results[4]["superseded"] == [existing.id]
    existing.refresh_from_db()
    assert existing.state == State.SUPERSEDED
    assert existing.superseded_by_id == results[4]["memory"]["id"]
    assert Memory.objects.filter(content="A rumour.").count() == 0
    assert_documented(response, "post", "/api/v1/memories/batch/")


def test_an_item_answers_what_the_same_remember_alone_answers(alice, bob, acme):
    target = make_memory(alice.user, "Acme's VPN host is vpn1.acme.io.", project=acme)
    item: dict[str, Any] = {
        "content": "Acme's VPN host is vpn2.acme.io.",
        "project": "acme",
        "links": supersedes(target.id),
    }
    before = store_snapshot()

    in_batch = batch(bob, [item]).json()["results"][0]
    assert store_snapshot() == before  # refused: nothing changed
    alone = bob.client.post("/api/v1/memories/", item, format="json")

    assert in_batch["status"] == alone.status_code == 403
    assert {"status": in_batch["status"], **alone.json()} == in_batch


def test_atomic_batch_stores_all_or_nothing(alice, acme):
    old = make_memory(alice.user, "The deploy window is Monday.", project=acme)
    good = [
        {"content": "The deploy window is Friday.", "project": "acme", "links": supersedes(old.id)},
        {"content": "Rotate the audit keys.", "kind": "task"},
    ]
    before = store_snapshot()

    refused = batch(alice, [*good, {"content": "Globex pays net 30.", "project": "globex"}], atomic=True)

    assert refused.status_code == 404
    assert refused.json()["error"]["code"] == "project_not_found"
    assert refused.json()["error"]["fields"] == {"items[2]": ["Project 'globex' not found."]}
    assert store_snapshot() == before
    invalid = batch(alice, [*good, {"content": ""}], atomic=True)
    assert invalid.status_code == 400
    assert list(invalid.json()["error"]["fields"]) == ["items[2].content"]
    assert store_snapshot() == before

    stored = batch(alice, good, atomic=True)

    assert stored.status_code == 200
    assert [result["status"] for result in stored.json()["results"]] == [201, 201]
    old.refresh_from_db()
    assert old.state == State.SUPERSEDED


def test_the_batch_is_embedded_in_one_call(alice, monkeypatch):
    embedder = embedding.get_embedder()
    calls = []
    original = embedder.embed

    def counting(texts):
        calls.append(list(texts))
        return original(texts)

    monkeypatch.setattr(embedder, "embed", counting)
    long_turn = (
        "Hi! Thanks for the help yesterday. By the way, my team now has twelve engineers. "
        "Can you suggest a standup format?"
    )

    results = batch(
        alice, [{"content": f"Fact number {n} about the ledger."} for n in range(5)] + [{"content": long_turn}]
    )

    assert [result["status"] for result in results.json()["results"]] == [201] * 6
    assert len(calls) == 1
    assert len(calls[0]) == 6 + 4  # the six texts and the long one's four sentences
    stored = Memory.objects.get(content=long_turn)
    assert MemorySentence.objects.filter(memory=stored).count() == 4


def test_idempotency_key_replays_the_batch(alice):
    items = [{"content": "The ledger closes on the 5th."}, {"content": "The ledger is in Postgres."}]
    first = alice.client.post(BATCH, {"items": items}, format="json", HTTP_IDEMPOTENCY_KEY="batch-1")
    after_first = store_snapshot()

    again = alice.client.post(BATCH, {"items": items}, format="json", HTTP_IDEMPOTENCY_KEY="batch-1")
    other = alice.client.post(BATCH, {"items": items[:1]}, format="json", HTTP_IDEMPOTENCY_KEY="batch-1")

    assert again.status_code == 200
    assert again.json() == first.json()
    assert store_snapshot() == after_first
    assert other.status_code == 422
    assert other.json()["error"]["code"] == "idempotency_key_reused"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"items": []}, "items"),
        ({"items": [{"content": "x"}] * (contract.MAX_BATCH_ITEMS + 1)}, "items"),
        ({"items": {"content": "x"}}, "items"),
        ({"items": [{"content": "x"}], "atomic": "sometimes"}, "atomic"),
    ],
)
def test_a_malformed_batch_answers_400_and_changes_nothing(alice, settings, body, field):
    settings.RATE_LIMIT_PER_MINUTE = 0
    before = store_snapshot()

    response = alice.client.post(BATCH, body, format="json")

    assert response.status_code == 400
    assert field in response.json()["error"]["fields"]
    assert store_snapshot() == before


def test_each_item_counts_against_the_rate_limit(alice, settings):
    settings.RATE_LIMIT_PER_MINUTE = 5
    before = store_snapshot()

    refused = batch(alice, [{"content": f"Note {n}."} for n in range(8)])

    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "rate_limited"
    assert int(refused["Retry-After"]) >= 1
    assert store_snapshot() == before
    assert batch(alice, [{"content": f"Note {n}."} for n in range(4)]).status_code == 200
    assert batch(alice, [{"content": "One more."}]).status_code == 429  # 1 + 4 of 5 spent


def test_carol_cannot_write_into_alices_project_nor_retire_her_memories(alice, carol, acme):
    private = make_memory(alice.user, "Alice's locker code is 1234.")
    before = store_snapshot()

    results = batch(
        carol,
        [
            {"content": "Acme uses Kafka.", "project": "acme"},
            {"content": "Alice's locker code is 9999.", "links": supersedes(private.id)},
        ],
    ).json()["results"]

    assert [result["status"] for result in results] == [404, 403]
    assert results[1]["error"]["code"] == "supersede_target_forbidden"
    assert "1234" not in results[1]["error"]["message"]
    assert store_snapshot() == before
