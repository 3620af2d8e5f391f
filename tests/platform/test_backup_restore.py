"""./zm backup and ./zm restore (zeromemory/backup.py): the whole database, round-tripped into
another PostgreSQL cluster, and the event feed across the restore (memories.models.FeedEpoch)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from guardian.shortcuts import assign_perm

from memories import services
from memories.choices import SecretPolicy
from memories.models import WebhookEndpoint
from review.judges import Verdict
from review.pipeline import apply_verdict
from tests.conftest import Persona
from tests.factories import make_memory
from tests.platform.helpers import ROOT, child_env, free_port, manage
from zeromemory.backup import Target, _binary, target_from_settings
from zeromemory.embedded_db import EmbeddedServer

pytestmark = pytest.mark.django_db(transaction=True)

EVENTS = "/api/v1/events/"


@pytest.fixture
def other_cluster(tmp_path: Path) -> Iterator[EmbeddedServer]:
    """Another PostgreSQL cluster, as on the machine a backup is restored to: its own data folder,
    its own transaction-id counter."""
    server = EmbeddedServer(tmp_path / "restored", port=free_port())
    server.acquire("postgres")
    try:
        yield server
    finally:
        server.destroy()


def _source() -> Target:
    return target_from_settings(connection.settings_dict)


def _child_env(url: str) -> dict[str, str]:
    # The database at ``url``; the data folder only for the embedding model already built there.
    return child_env(DATABASE_URL=url, ZEROMEMORY_DATA_DIR=str(settings.DATA_DIR))


def _zm(*args: str, url: str) -> subprocess.CompletedProcess[str]:
    env = _child_env(url)
    return subprocess.run(
        [str(ROOT / "zm"), *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False
    )


def _app(url: str, script: str) -> Any:
    """Run ``script`` in a zeromemory process on the database at ``url`` (what a server started on
    the restored database would do); it prints one JSON value last."""
    result = manage("shell", "-c", script, env=_child_env(url))
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def _client(token: str) -> str:
    return (
        "import json\nfrom rest_framework.test import APIClient\n"
        f"c = APIClient(); c.credentials(HTTP_AUTHORIZATION='Bearer {token}')\n"
    )


def _tables(target: Target, dbname: str | None = None) -> dict[str, tuple[int, str]]:
    """Every table of the public schema (found, not listed by hand): its row count and a digest of
    all its rows in a fixed order; and every sequence's position."""
    with target.connect(dbname) as conn:
        names = [
            row[0]
            for row in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"
            ).fetchall()
        ]
        snapshot = {}
        for name in names:
            count, digest = conn.execute(
                f"SELECT count(*), md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) FROM \"{name}\" t"
            ).fetchone()  # type: ignore[misc]
            snapshot[name] = (count, digest)
        for name, last in conn.execute(
            "SELECT sequencename, coalesce(last_value, 0) FROM pg_sequences WHERE schemaname = 'public'"
        ).fetchall():
            snapshot[f"sequence {name}"] = (last, "")
    return snapshot


def _populate(alice: Persona, bob: Persona, dave: Persona, acme: Any) -> dict[str, str]:
    """One of everything a deployment keeps."""
    deploy = make_memory(
        alice.user, "The deploy window is Monday 10:00 UTC.", credential=alice.credential, project=acme
    )
    private = make_memory(
        alice.user, "My on-call swap with Bob is on the 14th.", credential=alice.credential, visibility="private"
    )
    assign_perm("memories.view_memory", bob.user, private)  # a grant
    older = make_memory(alice.user, "Releases are cut from the main branch.", credential=alice.credential, project=acme)
    newer = make_memory(bob.user, "Releases are cut from release branches.", credential=bob.credential, project=acme)
    apply_verdict(older_id=older.pk, newer_id=newer.pk, judge_name="test", verdict=Verdict("supersedes", 0.6, "time"))
    services.memory_forget(user=alice.user, credential=alice.credential, memory_id=private.pk, reason="swapped back")
    services.project_set_policy(actor=dave.user, via="tests", project=acme, secret_policy=SecretPolicy.BLOCK)
    WebhookEndpoint.objects.create(project=acme, url="https://hooks.example.com/zeromemory", description="chat")
    return {"deploy": deploy.pk}


