"""Review before provisional writes count (memories/services/moderation.py): under a project's
policy a background capture lands pending — kept from recall, similar_existing, the judge and
the other members — until a maintainer approves, rejects, or edits and approves it."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.admin.utils import quote
from django.test import Client
from rest_framework.test import APIClient

from memories import hooks, services
from memories.models import FeedEvent, Link, Memory, MemoryEvent, Project
from tests.conftest import Persona
from tests.factories import issue_token, make_memory
from tests.helpers import remember, store_snapshot

WATCHED = "Alice said the quarterly report is due on the 14th."


@pytest.fixture
def reviewed(acme: Project) -> Project:
    return services.project_set_policy(actor=None, via="tests", project=acme, review_provisional=True)


@pytest.fixture
def judged(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The memories handed to the hygiene judge (its hook, after commit)."""
    handed: list[str] = []
    monkeypatch.setattr(hooks, "on_undeclared_write_committed", [lambda memory: handed.append(memory.pk)])
    return handed


@pytest.fixture
def watcher(alice: Persona) -> APIClient:
    """alice's background capture: a provisional token."""
    _, token = issue_token(alice.user, provisional=True, label="watcher")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def _capture(watcher: APIClient, content: str = WATCHED, **fields: Any) -> dict[str, Any]:
    answer = watcher.post("/api/v1/memories/", {"content": content, "project": "acme", **fields}, format="json")
    assert answer.status_code == 201, answer.json()
    body: dict[str, Any] = answer.json()
    return body


def _recall(persona: Persona, query: str = "When is the quarterly report due?") -> list[str]:
    hits = persona.client.post("/api/v1/recall/", {"query": query, "project": "acme"}, format="json").json()
    return [hit["memory"]["id"] for hit in hits["results"]]


def test_a_capture_lands_pending_and_counts_nowhere(
    alice, bob, dave, reviewed, watcher, judged, django_capture_on_commit_callbacks
):
    earlier = make_memory(alice.user, "Alice said the quarterly report is due on the 12th.", project=reviewed)
    with django_capture_on_commit_callbacks(execute=True):
        body = _capture(watcher)
    pending = body["memory"]["id"]

    assert body["memory"]["state"] == "pending"
    assert Memory.objects.get(pk=pending).state == "pending"
    assert list(MemoryEvent.objects.filter(memory_id=pending).values_list("action", flat=True)) == ["submitted"]
    # Not recalled, by anyone; not judged (no hygiene task ran for it).
    for persona in (alice, bob, dave):
        assert pending not in _recall(persona)
    assert pending not in judged
    assert earlier.pk in _recall(alice)
    # Not offered as similar to a later write, and not absorbing a restatement.
    later = remember(alice, "The quarterly report is due on the 14th.", project="acme").json()
    assert pending not in [item["id"] for item in later["similar_existing"]]
    again = remember(alice, WATCHED, project="acme").json()
    assert again["absorbed"] is False
    # Seen by its writer and the maintainers, not by the other members.
    assert alice.client.get(f"/api/v1/memories/{pending}/").status_code == 200
    assert dave.client.get(f"/api/v1/memories/{pending}/").status_code == 200
    assert bob.client.get(f"/api/v1/memories/{pending}/").status_code == 404
    waiting = dave.client.get("/api/v1/memories/", {"state": "pending"}).json()["results"]
    assert [memory["id"] for memory in waiting] == [pending]
    assert bob.client.get("/api/v1/memories/", {"state": "pending"}).json()["results"] == []
    assert FeedEvent.objects.get(memory_id=pending).type == "memory.submitted"


