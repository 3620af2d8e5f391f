"""Behind a real PgBouncer in pool_mode=transaction (ZEROMEMORY_DB_POOLER=transaction), with
two server connections shared by every client, in front of a PostgreSQL of the test's own.

The settings recall's HNSW search and a serving process's statement timeout need used to ride
on the connection's startup options, which such a pooler refuses or (tests/platform/pgbouncer.py,
as Neon's does) drops: recall then ran at pgvector's default ef_search of 40 and no statement
was bounded. Here: recall@10 against an exact scan through the pooler equals the direct figure,
the statement timeout holds for a served request and not for other processes, nothing leaks to
the next client of a server connection, migrate goes around the pooler to DATABASE_DIRECT_URL,
and the webhook sender's LISTEN there wakes it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest

from bench.zm_serve import share_exported_model
from tests.platform.helpers import ROOT, WRITE_IN_ACME, child_env, eventually, free_port, issue_token, manage
from tests.platform.pgbouncer import Bouncer, pgbouncer, require_pgbouncer
from tests.platform.server import Answer, request
from tests.platform.test_deploy_roles import procfile
from tests.webhooks.receiver import Receiver
from zeromemory.embedded_db import EmbeddedServer

NAME = "zm_pooled"
# Enough random vectors that the HNSW walk's depth matters: on these, pgvector's default
# ef_search of 40 found 0.52 of the exact top 10 and 100 found 0.79 (5,000 rows; 400: 1.00).
ROWS = 3000

SEED = f"""
import numpy as np
from django.contrib.auth.models import User
from django.db import connection
from memories.models import Memory, Membership, Project
from memories.text import content_fingerprint
alice = User.objects.create_user("alice")
project = Project.objects.create(slug="acme", name="Acme")
Membership.objects.create(project=project, user=alice)
vectors = np.random.default_rng(7).normal(size=({ROWS}, 384)).astype(np.float32)
vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
Memory.objects.bulk_create(
    [
        Memory(content=f"pooled row {{n}}", content_fingerprint=content_fingerprint(f"pooled row {{n}}"), owner=alice,
               visibility="private", kind="fact", embedding=vector.tolist())
        for n, vector in enumerate(vectors)
    ],
    batch_size=500,
)
with connection.cursor() as cursor:
    cursor.execute("ANALYZE memories_memory")
"""

# recall's vector side (memories.search.vector_ranking, the app's own code path) against the
# exact scan, over random questions; and whether the planner served it from the HNSW index.
RECALL_AT_10 = """
import json
import numpy as np
from django.contrib.auth.models import User
from pgvector.django import CosineDistance
from memories.search import exact_nearest, vector_ranking
from memories.visibility import visible_memories
alice = User.objects.get(username="alice")
visible = visible_memories(alice)
rng = np.random.default_rng(11)
hits = 0
for _ in range(20):
    q = rng.normal(size=384)
    q = (q / np.linalg.norm(q)).tolist()
    found = {pk for pk, _ in vector_ranking(visible, q, 10, user=alice, exact=False)}  # the walk itself
    hits += len(found & {pk for pk, _ in exact_nearest([visible], q, 10)})
plan = visible.annotate(d=CosineDistance("embedding", q)).order_by("d")[:10].explain()
print(json.dumps({"recall": hits / 200, "index": "memory_embedding_hnsw_idx" in plan}))
"""

SLEEP = """
from django.db import connection
with connection.cursor() as cursor:
    cursor.execute("SELECT pg_sleep(2)")
