"""GET /api/v1/memories/{id}/history/ (R-O6)."""

from __future__ import annotations

from memories.choices import Visibility
from tests.factories import make_memory
from tests.helpers import remember, supersedes


def history(persona, memory_id):
    return persona.client.get(f"/api/v1/memories/{memory_id}/history/")


def test_the_whole_chain_from_any_version_oldest_first(alice):
    v1 = make_memory(alice.user, "The API limit is 10/s")
    v2 = remember(alice, "The API limit is 20/s", links=supersedes(v1.id)).json()["memory"]["id"]
    v3 = remember(alice, "The API limit is 50/s", links=supersedes(v2)).json()["memory"]["id"]
    make_memory(alice.user, "An unrelated fact")

    answers = [history(alice, memory_id).json() for memory_id in (v1.id, v2, v3)]

    for answer in answers:
        assert [v["id"] for v in answer["versions"]] == [v1.id, v2, v3]
        assert answer["head"] == v3
        assert [(e["src"], e["dst"], e["origin"]) for e in answer["edges"]] == [
            (v2, v1.id, "declared"),
            (v3, v2, "declared"),
        ]
    assert answers[0]["versions"][0]["state"] == "superseded"


def test_merges_are_part_of_the_chain(alice):
    a = make_memory(alice.user, "Rate limit is 100/min")
    b = make_memory(alice.user, "Burst limit is 20")
    merged = remember(alice, "Limits: 100/min, bursts of 20", links=supersedes(a.id, b.id)).json()["memory"]["id"]

    answer = history(alice, a.id).json()

    assert {v["id"] for v in answer["versions"]} == {a.id, b.id, merged}
    assert answer["head"] == merged


def test_a_lone_memory_is_its_own_history(alice):
    memory = make_memory(alice.user, "Just one version")

    answer = history(alice, memory.id).json()

    assert answer == {"head": memory.id, "versions": [answer["versions"][0]], "edges": []}
    assert answer["versions"][0]["id"] == memory.id


def test_head_is_null_when_no_version_is_live(alice):
    v1 = make_memory(alice.user, "Old")
    v2 = remember(alice, "New", links=supersedes(v1.id)).json()["memory"]["id"]
    alice.client.post(f"/api/v1/memories/{v2}/forget/", {}, format="json")

    assert history(alice, v1.id).json()["head"] is None


def test_versions_the_caller_cannot_see_are_omitted(alice, bob, dave, acme):
    private_v1 = make_memory(alice.user, "Draft: ship in May", project=acme, visibility=Visibility.PRIVATE)
    public_v2 = remember(alice, "We ship in June", project="acme", links=supersedes(private_v1.id)).json()["memory"]

    answer = history(bob, public_v2["id"]).json()

    assert [v["id"] for v in answer["versions"]] == [public_v2["id"]]
    assert answer["edges"] == []  # the edge would reveal the hidden id
    assert private_v1.id not in str(answer)


def test_history_of_an_invisible_or_missing_memory_is_404(alice, carol):
    secret = make_memory(carol.user, "carol's secret")

    assert history(alice, secret.id).status_code == 404
    assert history(alice, "mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2T").status_code == 404
