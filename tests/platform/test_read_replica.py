"""DATABASE_REPLICA_URLS against real streaming replicas (tests/platform/replica.py): one replica per
read, a lag bound with fallback to the primary, read-your-writes for the agent that wrote, and no
500 when a replica lacks a row the ranking returned.

The app runs as a user runs it: ``./zm web`` (gunicorn) or ``manage.py shell`` in a child process,
DATABASE_URL at the primary (the test database), DATABASE_REPLICA_URLS at hot standbys that stream
from it. A paused standby (``pg_wal_replay_pause()``) stands for one that lags: it receives WAL
but applies none, so what the primary wrote since is not there.
"""

from __future__ import annotations

import json
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.conf import settings
from django.db import connection

from memories.models import Project
from tests.conftest import Persona
from tests.factories import make_memory
from tests.platform.helpers import ROOT, api_call, child_env, free_port, manage
from tests.platform.replica import Replica, streaming_replicas, wait_caught_up
from zeromemory.embedded_db import EmbeddedServer

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def primary_url() -> str:
    return EmbeddedServer(settings.DATA_DIR).url(connection.settings_dict["NAME"])


@pytest.fixture
def replicas(primary_url: str) -> Iterator[list[Replica]]:
    """Two streaming replicas of the test server, caught up, replaying."""
    folder = Path(settings.DATA_DIR) / "replicas"
    with streaming_replicas(EmbeddedServer(settings.DATA_DIR), folder, connection.settings_dict["NAME"], 2) as started:
        # One transaction replayed since they started: pg_last_xact_replay_timestamp() is known.
        with psycopg.connect(primary_url, autocommit=True) as primary:
            primary.execute("SELECT pg_current_xact_id()")
        for replica in started:
            wait_caught_up(replica, primary_url)
        yield started


def app_env(primary_url: str, replicas: list[Replica], **extra: str) -> dict[str, str]:
    return child_env(
        DATABASE_URL=primary_url,
        DATABASE_REPLICA_URLS=",".join(replica.url for replica in replicas),
        ZEROMEMORY_DB_POOL="false",
        ZEROMEMORY_TASKS_IMMEDIATE="true",
        **extra,
    )


def run_script(script: str, env: dict[str, str]) -> Any:
    result = manage("shell", "-c", script, env=env, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.split("RESULT ", 1)[1])


class Served:
    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.port = free_port()
        env = {**env, "ZEROMEMORY_PORT": str(self.port), "ZEROMEMORY_WORKERS": "1", "ZEROMEMORY_THREADS": "2"}
        self.log = log
        with open(log, "ab") as out:
            self.process = subprocess.Popen(
                [str(ROOT / "zm"), "web"], cwd=ROOT, env=env, stdout=out, stderr=out, start_new_session=True
            )
        deadline = time.monotonic() + 120
        while api_call(self.port, "GET", "/api/v1/memories/", "nobody")[0] != 401:
            assert self.process.poll() is None, log.read_text()[-3000:]
            assert time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.3)

    def call(self, method: str, path: str, token: str, body: dict[str, object] | None = None) -> tuple[int, Any]:
        return api_call(self.port, method, path, token, body)

    def recall_ids(self, token: str, query: str) -> tuple[int, list[str]]:
        status, answer = self.call("POST", "/api/v1/recall/", token, {"query": query, "project": "acme"})
        return status, [hit["memory"]["id"] for hit in answer.get("results", [])] if status == 200 else []

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=30)


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Any]:
    started: list[Served] = []

    def start(env: dict[str, str]) -> Served:
        started.append(Served(env, tmp_path / f"web{len(started)}.log"))
        return started[-1]

    yield start
    for served in started:
        served.stop()


def feed_ids(served: Served, token: str) -> list[str]:
    status, answer = served.call("GET", "/api/v1/memories/?project=acme", token)
    assert status == 200, answer
    return [memory["id"] for memory in answer["results"]]


# -- read-your-writes ---------------------------------------------------------------------------


def test_an_agent_recalls_and_lists_what_it_just_wrote_while_the_replica_lags(
    alice: Persona, bob: Persona, acme: Project, primary_url: str, replicas: list[Replica], serve: Any
) -> None:
    replica = replicas[0]
    # A lag bound of an hour: the paused replica stays in use for reads that may lag.
    served = serve(app_env(primary_url, [replica], ZEROMEMORY_REPLICA_MAX_LAG_SECONDS="3600"))
    replica.pause()

    status, written = served.call(
        "POST", "/api/v1/memories/", alice.token, {"content": "The canary pool is pool-7.", "project": "acme"}
    )
    assert status == 201, written

    assert served.recall_ids(alice.token, "Which pool is the canary pool?") == (200, [written["memory"]["id"]])
    assert feed_ids(served, alice.token) == [written["memory"]["id"]]
    # Bob wrote nothing: his reads go to the replica, which has not applied alice's write yet
    # (the reads above were not served by it).
    assert served.recall_ids(bob.token, "Which pool is the canary pool?") == (200, [])
    assert feed_ids(served, bob.token) == []

    replica.resume()
    wait_caught_up(replica, primary_url)
    assert served.recall_ids(bob.token, "Which pool is the canary pool?") == (200, [written["memory"]["id"]])


