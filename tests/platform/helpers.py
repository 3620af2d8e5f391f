from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def child_env(**overrides: str | None) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in {"DATABASE_URL", "ZEROMEMORY_DATA_DIR"}}
    for key, value in overrides.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def manage(*args: str, env: dict[str, str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


@contextmanager
def gunicorn_server(env: dict[str, str], log: Path) -> Iterator[str]:
    """The production command (gunicorn, threaded WSGI workers) from the project root, as
    ``./zm serve`` runs it; yields its base URL once it answers."""
    port = free_port()
    gunicorn = str(Path(sys.executable).parent / "gunicorn")
    command = [gunicorn, "zeromemory.wsgi:application", "--bind", f"127.0.0.1:{port}", "--workers", "2"]
    # A file, not a pipe: the server logs a line per request, and a pipe nobody drains fills up
    # and blocks the workers mid-request.
    with log.open("wb") as sink:
        server = subprocess.Popen(
            [*command, "--worker-class", "gthread", "--threads", "4"], cwd=ROOT, env=env, stderr=sink
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while _answers(base) is None:
            assert server.poll() is None, log.read_text(errors="replace")
            assert time.monotonic() < deadline, "gunicorn did not start"
            time.sleep(0.3)
        yield base
    finally:
        server.terminate()
        server.wait(timeout=30)


def _answers(base: str) -> int | None:
    """The status of an anonymous read, or None while nothing listens yet."""
    try:
        with urllib.request.urlopen(f"{base}/api/v1/memories/", timeout=2) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return None
