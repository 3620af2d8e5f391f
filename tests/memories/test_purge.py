"""The audited purge (memories/services/purge.py): a memory's words erased for good, its ids,
links and events kept, and the database allowing exactly this path."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.contrib.admin.utils import quote
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import IntegrityError, connection, transaction
from django.test import Client

from memories import services
from memories.models import TOMBSTONE, FeedEvent, IdempotencyRecord, Link, Memory, MemoryEvent, MemorySentence
from memories.transfer import export_lines
from tests.factories import make_memory
from tests.helpers import remember, store_snapshot, supersedes

SECRET = "Alice's home address is 12 Rue des Lilas, Lyon; her phone is 06 12 34 56 78. She moves in June."


@pytest.fixture
def pair(alice, acme):
    old = make_memory(alice.user, "The team offsite is in Lyon in May.", project=acme)
    answer = remember(alice, SECRET, project="acme", metadata={"source": "hr note"}, links=supersedes(old.pk))
    return old, Memory.objects.get(pk=answer.json()["memory"]["id"])


def _purge(*ids: str, reason: str = "erasure request #42") -> services.Purged:
    return services.memory_purge(actor=None, via="tests", memory_ids=list(ids), reason=reason)


def test_a_purge_erases_the_words_and_keeps_the_history(alice, bob, pair):
    old, new = pair
    assert MemorySentence.objects.filter(memory=new).exists()
    links_before = list(Link.objects.order_by("pk").values_list("pk", "src_id", "dst_id", "type", "reverted"))
    events_before = list(MemoryEvent.objects.filter(memory=new).values_list("pk", "action"))

    done = _purge(new.pk)

    assert done.purged == [new.pk]
    new.refresh_from_db()
    assert new.content == TOMBSTONE
    assert new.metadata == {}
    assert new.session is None
    assert new.state == "forgotten"
    assert new.purged_at is not None
    assert list(new.embedding)[:2] == [1.0, 0.0]
    assert not MemorySentence.objects.filter(memory=new).exists()
    assert list(Link.objects.order_by("pk").values_list("pk", "src_id", "dst_id", "type", "reverted")) == links_before
    events = list(MemoryEvent.objects.filter(memory=new).order_by("created_at", "id").values_list("pk", "action"))
    assert events[: len(events_before)] == events_before
    assert [action for _, action in events[len(events_before) :]] == ["forgotten", "purged"]
    purged = MemoryEvent.objects.get(memory=new, action="purged")
    assert purged.reason == "erasure request #42"
    assert purged.data == {"via": "tests", "was": "live", "replays_scrubbed": 0}
    assert FeedEvent.objects.filter(memory=new, type="memory.purged").count() == 1

    # As the API shows it: the tombstone, in the history too; the old version is untouched.
    body = bob.client.get(f"/api/v1/memories/{new.pk}/").json()
    assert (body["content"], body["state"], body["metadata"]) == (TOMBSTONE, "forgotten", {})
    assert body["purged_at"] is not None
    history = bob.client.get(f"/api/v1/memories/{old.pk}/history/").json()
    assert [version["content"] for version in history["versions"]] == [old.content, TOMBSTONE]
    assert SECRET not in json.dumps(history)


def test_nothing_finds_the_words_again(alice, pair):
    _, new = pair
    _purge(new.pk)

    for include_superseded in (False, True):
        hits = alice.client.post(
            "/api/v1/recall/", {"query": SECRET, "include_superseded": include_superseded}, format="json"
        ).json()["results"]
        assert new.pk not in [hit["memory"]["id"] for hit in hits]
    again = remember(alice, SECRET, project="acme").json()
    assert again["absorbed"] is False
    assert new.pk not in [item["id"] for item in again["similar_existing"]]
    exported = "\n".join(export_lines(Memory.objects.select_related("owner", "project").order_by("created_at")))
    assert "Rue des Lilas" not in exported.replace(again["memory"]["content"], "")


def test_the_database_allows_no_other_content_change(pair):
    old, new = pair
    _purge(new.pk)
    before = store_snapshot()

    def refused(sql: str, params: list[str], *, purging: str = "") -> bool:
        try:
            with transaction.atomic(), connection.cursor() as cursor:
                if purging:
                    cursor.execute("SELECT set_config('zeromemory.purging', %s, true)", [purging])
                cursor.execute(sql, params)
        except IntegrityError:
            return True
        return False

    assert refused("UPDATE memories_memory SET content = 'rewritten' WHERE id = %s", [old.pk])
    # The purge's own setting, but not the tombstone, or not this memory: refused alike.
    assert refused(
        "UPDATE memories_memory SET content = 'x', purged_at = now() WHERE id = %s", [old.pk], purging=old.pk
    )
    assert refused(
        "UPDATE memories_memory SET content = %s, purged_at = now(), state = 'forgotten', "
        "invalidated_at = now(), superseded_by_id = NULL WHERE id = %s",
        [TOMBSTONE, old.pk],
        purging=new.pk,
    )
    # Once purged: never un-purged, never rewritten, never live.
    assert refused("UPDATE memories_memory SET purged_at = NULL WHERE id = %s", [new.pk], purging=new.pk)
    assert refused("UPDATE memories_memory SET content = 'back' WHERE id = %s", [new.pk], purging=new.pk)
    assert refused(
        "UPDATE memories_memory SET state = 'live', invalidated_at = NULL WHERE id = %s", [new.pk], purging=new.pk
    )
    assert store_snapshot() == before
    assert Memory.objects.get(pk=old.pk).content == "The team offsite is in Lyon in May."


def test_a_purged_memory_cannot_be_restored(alice, pair):
    _, new = pair
    _purge(new.pk)
    before = store_snapshot()

    answer = alice.client.post(f"/api/v1/memories/{new.pk}/restore/", {}, format="json")

    assert answer.status_code == 409
    assert answer.json()["error"]["code"] == "not_live"
    assert "purged" in answer.json()["error"]["message"]
    assert store_snapshot() == before


def test_purging_is_all_or_nothing_and_twice_is_a_no_op(pair):
    old, new = pair
    before = store_snapshot()
    with pytest.raises(Exception, match="mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2T"):
        _purge(new.pk, "mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2T")
    assert store_snapshot() == before
    assert Memory.objects.get(pk=new.pk).purged_at is None

    _purge(new.pk)
    again = _purge(new.pk, old.pk)
    assert (again.purged, again.already) == ([old.pk], [new.pk])
    assert MemoryEvent.objects.filter(memory=new, action="purged").count() == 1


def test_a_replayed_write_answers_the_tombstone(alice, acme):
    first = alice.client.post(
        "/api/v1/memories/",
        {"content": SECRET, "project": "acme"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="write-1",
    ).json()
    _purge(first["memory"]["id"])

    replay = alice.client.post(
        "/api/v1/memories/",
        {"content": SECRET, "project": "acme"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="write-1",
    ).json()

    assert replay["memory"]["id"] == first["memory"]["id"]
    assert replay["memory"]["content"] == TOMBSTONE
    assert all(
        SECRET not in json.dumps(body) for body in IdempotencyRecord.objects.values_list("response_body", flat=True)
    )
    assert MemoryEvent.objects.get(action="purged").data["replays_scrubbed"] == 1


def test_check_integrity_understands_tombstones(pair):
    _, new = pair
    _purge(new.pk)
    out = StringIO()
    call_command("check_integrity", stdout=out)
    assert out.getvalue() == "All lifecycle invariants hold.\n"

    # A purged event whose erasure never happened (a bug, or a hand edit) is a breach.
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute(
            "UPDATE memories_memoryevent SET memory_id = %s WHERE memory_id = %s AND action = 'purged'",
            [pair[0].pk, new.pk],
        )
        cursor.execute("SET LOCAL session_replication_role = DEFAULT")
    out = StringIO()
    with pytest.raises(SystemExit):
        call_command("check_integrity", stdout=out, stderr=StringIO())
    assert f"BREACH purge_unrecorded: {new.pk}: purged without a purged event" in out.getvalue()
    assert f"BREACH purge_incomplete: {pair[0].pk}" in out.getvalue()


def test_a_tombstone_exports_and_imports_as_one(alice, pair, tmp_path):
    _, new = pair
    _purge(new.pk)
    new.refresh_from_db()
    lines = [
        json.loads(line)
        for line in export_lines(Memory.objects.select_related("owner", "project").order_by("created_at"))
    ]
    tombstone = next(line for line in lines if line.get("id") == new.pk)
    assert tombstone["content"] == TOMBSTONE
    assert tombstone["purged_at"] is not None

    moved = dict(tombstone, id="mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2T", superseded_by=None)
    path = tmp_path / "tombstone.jsonl"
    path.write_text(json.dumps(moved) + "\n")
    call_command("import_memories", str(path), stdout=StringIO())
    imported = Memory.objects.get(pk="mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2T")
    assert (imported.content, imported.state, imported.purged_at) == (TOMBSTONE, "forgotten", new.purged_at)

    forged = dict(moved, id="mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2V", content="Words that claim to be purged.")
    path.write_text(json.dumps(forged) + "\n")
    with pytest.raises(SystemExit):
        call_command("import_memories", str(path), stdout=StringIO(), stderr=StringIO())
    assert not Memory.objects.filter(pk="mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2V").exists()


def test_the_command_asks_shows_and_refuses_unknown_ids(pair):
    old, new = pair
    before = store_snapshot()
    out = StringIO()
    call_command("purge_memories", new.pk, "--reason", "erasure", "--dry-run", stdout=out)
    assert "Dry run: 1 memory would be purged." in out.getvalue()
    with pytest.raises(CommandError, match="No memory mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2T; nothing was purged"):
        call_command("purge_memories", new.pk, "mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2T", "--reason", "x", "--yes")
    with pytest.raises(CommandError, match="pass --yes"):
        call_command("purge_memories", new.pk, "--reason", "erasure", stdout=StringIO())
    assert store_snapshot() == before

    out = StringIO()
    call_command("purge_memories", new.pk, old.pk, "--reason", "erasure", "--yes", stdout=out)
    assert "Purged 2 memories." in out.getvalue()
    assert set(Memory.objects.filter(purged_at__isnull=False).values_list("pk", flat=True)) == {old.pk, new.pk}


def test_only_a_superuser_purges_in_the_admin(alice, dave, pair):
    _, new = pair
    dave.user.is_staff = True
    dave.user.save()
    lead = Client()
    lead.force_login(dave.user)
    listing = lead.get("/admin/memories/memory/").content.decode()
    assert "purge_selected" not in listing
    before = store_snapshot()
    forced = lead.post(
        "/admin/memories/memory/",
        {"action": "purge_selected", "_selected_action": [new.pk], "confirmed": "yes", "reason": "because"},
    )
    assert forced.status_code in (200, 302)
    assert store_snapshot() == before

    root = Client()
    root.force_login(User.objects.create_superuser("root", password="correct horse battery"))
    assert "purge_selected" in root.get("/admin/memories/memory/").content.decode()
    confirm = root.post("/admin/memories/memory/", {"action": "purge_selected", "_selected_action": [new.pk]})
    assert confirm.status_code == 200
    assert "Purging erases the content" in confirm.content.decode()
    assert f'href="/admin/memories/memory/{quote(new.pk)}/change/"' in confirm.content.decode()  # the id, a link
    assert Memory.objects.get(pk=new.pk).purged_at is None  # asked, not done
    no_reason = root.post(
        "/admin/memories/memory/",
        {"action": "purge_selected", "_selected_action": [new.pk], "confirmed": "yes", "reason": " "},
    )
    assert "Say why" in no_reason.content.decode()
    assert Memory.objects.get(pk=new.pk).purged_at is None
    done = root.post(
        "/admin/memories/memory/",
        {"action": "purge_selected", "_selected_action": [new.pk], "confirmed": "yes", "reason": "erasure #7"},
        follow=True,
    )
    assert "Purged 1 memories." in done.content.decode()
    event = MemoryEvent.objects.get(memory=new, action="purged")
    assert event.actor is not None
    assert (event.reason, event.actor.username, event.data["via"]) == ("erasure #7", "root", "admin")


def test_a_purged_version_is_neither_recalled_nor_quoted(alice, pair):
    old, new = pair
    _purge(old.pk)  # the superseded version: it stays superseded, without its words

    hits = alice.client.post(
        "/api/v1/recall/", {"query": "Where is the team offsite?", "include_superseded": True}, format="json"
    ).json()["results"]
    assert old.pk not in [hit["memory"]["id"] for hit in hits]
    assert new.pk in [hit["memory"]["id"] for hit in hits]
    pack = alice.client.post("/api/v1/context/", {"query": "Where is the team offsite?"}, format="json").json()
    assert "was:" not in pack["text"]
    assert TOMBSTONE not in pack["text"]