def test_without_the_policy_or_with_an_authoritative_token_a_write_counts_at_once(
    alice, acme, watcher, judged, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        captured = _capture(watcher)["memory"]["id"]
    assert Memory.objects.get(pk=captured).state == "live"
    assert judged == [captured]  # judged at once, unlike a pending one
    services.project_set_policy(actor=None, via="tests", project=acme, review_provisional=True)
    assert (
        remember(alice, "Reviewed projects still take people's own writes.", project="acme").json()["memory"]["state"]
        == "live"
    )
    assert _capture(watcher, "A personal capture is nobody's to review.", project=None)["memory"]["state"] == "live"


def test_a_maintainer_approves_and_the_memory_counts_from_then_on(
    alice, dave, reviewed, watcher, judged, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        pending = _capture(watcher)["memory"]["id"]
    assert judged == []

    with django_capture_on_commit_callbacks(execute=True):
        answer = dave.client.post(f"/api/v1/memories/{pending}/approve/", {}, format="json")

    assert answer.status_code == 200
    assert answer.json()["state"] == "live"
    assert judged == [pending]  # the judge sees it once it counts
    assert pending in _recall(alice)
    assert list(MemoryEvent.objects.filter(memory_id=pending).values_list("action", flat=True)) == [
        "submitted",
        "approved",
    ]
    assert FeedEvent.objects.filter(memory_id=pending, type="memory.approved").count() == 1
    again = dave.client.post(f"/api/v1/memories/{pending}/approve/", {}, format="json")
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "not_live"


def test_only_a_maintainer_reviews_and_a_refusal_changes_nothing(alice, bob, carol, dave, reviewed, watcher):
    pending = _capture(watcher)["memory"]["id"]
    before = store_snapshot()

    assert alice.client.post(f"/api/v1/memories/{pending}/approve/", {}, format="json").status_code == 403  # writer
    assert bob.client.post(f"/api/v1/memories/{pending}/approve/", {}, format="json").status_code == 404  # unseen
    assert carol.client.post(f"/api/v1/memories/{pending}/reject/", {}, format="json").status_code == 404
    assert watcher.post(f"/api/v1/memories/{pending}/approve/", {}, format="json").status_code == 403
    _, provisional = issue_token(dave.user, provisional=True, label="dave-watcher")
    dave_watcher = APIClient()
    dave_watcher.credentials(HTTP_AUTHORIZATION=f"Bearer {provisional}")
    refused = dave_watcher.post(f"/api/v1/memories/{pending}/approve/", {}, format="json")
    assert refused.status_code == 403
    assert store_snapshot() == before
    assert Memory.objects.get(pk=pending).state == "pending"


def test_a_rejection_forgets_it_and_a_restore_sends_it_back_to_review(alice, dave, reviewed, watcher):
    pending = _capture(watcher)["memory"]["id"]

    rejected = dave.client.post(f"/api/v1/memories/{pending}/reject/", {"reason": "hearsay"}, format="json")

    assert rejected.status_code == 200
    assert rejected.json()["state"] == "forgotten"
    event = MemoryEvent.objects.get(memory_id=pending, action="forgotten")
    assert (event.reason, event.data["review"]) == ("hearsay", "rejected")
    restored = alice.client.post(f"/api/v1/memories/{pending}/restore/", {}, format="json")
    assert restored.status_code == 200
    assert restored.json()["state"] == "pending"  # back in the queue, not counted
    assert pending not in _recall(alice)


def test_edit_and_approve_is_a_declared_supersede_by_the_moderator(alice, dave, reviewed, watcher):
    pending = _capture(watcher, metadata={"source": "meeting"})["memory"]["id"]

    answer = dave.client.post(
        f"/api/v1/memories/{pending}/approve/",
        {"content": "The quarterly report is due on the 14th of March.", "reason": "date checked"},
        format="json",
    )

    assert answer.status_code == 201
    body = answer.json()
    assert body["superseded"] == [pending]
    new = Memory.objects.get(pk=body["memory"]["id"])
    assert (new.owner, new.provenance, new.state, new.project.slug if new.project else None) == (
        dave.user,
        "authoritative",
        "live",
        "acme",
    )
    assert new.metadata == {"source": "meeting"}
    old = Memory.objects.get(pk=pending)
    assert (old.state, old.superseded_by_id) == ("superseded", new.pk)
    link = Link.objects.get(src=new, dst=old)
    assert (link.type, link.origin, link.created_by) == ("supersedes", "moderator", dave.user)
    assert new.pk in _recall(alice)
    history = alice.client.get(f"/api/v1/memories/{pending}/history/").json()
    assert history["head"] == new.pk


def test_a_pending_memory_never_goes_back_from_live(alice, reviewed, watcher):
    from django.db import IntegrityError, connection, transaction

    live = make_memory(alice.user, "Already counting.", project=reviewed)
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE memories_memory SET state = 'pending' WHERE id = %s", [live.pk])
    assert Memory.objects.get(pk=live.pk).state == "live"


def test_the_policy_is_set_by_the_command(db):
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("create_project", "lab", "--review-provisional", stdout=out)
    assert "provisional writes: reviewed" in out.getvalue()
    assert Project.objects.get(slug="lab").review_provisional is True
    call_command("create_project", "lab", "--no-review-provisional", stdout=StringIO())
    assert Project.objects.get(slug="lab").review_provisional is False


def test_no_way_around_the_review_through_forget_or_a_replacement(alice, dave, reviewed, watcher):
    withdrawn = _capture(watcher)["memory"]["id"]
    assert alice.client.post(f"/api/v1/memories/{withdrawn}/forget/", {}, format="json").json()["state"] == "forgotten"
    assert alice.client.post(f"/api/v1/memories/{withdrawn}/restore/", {}, format="json").json()["state"] == "pending"

    replaced = _capture(watcher, "The release is on Tuesday, someone said.")["memory"]["id"]
    dave.client.post(f"/api/v1/memories/{replaced}/approve/", {"content": "The release is on Tuesday."}, format="json")
    assert dave.client.post(f"/api/v1/memories/{replaced}/restore/", {}, format="json").json()["state"] == "pending"
    assert withdrawn not in _recall(alice)


def _staff(persona: Persona) -> Client:
    persona.user.is_staff = True
    persona.user.save()
    client = Client()
    client.force_login(persona.user)
    return client


def test_a_team_admin_reviews_a_session_in_bulk_in_the_admin(alice, bob, dave, reviewed, watcher):
    first = _capture(watcher, "Bob prefers morning stand-ups.", session="meeting-7")["memory"]["id"]
    second = _capture(watcher, "The design review moved to Thursday.", session="meeting-7")["memory"]["id"]
    other = _capture(watcher, "Lunch order: pizza.", session="meeting-8")["memory"]["id"]
    lead = _staff(dave)

    listing = lead.get("/admin/memories/memory/", {"lifecycle": "pending", "session": "meeting-7"})
    page = listing.content.decode()
    assert "approve_selected" in page
    assert "Bob prefers morning stand-ups." in page
    assert "Lunch order" not in page
    done = lead.post(
        "/admin/memories/memory/?lifecycle=pending&session=meeting-7",
        {"action": "approve_selected", "_selected_action": [first, second, other], "index": "0"},
        follow=True,
    )
    # The action reaches what the filtered list holds: the session's two, not the other one.
    assert "2 memories approved." in done.content.decode()
    assert [Memory.objects.get(pk=pk).state for pk in (first, second, other)] == ["live", "live", "pending"]

    # A member who is staff but maintains nothing is not offered the review, and cannot force it.
    member = _staff(bob)
    assert "approve_selected" not in member.get("/admin/memories/memory/", {"lifecycle": "all"}).content.decode()
    pending = _capture(watcher, "Another capture.")["memory"]["id"]
    before = store_snapshot()
    member.post("/admin/memories/memory/", {"action": "approve_selected", "_selected_action": [pending]})
    assert store_snapshot() == before


def test_a_team_admin_corrects_and_approves_one_in_the_admin(alice, dave, reviewed, watcher):
    pending = _capture(watcher, "The budget is 40k, I think.")["memory"]["id"]
    lead = _staff(dave)
    page = lead.get(f"/admin/memories/memory/{pending}/change/").content.decode()
    assert 'id="zm-review"' in page
    review_url = f"/admin/memories/memory/{pending}/review/"
    assert "The budget is 40k, I think." in lead.get(review_url).content.decode()

    answer = lead.post(review_url, {"verdict": "edit", "content": "The budget is 45k.", "reason": "checked"})

    assert answer.status_code == 302
    old = Memory.objects.get(pk=pending)
    assert old.state == "superseded"
    new = Memory.objects.get(pk=old.superseded_by_id)
    assert (new.content, new.owner, new.state) == ("The budget is 45k.", dave.user, "live")
    assert answer["Location"].endswith(f"/admin/memories/memory/{quote(new.pk)}/change/")


def test_restoring_a_pending_memory_changes_nothing(alice, reviewed, watcher):
    pending = _capture(watcher)["memory"]["id"]
    before = store_snapshot()

    answer = alice.client.post(f"/api/v1/memories/{pending}/restore/", {}, format="json")

    assert answer.status_code == 200
    assert answer.json()["state"] == "pending"
    assert store_snapshot() == before


def test_a_private_capture_counts_at_once_as_no_maintainer_could_read_it(alice, dave, reviewed, watcher):
    private = _capture(watcher, "My own reminder: renew the passport.", visibility="private")["memory"]
    assert private["state"] == "live"
    assert dave.client.get(f"/api/v1/memories/{private['id']}/").status_code == 404


def _retired_while_pending(*memory_ids: str) -> list[tuple[str, bool]]:
    rows = Memory.objects.filter(pk__in=memory_ids).values_list("pk", "state", "retired_while_pending")
    by_id = {pk: (state, flag) for pk, state, flag in rows}
    return [by_id[memory_id] for memory_id in memory_ids]


def test_the_row_says_it_was_retired_from_review_and_a_restore_clears_it(alice, dave, reviewed, watcher):
    """Restore reads the memory's lifecycle (the row), not its retirement event's data."""
    rejected = _capture(watcher)["memory"]["id"]
    withdrawn = _capture(watcher, "The office moves in May, someone said.")["memory"]["id"]
    replaced = _capture(watcher, "The release is on Tuesday, someone said.")["memory"]["id"]
    counted = make_memory(alice.user, "The team lunch is on Friday.", project=reviewed).pk
    dave.client.post(f"/api/v1/memories/{rejected}/reject/", {}, format="json")
    alice.client.post(f"/api/v1/memories/{withdrawn}/forget/", {}, format="json")
    dave.client.post(f"/api/v1/memories/{replaced}/approve/", {"content": "The release is on Tuesday."}, format="json")
    alice.client.post(f"/api/v1/memories/{counted}/forget/", {}, format="json")

    assert _retired_while_pending(rejected, withdrawn, replaced, counted) == [
        ("forgotten", True),
        ("forgotten", True),
        ("superseded", True),
        ("forgotten", False),
    ]
    for memory_id in (rejected, withdrawn, counted):
        alice.client.post(f"/api/v1/memories/{memory_id}/restore/", {}, format="json")
    dave.client.post(f"/api/v1/memories/{replaced}/restore/", {}, format="json")
    assert _retired_while_pending(rejected, withdrawn, replaced, counted) == [
        ("pending", False),
        ("pending", False),
        ("pending", False),
        ("live", False),
    ]


def test_migration_0032_carries_over_what_the_retirement_events_said(alice, dave, reviewed, watcher):
    """The existing retired memories' flag comes from their last retirement event, as restore read it."""
    import importlib

    from django.db import connection

    migration = importlib.import_module("memories.migrations.0032_memory_retired_while_pending")
    rejected = _capture(watcher)["memory"]["id"]
    counted = make_memory(alice.user, "The team lunch is on Friday.", project=reviewed).pk
    # Rejected from review, restored to it, approved, then forgotten: its last retirement is not from review.
    again = _capture(watcher, "The office moves in May, someone said.")["memory"]["id"]
    dave.client.post(f"/api/v1/memories/{rejected}/reject/", {}, format="json")
    alice.client.post(f"/api/v1/memories/{counted}/forget/", {}, format="json")
    dave.client.post(f"/api/v1/memories/{again}/reject/", {}, format="json")
    dave.client.post(f"/api/v1/memories/{again}/restore/", {}, format="json")
    dave.client.post(f"/api/v1/memories/{again}/approve/", {}, format="json")
    alice.client.post(f"/api/v1/memories/{again}/forget/", {}, format="json")
    pending = _capture(watcher, "The car park closes at six, someone said.")["memory"]["id"]
    with connection.cursor() as cursor:  # the rows as before the migration: no flag anywhere
        cursor.execute("UPDATE memories_memory SET retired_while_pending = false")
        cursor.execute(migration.CARRY_OVER)

    assert _retired_while_pending(rejected, counted, again, pending) == [
        ("forgotten", True),
        ("forgotten", False),
        ("forgotten", False),
        ("pending", False),
    ]