def test_a_backup_restored_into_another_cluster_holds_everything_and_the_feed_moves_on(
    alice, bob, dave, acme, other_cluster, tmp_path
):
    ids = _populate(alice, bob, dave, acme)
    before = bob.client.get(EVENTS).json()
    saved_cursor = before["next"].split("cursor=")[1]
    # Bob's view: the project's three memories, and alice's private one he was granted (forgotten).
    assert [event["type"] for event in before["results"]] == ["memory.created"] * 4 + ["memory.forgotten"]
    backup_file = tmp_path / "zeromemory.backup"

    call_command("backup", str(backup_file), verbosity=0)
    source = _tables(_source())
    restored_url = other_cluster.url("zeromemory")
    restore = _zm("restore", str(backup_file), url=restored_url)

    assert restore.returncode == 0, restore.stderr
    assert "restore: [1/" in restore.stderr  # progress, table by table
    assert backup_file.stat().st_mode & 0o077 == 0  # the file is its owner's alone
    target = Target(dbname="zeromemory", host="127.0.0.1", port=str(other_cluster.port), user="postgres")
    restored = _tables(target)
    # The feed's epoch is the one thing a restore changes on purpose.
    epoch_before, epoch_after = source.pop("memories_feedepoch"), restored.pop("memories_feedepoch")
    assert epoch_before != epoch_after
    assert restored == source
    assert {"auth_user", "memories_credential", "memories_membership", "memories_memoryuserobjectpermission"} <= set(
        source
    )
    assert all(source[name][0] > 0 for name in ("memories_credential", "review_conflict", "memories_webhookendpoint"))

    answers = _app(
        restored_url,
        _client(bob.token)
        + "whoami = c.get('/api/v1/whoami/')\n"
        + "recall = c.post('/api/v1/recall/', {'query': 'When is the deploy window?', 'project': 'acme'}, "
        "format='json')\n"
        + f"old = c.get('{EVENTS}', {{'cursor': '{saved_cursor}'}})\n"
        + "m = c.post('/api/v1/memories/', {'content': 'Deploys moved to Tuesday.', 'project': 'acme'}, "
        "format='json')\n"
        + f"fresh = c.get('{EVENTS}', {{'limit': 100}})\n"
        + "print(json.dumps({'whoami': whoami.status_code, 'recall': recall.json(), 'old': [old.status_code, "
        "old.json()], 'new': m.json()['memory']['id'], 'fresh': fresh.json()['results']}))\n",
    )

    # A token issued before the backup still authenticates; recall finds what was stored.
    assert answers["whoami"] == 200
    assert ids["deploy"] in [hit["memory"]["id"] for hit in answers["recall"]["results"]]
    # A cursor taken before the restore is refused with what to do, not read on past new events.
    status, body = answers["old"]
    assert status == 410
    assert body["error"]["code"] == "feed_epoch_changed"
    with target.connect() as conn:
        assert body["error"]["epoch"] == conn.execute("SELECT epoch FROM memories_feedepoch").fetchone()[0]  # type: ignore[index]
    assert body["error"]["epoch"] > 0
    # Read afresh, the feed gives the restored events first and the new one after them.
    fresh = [(event["type"], event["memory"]) for event in answers["fresh"]]
    assert fresh[: len(before["results"])] == [(event["type"], event["memory"]) for event in before["results"]]
    assert fresh[len(before["results"]) :] == [("memory.created", answers["new"])]


