"""``./zm serve`` as someone who cloned the project starts it: the scripts and tests that need
the whole server (its task worker and webhook sender included) on a fresh data folder run it
through here (bench/several_writers.py, tests/platform/test_readme_walkthrough.py)."""

from __future__ import annotations

import http.client
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def fresh_env(data_dir: Path, **extra: str) -> dict[str, str]:
    """The environment of someone who cloned the project: none of the caller's zeromemory,
    Django, database or Python path settings; the data in ``data_dir``."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("ZEROMEMORY_", "DJANGO_", "DATABASE_")) and key != "PYTHONPATH"
    }
    return {**env, "ZEROMEMORY_DATA_DIR": str(data_dir), **extra}


def share_exported_model(data_dir: Path) -> None:
    """Give a child's fresh data folder this checkout's exported model, so it starts without an
    export. A link, not a copy: each copy was 87 MB on /tmp, and a suite run kept every one of them,
    which filled a CI machine's disk. Loading an entry only reads it; an entry the child must build
    is built under the cache's file lock, as two servers sharing one data folder would."""
    exported = Path(os.environ.get("ZEROMEMORY_DATA_DIR") or ROOT / ".data") / "onnx"  # as settings.DATA_DIR
    if exported.is_dir():
        data_dir.mkdir(parents=True, exist_ok=True)
        (data_dir / "onnx").symlink_to(exported.resolve(), target_is_directory=True)


def _status(port: int) -> int | None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", "/api/v1/memories/")
        return connection.getresponse().status
    except OSError:
        return None
    finally:
        connection.close()


@contextmanager
def zm_serve(env: dict[str, str], port: int, log: Path, ready_within: float = 240) -> Iterator[None]:
    """``./zm serve`` on ``port`` with ``env`` until the block ends, its output in ``log``.
    Ready when the API answers an unauthenticated request with 401; a fresh folder first runs
    initdb, the migrations and the ONNX build."""
    with open(log, "ab") as out:
        server = subprocess.Popen(
            [str(ROOT / "zm"), "serve"],
            cwd=ROOT,
            env={**env, "ZEROMEMORY_PORT": str(port)},
            stdout=out,
            stderr=out,
            start_new_session=True,  # its own group: zm's bash, gunicorn, the worker, the sender
        )
    try:
        deadline = time.monotonic() + ready_within
        while _status(port) != 401:
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"./zm serve did not start:\n{log.read_text(errors='replace')[-4000:]}")
            time.sleep(0.5)
        yield
    finally:
        # The whole group, gently first.
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=30)
