"""The hygiene pipeline end to end (SPEC R-H1 to R-H5), through real writes."""

from __future__ import annotations

import numpy as np
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

    newer = write(alice, "The deploy window is now Monday 11:00 UTC")

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

    newer = write(alice, "The standup moved to 09:45")

    conflict = Conflict.objects.get()
    assert (conflict.older_id, conflict.newer_id, conflict.status) == (older["id"], newer["id"], "pending")
    assert (conflict.relation, conflict.confidence, conflict.rationale) == ("supersedes", 0.6, "maybe an update")
    assert conflict.same_credential is True
    assert Memory.objects.filter(state="live").count() == 2


@pytest.mark.parametrize("relation", ["complementary", "unrelated"])
def test_complementary_and_unrelated_change_nothing(alice, scripted_judge, write, relation):
    scripted_judge.verdict = Verdict(relation, 0.99, "both hold")
    write(alice, "The standup is at 09:30")

    write(alice, "The standup is at 09:30 in room 4")

    assert Memory.objects.filter(state="live").count() == 2
    assert not Conflict.objects.exists()
    assert Judgment.objects.get().outcome == "no_action"


def test_an_uncued_value_change_is_queued_as_a_contradiction_whatever_the_judge_says(alice, scripted_judge, write):
    scripted_judge.verdict = Verdict("supersedes", 0.99, "value changed")
    write(alice, "The deploy window is Monday 10:00 UTC")

    write(alice, "The deploy window is Monday 11:00 UTC")

    conflict = Conflict.objects.get()
    assert (conflict.relation, conflict.confidence) == ("contradicts", 0.99)
    assert "R-H8" in conflict.rationale
    assert Memory.objects.filter(state="live").count() == 2
    assert Judgment.objects.get().outcome == "queued"


def test_facts_about_other_subjects_are_not_even_judged(alice, scripted_judge, write):
    scripted_judge.verdict = Verdict("supersedes", 0.99, "always sure")
    write(alice, "The free tier allows 100 requests per minute")
    write(alice, "Hana's favorite cuisine is Peruvian")

    write(alice, "The pro tier now allows 1000 requests per minute")
    write(alice, "Zoe's favorite cuisine is Peruvian")

    assert scripted_judge.calls == []
    assert Memory.objects.filter(state="live").count() == 4
    assert (Conflict.objects.count(), Judgment.objects.count()) == (0, 0)


def test_a_new_memory_opens_at_most_one_conflict_its_strongest(alice, scripted_judge, write):
    scripted_judge.verdict = Verdict("contradicts", 0.7, "?")
    for day in ("Monday", "Tuesday", "Wednesday"):
        write(alice, f"The retro is on {day} at 16:00")
    pairs_before = set(Conflict.objects.values_list("older_id", "newer_id"))
    scripted_judge.verdict = Verdict("contradicts", 0.8, "?")

    newer = write(alice, "The retro is on Thursday at 16:00")

    opened = Conflict.objects.filter(newer_id=newer["id"])
    assert opened.count() == 1
    assert Judgment.objects.filter(newer_id=newer["id"]).count() == 3  # all three judged, one queued
    assert set(Conflict.objects.values_list("older_id", "newer_id")) - pairs_before == {
        (opened.get().older_id, newer["id"])
    }


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

    write(alice, "The VPN gateway is now gw2")

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
    write(alice, "The team lunch is every Thursday", kind="plan")

    restored = alice.client.post(f"/api/v1/memories/{older['id']}/restore/", {}, format="json").json()

    assert restored["state"] == "live"
    assert Link.objects.get(dst_id=older["id"]).reverted is True


def test_a_predecessor_far_by_its_embedding_is_still_a_candidate(alice, scripted_judge, write):
    """No distance window: a chatty update and the turn it updates sit 0.41 apart, beyond the
    0.35 the pipeline used to cut at, and are still judged (issue 16)."""
    scripted_judge.verdict = Verdict("contradicts", 0.6, "two values")
    older = write(
        alice, "By the way, my long runs are 14 km at the moment. Any tips for blisters on a half marathon plan?"
    )
    write(alice, "Can you suggest a weeknight pasta recipe with basil and tomatoes?")

    newer = write(
        alice,
        "Quick update on the running: I switched to the full marathon plan. My long runs are 24 km at the moment.",
    )
    vectors = Memory.objects.in_bulk([older["id"], newer["id"]])
    assert 1 - float(np.dot(vectors[older["id"]].embedding, vectors[newer["id"]].embedding)) > 0.35

    judged = {(j.older_id, j.newer_id) for j in Judgment.objects.all()}
    assert (older["id"], newer["id"]) in judged