def test_the_feed_epoch_moves_when_a_database_turns_up_in_another_cluster(alice, bob, acme, other_cluster):
    """Restored by hand (pg_dump | pg_restore, no ./zm restore): the migrate every start runs
    notices the other cluster, and a saved cursor answers 410 instead of skipping new events.
    Without the epoch, the new events' transaction ids (counted afresh in the new cluster) sort
    below the cursor and the reader never sees them."""
    make_memory(alice.user, "The office closes at 18:00 on Fridays.", credential=alice.credential, project=acme)
    # A deployment that has run for a while: its transaction count well above a new cluster's
    # after a restore (a few thousand), as any real one's is.
    with _source().connect() as conn:
        for _ in range(10_000):
            conn.execute("SELECT txid_current()")
    make_memory(alice.user, "Build agents run the nightly jobs.", credential=alice.credential, project=acme)
    saved_cursor = bob.client.get(EVENTS).json()["next"].split("cursor=")[1]
    source = _source()
    dump = subprocess.run(
        [_binary("pg_dump"), "--format=custom"], env=source.env(), capture_output=True, check=True
    ).stdout
    url = other_cluster.url("zeromemory")
    with psycopg.connect(other_cluster.url("postgres"), autocommit=True) as conn:
        conn.execute("CREATE DATABASE zeromemory")
    subprocess.run([_binary("pg_restore"), "--no-owner", "--dbname", url], input=dump, capture_output=True, check=True)
    migrate = manage("migrate", "--noinput", env=_child_env(url))
    assert migrate.returncode == 0, migrate.stderr

    answers = _app(
        url,
        _client(bob.token)
        + "m = c.post('/api/v1/memories/', {'content': 'The office now closes at 17:00.', 'project': 'acme'}, "
        "format='json')\n"
        + f"old = c.get('{EVENTS}', {{'cursor': '{saved_cursor}'}})\n"
        + "print(json.dumps({'new': m.json()['memory']['id'], 'old': [old.status_code, old.json()]}))\n",
    )

    # Without the epoch: 200, and the new event (its transaction id counted afresh, below the
    # cursor's) never shows to this reader.
    status, body = answers["old"]
    assert (status, body.get("error", {}).get("code")) == (410, "feed_epoch_changed"), body


def _deploy_memory_count(target: Target, dbname: str | None = None) -> int:
    with target.connect(dbname) as conn:
        return int(conn.execute("SELECT count(*) FROM memories_memory").fetchone()[0])  # type: ignore[index]


def test_a_restore_over_data_is_refused_without_replace_and_changes_nothing(alice, acme, other_cluster, tmp_path):
    make_memory(alice.user, "Staging runs on db-3.", credential=alice.credential, project=acme)
    backup_file = tmp_path / "one.backup"
    call_command("backup", str(backup_file), verbosity=0)
    url = other_cluster.url("zeromemory")
    assert _zm("restore", str(backup_file), url=url).returncode == 0
    target = Target(dbname="zeromemory", host="127.0.0.1", port=str(other_cluster.port), user="postgres")
    # The restored database moves on: a memory written there after the restore.
    _app(
        url,
        _client(alice.token)
        + "print(json.dumps(c.post('/api/v1/memories/', {'content': 'Staging moved to db-9.', 'project': 'acme'}, "
        "format='json').status_code))\n",
    )
    before = _tables(target)

    refused = _zm("restore", str(backup_file), url=url)

    assert refused.returncode != 0
    assert "is not empty" in refused.stderr
    assert "--replace" in refused.stderr
    assert _tables(target) == before

    # Another session on it (a server still running): refused too, even with --replace.
    with target.connect() as busy:
        busy.execute("SET application_name = 'zeromemory web'")
        held = _zm("restore", str(backup_file), "--replace", url=url)
    assert held.returncode != 0
    assert "in use by 1 other session(s): zeromemory web" in held.stderr
    assert _tables(target) == before
    with target.connect("postgres") as conn:
        databases = {row[0] for row in conn.execute("SELECT datname FROM pg_database").fetchall()}
    assert databases == {"postgres", "zeromemory", "template0", "template1"}

    replaced = _zm("restore", str(backup_file), "--replace", url=url)

    assert replaced.returncode == 0, replaced.stderr
    assert _deploy_memory_count(target) == 1  # the backup's one memory, not the two since
    with target.connect("postgres") as conn:
        databases = {row[0] for row in conn.execute("SELECT datname FROM pg_database").fetchall()}
    assert databases == {"postgres", "zeromemory", "template0", "template1"}  # the old one dropped


