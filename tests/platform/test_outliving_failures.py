"""Issue 32, item 4 in one run: PostgreSQL restarted and a worker SIGKILLed mid-task, under a
running sender and a second worker. Every task is done once and every delivery made. On a
server of its own; the task is held mid-run by a lock the test takes on the judgments table."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import psycopg

from bench.zm_serve import share_exported_model
from tests.platform.helpers import (
    WEBHOOK_SETUP,
    WRITE_IN_ACME,
    child_env,
    eventually,
    free_port,
    manage,
    manage_in_background,
)
from tests.platform.test_worker_lease import start_worker
from tests.webhooks.receiver import Receiver
from zeromemory.embedded_db import EmbeddedServer

SETUP = WEBHOOK_SETUP
LEASE = 2.0
WRITES = [
    "The staging database listens on port 5433 of db-staging-2.",
    "The staging database listens on port 5434 of db-staging-2.",
    "Releases are cut on Thursdays after the change review.",
]


def test_a_restart_and_a_killed_worker_in_one_run_lose_nothing(tmp_path: Path) -> None:
    database = EmbeddedServer(tmp_path / "pg", port=free_port())
    database.acquire("zm_failures")
    url = database.url("zm_failures")
    receiver = Receiver()
    receiver.start()
    env = child_env(
        DATABASE_URL=url,
        ZEROMEMORY_DATA_DIR=str(tmp_path / "data"),
        ZEROMEMORY_DB_POOL="false",
        ZEROMEMORY_LOG_LEVEL="INFO",
        ZEROMEMORY_TASK_LEASE_SECONDS=str(LEASE),
        ZEROMEMORY_WEBHOOK_ALLOWED_NETWORKS="127.0.0.1/32",
        ZEROMEMORY_WEBHOOK_POLL_SECONDS="0.2",
        ZEROMEMORY_WEBHOOK_TIMEOUT_SECONDS="2",
        ZEROMEMORY_WEBHOOK_RETRY_DELAYS="0.3,0.3,0.3,0.3,0.3",
    )
    share_exported_model(tmp_path / "data")

    def rows(sql: str) -> list[tuple[Any, ...]]:
        try:
            with psycopg.connect(url, connect_timeout=2) as db:
                return db.execute(sql).fetchall()
        except psycopg.OperationalError:
            return [("database down",)]

    def tasks() -> list[tuple[Any, ...]]:
        return rows("SELECT status, worker_ids FROM django_tasks_database_dbtaskresult ORDER BY enqueued_at")

    def write(text: str) -> None:
        assert manage("shell", "-c", WRITE_IN_ACME.format(text=text), env=env).returncode == 0

    processes: list[subprocess.Popen[bytes]] = []
    holder = None
    try:
        for step in (("migrate", "--noinput"), ("shell", "-c", SETUP.format(url=receiver.url))):
            finished = manage(*step, env=env, timeout=300)
            assert finished.returncode == 0, finished.stderr[-3000:]
        first = start_worker(env, "first", tmp_path / "first.log")
        processes.append(first)
        sender = manage_in_background("deliver_webhooks", env=env, log=tmp_path / "sender.log")
        processes.append(sender)
        write(WRITES[0])
        eventually(lambda: tasks() == [("SUCCESSFUL", ["first"])], 60, "the first task done")

        holder = psycopg.connect(url)
        holder.execute("LOCK TABLE review_judgment IN SHARE MODE")
        write(WRITES[1])
        eventually(lambda: tasks()[1:] == [("RUNNING", ["first"])], 60, "the second task taken")
        processes.append(start_worker(env, "second", tmp_path / "second.log"))
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(timeout=10)

        database.stop()  # fast shutdown: every connection cut (the test's lock with them)
        holder = None
        time.sleep(1.5)  # the second worker and the sender meet the lost database
        database.acquire("zm_failures")
        write(WRITES[2])

        eventually(lambda: [row[0] for row in tasks()] == ["SUCCESSFUL"] * 3, 90, "every task done")
        statuses = tasks()
        assert statuses[:2] == [("SUCCESSFUL", ["first"]), ("SUCCESSFUL", ["first", "second"])]
        assert statuses[2] == ("SUCCESSFUL", ["second"])
        # Each task's effect once: the one pair judged once.
        judged = rows(
            "SELECT o.content, n.content FROM review_judgment j"
            " JOIN memories_memory o ON o.id = j.older_id JOIN memories_memory n ON n.id = j.newer_id"
        )
        assert judged == [(WRITES[0], WRITES[1])]

        def deliveries() -> list[tuple[Any, ...]]:
            return rows("SELECT d.state, 'evt_' || d.event_id FROM memories_webhookdelivery d ORDER BY d.id")

        eventually(lambda: {row[0] for row in deliveries()} == {"delivered"}, 60, "every delivery made")
        owed = [row[1] for row in deliveries()]
        assert len(owed) >= 3  # three writes, and whatever conflict the judgment opened
        assert sorted(set(receiver.event_ids())) == sorted(owed)
        assert sender.poll() is None
        assert processes[2].poll() is None
        assert "webhook sender lost the database" in (tmp_path / "sender.log").read_text()
        second_log = (tmp_path / "second.log").read_text()
        assert "was held by worker first, silent beyond the lease; back in the queue" in second_log
    finally:
        if holder is not None:
            holder.close()
        for process in processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
                process.wait(timeout=30)
        receiver.stop()
        database.destroy()
