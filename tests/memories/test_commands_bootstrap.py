"""The bootstrap commands with exactly the signatures of SPEC §8."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from memories.models import Credential, Membership, Project


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_create_project_is_idempotent(db):
    run("create_project", "acme", "--name", "Acme Corp")
    run("create_project", "acme")

    assert list(Project.objects.values_list("slug", "name")) == [("acme", "Acme Corp")]


def test_create_project_rejects_a_bad_slug(db):
    with pytest.raises(CommandError, match="not a valid slug"):
        run("create_project", "not a slug")
    assert not Project.objects.exists()


def test_issue_token_prints_the_token_alone_on_the_last_line_and_it_works(db):
    output = run("issue_token", "alice", "--create-user", "--name", "laptop")
    token = output.strip().splitlines()[-1]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")

    stored = client.post("/api/v1/memories/", {"content": "Hello"}, format="json")
    read = client.get(f"/api/v1/memories/{stored.json()['memory']['id']}/")

    assert token.startswith("zm_")
    assert " " not in token
    assert stored.status_code == 201
    assert read.json()["content"] == "Hello"
    assert Credential.objects.get().label == "laptop"


def test_issue_token_without_create_user_refuses_an_unknown_user(db):
    with pytest.raises(CommandError, match="No user named 'ghost'"):
        run("issue_token", "ghost")
    assert not get_user_model().objects.exists()
    assert not Credential.objects.exists()


def test_issue_token_provisional(db):
    run("issue_token", "watcher", "--create-user", "--provisional")

    assert Credential.objects.get().provenance == "provisional"


def test_add_member_defaults_to_member_and_updates_the_role(db):
    run("create_project", "acme")
    run("issue_token", "bob", "--create-user")

    run("add_member", "acme", "bob")
    assert Membership.objects.get().role == "member"
    run("add_member", "acme", "bob", "--role", "maintainer")
    run("add_member", "acme", "bob", "--role", "maintainer")

    assert list(Membership.objects.values_list("user__username", "role")) == [("bob", "maintainer")]


def test_add_member_needs_an_existing_project_and_user(db):
    with pytest.raises(CommandError, match="No project 'nope'"):
        run("add_member", "nope", "bob")
    run("create_project", "acme")
    with pytest.raises(CommandError, match="No user named 'bob'"):
        run("add_member", "acme", "bob")
    assert not Membership.objects.exists()


def test_revoke_token_by_label_then_by_prefix(db):
    laptop = run("issue_token", "alice", "--create-user", "--name", "laptop").strip().splitlines()[-1]
    ci = run("issue_token", "alice", "--name", "ci").strip().splitlines()[-1]
    ci_prefix = ci.split("_")[1]

    run("revoke_token", "laptop", "alice")
    run("revoke_token", ci_prefix, "alice")

    for token in (laptop, ci):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
        assert client.get("/api/v1/memories/").status_code == 401
    with pytest.raises(CommandError, match="no active token"):
        run("revoke_token", "laptop", "alice")


def test_revoke_token_only_touches_the_named_users_tokens(db):
    run("issue_token", "alice", "--create-user", "--name", "laptop")
    run("issue_token", "bob", "--create-user", "--name", "laptop")

    run("revoke_token", "laptop", "bob")

    assert list(Credential.objects.filter(revoked_at__isnull=True).values_list("user__username", flat=True)) == [
        "alice"
    ]
