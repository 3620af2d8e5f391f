"""forget (R-O2) and restore_memory (R-O3)."""

from __future__ import annotations

import pytest

from memories.models import Link, Memory, MemoryEvent
from tests.factories import make_memory
from tests.helpers import remember, store_snapshot, supersedes


def forget(persona, memory_id, **body):
    return persona.client.post(f"/api/v1/memories/{memory_id}/forget/", body, format="json")


def restore(persona, memory_id):
    return persona.client.post(f"/api/v1/memories/{memory_id}/restore/", {}, format="json")


def test_forget_retires_without_a_successor_and_is_idempotent(alice):
    memory = make_memory(alice.user, "The office is on floor 3")

    first = forget(alice, memory.id, reason="We moved")
    second = forget(alice, memory.id)

    assert first.status_code == 200
    body = first.json()
    assert body["id"] == memory.id
    assert body["state"] == "forgotten"
    assert body["superseded_by"] is None
    assert body["invalidated_at"] is not None
    assert second.status_code == 200
    assert second.json() == body
    events = list(MemoryEvent.objects.filter(memory=memory).values_list("action", "reason"))
    assert events == [("created", ""), ("forgotten", "We moved")]


def test_forget_closes_an_open_loop_without_a_successor(alice):
    task = make_memory(alice.user, "Renew the TLS certificate", kind="task")

    body = forget(alice, task.id).json()

    assert (body["loop_status"], body["closed_by"]) == ("closed", None)
    assert body["closed_at"] == body["invalidated_at"]


def test_forgetting_a_superseded_memory_is_a_409(alice):
    old = make_memory(alice.user, "v1 of the fact")
    remember(alice, "v2 of the fact", links=supersedes(old.id))
    before = store_snapshot()

    response = forget(alice, old.id)

    assert response.status_code == 409
    assert response.json()["error"]["code"] == "not_live"
    assert store_snapshot() == before


@pytest.mark.parametrize(("who", "expected"), [("alice", 200), ("bob", 403), ("carol", 404), ("dave", 200)])
def test_forget_persona_matrix_on_a_project_memory(alice, bob, carol, dave, acme, who, expected):
    memory = make_memory(alice.user, "Acme's standup is at 09:30", project=acme)
    persona = {"alice": alice, "bob": bob, "carol": carol, "dave": dave}[who]
    before = store_snapshot()

    response = forget(persona, memory.id)

    assert response.status_code == expected
    if expected != 200:
        assert response.json()["error"]["code"] == {403: "forbidden", 404: "not_found"}[expected]
        assert store_snapshot() == before


def test_forget_and_restore_of_a_missing_memory_are_404(alice):
    for call in (forget, restore):
        response = call(alice, "mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2T")
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "not_found"


@pytest.mark.parametrize("action", ["forget", "restore"])
@pytest.mark.parametrize("malformed", ["mem_%00", "nonsense", "mem_01M8X9363CEB8BBW9V2HBHKZ9P%00"])
def test_forget_and_restore_of_a_malformed_id_are_404(alice, action, malformed):
    # A NUL byte reached PostgreSQL, which refused the query: 503 database_unavailable.
    response = alice.client.post(f"/api/v1/memories/{malformed}/{action}/", {}, format="json")

    assert (response.status_code, response.json()["error"]["code"]) == (404, "not_found")


def test_restore_after_a_declared_supersede(alice):
    task = make_memory(alice.user, "Migrate the billing DB", kind="task")
    successor = remember(alice, "Billing DB migrated to PG 18", links=supersedes(task.id)).json()["memory"]

    response = restore(alice, task.id)

    assert response.status_code == 200
    body = response.json()
    assert body["state"] == "live"
    assert (body["superseded_by"], body["invalidated_at"]) == (None, None)
    assert (body["loop_status"], body["closed_by"], body["closed_at"]) == ("open", None, None)
    link = Link.objects.get(src_id=successor["id"], dst=task)
    assert link.reverted is True
    assert link.reverted_at is not None
    assert Memory.objects.get(pk=successor["id"]).state == "live"  # the successor is untouched
    assert MemoryEvent.objects.filter(memory=task).latest("id").action == "restored"
    history = alice.client.get(f"/api/v1/memories/{task.id}/history/").json()
    assert [(e["id"], e["reverted"]) for e in history["edges"]] == [(link.pk, True)]


def test_restore_after_a_forget_reopens_the_loop(alice):
    question = make_memory(alice.user, "Do we need a second region?", kind="open-question")
    forget(alice, question.id)

    body = restore(alice, question.id).json()

    assert (body["state"], body["loop_status"], body["closed_at"]) == ("live", "open", None)


def test_restore_is_idempotent_on_a_live_memory(alice):
    memory = make_memory(alice.user, "Still true")
    before = store_snapshot()

    response = restore(alice, memory.id)

    assert response.status_code == 200
    assert response.json()["state"] == "live"
    assert store_snapshot() == before


@pytest.mark.parametrize(("who", "expected"), [("bob", 403), ("carol", 404), ("dave", 200)])
def test_restore_persona_matrix(alice, bob, carol, dave, acme, who, expected):
    memory = make_memory(alice.user, "Acme's retro is on Fridays", project=acme)
    forget(alice, memory.id)
    persona = {"bob": bob, "carol": carol, "dave": dave}[who]
    before = store_snapshot()

    response = restore(persona, memory.id)

    assert response.status_code == expected
    if expected != 200:
        assert store_snapshot() == before


def test_a_restored_memory_can_be_superseded_again(alice):
    old = make_memory(alice.user, "The limit is 10")
    remember(alice, "The limit is 20", links=supersedes(old.id))
    restore(alice, old.id)

    again = remember(alice, "The limit is 30", links=supersedes(old.id))

    assert again.json()["superseded"] == [old.id]
    assert Link.objects.filter(dst=old, type="supersedes").count() == 2
