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


def test_a_key_freed_by_its_failing_first_attempt_during_a_retrys_claim_is_claimed_again(alice, monkeypatch):
    """The race of a retry with a failing first attempt: the retry's insert hits the first
    attempt's record, the first attempt fails and frees the key, and only then does the retry
    read the record. The retry runs the write (it answered 500 before)."""
    from memories.platform.idempotency import request_fingerprint

    body = {"content": "Stored by the retry"}
    IdempotencyRecord.objects.create(
        credential=alice.credential, key="freed", request_hash=request_fingerprint("remember", body)
    )
    manager = IdempotencyRecord.objects
    read_record = manager.select_for_update
    freed: list[tuple[int, dict[str, int]]] = []

    def first_attempt_fails_meanwhile(*args, **kwargs):
        if not freed:
            freed.append(IdempotencyRecord.objects.filter(key="freed").delete())
        return read_record(*args, **kwargs)

    monkeypatch.setattr(manager, "select_for_update", first_attempt_fails_meanwhile)

    response = post(alice, body, "freed")

    assert freed
    assert response.status_code == 201
    assert Memory.objects.filter(content="Stored by the retry").count() == 1
    record = IdempotencyRecord.objects.get(key="freed")
    assert (record.status, record.response_status) == (IdempotencyRecord.Status.COMPLETED, 201)


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
