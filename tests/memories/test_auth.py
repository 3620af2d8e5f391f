"""Bearer-token authentication and the unauthenticated answer (SPEC §2, R-O8)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from memories.models import Credential, Memory
from memories.platform.tokens import hash_token
from tests.factories import issue_token


@pytest.mark.parametrize(
    "header",
    [None, "Bearer", "Bearer zm_nope", "Token abc", "Bearer zm_AAAAAAAA_" + "B" * 40],
)
def test_requests_without_a_valid_token_answer_401_before_anything_else(db, header):
    client = APIClient()
    if header:
        client.credentials(HTTP_AUTHORIZATION=header)

    responses = [
        client.get("/api/v1/memories/"),
        client.post("/api/v1/memories/", {"content": ""}, format="json"),
        client.get("/api/v1/memories/mem_01J00000000000000000000000/"),
    ]

    assert [r.status_code for r in responses] == [401, 401, 401]
    assert all(set(r.json()["error"]) >= {"code", "message"} for r in responses)
    assert responses[0]["WWW-Authenticate"].startswith("Bearer")
    assert Memory.objects.count() == 0


def test_tokens_are_stored_hashed_and_identified_by_prefix(alice):
    credential = Credential.objects.get(pk=alice.credential.pk)

    assert alice.token not in {credential.token_hash, credential.prefix, credential.label}
    assert credential.token_hash == hash_token(alice.token)
    assert alice.token.startswith(f"zm_{credential.prefix}_")


def test_a_revoked_token_is_refused(alice):
    alice.credential.revoked_at = alice.credential.created_at
    alice.credential.save()

    assert alice.client.get("/api/v1/memories/").status_code == 401


def test_an_inactive_user_is_refused(alice):
    alice.user.is_active = False
    alice.user.save()

    assert alice.client.get("/api/v1/memories/").status_code == 401


def test_provenance_comes_from_the_credential_never_the_body(alice):
    _, watcher_token = issue_token(alice.user, provisional=True, label="watcher")
    watcher = APIClient()
    watcher.credentials(HTTP_AUTHORIZATION=f"Bearer {watcher_token}")

    claimed = watcher.post(
        "/api/v1/memories/", {"content": "Captured in passing", "provenance": "authoritative"}, format="json"
    )
    from_watcher = watcher.post("/api/v1/memories/", {"content": "Captured in passing"}, format="json").json()["memory"]
    from_agent = alice.client.post("/api/v1/memories/", {"content": "Said in conversation"}, format="json").json()[
        "memory"
    ]

    # A body that claims one is refused outright (strict bodies, R-V5): it is not the body's to say.
    assert (claimed.status_code, claimed.json()["error"]["fields"]) == (400, {"provenance": ["Unknown field."]})
    assert from_watcher["provenance"] == "provisional"
    assert from_agent["provenance"] == "authoritative"


def test_using_a_token_records_when_it_was_last_used(alice):
    assert Credential.objects.get(pk=alice.credential.pk).last_used_at is None

    alice.client.get("/api/v1/memories/")

    assert Credential.objects.get(pk=alice.credential.pk).last_used_at is not None
