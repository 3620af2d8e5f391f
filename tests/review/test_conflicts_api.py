"""The review queue's API (SPEC R-A6) and the four actions."""

from __future__ import annotations

import pytest
from django.test import Client

from memories.models import Link, Memory
from review.judges import Verdict
from review.models import Conflict
from tests.factories import make_memory
from tests.helpers import assert_documented, store_snapshot

CONFLICTS = "/api/v1/conflicts/"


@pytest.fixture
def conflict(alice, acme, scripted_judge, django_capture_on_commit_callbacks):
    scripted_judge.verdict = Verdict("supersedes", 0.6, "the time changed")
    make_memory(alice.user, "Acme's standup is at 09:30", project=acme)
    with django_capture_on_commit_callbacks(execute=True):
        alice.client.post(
            "/api/v1/memories/", {"content": "Acme's standup moved to 09:45", "project": "acme"}, format="json"
        )
    return Conflict.objects.get()


def resolve(persona, conflict_id, action):
    return persona.client.post(f"{CONFLICTS}{conflict_id}/resolve/", {"action": action}, format="json")


def test_the_queue_lists_pending_conflicts_with_both_memories(alice, conflict):
    body = alice.client.get(CONFLICTS).json()

    assert [c["id"] for c in body["results"]] == [conflict.pk]
    item = body["results"][0]
    assert item["older"]["id"] == conflict.older_id
    assert item["newer"]["id"] == conflict.newer_id
    assert (item["relation"], item["confidence"], item["rationale"]) == ("supersedes", 0.6, "the time changed")
    assert item["opened_at"].endswith("Z")
    assert alice.client.get(f"{CONFLICTS}?status=resolved").json()["results"] == []
    assert alice.client.get(f"{CONFLICTS}?status=nonsense").status_code == 400


def test_a_pending_conflict_is_answered_as_the_schema_documents(alice, conflict):
    response = alice.client.get(CONFLICTS)

    assert response.json()["results"][0]["resolution"] == ""  # not settled yet
    assert_documented(response, "GET", CONFLICTS)


def test_only_who_may_retire_both_memories_sees_a_conflict(alice, bob, carol, dave, conflict):
    assert [len(p.client.get(CONFLICTS).json()["results"]) for p in (alice, bob, carol, dave)] == [1, 0, 0, 1]


def test_a_maintainer_does_not_see_a_conflict_between_memories_hidden_from_him(alice, dave, acme):
    from review.pipeline import apply_verdict

    older = make_memory(alice.user, "My note: the standup is at 09:30", project=acme, visibility="private")
    newer = make_memory(alice.user, "My note: the standup is at 09:45", project=acme, visibility="private")
    apply_verdict(older_id=older.pk, newer_id=newer.pk, judge_name="test", verdict=Verdict("supersedes", 0.6, "time"))
    conflict = Conflict.objects.get()
    before = store_snapshot()

    # dave maintains acme, but alice's private memories are hers alone: their content, ids and
    # the pair's existence stay hidden from him, like the memories themselves (404).
    assert dave.client.get(f"/api/v1/memories/{older.pk}/").status_code == 404
    assert dave.client.get(CONFLICTS).json()["results"] == []
    for action in ("newer_supersedes", "older_stands", "dismiss"):
        assert resolve(dave, conflict.pk, action).status_code == 404
    dave.user.is_staff = True
    dave.user.save()
    console = Client()
    console.force_login(dave.user)
    assert "standup" not in console.get("/admin/review/conflict/?status=all").content.decode()
    assert console.get(f"/admin/review/conflict/{conflict.pk}/change/").status_code == 404
    assert console.post(f"/admin/review/conflict/{conflict.pk}/resolve/", {"action": "dismiss"}).status_code == 404
    assert store_snapshot() == before
    assert Conflict.objects.get().status == "pending"
    assert [c["id"] for c in alice.client.get(CONFLICTS).json()["results"]] == [conflict.pk]


def test_newer_supersedes(alice, conflict):
    body = resolve(alice, conflict.pk, "newer_supersedes").json()

    assert (body["status"], body["resolution"]) == ("resolved", "newer_supersedes")
    older = Memory.objects.get(pk=conflict.older_id)
    assert (older.state, older.superseded_by_id) == ("superseded", conflict.newer_id)
    assert Link.objects.get(dst=older).origin == "moderator"
    assert Conflict.objects.get().resolved_by == alice.user


def test_older_stands(dave, conflict):
    body = resolve(dave, conflict.pk, "older_stands").json()

    assert body["resolution"] == "older_stands"
    assert Memory.objects.get(pk=conflict.newer_id).state == "forgotten"
    assert Memory.objects.get(pk=conflict.older_id).state == "live"


def test_keep_both_and_dismiss_change_no_memory(alice, conflict):
    before = store_snapshot()

    body = resolve(alice, conflict.pk, "keep_both").json()

    assert (body["status"], body["resolution"]) == ("resolved", "keep_both")
    assert store_snapshot()["memories"] == before["memories"]


def test_dismiss(alice, conflict):
    assert resolve(alice, conflict.pk, "dismiss").json()["status"] == "dismissed"
    assert [c["id"] for c in alice.client.get(f"{CONFLICTS}?status=dismissed").json()["results"]] == [conflict.pk]


def test_refusals_change_nothing(alice, bob, conflict):
    before = store_snapshot()

    assert resolve(bob, conflict.pk, "newer_supersedes").status_code == 404
    assert resolve(alice, conflict.pk, "delete_both").status_code == 400
    assert resolve(alice, 999999, "dismiss").status_code == 404
    assert store_snapshot() == before
    assert Conflict.objects.get().status == "pending"


def test_a_settled_conflict_cannot_be_settled_again(alice, conflict):
    resolve(alice, conflict.pk, "keep_both")

    response = resolve(alice, conflict.pk, "newer_supersedes")

    assert response.status_code == 409
    assert Memory.objects.get(pk=conflict.older_id).state == "live"
