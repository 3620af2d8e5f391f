"""The secret guard (memories/secret_guard.py): credentials in a write are redacted, or refused
under a project's ``block`` policy, the same through remember, batch writes and the import."""

from __future__ import annotations

import json
from io import StringIO
from typing import Any

import numpy as np
import pytest
from django.core.management import call_command

from memories import services
from memories.choices import SecretPolicy
from memories.embedding import get_embedder
from memories.models import AccountEvent, FeedEvent, Memory, MemoryEvent, Project
from memories.secret_guard import find, screen
from tests.helpers import remember, store_snapshot

AWS = "AKIAIOSFODNN7EXAMPLE"
GITHUB = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
SLACK = "xoxb-123456789012-1234567890123-abcdefghijklmnopqrstuvwx"
JWT = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
PRIVATE_KEY = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq\nZm9vYmFy\n-----END RSA PRIVATE KEY-----"

CAUGHT = [
    (f"Deploy with {AWS} from the CI box.", "aws-access-key", AWS),
    (f"The CI token is {GITHUB} for now.", "github-token", GITHUB),
    (f"Post alerts with {SLACK} please.", "slack-token", SLACK),
    (f"Service account key:\n{PRIVATE_KEY}\nkeep it safe", "private-key", PRIVATE_KEY),
    (f"Session cookie {JWT} expires Friday.", "json-web-token", JWT),
    ("The replica is postgres://app:s3cr3t-pw@db.internal:5432/app", "basic-auth-credentials", "s3cr3t-pw"),
    (
        "curl -H 'Authorization: Bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a0' …",
        "bearer-token",
        "9f8e7d6c5b4a39281706f5e4d3c2b1a0",
    ),
    (
        "OpenAI: sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78",
        "openai-api-key",
        "sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78",
    ),
    (
        "Claude key sk-ant-api03-Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1",
        "anthropic-api-key",
        "sk-ant-api03-Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1",
    ),
    ("Maps: AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q", "google-api-key", "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"),
    ("Billing uses sk_live_4eC39HqLyjWDarjtT1zdp7dc in prod.", "stripe-access-key", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"),
]

ORDINARY = [
    "The deploy window is Monday 10:00 UTC.",
    "Alice prefers tabs over spaces; Bob does not care.",
    "See mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2T for the old plan, and ticket OPS-4411.",
    "Commit 3f786850e387550fdab836ed7e6dc881de23001b fixed the flaky test.",
    "The staging URL is https://staging.example.com/api/v1/health?verbose=1",
    "Mail the on-call at oncall@example.com; the password policy asks for 14 characters.",
    "Use the token bucket algorithm: 1200 requests per minute per key.",
    "Our API keys rotate every 90 days; ask the platform team for a new one.",
    "sha256 of the release: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "UUID 123e4567-e89b-12d3-a456-426614174000 names the tenant.",
]


def _cosine(left: Any, right: Any) -> float:
    a, b = np.asarray(left, dtype=float), np.asarray(right, dtype=float)
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


@pytest.mark.parametrize(("text", "kind", "secret"), CAUGHT)
def test_each_family_of_credentials_is_found_and_redacted_whole(text: str, kind: str, secret: str) -> None:
    screened = screen(text, None, limit=8000)
    assert screened.types == [kind]
    assert secret not in screened.content
    assert f"[redacted:{kind}]" in screened.content


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_notes_ids_and_hashes_are_left_alone(text: str) -> None:
    assert find(text) == []


def test_metadata_strings_are_screened_at_any_depth() -> None:
    screened = screen("A plain note.", {"env": {"keys": ["ok", f"aws={AWS}"]}, "n": 3}, limit=8000)
    assert screened.content == "A plain note."
    assert screened.metadata == {"env": {"keys": ["ok", "aws=[redacted:aws-access-key]"]}, "n": 3}
    assert screened.found == [{"type": "aws-access-key", "where": "metadata.env.keys[1]"}]


def test_a_write_with_a_credential_is_stored_redacted_with_an_event(alice, acme) -> None:
    answer = remember(alice, f"Deploy with {AWS} from the CI box.", project="acme", metadata={"by": GITHUB})

    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert body["redacted"] == [
        {"type": "aws-access-key", "where": "content"},
        {"type": "github-token", "where": "metadata.by"},
    ]
    memory = Memory.objects.get()
    assert memory.content == "Deploy with [redacted:aws-access-key] from the CI box."
    assert memory.metadata == {"by": "[redacted:github-token]"}
    assert body["memory"]["content"] == memory.content
    event = MemoryEvent.objects.get(memory=memory, action="secret_redacted")
    assert event.data == {"findings": body["redacted"]}
    assert AWS not in json.dumps(event.data)
    assert GITHUB not in json.dumps(event.data)
    # The vector is the redacted text's: nothing of the secret is kept, not even its embedding.
    assert _cosine(memory.embedding, get_embedder().embed([memory.content])[0]) > 0.9999
    assert AWS not in json.dumps([list(row) for row in FeedEvent.objects.values_list("data")])


def test_an_ordinary_write_says_nothing_about_secrets(alice, acme) -> None:
    body = remember(alice, "Lunch is at noon on Fridays.", project="acme").json()
    assert "redacted" not in body
    assert not MemoryEvent.objects.filter(action="secret_redacted").exists()


def test_a_blocking_project_refuses_the_write_and_stores_nothing(alice, acme) -> None:
    services.project_set_policy(actor=None, via="tests", project=acme, secret_policy=SecretPolicy.BLOCK)
    before = store_snapshot()

    answer = remember(alice, f"The CI token is {GITHUB} for now.", project="acme")

    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "secret_detected"
    assert "github-token" in error["message"]
    assert error["fields"] == {"content": ["looks like a credential (github-token) at content"]}
    assert GITHUB not in json.dumps(answer.json())
    assert store_snapshot() == before
    assert not FeedEvent.objects.filter(type="memory.created").exists()
    audit = AccountEvent.objects.get(action="secret_blocked")
    assert (audit.project_slug, audit.username, audit.credential_prefix) == ("acme", "alice", alice.credential.prefix)
    assert audit.data == {"findings": [{"type": "github-token", "where": "content"}]}
    # A personal memory of the same writer is redacted: the block is the project's choice.
    assert remember(alice, f"My own token {GITHUB}").status_code == 201


def test_batch_items_are_guarded_one_by_one(alice, acme) -> None:
    services.project_set_policy(actor=None, via="tests", project=acme, secret_policy=SecretPolicy.BLOCK)
    items: list[dict[str, Any]] = [
        {"content": "Fridays are for demos."},
        {"content": f"Personal: my key {AWS}."},
        {"content": f"Team key {AWS}.", "project": "acme"},
    ]

    answer = alice.client.post("/api/v1/memories/batch/", {"items": items}, format="json")

    results = answer.json()["results"]
    assert [result["status"] for result in results] == [201, 201, 400]
    assert results[1]["redacted"] == [{"type": "aws-access-key", "where": "content"}]
    assert results[2]["error"]["code"] == "secret_detected"
    stored = sorted(Memory.objects.values_list("content", flat=True))
    assert stored == ["Fridays are for demos.", "Personal: my key [redacted:aws-access-key]."]
    redacted = Memory.objects.get(content__startswith="Personal")
    # Embedded again from the redacted text, not taken from the batch's vectors of the original.
    assert _cosine(redacted.embedding, get_embedder().embed([redacted.content])[0]) > 0.9999
    assert _cosine(redacted.embedding, get_embedder().embed([items[1]["content"]])[0]) < 0.999


def _line(memory_id: str, content: str, project: str | None) -> str:
    return json.dumps(
        {
            "type": "memory",
            "id": memory_id,
            "content": content,
            "kind": "fact",
            "owner": "zoe",
            "project": project,
            "visibility": "project" if project else "private",
            "provenance": "authoritative",
            "session": None,
            "metadata": {},
            "state": "live",
            "superseded_by": None,
            "invalidated_at": None,
            "loop_status": None,
            "closed_by": None,
            "closed_at": None,
            "created_at": "2026-01-02T03:04:05Z",
            "updated_at": "2026-01-02T03:04:05Z",
            "embedding": [0.1] * 384,
        }
    )


def test_an_import_is_guarded_like_a_write(db, tmp_path, capsys) -> None:
    Project.objects.create(slug="vault", name="Vault", secret_policy=SecretPolicy.BLOCK)
    path = tmp_path / "with-secrets.jsonl"
    path.write_text(
        "\n".join(
            [
                _line("mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2T", f"Old CI token {GITHUB}.", None),
                _line("mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2V", f"Vault key {AWS}.", "vault"),
                _line("mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2W", "Nothing secret here.", "vault"),
            ]
        )
        + "\n"
    )

    with pytest.raises(SystemExit):
        call_command("import_memories", str(path), stdout=StringIO())

    errors = capsys.readouterr().err
    assert "line 2: holds what looks like a credential (aws-access-key); project 'vault' blocks them" in errors
    assert AWS not in errors
    assert sorted(Memory.objects.values_list("pk", flat=True)) == [
        "mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2T",
        "mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2W",
    ]
    redacted = Memory.objects.get(pk="mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2T")
    assert redacted.content == "Old CI token [redacted:github-token]."
    # The file's vector was of the secret: the stored one is computed from the redacted text.
    assert [round(x, 5) for x in redacted.embedding] != [0.1] * 384
    event = MemoryEvent.objects.get(memory=redacted, action="secret_redacted")
    assert event.data["findings"] == [{"type": "github-token", "where": "content"}]
    # An import is history, not news: nothing of it reaches the event feed.
    assert not FeedEvent.objects.exists()


def test_the_policy_is_set_by_the_command_and_audited(db) -> None:
    out = StringIO()
    call_command("create_project", "vault", "--secret-policy", "block", stdout=out)
    assert "secrets: block" in out.getvalue()
    assert Project.objects.get(slug="vault").secret_policy == "block"
    audit = AccountEvent.objects.get(action="project_policy_changed")
    assert audit.data == {"policy": "secret_policy", "from": "redact", "to": "block"}
    call_command("create_project", "vault", stdout=StringIO())  # without the option: unchanged
    assert Project.objects.get(slug="vault").secret_policy == "block"


def test_a_credential_in_a_forget_or_restore_reason_is_redacted_in_history_and_the_feed(alice) -> None:
    """A reason is free text read back by everyone who sees the memory's history, the feed and
    the webhooks: a key pasted into it is redacted as in content."""
    memory_id = remember(alice, "The staging bucket is s3://acme-stage.").json()["memory"]["id"]

    forget, restore = (f"/api/v1/memories/{memory_id}/{verb}/" for verb in ("forget", "restore"))
    forgot = alice.client.post(forget, {"reason": f"it held {AWS}, rotated"}, format="json")
    restored = alice.client.post(restore, {"reason": f"wrong one, {GITHUB}"}, format="json")
    history = alice.client.get(f"/api/v1/memories/{memory_id}/history/").json()

    assert (forgot.status_code, restored.status_code) == (200, 200)
    reasons = [event.reason for event in MemoryEvent.objects.filter(memory_id=memory_id).order_by("created_at", "id")]
    assert reasons == ["", "it held [redacted:aws-access-key], rotated", "wrong one, [redacted:github-token]"]
    text = json.dumps(history) + json.dumps(list(FeedEvent.objects.values("data")), default=str)
    assert AWS not in text
    assert GITHUB not in text
