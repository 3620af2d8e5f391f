"""Idempotent retries of remember with the Idempotency-Key header."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from memories.models import IdempotencyRecord, Memory
from tests.factories import issue_token, make_memory
from tests.helpers import REMEMBER, store_snapshot, supersedes


def post(persona, body, key):
    return persona.client.post(REMEMBER, body, format="json", HTTP_IDEMPOTENCY_KEY=key)


def test_a_replay_returns_the_original_answer_and_changes_nothing(alice):
    target = make_memory(alice.user, "The meeting is at 10:00")
    body = {"content": "The meeting is at 11:00", "links": supersedes(target.id)}
    first = post(alice, body, "retry-1")
    after_first = store_snapshot()

    replay = post(alice, body, "retry-1")

    assert first.status_code == 201
    assert replay.status_code == 201
    assert replay.json() == first.json()
    assert store_snapshot() == after_first


def test_a_replay_of_an_absorbed_write_answers_200_again(alice):
    post(alice, {"content": "Same thing"}, "a")
    absorbed = post(alice, {"content": "Same thing"}, "b")

    assert absorbed.status_code == 200
    assert post(alice, {"content": "Same thing"}, "b").status_code == 200


def test_the_same_key_with_another_body_is_refused(alice):
    post(alice, {"content": "First body"}, "k")
    before = store_snapshot()

    response = post(alice, {"content": "Second body"}, "k")

    assert response.status_code == 422
    assert response.json()["error"]["code"] == "idempotency_key_reused"
    assert store_snapshot() == before


def test_a_replay_while_the_same_request_is_running_is_a_409(alice):
    """Running, as the release before this one claimed a key: an IN_PROGRESS row younger than
    ABANDONED_AFTER (a first attempt of this release holds its claim in its transaction:
    tests/memories/test_idempotency_claim.py)."""
    from memories.platform.idempotency import request_fingerprint

    body = {"content": "Anything"}
    IdempotencyRecord.objects.create(
        credential=alice.credential, key="busy", request_hash=request_fingerprint("remember", body)
    )

    response = post(alice, body, "busy")

    assert response.status_code == 409
    assert response.json()["error"]["code"] == "idempotency_in_progress"
    assert not Memory.objects.exists()


def test_an_abandoned_first_attempt_is_taken_over(alice):
    """An IN_PROGRESS row of the release before this one, older than ABANDONED_AFTER."""
    from memories.platform.idempotency import request_fingerprint

    body = {"content": "Written after a crash"}
    IdempotencyRecord.objects.create(
        credential=alice.credential,
        key="crashed",
        request_hash=request_fingerprint("remember", body),
        created_at=timezone.now() - timedelta(minutes=5),
    )

    response = post(alice, body, "crashed")

    assert response.status_code == 201
    assert Memory.objects.count() == 1
    record = IdempotencyRecord.objects.get(key="crashed")
    assert (record.status, record.response_status) == (IdempotencyRecord.Status.COMPLETED, 201)
    assert record.response_body == response.json()
    assert post(alice, body, "crashed").json() == response.json()


def test_keys_belong_to_one_credential(alice):
    _, token = issue_token(alice.user, label="other")
    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    post(alice, {"content": "From the first agent"}, "shared-key")

    response = other.post(
        REMEMBER, {"content": "From the second agent"}, format="json", HTTP_IDEMPOTENCY_KEY="shared-key"
    )

    assert response.status_code == 201
    assert Memory.objects.count() == 2


def test_a_refused_first_attempt_frees_the_key(alice, acme):
    body = {"content": "Into a project", "project": "acme-later"}
    assert post(alice, body, "k").status_code == 404

    from memories.services import membership_set, project_create

    project, _ = project_create(actor=None, via="tests", slug="acme-later")
    membership_set(actor=None, via="tests", project=project, user=alice.user, role="member")

    assert post(alice, body, "k").status_code == 201


def test_keys_older_than_a_day_are_forgotten(alice):
    IdempotencyRecord.objects.create(
        credential=alice.credential,
        key="old",
        request_hash="x",
        status="completed",
        response_status=201,
        response_body={},
        created_at=timezone.now() - timedelta(hours=25),
    )
    IdempotencyRecord.objects.create(
        credential=alice.credential,
        key="recent",
        request_hash="x",
        status="completed",
        response_status=201,
        response_body={},
        created_at=timezone.now() - timedelta(hours=23),
    )

    post(alice, {"content": "Trigger the clean-up"}, "new")

    assert set(IdempotencyRecord.objects.values_list("key", flat=True)) == {"recent", "new"}


@pytest.mark.parametrize("key", ["", "k" * 256])
def test_a_bad_key_is_a_400(alice, key):
    response = post(alice, {"content": "x"}, key)

    assert response.status_code == 400
    assert not Memory.objects.exists()


def test_a_claim_the_previous_release_commits_meanwhile_wins(alice, monkeypatch):
    """During a rolling upgrade a process of the release before this one claims a key with an
    IN_PROGRESS row committed on its own. When it does so after this release looked for the key
    and before it recorded its answer, its attempt runs: this one answers 409 and its write is
    undone."""
    import memories.agent.verbs
    from memories.platform.idempotency import request_fingerprint

    body = {"content": "Claimed by the old release"}
    embed = memories.agent.verbs.content_vectors  # type: ignore[attr-defined]  # patched where the verb calls it

    def old_release_claims_meanwhile(content):
        IdempotencyRecord.objects.create(
            credential=alice.credential, key="upgrade", request_hash=request_fingerprint("remember", body)
        )
        return embed(content)

    monkeypatch.setattr(memories.agent.verbs, "content_vectors", old_release_claims_meanwhile)

    response = post(alice, body, "upgrade")

    assert response.status_code == 409
    assert response.json()["error"]["code"] == "idempotency_in_progress"
    assert not Memory.objects.exists()
    record = IdempotencyRecord.objects.get(key="upgrade")
    assert (record.status, record.response_body) == (IdempotencyRecord.Status.IN_PROGRESS, None)


def test_an_answer_that_echoes_a_nul_is_kept_for_replays(alice, acme):
    """A batch item's error quotes the value it was sent, NUL and all; jsonb cannot hold NUL,
    and storing the answer used to fail the whole request with a 503."""
    body = {"items": [{"content": "A fact.", "kind": "fa\x00ct"}]}

    first = alice.client.post("/api/v1/memories/batch/", body, format="json", HTTP_IDEMPOTENCY_KEY="nul-1")
    replay = alice.client.post("/api/v1/memories/batch/", body, format="json", HTTP_IDEMPOTENCY_KEY="nul-1")

    assert first.status_code == 200, first.content
    assert first.json()["results"][0]["status"] == 400
    assert replay.status_code == 200
    assert replay.json()["results"][0]["error"]["code"] == first.json()["results"][0]["error"]["code"]
