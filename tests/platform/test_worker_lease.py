"""Tasks a dead worker held are taken up again (SPEC R-P3, issue 32 item 4): a task RUNNING under a
SIGKILLed worker stayed RUNNING for ever. Here real ``manage.py task_worker`` processes on a
server of their own; the task is held mid-run by a lock the test takes on the judgments table
(the hygiene task blocks on inserting its judgment), so no test-only slow path is needed."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import psycopg

from bench.zm_serve import share_exported_model
from tests.platform.helpers import WRITE_IN_ACME, child_env, eventually, free_port, manage, manage_in_background
from zeromemory.embedded_db import EmbeddedServer

SETUP = """
from django.contrib.auth.models import User
from memories.models import Membership, Project
project = Project.objects.create(slug="acme", name="Acme")
Membership.objects.create(project=project, user=User.objects.create_user("alice"))
"""
LEASE = 2.0
OLDER = "The staging database listens on port 5433 of db-staging-2."
NEWER = "The staging database listens on port 5434 of db-staging-2."


def start_worker(env: dict[str, str], worker_id: str, log: Path) -> subprocess.Popen[bytes]:
    return manage_in_background(
        *("task_worker", "--queue-name", "*", "--interval", "0.2", "--worker-id", worker_id, "--no-startup-delay"),
        env=env,
        log=log,
    )


def test_a_task_held_by_a_killed_worker_is_done_once_by_another(tmp_path: Path) -> None:
    database = EmbeddedServer(tmp_path / "pg", port=free_port())
    database.acquire("zm_lease")
    url = database.url("zm_lease")
    env = child_env(
        DATABASE_URL=url,
        ZEROMEMORY_DATA_DIR=str(tmp_path / "data"),
        ZEROMEMORY_DB_POOL="false",
        ZEROMEMORY_TASK_LEASE_SECONDS=str(LEASE),
    )
    share_exported_model(tmp_path / "data")

    def rows(sql: str, *params: Any) -> list[tuple[Any, ...]]:
        with psycopg.connect(url, connect_timeout=2) as db:
            return db.execute(sql, params).fetchall()

    def tasks() -> list[tuple[str, list[str]]]:
        return [
            (status, worker_ids)
            for status, worker_ids in rows(
                "SELECT status, worker_ids FROM django_tasks_database_dbtaskresult ORDER BY enqueued_at"
            )
        ]

    def waiting_on_the_lock() -> int:
        return int(
            rows("SELECT count(*) FROM pg_locks WHERE NOT granted AND relation = 'review_judgment'::regclass")[0][0]
        )

    first_log, second_log = tmp_path / "first.log", tmp_path / "second.log"
    workers: list[subprocess.Popen[bytes]] = []
    holder = None
    try:
        for step in (("migrate", "--noinput"), ("shell", "-c", SETUP)):
            finished = manage(*step, env=env, timeout=300)
            assert finished.returncode == 0, finished.stderr[-3000:]
        workers.append(start_worker(env, "first", first_log))
        assert manage("shell", "-c", WRITE_IN_ACME.format(text=OLDER), env=env).returncode == 0
        eventually(lambda: tasks() == [("SUCCESSFUL", ["first"])], 60, "the older memory's task done")

        # Hold the newer memory's task mid-run: its judgment cannot be inserted while we hold this.
        holder = psycopg.connect(url)
        holder.execute("LOCK TABLE review_judgment IN SHARE MODE")
        assert manage("shell", "-c", WRITE_IN_ACME.format(text=NEWER), env=env).returncode == 0
        eventually(lambda: tasks()[1:] == [("RUNNING", ["first"])], 60, "the newer memory's task taken")
        eventually(lambda: waiting_on_the_lock() == 1, 60, "the task blocked inserting its judgment")

        # A slow worker that is alive is never robbed: a second worker reaps for three leases and
        # leaves the task to the first, which still beats while its task blocks.
        workers.append(start_worker(env, "second", second_log))
        time.sleep(LEASE * 3)
        assert tasks()[1:] == [("RUNNING", ["first"])]
        assert workers[0].poll() is None

        os.killpg(workers[0].pid, signal.SIGKILL)
        workers[0].wait(timeout=10)
        # The second worker sees the first's heartbeat go stale, puts the task back, and takes it.
        eventually(lambda: tasks()[1:] == [("RUNNING", ["first", "second"])], 30, "the task taken up again")
        holder.commit()  # the dead worker's insert rolls back with its connection; the second's goes on

        eventually(lambda: [status for status, _ in tasks()] == ["SUCCESSFUL"] * 2, 60, "the task done")
        assert tasks() == [("SUCCESSFUL", ["first"]), ("SUCCESSFUL", ["first", "second"])]
        # Its effect present once: one judgment of the pair (older, newer).
        judged = rows(
            "SELECT o.content, n.content FROM review_judgment j"
            " JOIN memories_memory o ON o.id = j.older_id JOIN memories_memory n ON n.id = j.newer_id"
        )
        assert judged == [(OLDER, NEWER)]
        log = second_log.read_text()
        assert "was held by worker first, silent beyond the lease; back in the queue" in log, log
        assert workers[1].poll() is None, log
        assert rows("SELECT worker_id FROM memories_workerheartbeat ORDER BY worker_id") in (
            [("first",), ("second",)],
            [("second",)],
        )
    finally:
        if holder is not None:
            holder.close()
        for worker in workers:
            if worker.poll() is None:
                os.killpg(worker.pid, signal.SIGTERM)
                worker.wait(timeout=30)
        database.destroy()
