"""The production server (gunicorn, threaded WSGI workers, as ./zm serve runs it) started on
the test database for tests that need real processes."""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.db import connection

from tests.platform.helpers import ROOT, child_env, free_port
from zeromemory.embedded_db import EmbeddedServer


def _ready(base: str) -> int | None:
    """The status of an anonymous read, or None while nothing listens yet."""
    try:
        with urllib.request.urlopen(f"{base}/api/v1/memories/", timeout=2) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return None


@contextmanager
def gunicorn_server(*, workers: int = 2, threads: int = 4, **env: str) -> Iterator[str]:
    """Serves the test database; yields the base URL once the server answers."""
    port = free_port()
    server_env = child_env(
        DATABASE_URL=EmbeddedServer(settings.DATA_DIR).url(connection.settings_dict["NAME"]),
        ZEROMEMORY_DB_POOL="true",
        DJANGO_DEBUG="false",
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        **env,
    )
    gunicorn = str(Path(sys.executable).parent / "gunicorn")
    command = [gunicorn, "zeromemory.wsgi:application", "--bind", f"127.0.0.1:{port}"]
    command += ["--workers", str(workers), "--worker-class", "gthread", "--threads", str(threads)]
    server = subprocess.Popen(command, cwd=ROOT, env=server_env, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while (answer := _ready(base)) is None:
            assert server.poll() is None, server.stderr.read().decode() if server.stderr else ""
            assert time.monotonic() < deadline, "gunicorn did not start"
            time.sleep(0.3)
        assert answer == 401
        yield base
    finally:
        server.terminate()
        server.wait(timeout=30)
