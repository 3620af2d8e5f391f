"""GET /api/v1/memories/{id}/ (R-O5) and the feed GET /api/v1/memories/ (R-O7)."""

from __future__ import annotations

from memories.choices import Visibility
from tests.factories import make_memory


def test_detail_returns_the_memory(alice, acme):
    memory = make_memory(alice.user, "The staging database is db-2.", project=acme)

    response = alice.client.get(f"/api/v1/memories/{memory.id}/")

    assert response.status_code == 200
    assert response.json()["id"] == memory.id
    assert response.json()["content"] == "The staging database is db-2."


def test_missing_malformed_and_invisible_memories_answer_the_same_404(alice, carol, acme):
    private = make_memory(alice.user, "alice's own note", project=acme, visibility=Visibility.PRIVATE)
    missing = "mem_01J00000000000000000000000"

    answers = [carol.client.get(f"/api/v1/memories/{memory_id}/") for memory_id in (private.id, missing, "not-an-id")]

    assert [answer.status_code for answer in answers] == [404, 404, 404]
    bodies = [answer.json()["error"] for answer in answers]
    assert {body["code"] for body in bodies} == {"not_found"}
    assert "alice's own note" not in str(bodies)


def test_feed_is_newest_first_and_cursor_paginated(alice, acme):
    ids = [make_memory(alice.user, f"Fact number {n} about the billing service", project=acme).id for n in range(5)]

    first = alice.client.get("/api/v1/memories/?limit=2").json()
    second = alice.client.get(first["next"]).json()
    third = alice.client.get(second["next"]).json()

    assert [m["id"] for m in first["results"]] == ids[::-1][:2]
    assert [m["id"] for m in second["results"]] == ids[::-1][2:4]
    assert [m["id"] for m in third["results"]] == ids[::-1][4:]
    assert third["next"] is None


def test_feed_filters_by_kind_project_and_text(alice, acme):
    make_memory(alice.user, "Personal: I prefer tabs", kind="preference")
    in_project = make_memory(alice.user, "Acme deploys on Fridays", project=acme)
    task = make_memory(alice.user, "Write the Acme postmortem", kind="task", project=acme)

    by_kind = alice.client.get("/api/v1/memories/?kind=task").json()["results"]
    by_project = alice.client.get("/api/v1/memories/?project=acme").json()["results"]
    by_text = alice.client.get("/api/v1/memories/?q=fridays").json()["results"]

    assert [m["id"] for m in by_kind] == [task.id]
    assert [m["id"] for m in by_project] == [task.id, in_project.id]
    assert [m["id"] for m in by_text] == [in_project.id]


def test_feed_shows_only_what_the_caller_may_see(alice, bob, carol, acme):
    shared = make_memory(alice.user, "Acme's on-call rota is weekly", project=acme)
    make_memory(alice.user, "alice's private acme note", project=acme, visibility=Visibility.PRIVATE)
    make_memory(alice.user, "alice's personal note")

    assert [m["id"] for m in bob.client.get("/api/v1/memories/").json()["results"]] == [shared.id]
    assert carol.client.get("/api/v1/memories/").json()["results"] == []
    assert len(alice.client.get("/api/v1/memories/").json()["results"]) == 3


def test_feed_rejects_bad_filters(alice, carol):
    assert alice.client.get("/api/v1/memories/?state=dead").status_code == 400
    assert alice.client.get("/api/v1/memories/?kind=rumour").status_code == 400
    response = alice.client.get("/api/v1/memories/?project=globex")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "project_not_found"


def test_feed_defaults_to_live_and_offers_other_states(alice):
    live = make_memory(alice.user, "Current fact")

    assert [m["id"] for m in alice.client.get("/api/v1/memories/").json()["results"]] == [live.id]
    assert alice.client.get("/api/v1/memories/?state=forgotten").json()["results"] == []
    assert [m["id"] for m in alice.client.get("/api/v1/memories/?state=all").json()["results"]] == [live.id]
