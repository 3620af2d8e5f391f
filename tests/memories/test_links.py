"""POST /api/v1/links/ (R-O4): edges that record and never retire."""

from __future__ import annotations

import pytest

from memories.choices import Visibility
from tests.factories import make_memory
from tests.helpers import store_snapshot

LINKS = "/api/v1/links/"


def test_a_link_is_created_once_and_answers_its_shape(alice):
    src = make_memory(alice.user, "Root cause: an expired certificate")
    dst = make_memory(alice.user, "The outage started at 09:12")
    body = {"src": src.id, "dst": dst.id, "type": "derived_from"}

    first = alice.client.post(LINKS, body, format="json")
    again = alice.client.post(LINKS, body, format="json")

    assert first.status_code == 201
    link = first.json()
    assert set(link) == {"id", "src", "dst", "type", "origin", "reverted", "created_at"}
    assert (link["src"], link["dst"], link["type"], link["origin"], link["reverted"]) == (
        src.id,
        dst.id,
        "derived_from",
        "link",
        False,
    )
    assert link["id"].startswith("lnk_")
    assert again.status_code == 200
    assert again.json() == link


def test_a_supersedes_link_made_here_is_a_graph_edge_only(alice):
    task = make_memory(alice.user, "Write the postmortem", kind="task")
    newer = make_memory(alice.user, "Postmortem draft is in the wiki")

    response = alice.client.post(LINKS, {"src": newer.id, "dst": task.id, "type": "supersedes"}, format="json")

    assert response.status_code == 201
    task.refresh_from_db()
    assert (task.state, task.loop_status, task.superseded_by_id) == ("live", "open", None)
    history = alice.client.get(f"/api/v1/memories/{task.id}/history/").json()
    assert [e["origin"] for e in history["edges"]] == ["link"]


def test_self_links_and_bad_input_are_400(alice):
    memory = make_memory(alice.user, "A fact")

    assert (
        alice.client.post(LINKS, {"src": memory.id, "dst": memory.id, "type": "relates_to"}, format="json").status_code
        == 400
    )
    assert (
        alice.client.post(LINKS, {"src": memory.id, "dst": "nope", "type": "relates_to"}, format="json").status_code
        == 400
    )
    assert (
        alice.client.post(LINKS, {"src": memory.id, "dst": memory.id, "type": "likes"}, format="json").status_code
        == 400
    )


@pytest.mark.parametrize(
    ("who", "expected"),
    [("alice", 201), ("bob", 403), ("carol", 404), ("dave", 201)],
)
def test_link_persona_matrix_from_alices_project_memory(alice, bob, carol, dave, acme, who, expected):
    persona = {"alice": alice, "bob": bob, "carol": carol, "dave": dave}[who]
    src = make_memory(alice.user, "Acme uses Postgres", project=acme)
    dst = make_memory(persona.user, f"{who}'s note about databases")
    before = store_snapshot()

    response = persona.client.post(LINKS, {"src": src.id, "dst": dst.id, "type": "relates_to"}, format="json")

    assert response.status_code == expected
    if expected != 201:
        assert store_snapshot() == before


def test_both_ends_must_be_visible(alice, carol):
    mine = make_memory(alice.user, "alice's fact")
    hidden = make_memory(carol.user, "carol's secret", visibility=Visibility.PRIVATE)
    before = store_snapshot()

    to_hidden = alice.client.post(LINKS, {"src": mine.id, "dst": hidden.id, "type": "relates_to"}, format="json")
    to_missing = alice.client.post(
        LINKS, {"src": mine.id, "dst": "mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2T", "type": "relates_to"}, format="json"
    )

    assert (to_hidden.status_code, to_missing.status_code) == (404, 404)
    assert to_hidden.json()["error"]["code"] == to_missing.json()["error"]["code"] == "not_found"
    assert store_snapshot() == before
