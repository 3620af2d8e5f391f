"""DATABASE_URL switches to an external PostgreSQL; here, a second server the test starts,
listening on TCP like a managed database would."""

from __future__ import annotations

import json

import psycopg

from bench.zm_serve import share_exported_model
from tests.platform.helpers import child_env, free_port, manage
from zeromemory.embedded_db import EmbeddedServer


def test_database_url_points_the_app_at_another_server(tmp_path):
    external = EmbeddedServer(tmp_path / "external", port=free_port())
    external.acquire("zm_external")
    unused_data_dir = tmp_path / "unused"
    share_exported_model(unused_data_dir)
    env = child_env(DATABASE_URL=external.url("zm_external"), ZEROMEMORY_DATA_DIR=str(unused_data_dir))
    try:
        migrate = manage("migrate", "--noinput", env=env)
        assert migrate.returncode == 0, migrate.stderr
        token = manage("issue_token", "alice", "--create-user", env=env).stdout.strip().splitlines()[-1]
        script = (
            "from rest_framework.test import APIClient; import json\n"
            "c = APIClient(); c.credentials(HTTP_AUTHORIZATION='Bearer " + token + "')\n"
            "m = c.post('/api/v1/memories/', {'content': 'Stored externally'}, format='json').json()['memory']\n"
            "print(json.dumps(c.get('/api/v1/memories/' + m['id'] + '/').json()))\n"
        )
        shell = manage("shell", "-c", script, env=env)
        assert shell.returncode == 0, shell.stderr
        memory = json.loads(shell.stdout.strip().splitlines()[-1])
        assert memory["content"] == "Stored externally"

        with psycopg.connect(external.url("zm_external")) as conn:
            row = conn.execute("SELECT content FROM memories_memory").fetchall()
            extension = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()
        assert row == [("Stored externally",)]
        assert extension is not None
        assert not (unused_data_dir / "pg").exists()  # no embedded server was started
    finally:
        external.destroy()


def test_a_database_url_that_is_not_postgresql_is_refused(tmp_path):
    result = manage("check", env=child_env(DATABASE_URL="sqlite:///x.db", ZEROMEMORY_DATA_DIR=str(tmp_path)))

    assert result.returncode != 0
    assert "DATABASE_URL must point at PostgreSQL" in result.stderr
