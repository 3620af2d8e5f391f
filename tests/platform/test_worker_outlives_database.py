"""The task worker outlives a database restart (SPEC R-P3): django-tasks' db_worker exited on
the first lost connection and the hygiene queue grew with nothing to take it. Here on a server
of its own, over TCP like a managed database, restarted under a running worker."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

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


def test_the_task_worker_keeps_working_after_the_database_restarts(tmp_path: Path) -> None:
    database = EmbeddedServer(tmp_path / "pg", port=free_port())
    database.acquire("zm_worker")
    url = database.url("zm_worker")
    env = child_env(DATABASE_URL=url, ZEROMEMORY_DATA_DIR=str(tmp_path / "data"), ZEROMEMORY_DB_POOL="false")
    share_exported_model(tmp_path / "data")

    def done() -> list[str]:
        try:
            with psycopg.connect(url, connect_timeout=2) as db:
                return [row[0] for row in db.execute("SELECT status FROM django_tasks_database_dbtaskresult")]
        except psycopg.OperationalError:
            return []

    log = tmp_path / "worker.log"
    worker = None
    try:
        for step in (("migrate", "--noinput"), ("shell", "-c", SETUP)):
            finished = manage(*step, env=env, timeout=300)
            assert finished.returncode == 0, finished.stderr[-3000:]
        worker = manage_in_background("task_worker", "--queue-name", "*", "--interval", "0.2", env=env, log=log)
        assert manage("shell", "-c", WRITE_IN_ACME.format(text="Before the restart."), env=env).returncode == 0
        eventually(lambda: done() == ["SUCCESSFUL"], 60, "the first write's task done")

        database.stop()  # fast shutdown: every connection cut, as in a failover
        time.sleep(1.5)  # the worker meets the lost database, then finds it down for a while
        database.acquire("zm_worker")
        assert (
            manage("shell", "-c", WRITE_IN_ACME.format(text="After the restart, a new fact."), env=env).returncode == 0
        )

        eventually(lambda: done() == ["SUCCESSFUL"] * 2, 60, "the write after the restart judged")
        assert worker.poll() is None, log.read_text()
        assert "task worker lost the database" in log.read_text()
    finally:
        if worker is not None and worker.poll() is None:
            os.killpg(worker.pid, signal.SIGTERM)
            worker.wait(timeout=30)
        database.destroy()
