"""The parts apart, as deploy/ starts them (SPEC R-P3): the Procfile's release step, then its web,
worker and sender processes, each on its own, sharing one database by DATABASE_URL. A write
through the app server is judged by the separate worker; SIGTERM stops each within 30 seconds.
The systemd units run the same commands as the Procfile."""

from __future__ import annotations

import configparser
import os
import shlex
import signal
import subprocess
import time
import uuid
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from django.db import connection

from bench.zm_serve import fresh_env, share_exported_model
from tests.platform.helpers import ROOT, api_call, free_port, issue_token
from zeromemory.embedded_db import EmbeddedServer

pytestmark = pytest.mark.django_db  # the session's server up: the roles share a database on it

DEPLOY = ROOT / "deploy"
STOP_WITHIN = 30.0


def procfile() -> dict[str, list[str]]:
    roles = {}
    for line in (DEPLOY / "Procfile").read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            role, command = line.split(":", 1)
            roles[role.strip()] = shlex.split(command)
    return roles


def test_the_systemd_units_run_the_procfile_commands() -> None:
    roles = procfile()
    assert set(roles) == {"release", "web", "worker", "sender"}
    units = {"release": "migrate", "web": "web", "worker": "worker", "sender": "sender"}
    for role, unit in units.items():
        parser = configparser.ConfigParser(strict=False, interpolation=None)
        parser.optionxform = str  # type: ignore[assignment,method-assign]
        parser.read(DEPLOY / "systemd" / f"zeromemory-{unit}.service")
        start = shlex.split(parser["Service"]["ExecStart"])
        assert start == [str(Path("/opt/zeromemory") / roles[role][0].removeprefix("./")), *roles[role][1:]]
        assert parser["Service"]["EnvironmentFile"] == "/etc/zeromemory.env"
        if role != "release":
            assert parser["Service"]["KillMode"] == "mixed"
            assert parser["Service"]["TimeoutStopSec"] == "30"
            assert "zeromemory-migrate.service" in parser["Unit"]["After"]


def test_the_procfile_roles_run_apart_on_one_database_and_stop_on_sigterm(tmp_path: Path) -> None:
    server = EmbeddedServer(settings.DATA_DIR)
    name = f"zm_roles_{uuid.uuid4().hex[:8]}"
    admin_url = server.url(connection.settings_dict["NAME"])
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    data_dir = tmp_path / "data"
    share_exported_model(data_dir)
    port = free_port()
    env = fresh_env(
        data_dir,
        DATABASE_URL=server.url(name),
        DJANGO_SECRET_KEY="deploy-roles-test-" + uuid.uuid4().hex,
        ZEROMEMORY_PORT=str(port),
        ZEROMEMORY_WORKERS="1",
    )
    roles = procfile()
    running: dict[str, subprocess.Popen[bytes]] = {}
    try:
        release = subprocess.run(
            roles["release"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False
        )
        assert release.returncode == 0, release.stderr[-3000:]
        for role in ("web", "worker", "sender"):
            with open(tmp_path / f"{role}.log", "ab") as out:
                running[role] = subprocess.Popen(
                    roles[role], cwd=ROOT, env=env, stdout=out, stderr=out, start_new_session=True
                )
        deadline = time.monotonic() + 120
        while api_call(port, "GET", "/api/v1/memories/", "nobody")[0] != 401:
            assert all(process.poll() is None for process in running.values()), (tmp_path / "web.log").read_text()
            assert time.monotonic() < deadline
            time.sleep(0.5)
        token = issue_token(env)
        status, answer = api_call(
            port, "POST", "/api/v1/memories/", token, {"content": "The pager rota starts Monday."}
        )
        assert status == 201, answer

        # The separate worker takes up the write's hygiene task.
        with psycopg.connect(server.url(name), autocommit=True) as db:
            deadline = time.monotonic() + 120
            while True:
                statuses = [row[0] for row in db.execute("SELECT status FROM django_tasks_database_dbtaskresult")]
                if statuses and set(statuses) == {"SUCCESSFUL"}:
                    break
                assert time.monotonic() < deadline, statuses
                time.sleep(0.5)

        # Each stops on SIGTERM to its own pid (what systemd's KillMode=mixed sends first).
        started = time.monotonic()
        for process in running.values():
            process.send_signal(signal.SIGTERM)
        for role, process in running.items():
            try:
                process.wait(timeout=max(0.1, STOP_WITHIN - (time.monotonic() - started)))
            except subprocess.TimeoutExpired:
                raise AssertionError(f"{role} still runs {STOP_WITHIN:.0f} s after SIGTERM") from None
    finally:
        for process in running.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=30)
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
