"""Scoped credentials (issue_token --project/--read-only/--expires) and GET /api/v1/whoami/: a
scope only ever narrows what its user may see and do, through the one visibility rule."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone
from rest_framework.test import APIClient

from memories import services
from memories.choices import Role, State
from memories.models import AccountEvent, Credential, Project
from tests.factories import ProjectFactory, make_memory
from tests.helpers import store_snapshot, supersedes


def issue(*args: str) -> APIClient:
    out = StringIO()
    call_command(*args, stdout=out)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {out.getvalue().strip().splitlines()[-1]}")
    return client


@pytest.fixture
def globex(alice) -> Project:
    project: Project = ProjectFactory.create(slug="globex", name="Globex")
    services.membership_set(actor=None, via="tests", project=project, user=alice.user, role=Role.MAINTAINER)
    return project


@pytest.fixture
def stories(alice, bob, acme, globex):
    return {
        "personal": make_memory(alice.user, "Alice's personal note about the ledger."),
        "acme": make_memory(alice.user, "Acme's ledger closes on the 5th.", project=acme),
        "acme_bob": make_memory(bob.user, "Bob's acme note about the ledger.", project=acme),
        "globex": make_memory(alice.user, "Globex's ledger closes on the 9th.", project=globex),
    }


def feed_ids(client: APIClient) -> set[str]:
    return {memory["id"] for memory in client.get("/api/v1/memories/").json()["results"]}


def recall_ids(client: APIClient, **options) -> set[str]:
    body = client.post("/api/v1/recall/", {"query": "ledger", "limit": 50, **options}, format="json").json()
    return {hit["memory"]["id"] for hit in body["results"]}


def test_a_project_scope_narrows_every_read_to_its_projects(alice, stories):
    full = alice.client
    scoped = issue("issue_token", "alice", "--project", "acme", "--name", "acme-bot")
    everything = {memory.id for memory in stories.values()}
    in_acme = {stories["acme"].id, stories["acme_bob"].id}

    assert feed_ids(full) == recall_ids(full) == everything
    assert feed_ids(scoped) == recall_ids(scoped) == in_acme
    assert scoped.get(f"/api/v1/memories/{stories['personal'].id}/").status_code == 404
    assert scoped.get(f"/api/v1/memories/{stories['globex'].id}/").status_code == 404
    assert scoped.get(f"/api/v1/memories/{stories['globex'].id}/history/").status_code == 404
    assert scoped.post("/api/v1/recall/", {"query": "ledger", "project": "globex"}, format="json").status_code == 404
    context = scoped.post("/api/v1/context/", {"query": "ledger"}, format="json").json()
    assert {item["id"] for item in context["items"]} == in_acme
    # The same user's full token still sees everything (the compiled rules are cached per scope).
    assert recall_ids(full) == everything


def test_a_project_scope_writes_only_into_its_projects(alice, stories):
    scoped = issue("issue_token", "alice", "--project", "acme")
    before = store_snapshot()

    personal = scoped.post("/api/v1/memories/", {"content": "A personal note."}, format="json")
    elsewhere = scoped.post("/api/v1/memories/", {"content": "A globex note.", "project": "globex"}, format="json")
    retire_outside = scoped.post(
        "/api/v1/memories/",
        {
            "content": "Globex's ledger closes on the 10th.",
            "project": "acme",
            "links": supersedes(stories["globex"].id),
        },
        format="json",
    )
    forget_outside = scoped.post(f"/api/v1/memories/{stories['personal'].id}/forget/", {}, format="json")

    assert (personal.status_code, personal.json()["error"]["code"]) == (403, "outside_token_scope")
    assert (elsewhere.status_code, elsewhere.json()["error"]["code"]) == (404, "project_not_found")
    assert (retire_outside.status_code, retire_outside.json()["error"]["code"]) == (403, "supersede_target_forbidden")
    assert forget_outside.status_code == 404
    assert store_snapshot() == before

    stored = scoped.post(
        "/api/v1/memories/",
        {"content": "Acme's ledger closes on the 6th.", "project": "acme", "links": supersedes(stories["acme"].id)},
        format="json",
    )
    assert stored.status_code == 201
    stories["acme"].refresh_from_db()
    assert stories["acme"].state == State.SUPERSEDED


def test_similar_existing_of_a_scoped_write_stays_in_scope(alice, stories):
    # The full token's write compiles similar_existing's SQL for (alice, acme) first.
    full = alice.client.post(
        "/api/v1/memories/", {"content": "The ledger is audited.", "project": "acme"}, format="json"
    )
    scoped = issue("issue_token", "alice", "--project", "acme")

    narrow = scoped.post(
        "/api/v1/memories/", {"content": "The ledger is reconciled.", "project": "acme"}, format="json"
    )

    assert stories["personal"].id in {entry["id"] for entry in full.json()["similar_existing"]}
    listed = {entry["id"] for entry in narrow.json()["similar_existing"]}
    assert stories["acme"].id in listed
    assert stories["personal"].id not in listed


def test_a_read_only_token_reads_everything_its_user_may_and_writes_nothing(alice, stories):
    reader = issue("issue_token", "alice", "--read-only")
    before = store_snapshot()

    assert recall_ids(reader) == {memory.id for memory in stories.values()}
    refusals = [
        reader.post("/api/v1/memories/", {"content": "New note."}, format="json"),
        reader.post("/api/v1/memories/batch/", {"items": [{"content": "New note."}]}, format="json"),
        reader.post(f"/api/v1/memories/{stories['acme'].id}/forget/", {}, format="json"),
        reader.post(
            "/api/v1/links/",
            {"src": stories["acme"].id, "dst": stories["globex"].id, "type": "relates_to"},
            format="json",
        ),
    ]

    assert [response.status_code for response in refusals[:1]] == [403]
    assert refusals[0].json()["error"]["code"] == "read_only_token"
    assert refusals[1].json()["results"][0]["error"]["code"] == "read_only_token"
    assert refusals[2].status_code == 403
    assert refusals[3].status_code in (403, 404)
    assert store_snapshot() == before


def test_an_expired_token_is_refused_like_a_revoked_one(alice, stories):
    client = issue("issue_token", "alice", "--expires", "1h", "--name", "short")
    assert client.get("/api/v1/memories/").status_code == 200
    Credential.objects.filter(label="short").update(expires_at=timezone.now() - timedelta(seconds=1))

    refused = client.get("/api/v1/memories/")

    assert refused.status_code == 401
    assert refused.json()["error"]["message"] == "Invalid, revoked or expired token."


def test_a_scope_cannot_reach_further_than_its_user(carol, acme):
    before = Credential.objects.count()

    with pytest.raises(CommandError, match="not a member of acme"):
        issue("issue_token", "carol", "--project", "acme")
    with pytest.raises(CommandError, match="No project nowhere"):
        issue("issue_token", "carol", "--project", "nowhere")
    with pytest.raises(CommandError, match="positive duration"):
        issue("issue_token", "carol", "--expires", "soon")

    assert Credential.objects.count() == before


def test_issuing_a_scoped_token_is_audited(alice, acme):
    issue("issue_token", "alice", "--project", "acme", "--read-only", "--expires", "30d", "--name", "ci")

    prefix = Credential.objects.get(label="ci").prefix
    event = AccountEvent.objects.filter(action="token_issued", credential_prefix=prefix).get()
    assert event.data["projects"] == ["acme"]
    assert event.data["read_only"] is True
    assert event.data["expires_at"] is not None


def test_whoami_says_who_which_token_what_it_reaches_and_the_budget_left(alice, acme, globex, settings):
    settings.RATE_LIMIT_PER_MINUTE = 100
    scoped = issue("issue_token", "alice", "--project", "globex", "--read-only", "--name", "ci")

    full = alice.client.get("/api/v1/whoami/").json()
    narrow = scoped.get("/api/v1/whoami/").json()

    assert full["user"] == "alice"
    assert full["credential"]["label"] == "agent"
    assert full["scope"] == {"projects": None, "read_only": False}
    assert full["projects"] == [
        {"slug": "acme", "name": "Acme", "role": "member"},
        {"slug": "globex", "name": "Globex", "role": "maintainer"},
    ]
    assert full["rate_limit"] == {"per_minute": 100, "remaining": 99}  # this request counted
    assert narrow["credential"]["label"] == "ci"
    assert narrow["scope"] == {"projects": ["globex"], "read_only": True}
    assert narrow["projects"] == [{"slug": "globex", "name": "Globex", "role": "maintainer"}]
    assert alice.client.get("/api/v1/whoami/").json()["rate_limit"]["remaining"] == 98
