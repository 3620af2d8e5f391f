"""The production server (gunicorn, threaded workers, as ./zm serve runs it) as a child process,
and a small HTTP client, for the tests that need real processes: races, faults, limits. Every
request has a timeout and every loop a bound."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.platform.helpers import ROOT, child_env, free_port

GUNICORN = str(Path(sys.executable).parent / "gunicorn")
REQUEST_TIMEOUT = 30.0


@dataclass
class Answer:
    status: int  # 0: no HTTP answer at all (connection refused or reset, timeout)
    body: Any
    seconds: float
    error: str = ""
    headers: dict[str, str] = field(default_factory=dict)


def request(port: int, method: str, path: str, token: str | None = None, body: Any = None, **headers: str) -> Answer:
    """One request on a fresh connection; transport failures come back as status 0."""
    sent = {"Content-Type": "application/json", **headers}
    if token:
        sent["Authorization"] = f"Bearer {token}"
    started = time.monotonic()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=REQUEST_TIMEOUT)
    try:
        connection.request(method, path, body=None if body is None else json.dumps(body), headers=sent)
        response = connection.getresponse()
        raw = response.read()
        try:
            parsed: Any = json.loads(raw) if raw else None
        except ValueError:
            parsed = raw.decode(errors="replace")
        return Answer(response.status, parsed, time.monotonic() - started, headers=dict(response.getheaders()))
    except (OSError, http.client.HTTPException) as exc:
        return Answer(0, None, time.monotonic() - started, error=f"{type(exc).__name__}: {exc}")
    finally:
        connection.close()


@dataclass
class Gunicorn:
    """gunicorn in its own process group, so a test can SIGKILL master and workers at once."""

    database_url: str
    workers: int = 2
    threads: int = 4
    extra_env: dict[str, str] = field(default_factory=dict)
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None
    log_path: Path | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, log_path: Path, ready_within: float = 180) -> None:
        defaults = {
            "DATABASE_URL": self.database_url,
            "ZEROMEMORY_DB_POOL": "true",
            # A per-credential rate limit would turn a stress test into a rate-limit test.
            "ZEROMEMORY_RATE_LIMIT_PER_MINUTE": "0",
            "ZEROMEMORY_LOG_LEVEL": "WARNING",
            "DJANGO_DEBUG": "false",
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        }
        env = child_env(**{**defaults, **self.extra_env})
        self.log_path = log_path
        command = [GUNICORN, "zeromemory.wsgi:application", "--bind", f"127.0.0.1:{self.port}"]
        command += ["--workers", str(self.workers), "--worker-class", "gthread", "--threads", str(self.threads)]
        command += ["--graceful-timeout", "10"]
        with open(log_path, "ab") as log:
            self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True)
        deadline = time.monotonic() + ready_within
        while True:
            answer = request(self.port, "GET", "/api/v1/memories/")
            if answer.status == 401:
                return
            if self.process.poll() is not None:
                raise AssertionError(f"gunicorn exited with {self.process.returncode}:\n{self.log_tail()}")
            if time.monotonic() > deadline:
                self.kill()
                raise AssertionError(f"gunicorn did not start within {ready_within}s:\n{self.log_tail()}")
            time.sleep(0.3)

    def pids(self) -> list[int]:
        """The master and its workers."""
        import psutil

        assert self.process is not None
        try:
            master = psutil.Process(self.process.pid)
            return [master.pid, *(child.pid for child in master.children(recursive=True))]
        except psutil.Error:
            return []

    def kill(self) -> None:
        """SIGKILL the whole process group: no worker gets to finish or roll back anything."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.kill()

    def log_tail(self, lines: int = 40) -> str:
        if self.log_path is None or not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    def log_count(self, needle: str) -> int:
        if self.log_path is None or not self.log_path.exists():
            return 0
        return self.log_path.read_text(errors="replace").count(needle)


def session_database_url() -> str:
    """The URL of the database the test session runs on (shared with the server under test)."""
    from django.conf import settings
    from django.db import connection

    from zeromemory.embedded_db import EmbeddedServer

    return EmbeddedServer(settings.DATA_DIR).url(connection.settings_dict["NAME"])


@contextlib.contextmanager
def gunicorn_server(*, workers: int = 2, threads: int = 4, log: Path | None = None, **env: str) -> Iterator[Gunicorn]:
    """The server on the session's database, once it answers. Its output goes to ``log`` (a
    temporary file if not given)."""
    server = Gunicorn(session_database_url(), workers=workers, threads=threads, extra_env=env)
    with tempfile.TemporaryDirectory() as folder:
        server.start(log or Path(folder) / "gunicorn.log")
        try:
            yield server
        finally:
            server.stop()
