"""POST /api/v1/memories/ storing a plain memory, and its validation (SPEC R-V1, R-V4)."""

from __future__ import annotations

import pytest

from memories.models import Memory, MemoryEvent
from tests.helpers import SPEC_MEMORY_FIELDS

URL = "/api/v1/memories/"


def test_remember_stores_a_trimmed_memory_and_answers_201(alice):
    response = alice.client.post(URL, {"content": "  Deploys happen on Mondays.\n", "project": "acme"}, format="json")

    assert response.status_code == 201
    memory = response.json()["memory"]
    # SPEC §3: "at least" its fields; beyond them, valid time and the purge's time (docs/api.md).
    assert set(memory) == {*SPEC_MEMORY_FIELDS, "valid_from", "valid_until", "purged_at"}
    assert memory["content"] == "Deploys happen on Mondays."
    assert memory["id"].startswith("mem_")
    assert len(memory["id"]) == 30
    assert memory["owner"] == "alice"
    assert memory["project"] == "acme"
    assert memory["visibility"] == "project"
    assert memory["provenance"] == "authoritative"
    assert memory["kind"] == "fact"
    assert memory["state"] == "live"
    assert memory["loop_status"] is None
    assert memory["created_at"].endswith("Z")
    stored = Memory.objects.get(pk=memory["id"])
    assert stored.content == "Deploys happen on Mondays."
    assert len(stored.embedding) == 384
    assert list(MemoryEvent.objects.filter(memory=stored).values_list("action", flat=True)) == ["created"]


def test_personal_memory_is_private_and_loops_start_open(alice):
    response = alice.client.post(URL, {"content": "Renew the TLS certificate", "kind": "task"}, format="json")

    memory = response.json()["memory"]
    assert response.status_code == 201
    assert memory["project"] is None
    assert memory["visibility"] == "private"
    assert memory["loop_status"] == "open"


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({}, "content"),
        ({"content": "   "}, "content"),
        ({"content": "x" * 8001}, "content"),
        ({"content": "ok", "kind": "rumour"}, "kind"),
        ({"content": "ok", "metadata": [1, 2]}, "metadata"),
        ({"content": "ok", "metadata": "text"}, "metadata"),
        ({"content": "ok", "metadata": {"blob": "x" * 16400}}, "metadata"),
        ({"content": "ok", "visibility": "project"}, "visibility"),
        ({"content": "ok", "visibility": "public", "project": "acme"}, "visibility"),
        ({"content": "ok", "project": "not a slug!"}, "project"),
    ],
)
def test_invalid_input_is_a_400_with_a_field_error_and_stores_nothing(alice, payload, field):
    response = alice.client.post(URL, payload, format="json")

    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "invalid"
    assert field in error["fields"]
    assert Memory.objects.count() == 0


def test_content_of_exactly_8000_characters_after_trimming_is_accepted(alice):
    response = alice.client.post(URL, {"content": "  " + "y" * 8000 + "  "}, format="json")

    assert response.status_code == 201
    assert len(response.json()["memory"]["content"]) == 8000


def test_malformed_json_is_a_400_in_the_error_shape(alice):
    response = alice.client.post(URL, data="{not json", content_type="application/json")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "malformed_request"


@pytest.mark.parametrize("path", ["/api/v1/memories/", "/api/v1/recall/", "/api/v1/links/"])
def test_json_nested_past_the_parsers_recursion_limit_is_a_400(alice, path):
    # 5,000 levels is 10 KB of brackets; Python's parser gave up with RecursionError: a 500.
    body = '{"content": ' + "[" * 5000 + "]" * 5000 + "}"

    response = alice.client.post(path, body, content_type="application/json")

    assert (response.status_code, response.json()["error"]["code"]) == (400, "malformed_request")
    assert Memory.objects.count() == 0


def test_a_body_over_the_request_size_limit_is_a_413_and_stores_nothing(alice):
    body = '{"content": "' + "x" * 1_100_000 + '"}'

    response = alice.client.post(URL, data=body, content_type="application/json")

    assert response.status_code == 413
    assert response.json()["error"]["code"] == "request_too_large"
    assert Memory.objects.count() == 0


@pytest.mark.parametrize("slug", ["globex", "no-such-project"])
def test_a_project_the_caller_is_not_in_answers_404_like_a_missing_one(alice, carol, slug):
    response = alice.client.post(URL, {"content": "Secret plan", "project": slug}, format="json")

    assert response.status_code == 404
    assert response.json() == {"error": {"code": "project_not_found", "message": f"Project '{slug}' not found."}}
    assert Memory.objects.count() == 0


def test_delete_is_not_offered(alice):
    created = alice.client.post(URL, {"content": "Keep me"}, format="json").json()["memory"]

    assert alice.client.delete(URL).status_code == 405
    response = alice.client.delete(f"{URL}{created['id']}/")
    assert response.status_code == 405
    assert response.json()["error"]["code"] == "method_not_allowed"
    assert Memory.objects.filter(pk=created["id"]).exists()
