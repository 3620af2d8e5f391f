"""The dedup cascade (SPEC R-D1, R-D2): near-verbatim restatements are absorbed."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from memories.models import Memory
from tests.factories import issue_token, make_memory
from tests.helpers import remember, supersedes


def test_a_restatement_in_the_same_session_is_absorbed(alice):
    first = remember(alice, "Deploy window is Monday 10:00 UTC.", session="conv-1")

    again = remember(alice, "  deploy WINDOW is monday, 10:00 utc ", session="conv-1")

    assert first.status_code == 201
    assert again.status_code == 200
    assert again.json()["absorbed"] is True
    assert again.json()["memory"]["id"] == first.json()["memory"]["id"]
    assert again.json()["memory"]["content"] == "Deploy window is Monday 10:00 UTC."
    assert Memory.objects.count() == 1


def test_a_sessionless_client_repeat_is_absorbed_in_its_credential_default_session(alice):
    first = remember(alice, "The VPN endpoint is vpn.acme.io")
    again = remember(alice, "The VPN endpoint is vpn.acme.io")

    assert again.status_code == 200
    assert again.json()["memory"]["id"] == first.json()["memory"]["id"]
    assert again.json()["memory"]["session"] is None


@pytest.mark.parametrize(
    ("second", "second_fields"),
    [
        ("Deploy window is Monday 11:00 UTC.", {"session": "conv-1"}),  # a different fact
        ("Deploy window is Monday 10:00 UTC.", {"session": "conv-2"}),  # another session
        ("Deploy window is Monday 10:00 UTC.", {"session": "conv-1", "project": "acme"}),  # another scope
    ],
)
def test_what_is_not_a_restatement_is_stored(alice, second, second_fields):
    remember(alice, "Deploy window is Monday 10:00 UTC.", session="conv-1")

    response = remember(alice, second, **second_fields)

    assert response.status_code == 201
    assert response.json()["absorbed"] is False
    assert Memory.objects.count() == 2


def test_another_credential_has_its_own_default_session(alice):
    _, token = issue_token(alice.user, label="second-agent")
    other_agent = APIClient()
    other_agent.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    remember(alice, "The build takes 4 minutes")

    response = other_agent.post("/api/v1/memories/", {"content": "The build takes 4 minutes"}, format="json")

    assert response.status_code == 201


def test_another_owner_is_never_absorbed(alice, bob):
    remember(alice, "Acme ships on Tuesdays", project="acme", session="shared")

    response = remember(bob, "Acme ships on Tuesdays", project="acme", session="shared")

    assert response.status_code == 201


def test_a_retired_memory_does_not_absorb(alice):
    old = remember(alice, "The cache TTL is 60s", session="s").json()["memory"]
    remember(alice, "The cache TTL is 120s", session="s", links=supersedes(old["id"]))

    response = remember(alice, "The cache TTL is 60s", session="s")

    assert response.status_code == 201
    assert response.json()["memory"]["id"] != old["id"]


def test_an_absorbed_write_applies_its_declaration_with_the_absorbing_memory_as_successor(alice):
    old = make_memory(alice.user, "Deploy window is Monday 10:00 UTC.")
    new = remember(alice, "Deploy window is Friday 14:00 UTC.").json()["memory"]

    follow_up = remember(alice, "Deploy window is Friday 14:00 UTC.", links=supersedes(old.id, new["id"]))

    assert follow_up.status_code == 200
    body = follow_up.json()
    assert body["absorbed"] is True
    assert body["memory"]["id"] == new["id"]
    assert body["superseded"] == [old.id]
    assert body["skipped"] == [{"dst": new["id"], "reason": "self"}]
    old.refresh_from_db()
    assert old.superseded_by_id == new["id"]
    assert Memory.objects.count() == 2