def test_a_backup_never_overwrites_a_file_unless_forced(alice, acme, tmp_path):
    existing = tmp_path / "kept.backup"
    existing.write_text("an older backup")

    with pytest.raises(Exception, match="exists already"):
        call_command("backup", str(existing), verbosity=0)
    assert existing.read_text() == "an older backup"

    call_command("backup", str(existing), "--force", verbosity=0)
    assert existing.read_bytes().startswith(b"PGDMP")
    assert [path.name for path in tmp_path.iterdir()] == ["kept.backup"]  # no partial file left


def _corrupted(tmp_path: Path) -> Path:
    """The backup with one memory's text turned into bytes that are not UTF-8: pg_restore gets
    part of the way (the tables before it load) and then fails."""
    plain = tmp_path / "plain.backup"
    subprocess.run(
        [_binary("pg_dump"), "--format=custom", "--compress=0", f"--file={plain}"], env=_source().env(), check=True
    )
    data = plain.read_bytes()
    marker = b"Corrupt me here."
    assert data.count(marker) >= 1
    broken = tmp_path / "broken.backup"
    broken.write_bytes(data.replace(marker, b"\xff" * len(marker)))
    return broken


def test_a_restore_that_fails_part_way_leaves_nothing_half_restored(alice, acme, other_cluster, tmp_path):
    make_memory(alice.user, "Corrupt me here.", credential=alice.credential, project=acme)
    good = tmp_path / "good.backup"
    call_command("backup", str(good), verbosity=0)
    broken = _corrupted(tmp_path)
    target = Target(dbname="zeromemory", host="127.0.0.1", port=str(other_cluster.port), user="postgres")
    url = other_cluster.url("zeromemory")

    # Into an empty database: one transaction, rolled back — not a table is left.
    with target.connect("postgres") as conn:
        conn.execute("CREATE DATABASE zeromemory")
    failed = _zm("restore", str(broken), url=url)
    assert failed.returncode != 0
    assert "pg_restore failed; nothing was changed" in failed.stderr
    assert "invalid byte sequence" in failed.stderr
    with target.connect() as conn:
        assert conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone() == (0,)

    # Over a database with data (--replace): the restore goes beside it and is dropped.
    assert _zm("restore", str(good), url=url).returncode == 0
    before = _tables(target)
    failed = _zm("restore", str(broken), "--replace", url=url)
    assert failed.returncode != 0
    assert _tables(target) == before
    with target.connect("postgres") as conn:
        databases = {row[0] for row in conn.execute("SELECT datname FROM pg_database").fetchall()}
    assert databases == {"postgres", "zeromemory", "template0", "template1"}


def test_a_file_that_is_not_a_backup_is_refused_before_anything_is_touched(alice, acme, other_cluster, tmp_path):
    not_a_backup = tmp_path / "notes.txt"
    not_a_backup.write_text("not a backup")
    url = other_cluster.url("zeromemory")

    refused = _zm("restore", str(not_a_backup), url=url)

    assert refused.returncode != 0
    assert "is not a backup pg_restore can read" in refused.stderr
    assert "Nothing was changed" in refused.stderr
    with psycopg.connect(other_cluster.url("postgres")) as conn:
        assert conn.execute("SELECT 1 FROM pg_database WHERE datname = 'zeromemory'").fetchone() is None