# -- the lag bound ----------------------------------------------------------------------------


def test_reads_beyond_the_lag_bound_fall_back_to_the_primary(
    alice: Persona, bob: Persona, acme: Project, primary_url: str, replicas: list[Replica], serve: Any
) -> None:
    replica = replicas[0]
    served = serve(app_env(primary_url, [replica], ZEROMEMORY_REPLICA_MAX_LAG_SECONDS="1"))
    replica.pause()
    memory = make_memory(alice.user, "The canary pool is pool-7.", project=acme)
    # Past the bound (1 s) and the measurement's cache (1 s).
    time.sleep(2.5)
    lag = replica.execute("SELECT EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp())::float8")
    assert isinstance(lag, float)
    assert lag > 2

    # Bob wrote nothing; his reads would go to the replica, which lacks the memory.
    assert served.recall_ids(bob.token, "Which pool is the canary pool?") == (200, [memory.pk])
    assert feed_ids(served, bob.token) == [memory.pk]


def test_a_replica_with_nothing_to_replay_counts_as_caught_up_however_old_its_last_transaction(
    alice: Persona, acme: Project, primary_url: str, replicas: list[Replica]
) -> None:
    """pg_last_xact_replay_timestamp() ages while the primary is idle: alone it would call an idle
    replica lagging. Received = replayed means nothing is missing; received past replayed (replay
    paused, the primary wrote) is the age of the last transaction replayed."""
    make_memory(alice.user, "The canary pool is pool-7.", project=acme)
    replica = replicas[0]
    wait_caught_up(replica, primary_url)
    script = """
import json, time
from django.db import connections
from memories.platform import replicas


def replayed_age():
    with connections["replica1"].cursor() as cursor:
        cursor.execute("SELECT EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp())::float8")
        return cursor.fetchone()[0]


# The primary idle for 2.5 s: waited for, not assumed (a late commit of an earlier test's work, or
# autovacuum, made a fixed sleep come up short in a whole-suite run).
deadline = time.monotonic() + 20
while replayed_age() <= 2.6 and time.monotonic() < deadline:
    time.sleep(0.2)
# The smallest of three: a record in flight at one instant (a standby snapshot) is a real lag.
idle = min(replicas.replica_lag(alias="replica1", fresh=True).seconds for _ in range(3) if not time.sleep(0.2))
with connections["replica1"].cursor() as cursor:
    cursor.execute("SELECT EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp())::float8")
    age = cursor.fetchone()[0]
    cursor.execute("SELECT pg_wal_replay_pause()")
with connections["default"].cursor() as cursor:
    cursor.execute("CREATE TABLE replica_lag_probe (x int)")  # a transaction the replica will not replay
    cursor.execute("DROP TABLE replica_lag_probe")
time.sleep(0.5)
behind = replicas.replica_lag(alias="replica1", fresh=True)
print("RESULT " + json.dumps({"idle": idle, "age": age, "behind": behind.seconds, "up": behind.answered}))
"""
    lags = run_script(script, app_env(primary_url, [replica]))
    assert lags["age"] > 2.5
    assert lags["idle"] == 0.0
    assert lags["up"] is True
    assert lags["behind"] > 2.5


# -- one replica per read; never a 500 ------------------------------------------------------

ONE_REPLICA_SCRIPT = """
import json
from django.contrib.auth.models import User
from django.db import connections
from django.test.utils import CaptureQueriesContext
from memories.agent import verbs

from memories.platform.tokens import credential_for_token

bob = credential_for_token("BOB_TOKEN").user  # as a request's authentication loads him
runs = []
for _ in range(12):
    for name, run in {
        "recall": lambda: verbs.recall(user=bob, arguments={"query": "Which pool is the canary pool?"}),
        "feed": lambda: list(verbs.feed_rows(user=bob, arguments={})),
        "feed_page": lambda: verbs.feed_page(user=bob, arguments={}),
    }.items():
        captures = {alias: CaptureQueriesContext(connections[alias]) for alias in ("default", "replica1", "replica2")}
        for capture in captures.values():
            capture.__enter__()
        try:
            run()
        finally:
            for capture in captures.values():
                capture.__exit__(None, None, None)
        runs.append({"name": name, **{alias: len(c.captured_queries) for alias, c in captures.items()}})
print("RESULT " + json.dumps(runs))
"""


