"""Every change to projects, memberships and tokens names its actor and leaves one AccountEvent,
whether it came from a command or the admin; the log itself cannot be changed."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import IntegrityError, transaction

from memories import services
from memories.errors import NotLive
from memories.models import AccountEvent, Credential, Membership, Project

PROVENANCE = "authoritative"


def run(*args: str) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def trail() -> list[tuple]:
    return list(
        AccountEvent.objects.order_by("id").values_list(
            "action", "actor__username", "via", "project_slug", "username", "data"
        )
    )


def test_the_bootstrap_commands_are_audited_as_the_operator_at_the_shell(db):
    run("create_project", "acme", "--name", "Acme")
    run("create_project", "acme")  # idempotent: nothing changed, nothing logged
    run("create_project", "acme", "--name", "Acme Corp")
    output = run("issue_token", "alice", "--create-user", "--name", "laptop")
    run("add_member", "acme", "alice")
    run("add_member", "acme", "alice")  # already a member with that role
    run("add_member", "acme", "alice", "--role", "maintainer")
    prefix = Credential.objects.get().prefix
    run("revoke_token", "laptop", "alice")

    assert output.strip().splitlines()[-1].startswith("zm_")
    assert trail() == [
        ("project_created", None, "manage.py create_project", "acme", "", {}),
        ("project_renamed", None, "manage.py create_project", "acme", "", {"from": "Acme", "to": "Acme Corp"}),
        (
            "token_issued",
            None,
            "manage.py issue_token",
            "",
            "alice",
            {"label": "laptop", "provenance": "authoritative"},
        ),
        ("member_added", None, "manage.py add_member", "acme", "alice", {"role": "member"}),
        ("role_changed", None, "manage.py add_member", "acme", "alice", {"from": "member", "to": "maintainer"}),
        ("token_revoked", None, "manage.py revoke_token", "", "alice", {}),
    ]
    assert set(AccountEvent.objects.values_list("credential_prefix", flat=True)) == {"", prefix}


def test_a_refused_revocation_changes_nothing_and_logs_nothing(db):
    user = User.objects.create_user("alice")
    credential, _ = services.credential_issue(actor=None, via="tests", user=user, provenance="authoritative")
    services.credential_revoke(actor=None, via="tests", credential=credential)
    revoked_at = Credential.objects.get().revoked_at
    before = trail()

    with pytest.raises(NotLive, match="already revoked"):
        services.credential_revoke(actor=None, via="tests", credential=credential)

    assert trail() == before
    assert Credential.objects.get().revoked_at == revoked_at


def test_the_audit_log_refuses_update_and_delete(db):
    services.project_create(actor=None, via="tests", slug="acme")
    event = AccountEvent.objects.get()

    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        AccountEvent.objects.filter(pk=event.pk).update(via="forged")
    with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
        AccountEvent.objects.filter(pk=event.pk).delete()

    assert AccountEvent.objects.get().via == "tests"


def _membership_form(project: Project, rows: list[dict], *, name: str) -> dict[str, str]:
    existing = [row for row in rows if "id" in row]
    data = {
        "slug": project.slug,
        "name": name,
        "memberships-TOTAL_FORMS": str(len(rows)),
        "memberships-INITIAL_FORMS": str(len(existing)),
        "memberships-MIN_NUM_FORMS": "0",
        "memberships-MAX_NUM_FORMS": "1000",
    }
    for index, row in enumerate(rows):
        for field, value in row.items():
            data[f"memberships-{index}-{field}"] = str(value)
        data[f"memberships-{index}-project"] = str(project.pk)
    return data


def test_the_admin_changes_accounts_through_the_audited_services(db, client):
    root = User.objects.create_superuser("root")
    bob = User.objects.create_user("bob")
    carol = User.objects.create_user("carol")
    client.force_login(root)

    added = client.post(
        "/admin/memories/project/add/",
        {
            "slug": "acme",
            "name": "Acme",
            "memberships-TOTAL_FORMS": "1",
            "memberships-INITIAL_FORMS": "0",
            "memberships-MIN_NUM_FORMS": "0",
            "memberships-MAX_NUM_FORMS": "1000",
            "memberships-0-user": str(bob.pk),
            "memberships-0-role": "member",
        },
    )
    project = Project.objects.get()
    membership = Membership.objects.get()
    change_url = f"/admin/memories/project/{project.pk}/change/"
    renamed = client.post(
        change_url,
        _membership_form(
            project,
            [{"id": membership.pk, "user": bob.pk, "role": "maintainer"}, {"user": carol.pk, "role": "member"}],
            name="Acme Corp",
        ),
    )
    bob_row = Membership.objects.get(user=bob)
    carol_row = Membership.objects.get(user=carol)
    removed = client.post(
        change_url,
        _membership_form(
            project,
            [
                {"id": bob_row.pk, "user": bob.pk, "role": "maintainer", "DELETE": "on"},
                {"id": carol_row.pk, "user": carol.pk, "role": "member"},
            ],
            name="Acme Corp",
        ),
    )

    assert [added.status_code, renamed.status_code, removed.status_code] == [302, 302, 302]
    assert list(Membership.objects.values_list("user__username", "role")) == [("carol", "member")]
    assert trail() == [
        ("project_created", "root", "admin", "acme", "", {}),
        ("member_added", "root", "admin", "acme", "bob", {"role": "member"}),
        ("project_renamed", "root", "admin", "acme", "", {"from": "Acme", "to": "Acme Corp"}),
        ("role_changed", "root", "admin", "acme", "bob", {"from": "member", "to": "maintainer"}),
        ("member_added", "root", "admin", "acme", "carol", {"role": "member"}),
        ("member_removed", "root", "admin", "acme", "bob", {}),
    ]


def test_the_admin_relabels_and_revokes_tokens_as_the_signed_in_admin(db, client):
    root = User.objects.create_superuser("root")
    alice = User.objects.create_user("alice")
    credential, _ = services.credential_issue(
        actor=None, via="tests", user=alice, label="laptop", provenance="authoritative"
    )
    client.force_login(root)
    page = f"/admin/memories/credential/{credential.pk}/change/"

    relabelled = client.post(page, {"label": "desktop"})
    revoked = client.post("/admin/memories/credential/", {"action": "revoke", "_selected_action": [str(credential.pk)]})

    credential.refresh_from_db()
    assert [relabelled.status_code, revoked.status_code] == [302, 302]
    assert credential.label == "desktop"
    assert credential.revoked_at is not None
    assert trail()[1:] == [
        ("token_relabelled", "root", "admin", "", "alice", {"from": "laptop", "to": "desktop"}),
        ("token_revoked", "root", "admin", "", "alice", {}),
    ]
