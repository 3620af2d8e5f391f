"""export_memories / import_memories: JSON Lines that move a store between deployments."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command

from bench.zm_serve import share_exported_model
from memories.models import Link, Memory, MemoryEvent
from tests.factories import make_memory
from tests.helpers import remember, store_snapshot, supersedes
from tests.platform.helpers import child_env, free_port, manage
from zeromemory.embedded_db import EmbeddedServer


@pytest.fixture
def store(alice, acme):
    task = make_memory(alice.user, "Migrate billing to PG 18", kind="task", project=acme)
    remember(alice, "Billing runs on PG 18 now", project="acme", links=supersedes(task.id))
    gone = make_memory(alice.user, "The office is on floor 3", metadata={"source": "wiki"})
    alice.client.post(f"/api/v1/memories/{gone.id}/forget/", {"reason": "moved"}, format="json")
    make_memory(alice.user, "Personal: I prefer tabs", kind="preference")


def export(*args: str) -> list[str]:
    out = StringIO()
    call_command("export_memories", *args, stdout=out)
    return out.getvalue().splitlines()


def test_export_writes_memories_links_and_events(store):
    lines = [json.loads(line) for line in export()]

    kinds = [line["type"] for line in lines]
    assert kinds.count("memory") == 4
    assert kinds.count("link") == 1
    assert kinds.count("event") == MemoryEvent.objects.count()
    superseded = next(line for line in lines if line["type"] == "memory" and line["state"] == "superseded")
    assert superseded["loop_status"] == "closed"
    assert superseded["owner"] == "alice"
    assert superseded["project"] == "acme"
    assert "embedding" not in superseded
    assert len(next(json.loads(x) for x in export("--embeddings"))["embedding"]) == 384


def test_export_filters(store):
    assert {json.loads(line)["state"] for line in export("--state", "live") if '"type": "memory"' in line} == {"live"}
    assert all(
        json.loads(line)["project"] == "acme" for line in export("--project", "acme") if '"type": "memory"' in line
    )


def test_reimporting_changes_nothing(store, tmp_path):
    path = tmp_path / "backup.jsonl"
    path.write_text("\n".join(export()) + "\n")
    before = store_snapshot()

    out = StringIO()
    call_command("import_memories", str(path), stdout=out)

    assert store_snapshot() == before
    assert "'memory': 0" in out.getvalue()


def test_bad_lines_are_reported_and_good_ones_kept(alice, tmp_path, capsys):
    good: dict[str, object] = {
        "type": "memory",
        "id": "mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2T",
        "content": "Imported fact",
        "kind": "fact",
        "owner": "zoe",
        "project": None,
        "visibility": "private",
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
    }
    path = tmp_path / "mixed.jsonl"
    path.write_text(
        "\n".join(
            [
                json.dumps(good),
                "{broken",
                json.dumps(good | {"id": "mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2V", "kind": "rumour"}),
                json.dumps(
                    good
                    | {
                        "id": "mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2W",
                        "state": "superseded",
                        "superseded_by": "mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2X",
                        "invalidated_at": "2026-01-03T00:00:00Z",
                    }
                ),
            ]
        )
        + "\n"
    )

    with pytest.raises(SystemExit) as exit_info:
        call_command("import_memories", str(path), stdout=StringIO())

    assert exit_info.value.code == 1
    errors = capsys.readouterr().err
    assert "line 2:" in errors
    assert "line 3: 'kind' must be one of" in errors
    assert "line 4: refers to mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2X" in errors
    memory = Memory.objects.get(pk=good["id"])
    assert (memory.content, memory.owner.username, memory.created_at.year) == ("Imported fact", "zoe", 2026)
    assert len(memory.embedding) == 384


def test_dry_run_writes_nothing(store, tmp_path):
    path = tmp_path / "backup.jsonl"
    path.write_text("\n".join(export()) + "\n")
    before = store_snapshot()

    out = StringIO()
    call_command("import_memories", str(path), "--dry-run", stdout=out)

    assert "nothing written" in out.getvalue()
    assert store_snapshot() == before


@pytest.mark.django_db(transaction=True)
def test_a_round_trip_into_a_fresh_deployment_is_identical(store, tmp_path):
    path = tmp_path / "backup.jsonl"
    original = export("--embeddings")
    path.write_text("\n".join(original) + "\n")
    fresh = EmbeddedServer(tmp_path / "fresh", port=free_port())
    fresh.acquire("zm_fresh")
    share_exported_model(tmp_path / "unused")
    env = child_env(DATABASE_URL=fresh.url("zm_fresh"), ZEROMEMORY_DATA_DIR=str(tmp_path / "unused"))
    try:
        assert manage("migrate", "--noinput", env=env).returncode == 0
        imported = manage("import_memories", str(path), env=env)
        assert imported.returncode == 0, imported.stderr
        again = manage("export_memories", "--embeddings", env=env)
        assert manage("check_integrity", env=env).returncode == 0
    finally:
        fresh.destroy()

    assert sorted(again.stdout.splitlines()) == sorted(original)
    assert Link.objects.count() == 1


def events_by_memory(lines: list[str]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for row in map(json.loads, lines):
        if row["type"] == "memory":
            found.setdefault(row["id"], [])
        elif row["type"] == "event":
            found.setdefault(row["memory"], []).append(row["action"])
    return found


@pytest.mark.django_db(transaction=True)
def test_a_hand_edited_file_without_a_memorys_events_imports_into_a_store_that_passes_its_check(store, tmp_path):
    """SPEC §8: every memory has a created or imported event, so check_integrity stays clean
    after any successful import, whatever the file left out."""
    original = export()
    task = Memory.objects.get(kind="task")  # superseded, its loop closed by the successor
    edited = [
        line for line in original if not (json.loads(line)["type"] == "event" and json.loads(line)["memory"] == task.pk)
    ]
    assert len(edited) == len(original) - len(events_by_memory(original)[task.pk]) > 0
    path = tmp_path / "edited.jsonl"
    path.write_text("\n".join(edited) + "\n")
    fresh = EmbeddedServer(tmp_path / "fresh", port=free_port())
    fresh.acquire("zm_fresh")
    share_exported_model(tmp_path / "unused")
    env = child_env(DATABASE_URL=fresh.url("zm_fresh"), ZEROMEMORY_DATA_DIR=str(tmp_path / "unused"))
    try:
        assert manage("migrate", "--noinput", env=env).returncode == 0
        imported = manage("import_memories", str(path), env=env)
        checked = manage("check_integrity", env=env)
        first = manage("export_memories", env=env).stdout.splitlines()
        again = manage("import_memories", str(path), env=env)
        second = manage("export_memories", env=env).stdout.splitlines()
    finally:
        fresh.destroy()

    assert imported.returncode == 0, imported.stderr
    assert checked.returncode == 0, checked.stdout
    events = events_by_memory(first)
    assert events[task.pk] == ["imported"]
    # The memories whose lines came with their events got nothing more.
    assert {k: v for k, v in events.items() if k != task.pk} == {
        k: v for k, v in events_by_memory(original).items() if k != task.pk
    }
    # Importing the same file again finds the memory born already: no second imported event.
    assert again.returncode == 0, again.stderr
    assert "'event': 0" in again.stdout
    assert sorted(second) == sorted(first)


def test_an_imported_event_is_written_with_the_memory_and_only_once(alice, tmp_path):
    line: dict[str, object] = {
        "type": "memory",
        "content": "Imported fact",
        "kind": "fact",
        "owner": "zoe",
        "project": None,
        "visibility": "private",
        "provenance": "authoritative",
        "state": "live",
        "created_at": "2026-01-02T03:04:05Z",
    }
    bare, born = "mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2T", "mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2V"
    created = {
        "type": "event",
        "memory": born,
        "action": "created",
        "actor": "zoe",
        "created_at": "2026-01-02T03:04:05Z",
    }
    path = tmp_path / "two.jsonl"
    path.write_text("\n".join(json.dumps(row) for row in (line | {"id": bare}, line | {"id": born}, created)) + "\n")

    call_command("import_memories", str(path), stdout=StringIO())
    call_command("import_memories", str(path), stdout=StringIO())

    imported = MemoryEvent.objects.get(memory_id=bare)
    assert (imported.action, imported.actor, imported.data) == ("imported", None, {"source": "import_memories"})
    assert list(MemoryEvent.objects.filter(memory_id=born).values_list("action", flat=True)) == ["created"]
    call_command("check_integrity", stdout=StringIO())  # exits 1 on any breach