def test_each_read_runs_all_its_queries_on_one_replica(
    alice: Persona, bob: Persona, acme: Project, primary_url: str, replicas: list[Replica]
) -> None:
    make_memory(alice.user, "The canary pool is pool-7.", project=acme)
    for replica in replicas:
        wait_caught_up(replica, primary_url)

    runs = run_script(ONE_REPLICA_SCRIPT.replace("BOB_TOKEN", bob.token), app_env(primary_url, replicas))

    assert len(runs) == 36
    for run in runs:
        used = [alias for alias in ("replica1", "replica2") if run[alias]]
        assert len(used) == 1, run
        assert run["default"] == 0, run
    # Both replicas serve (the choice is per read, at random among those fit to serve it).
    assert {alias for run in runs for alias in ("replica1", "replica2") if run[alias]} == {"replica1", "replica2"}


def test_two_replicas_one_lagging_never_answer_500(
    alice: Persona, bob: Persona, acme: Project, primary_url: str, replicas: list[Replica], serve: Any
) -> None:
    served = serve(app_env(primary_url, replicas, ZEROMEMORY_REPLICA_MAX_LAG_SECONDS="3600"))
    replicas[1].pause()
    memory = make_memory(alice.user, "The canary pool is pool-7.", project=acme)
    wait_caught_up(replicas[0], primary_url)

    answers = [served.recall_ids(bob.token, "Which pool is the canary pool?") for _ in range(16)]

    # Each answer comes whole from one server: the caught-up replica (found) or the paused one
    # (not yet); never a ranking from one and rows from the other (KeyError, a 500).
    assert {(status, tuple(ids)) for status, ids in answers} <= {(200, (memory.pk,)), (200, ())}, answers


MISSING_ROWS_SCRIPT = """
import json
from memories.platform.replicas import replica_reads
from memories.recall import hit_rows

with replica_reads() as alias:
    rows = hit_rows(IDS)
print("RESULT " + json.dumps({"alias": alias, "found": sorted(rows)}))
"""


def test_rows_the_replica_lacks_are_read_from_the_primary(
    alice: Persona, acme: Project, primary_url: str, replicas: list[Replica]
) -> None:
    replica = replicas[0]
    before = make_memory(alice.user, "The canary pool is pool-7.", project=acme)
    wait_caught_up(replica, primary_url)
    replica.pause()
    after = make_memory(alice.user, "The canary pool moved to pool-9.", project=acme)
    assert replica.execute(f"SELECT count(*) FROM memories_memory WHERE id = '{after.pk}'") == 0

    env = app_env(primary_url, [replica], ZEROMEMORY_REPLICA_MAX_LAG_SECONDS="3600")
    found = run_script(MISSING_ROWS_SCRIPT.replace("IDS", repr([before.pk, after.pk, "mem_gone"])), env)

    assert found == {"alias": "replica1", "found": sorted([before.pk, after.pk])}


def test_a_replica_that_does_not_answer_is_skipped(
    alice: Persona, bob: Persona, acme: Project, primary_url: str, replicas: list[Replica], serve: Any
) -> None:
    memory = make_memory(alice.user, "The canary pool is pool-7.", project=acme)
    wait_caught_up(replicas[0], primary_url)
    replicas[0].stop()
    served = serve(app_env(primary_url, [replicas[0]]))

    for _ in range(3):
        assert served.recall_ids(bob.token, "Which pool is the canary pool?") == (200, [memory.pk])
        assert feed_ids(served, bob.token) == [memory.pk]


def test_without_replicas_every_read_uses_the_primary(alice: Persona) -> None:
    from memories.platform.replicas import ReplicaRouter, replica_reads

    with replica_reads():
        assert ReplicaRouter().db_for_read(None) == "default"


def test_the_replica_helper_streams_from_the_primary(
    alice: Persona, acme: Project, primary_url: str, replicas: list[Replica]
) -> None:
    memory = make_memory(alice.user, "The canary pool is pool-7.", project=acme)
    wait_caught_up(replicas[0], primary_url)
    assert replicas[0].execute(f"SELECT content FROM memories_memory WHERE id = '{memory.pk}'") == memory.content
    refused = pytest.raises(psycopg.errors.ReadOnlySqlTransaction)
    with psycopg.connect(replicas[0].url, autocommit=True) as conn, refused:
        conn.execute("CREATE TABLE nope (x int)")
