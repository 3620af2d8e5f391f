"""The production server (gunicorn, pooled connections) outlives a restart of its PostgreSQL.

While the database is down, requests fail fast and cleanly: 503 ``database_unavailable`` in
the API's error shape, never a hang or a 500. Once it is back, every worker and every pooled
connection serves again within seconds, and no connection is leaked.

The database is a separate embedded PostgreSQL in a temporary folder: restarting the one the
test session runs on would cut pytest's own connection.
``ZEROMEMORY_RESTART_ROUNDS=5`` restarts it several times.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.platform.helpers import child_env, manage
from tests.platform.server import Answer, Gunicorn, request
from zeromemory.embedded_db import EmbeddedServer

pytestmark = pytest.mark.slow

ROUNDS = int(os.environ.get("ZEROMEMORY_RESTART_ROUNDS", "1"))
WORKERS, THREADS = 2, 4
BURST = 32  # several times WORKERS * THREADS, so that every thread and pooled connection is used
APPLICATION = "zm-restart"
POOL_MAX_SIZE = 10  # settings.DB_POOL_MAX_SIZE's default, which the server runs with
# A request during the outage waits for a connection at most the pool's timeout (10 s), plus
# its turn behind one such request when gunicorn hands a worker more than it has threads.
OUTAGE_ANSWER_WITHIN = 25.0
RECOVERY_WITHIN = 10.0
MCP_RECALL = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "tools/call",
    "params": {"name": "recall", "arguments": {"query": "x"}},
}
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-06-18"}


@pytest.fixture
def database() -> Iterator[EmbeddedServer]:
    # Not under pytest's tmp_path: every pytest session on the machine resets its base folder
    # to mode 0700, which would lock PostgreSQL's own user out of its data folder mid-test.
    server = EmbeddedServer(Path(tempfile.mkdtemp(prefix="zm-restart-")))
    server.acquire("zeromemory")
    try:
        yield server
    finally:
        server.destroy()


def _burst(port: int, token: str, size: int = BURST) -> list[Answer]:
    """Writes, reads and MCP tool calls, all at once."""

    def one(number: int) -> Answer:
        if number % 4 == 3:
            return request(port, "POST", "/mcp/", token, MCP_RECALL, **MCP_HEADERS)
        if number % 2:
            return request(port, "GET", "/api/v1/memories/", token)
        return request(port, "POST", "/api/v1/memories/", token, {"content": f"Restart test {uuid.uuid4().hex}."})

    with ThreadPoolExecutor(max_workers=size) as pool:
        return list(pool.map(one, range(size)))


def _ok(answers: list[Answer]) -> bool:
    return all(answer.status in {200, 201} for answer in answers)


def _sessions(database: EmbeddedServer) -> int:
    with psycopg.connect(database.url("postgres"), autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s", [APPLICATION]
        ).fetchone()
    assert row is not None
    return int(row[0])


def test_server_recovers_after_its_database_restarts(database: EmbeddedServer, tmp_path: Path) -> None:
    env = child_env(DATABASE_URL=database.url("zeromemory"))
    migrated = manage("migrate", "--noinput", env=env, timeout=300)
    assert migrated.returncode == 0, migrated.stderr
    issued = manage("issue_token", "alice", "--create-user", env=env)
    assert issued.returncode == 0, issued.stderr
    token = issued.stdout.strip().splitlines()[-1]

    server = Gunicorn(f"{database.url('zeromemory')}&application_name={APPLICATION}", workers=WORKERS, threads=THREADS)
    server.start(tmp_path / "gunicorn.log")
    figures: list[dict[str, Any]] = []
    try:
        assert _ok(_burst(server.port, token)), server.log_tail()
        for _ in range(ROUNDS):
            figures.append(_restart_round(server, database, token))
    finally:
        server.stop()
    print(json.dumps(figures, indent=2))


def _restart_round(server: Gunicorn, database: EmbeddedServer, token: str) -> dict[str, Any]:
    sessions_before = _sessions(database)
    database.stop()
    assert not database.is_running()

    outage = _burst(server.port, token, size=WORKERS * THREADS)
    statuses = Counter(answer.status for answer in outage)
    assert set(statuses) == {503}, (statuses, [a.body for a in outage if a.status != 503][:3], server.log_tail())
    for answer in outage:
        assert answer.body["error"]["code"] == "database_unavailable"
        assert answer.seconds < OUTAGE_ANSWER_WITHIN, answer.seconds

    database.acquire("zeromemory")
    back = time.monotonic()
    # From the moment the database accepts connections again, every request succeeds: a pooled
    # connection that died with the old server is noticed at checkout, never handed to a request.
    # Each burst uses every thread of every worker and so, in turn, every pooled connection.
    bursts = [_burst(server.port, token) for _ in range(4)]
    recovered_in = max(answer.seconds for answer in bursts[0])
    for answers in bursts:
        statuses_after = Counter(answer.status for answer in answers)
        assert _ok(answers), (statuses_after, server.log_tail())
    assert recovered_in < RECOVERY_WITHIN, recovered_in
    sessions_after = _sessions(database)
    # No leak: each worker's pool holds at most its max_size, however many restarts it saw.
    assert sessions_after <= WORKERS * POOL_MAX_SIZE, sessions_after
    return {
        "outage_answers": dict(statuses),
        "outage_slowest_s": round(max(answer.seconds for answer in outage), 2),
        "recovered_in_s": round(recovered_in, 2),
        "after_restart_answers": dict(Counter(answer.status for answers in bursts for answer in answers)),
        "after_restart_seconds": round(time.monotonic() - back, 2),
        "sessions_before": sessions_before,
        "sessions_after": sessions_after,
    }
