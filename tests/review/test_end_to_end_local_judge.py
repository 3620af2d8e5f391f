"""The real pipeline with the real judge: a changed value is retired or queued."""

from __future__ import annotations

from memories.models import Memory
from review.models import Conflict, Judgment


def test_a_changed_value_is_retired_or_queued_by_the_real_judge(alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        older = alice.client.post(
            "/api/v1/memories/", {"content": "The deploy window is Monday 10:00 UTC."}, format="json"
        ).json()["memory"]
    with django_capture_on_commit_callbacks(execute=True):
        newer = alice.client.post(
            "/api/v1/memories/", {"content": "The deploy window is now Monday 11:00 UTC."}, format="json"
        ).json()["memory"]

    judgment = Judgment.objects.get()
    assert (judgment.older_id, judgment.newer_id) == (older["id"], newer["id"])
    assert judgment.judge.startswith("local/")
    assert judgment.relation in {"supersedes", "duplicate", "contradicts"}
    if judgment.outcome == "auto_resolved":
        assert Memory.objects.get(pk=older["id"]).superseded_by_id == newer["id"]
    else:
        assert judgment.outcome == "queued"
        assert Conflict.objects.get().older_id == older["id"]
