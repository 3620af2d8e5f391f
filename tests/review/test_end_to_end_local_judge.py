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


# The eight pairs of issue 15: distinct facts written into a project one after another. The
# first model retired one of them and queued five as supersedes.
TEAM_PAIRS = [
    (
        "The billing service's primary database is db-billing-1 according to the last review.",
        "The search service's primary database is db-billing-1 since the migration.",
    ),
    ("The free tier allows 100 requests per minute.", "The pro tier allows 1000 requests per minute."),
    ("The staging PostgreSQL is version 15.", "The production PostgreSQL is version 16."),
    ("Acme Corp's account manager is Dana Whitfield.", "Globex's account manager is Dana Whitfield."),
    ("The checkout API timeout is 30 seconds.", "The login API timeout is 10 seconds."),
    ("Ticket OPS-1412 is assigned to Bob.", "Ticket OPS-1519 is assigned to Bob."),
    ("The billing service deploys on Fridays.", "The search service deploys on Fridays."),
    ("Hana's favorite cuisine is Peruvian.", "Zoe's favorite cuisine is Peruvian."),
]


def test_distinct_facts_of_a_team_are_neither_retired_nor_queued(alice, acme, django_capture_on_commit_callbacks):
    written = []
    for older, newer in TEAM_PAIRS:
        for content in (older, newer):
            with django_capture_on_commit_callbacks(execute=True):
                response = alice.client.post(
                    "/api/v1/memories/", {"content": content, "project": "acme"}, format="json"
                )
            assert response.status_code == 201
            written.append(response.json()["memory"]["id"])

    assert Memory.objects.filter(pk__in=written, state="live").count() == 16
    assert Conflict.objects.count() == 0
    assert not Judgment.objects.filter(outcome__in=["auto_resolved", "queued"]).exists()


def test_a_cued_update_is_retired_by_the_real_judge_and_restorable(alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        older = alice.client.post("/api/v1/memories/", {"content": "Priya lives in Oslo."}, format="json").json()
    with django_capture_on_commit_callbacks(execute=True):
        newer = alice.client.post(
            "/api/v1/memories/", {"content": "Priya moved to Bergen, she now lives in Bergen."}, format="json"
        ).json()

    old = Memory.objects.get(pk=older["memory"]["id"])
    assert (old.state, old.superseded_by_id) == ("superseded", newer["memory"]["id"])
    restored = alice.client.post(f"/api/v1/memories/{old.pk}/restore/", {}, format="json").json()
    assert restored["state"] == "live"