print("slept")
"""


@dataclass
class Pooled:
    database: EmbeddedServer
    bouncer: Bouncer
    direct_env: dict[str, str]
    pooled_env: dict[str, str]
    folder: Path


@pytest.fixture(scope="module")
def pooled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pooled]:
    require_pgbouncer()
    folder = tmp_path_factory.mktemp("pooled")
    database = EmbeddedServer(folder / "pg", port=free_port())
    database.acquire(NAME)
    try:
        with pgbouncer(database, NAME, pool_size=2) as bouncer:
            share_exported_model(folder / "data")
            common = {"ZEROMEMORY_DATA_DIR": str(folder / "data"), "ZEROMEMORY_LOG_LEVEL": "WARNING"}
            direct_env = child_env(DATABASE_URL=database.url(NAME), **common)
            pooled_env = child_env(
                DATABASE_URL=bouncer.url(NAME),
                DATABASE_DIRECT_URL=database.url(NAME),
                ZEROMEMORY_DB_POOLER="transaction",
                **common,
            )
            # The Procfile's release step (./zm migrate) as a pooled deployment runs it: around the
            # pooler, to DATABASE_DIRECT_URL.
            before = bouncer.transactions(NAME)
            migrated = subprocess.run(
                procfile()["release"],
                cwd=ROOT,
                env=pooled_env,
                capture_output=True,
                text=True,
                timeout=600,
                check=False,
            )
            assert migrated.returncode == 0, migrated.stderr[-3000:]
            assert bouncer.transactions(NAME) == before
            seeded = manage("shell", "-c", SEED, env=direct_env, timeout=300)
            assert seeded.returncode == 0, seeded.stderr[-3000:]
            yield Pooled(database, bouncer, direct_env, pooled_env, folder)
    finally:
        database.destroy()


def _recall_at_10(env: dict[str, str]) -> dict[str, object]:
    done = manage("shell", "-c", RECALL_AT_10, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def _server_settings(bouncer: Bouncer) -> set[tuple[str | None, ...]]:
    """What a client gets on the pooler's server connections, each asked from a client of its
    own while the others hold theirs (so both server connections answer)."""
    clients = [psycopg.connect(bouncer.url(NAME)) for _ in range(2)]
    try:
        found = set()
        for client in clients:  # each in a transaction, holding its server connection
            row = client.execute(
                "SELECT current_setting('hnsw.ef_search', true), current_setting('hnsw.iterative_scan', true), "
                "current_setting('statement_timeout'), current_setting('jit')"
            ).fetchone()
            assert row is not None
            found.add(tuple(row))
        return found
    finally:
        for client in clients:
            client.close()


def test_recall_through_the_pooler_matches_the_direct_figure_and_leaves_nothing_behind(pooled: Pooled) -> None:
    # The HNSW walk must answer, not the exact scan the planner may prefer for a table of
    # test size (it does at ef_search 400): for every session opened from now on, the server
    # connections PgBouncer opens included, whatever the app sends.
    with psycopg.connect(pooled.database.url(NAME), autocommit=True) as admin:
        admin.execute(f"ALTER DATABASE {NAME} SET enable_seqscan = off")
    try:
        direct = _recall_at_10(pooled.direct_env)
        before = pooled.bouncer.transactions(NAME)
        through = _recall_at_10(pooled.pooled_env)
    finally:
        with psycopg.connect(pooled.database.url(NAME), autocommit=True) as admin:
            admin.execute(f"ALTER DATABASE {NAME} RESET enable_seqscan")

    assert pooled.bouncer.transactions(NAME) > before  # it did go through PgBouncer
    assert direct["index"] is True  # the HNSW walk answered
    assert through["index"] is True
    assert direct["recall"] == 1.0
    assert through["recall"] == direct["recall"]
    # The settings lived in each statement's transaction: the next client of the same server
    # connections finds the server's defaults (a session-level SET would show here).
    assert _server_settings(pooled.bouncer) <= {(None, None, "0", "on"), ("40", "off", "0", "on")}


def test_a_served_request_is_bounded_behind_the_pooler_and_other_processes_are_not(pooled: Pooled) -> None:
    # The Procfile's web role (./zm web: gunicorn), its DATABASE_URL at PgBouncer.
    port = free_port()
    env = {
        **pooled.pooled_env,
        "ZEROMEMORY_PORT": str(port),
        "ZEROMEMORY_WORKERS": "1",
        "ZEROMEMORY_THREADS": "2",
        "ZEROMEMORY_STATEMENT_TIMEOUT_SECONDS": "1",
    }
    token = issue_token(pooled.pooled_env)
    with open(pooled.folder / "web.log", "ab") as out:
        web = subprocess.Popen(procfile()["web"], cwd=ROOT, env=env, stdout=out, stderr=out, start_new_session=True)
    try:
        eventually(lambda: request(port, "GET", "/api/v1/memories/").status == 401, 180, "./zm web answers")
        # The app answers remember and recall through the pooler.
        written = request(port, "POST", "/api/v1/memories/", token, {"content": "The pooler runs in transaction mode."})
        assert written.status == 201, written.body
        memory_id = written.body["memory"]["id"]
        found = request(port, "POST", "/api/v1/recall/", token, {"query": "Which mode does the pooler run in?"})
        assert found.status == 200, found.body
        assert found.body["results"][0]["memory"]["id"] == memory_id

        # A forget waiting on a row lock held by another session gives up after 1 s: 503,
        # nothing changed.
        with psycopg.connect(pooled.database.url(NAME)) as holder:
            holder.execute("SELECT id FROM memories_memory WHERE id = %s FOR UPDATE", [memory_id])
            started = time.monotonic()
            refused = request(port, "POST", f"/api/v1/memories/{memory_id}/forget/", token, {})
            waited = time.monotonic() - started
            state = holder.execute("SELECT state FROM memories_memory WHERE id = %s", [memory_id]).fetchone()
        assert refused.status == 503, refused.body
        assert refused.body["error"]["code"] == "database_unavailable"
        assert 1 <= waited < 10
        assert state == ("live",)
        after = request(port, "POST", f"/api/v1/memories/{memory_id}/forget/", token, {})
        assert after.status == 200, after.body
    finally:
        os.killpg(web.pid, signal.SIGTERM)
        web.wait(timeout=60)

    # A process that does not serve (the task worker, a management command) runs a statement
    # longer than the bound through the same pooler and its two server connections, which the
    # served requests used; the same process with ZEROMEMORY_SERVING set is cut off.
    not_serving = manage("shell", "-c", SLEEP, env={**pooled.pooled_env, "ZEROMEMORY_STATEMENT_TIMEOUT_SECONDS": "1"})
    serving = manage(
        "shell",
        "-c",
        SLEEP,
        env={**pooled.pooled_env, "ZEROMEMORY_STATEMENT_TIMEOUT_SECONDS": "1", "ZEROMEMORY_SERVING": "true"},
    )
    assert not_serving.returncode == 0, not_serving.stderr[-3000:]
    assert not_serving.stdout.strip().splitlines()[-1] == "slept"
    assert serving.returncode != 0
    assert "canceling statement due to statement timeout" in serving.stderr


def test_the_sender_listens_on_the_direct_url_and_is_woken_through_it(pooled: Pooled) -> None:
    receiver = Receiver()
    receiver.start()
    env = {
        **pooled.pooled_env,
        "ZEROMEMORY_WEBHOOK_ALLOWED_NETWORKS": "127.0.0.1/32",
        # Longer than the wait below: only the NOTIFY (LISTEN on DATABASE_DIRECT_URL) can wake
        # the sender in time. (It notices SIGTERM at the end of a wait: keep it short of 30 s.)
        "ZEROMEMORY_WEBHOOK_POLL_SECONDS": "25",
    }
    setup = (
        "from django.contrib.auth.models import User\n"
        "from memories import services\n"
        "from memories.models import Project, WebhookEndpoint\n"
        "admin = User.objects.create_superuser('root')\n"
        "services.webhook_endpoint_save(actor=admin, via='tests', "
        f"endpoint=WebhookEndpoint(project=Project.objects.get(slug='acme'), url='{receiver.url}'))\n"
    )
    sender = None
    try:
        done = manage("shell", "-c", setup, env=env)
        assert done.returncode == 0, done.stderr[-3000:]
        with open(pooled.folder / "sender.log", "ab") as out:
            # The Procfile's sender role (./zm sender).
            sender = subprocess.Popen(
                procfile()["sender"], cwd=ROOT, env=env, stdout=out, stderr=out, start_new_session=True
            )
        assert manage("shell", "-c", WRITE_IN_ACME.format(text="First through the pooler."), env=env).returncode == 0
        eventually(lambda: len(receiver.received) == 1, 60, "the first event delivered")
        time.sleep(1)  # the sender is waiting for a NOTIFY now (or the 25 s timer)
        assert manage("shell", "-c", WRITE_IN_ACME.format(text="Second through the pooler."), env=env).returncode == 0
        eventually(lambda: len(receiver.received) == 2, 10, "the second event delivered, woken by NOTIFY")
        assert sender.poll() is None, (pooled.folder / "sender.log").read_text()
    finally:
        if sender is not None and sender.poll() is None:
            os.killpg(sender.pid, signal.SIGTERM)
            sender.wait(timeout=60)
        receiver.stop()


def test_a_backup_behind_the_pooler_is_taken_from_the_database_itself(pooled: Pooled) -> None:
    # pg_dump's snapshot spans its statements: through a transaction pooler each could land on
    # another server connection. The backup goes to DATABASE_DIRECT_URL, as migrate does.
    before = pooled.bouncer.transactions(NAME)
    target = pooled.folder / "pooled.backup"

    done = manage("backup", str(target), env=pooled.pooled_env, timeout=300)

    assert done.returncode == 0, done.stderr[-3000:]
    assert target.stat().st_size > 0
    assert pooled.bouncer.transactions(NAME) == before


def test_behind_a_pooler_migrate_and_the_sender_need_a_direct_url(tmp_path: Path) -> None:
    env = child_env(
        DATABASE_URL="postgresql://zeromemory@127.0.0.1:6432/zeromemory",
        ZEROMEMORY_DB_POOLER="transaction",
        ZEROMEMORY_DATA_DIR=str(tmp_path),
    )
    migrate = manage("migrate", "--noinput", env=env)
    backup = manage("backup", str(tmp_path / "refused.backup"), env=env)

    assert migrate.returncode != 0
    assert "set DATABASE_DIRECT_URL to the database itself, not the pooler" in migrate.stderr
    assert backup.returncode != 0
    assert "set DATABASE_DIRECT_URL to the database itself, not the pooler" in backup.stderr
    assert not (tmp_path / "refused.backup").exists()


def test_a_retry_after_the_server_died_mid_write_runs_at_once_behind_the_pooler(pooled: Pooled) -> None:
    # An Idempotency-Key's claim is an advisory lock of the write's transaction: with the
    # pooler between them, the app server's death must still end that transaction (PgBouncer
    # drops a server connection its client left mid-transaction), and the retry run at once.
    from tests.memories.test_idempotency_claim import kill_mid_write_then_retry

    direct_url = pooled.database.url(NAME)
    with psycopg.connect(direct_url) as conn:
        row = conn.execute("SELECT id FROM memories_memory WHERE content = 'pooled row 0'").fetchone()
    assert row is not None
    target_id = row[0]
    # A token of its own (the module's other tests issued alice one named "tests" already).
    issued = manage("issue_token", "alice", "--name", "idempotency", env=pooled.pooled_env)
    assert issued.returncode == 0, issued.stderr[-3000:]
    token = issued.stdout.strip().splitlines()[-1]
    body = {"content": "pooled row 0, corrected after a crash", "links": [{"type": "supersedes", "dst": target_id}]}
    webs: list[subprocess.Popen[bytes]] = []

    def start() -> int:
        port = free_port()
        env = {**pooled.pooled_env, "ZEROMEMORY_PORT": str(port), "ZEROMEMORY_WORKERS": "1", "ZEROMEMORY_THREADS": "2"}
        with open(pooled.folder / "web-idempotency.log", "ab") as out:
            webs.append(
                subprocess.Popen(procfile()["web"], cwd=ROOT, env=env, stdout=out, stderr=out, start_new_session=True)
            )
        eventually(lambda: request(port, "GET", "/api/v1/memories/").status == 401, 180, "./zm web answers")
        return port

    def kill(web: subprocess.Popen[bytes]) -> None:
        os.killpg(web.pid, signal.SIGKILL)  # gunicorn and its worker: no rollback, no goodbye
        web.wait(timeout=30)

    def send_to(port: int) -> Callable[[], Answer]:
        return lambda: request(port, "POST", "/api/v1/memories/", token, body, **{"Idempotency-Key": "pooled-1"})

    try:
        first_port = start()
        first, during, after = kill_mid_write_then_retry(
            database_url=direct_url,
            target_id=target_id,
            send=send_to(first_port),
            kill=lambda: kill(webs[0]),
            restart=lambda: send_to(start()),
        )
    finally:
        for web in webs:
            if web.poll() is None:
                os.killpg(web.pid, signal.SIGTERM)
                web.wait(timeout=60)

    assert first.status == 0
    assert (during.status, during.body["error"]["code"]) == (409, "idempotency_in_progress")
    assert [answer.status for answer in after] == [201], [answer.body for answer in after]
    with psycopg.connect(direct_url) as conn:
        stored = conn.execute(
            "SELECT id FROM memories_memory WHERE content = 'pooled row 0, corrected after a crash'"
        ).fetchall()
        retired = conn.execute(
            "SELECT state, superseded_by_id FROM memories_memory WHERE id = %s", [target_id]
        ).fetchone()
    assert stored == [(after[0].body["memory"]["id"],)]
    assert retired == ("superseded", after[0].body["memory"]["id"])
