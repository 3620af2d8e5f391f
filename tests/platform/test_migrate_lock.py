"""Several ``manage.py migrate`` started at once against one fresh database (replicas starting
together) apply each migration once, and every one of them succeeds (SPEC R-P3)."""

from __future__ import annotations

import subprocess
import sys
import uuid

import psycopg
import pytest
from django.conf import settings
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from tests.platform.helpers import ROOT, child_env
from zeromemory.embedded_db import EmbeddedServer

RUNS = 3
pytestmark = pytest.mark.django_db  # the session's server up, its test database made


def test_migrate_started_three_times_at_once_applies_each_migration_once(tmp_path) -> None:
    server = EmbeddedServer(settings.DATA_DIR)
    name = f"zm_migrate_race_{uuid.uuid4().hex[:8]}"
    admin_url = server.url(connection.settings_dict["NAME"])
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        env = child_env(DATABASE_URL=server.url(name), ZEROMEMORY_DB_POOL="false")
        runs = [
            subprocess.Popen(
                [sys.executable, str(ROOT / "manage.py"), "migrate", "--noinput"],
                cwd=ROOT,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(RUNS)
        ]
        outputs = [run.communicate(timeout=600) for run in runs]

        assert [run.returncode for run in runs] == [0] * RUNS, [err[-2000:] for _, err in outputs]
        # The others waited, then found nothing left to apply.
        assert sum("Waiting for another migrate" in out for out, _ in outputs) == RUNS - 1
        assert sum("No migrations to apply." in out for out, _ in outputs) == RUNS - 1
        on_disk = set(MigrationLoader(None, ignore_no_migrations=True).graph.nodes)
        with psycopg.connect(server.url(name)) as db:
            applied = db.execute("SELECT app, name FROM django_migrations").fetchall()
        assert len(applied) == len(set(applied))  # none recorded twice
        assert set(applied) == on_disk
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
