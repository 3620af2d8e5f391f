"""The hygiene pipeline end to end (SPEC R-H1 to R-H5), through real writes."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from memories.models import Link, Memory, MemoryEvent
from review.judges import Verdict
from review.models import Conflict, Judgment
from review.pipeline import hygiene_check
from tests.factories import issue_token
from tests.helpers import supersedes


@pytest.fixture
def write(django_capture_on_commit_callbacks):
    """remember through the API, running what the write schedules after commit."""

    def _write(persona_or_client, content, **fields):
        client = getattr(persona_or_client, "client", persona_or_client)
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post("/api/v1/memories/", {"content": content, **fields}, format="json")
        assert response.status_code in (200, 201), response.json()
        return response.json()["memory"]

    return _write


def test_a_confident_supersede_retires_the_older_memory(alice, scripted_judge, write):
    scripted_judge.verdict = Verdict("supersedes", 0.95, "value changed")
    older = write(alice, "The deploy window is Monday 10:00 UTC")

    newer = write(alice, "The deploy window is Monday 11:00 UTC")

    old = Memory.objects.get(pk=older["id"])
    assert (old.state, old.superseded_by_id) == ("superseded", newer["id"])
    link = Link.objects.get(dst=old)
    assert (link.src_id, link.origin) == (newer["id"], "hygiene")
    judgment = Judgment.objects.get()
    assert (judgment.older_id, judgment.newer_id, judgment.outcome) == (older["id"], newer["id"], "auto_resolved")
    assert MemoryEvent.objects.filter(memory=old, action="superseded").get().reason.startswith("hygiene")
    assert scripted_judge.calls[0].a == older["content"]  # a is the older statement
    assert not Conflict.objects.exists()


def test_a_doubtful_verdict_opens_a_conflict(alice, scripted_judge, write):
    scripted_judge.verdict = Verdict("supersedes", 0.6, "maybe an update")
    older = write(alice, "The standup is at 09:30")

    newer = write(alice, "The standup is at 09:45")

    conflict = Conflict.objects.get()
    assert (conflict.older_id, conflict.newer_id, conflict.status) == (older["id"], newer["id"], "pending")
    assert (conflict.relation, conflict.confidence, conflict.rationale) == ("supersedes", 0.6, "maybe an update")
    assert conflict.same_credential is True
    assert Memory.objects.filter(state="live").count() == 2


@pytest.mark.parametrize("relation", ["complementary", "unrelated"])
def test_complementary_and_unrelated_change_nothing(alice, scripted_judge, write, relation):
    scripted_judge.verdict = Verdict(relation, 0.99, "both hold")
    write(alice, "The free tier allows 100 requests per minute")

    write(alice, "The pro tier allows 1000 requests per minute")

    assert Memory.objects.filter(state="live").count() == 2
    assert not Conflict.objects.exists()
    assert Judgment.objects.get().outcome == "no_action"


def test_a_contradiction_is_queued_even_when_confident(alice, scripted_judge, write):
    scripted_judge.verdict = Verdict("contradicts", 0.97, "conflicting")
    write(alice, "We use Redis for sessions")

    write(alice, "We do not use Redis for sessions")

    assert Conflict.objects.get().relation == "contradicts"
    assert Memory.objects.filter(state="live").count() == 2


def test_a_provisional_memory_never_retires_an_authoritative_one(alice, scripted_judge, write):
    scripted_judge.verdict = Verdict("duplicate", 0.99, "same")
    _, token = issue_token(alice.user, provisional=True, label="watcher")
    watcher = APIClient()
    watcher.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    write(alice, "The office wifi password rotates monthly")

    write(watcher, "Office wifi password rotates every month")

    assert Memory.objects.filter(state="live").count() == 2
    conflict = Conflict.objects.get()
    assert conflict.same_credential is False


def test_declared_writes_are_never_judged_and_close_pending_conflicts(alice, scripted_judge, write):
    scripted_judge.verdict = Verdict("supersedes", 0.5, "unsure")
    older = write(alice, "The release train leaves on Tuesdays")
    newer = write(alice, "The release train leaves on Wednesdays")
    calls = len(scripted_judge.calls)
    assert Conflict.objects.get().status == "pending"

    write(alice, "The release train leaves on Wednesdays", links=supersedes(older["id"]))

    conflict = Conflict.objects.get()
    assert (conflict.status, conflict.resolution) == ("resolved", "declared")
    assert len(scripted_judge.calls) == calls  # the declared pair was not judged
    assert Memory.objects.get(pk=older["id"]).superseded_by_id == newer["id"]


def test_a_pair_is_judged_once(alice, scripted_judge, write):
    scripted_judge.verdict = Verdict("contradicts", 0.7, "?")
    write(alice, "The budget is 10k")
    newer = write(alice, "The budget is 12k")

    assert hygiene_check(newer["id"]) == []

    assert len(scripted_judge.calls) == 1
    assert Judgment.objects.count() == 1
    assert Conflict.objects.count() == 1


def test_a_failing_judge_is_retried(alice, scripted_judge, write):
    scripted_judge.verdict = Verdict("supersedes", 0.95, "changed")
    scripted_judge.failures_left = 2
    write(alice, "The VPN gateway is gw1")

    write(alice, "The VPN gateway is gw2")

    assert len(scripted_judge.calls) == 3
    assert Judgment.objects.get().outcome == "auto_resolved"


def test_a_judge_that_keeps_failing_leaves_nothing_half_done(alice, scripted_judge, write, settings):
    scripted_judge.verdict = Verdict("supersedes", 0.95, "changed")
    scripted_judge.failures_left = settings.HYGIENE_JUDGE_ATTEMPTS
    write(alice, "The build agent is ci-1")

    newer = write(alice, "The build agent is ci-2")

    assert (Judgment.objects.count(), Conflict.objects.count(), Link.objects.count()) == (0, 0, 0)
    assert Memory.objects.filter(state="live").count() == 2
    assert len(hygiene_check(newer["id"])) == 1  # a later sweep finishes the job


def test_far_apart_memories_are_not_judged(alice, scripted_judge, write):
    write(alice, "The deploy window is Monday 10:00 UTC")

    write(alice, "My cat is called Miso and likes tuna")

    assert scripted_judge.calls == []


def test_other_owners_and_scopes_are_not_candidates(alice, bob, scripted_judge, write):
    write(bob, "The deploy window is Monday 10:00 UTC", project="acme")
    write(alice, "The deploy window is Monday 10:00 UTC")  # personal scope

    write(alice, "The deploy window is Monday 10:30 UTC", project="acme")

    assert scripted_judge.calls == []


def test_restore_after_a_hygiene_auto_resolve(alice, scripted_judge, write):
    scripted_judge.verdict = Verdict("duplicate", 0.99, "same")
    older = write(alice, "The team lunch is on Thursdays", kind="plan")
    write(alice, "Team lunch happens every Thursday", kind="plan")

    restored = alice.client.post(f"/api/v1/memories/{older['id']}/restore/", {}, format="json").json()

    assert restored["state"] == "live"
    assert Link.objects.get(dst_id=older["id"]).reverted is True
