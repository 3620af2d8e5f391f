from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# Not inherited from the test run: each child gets its own database and data folder, and decides
# for itself whether it serves (zeromemory/wsgi.py sets ZEROMEMORY_SERVING in the process that
# imports it, and a test importing it in the test run would otherwise hand it to every child).
NOT_INHERITED = {"DATABASE_URL", "ZEROMEMORY_DATA_DIR", "ZEROMEMORY_SERVING"}


def child_env(**overrides: str | None) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in NOT_INHERITED}
    for key, value in overrides.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def manage_in_background(*args: str, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """A long-running manage.py command (a worker, a sender) in a process group of its own, so a
    test can signal it and whatever it started; its output appended to ``log``."""
    with open(log, "ab") as out:
        return subprocess.Popen(
            [sys.executable, str(ROOT / "manage.py"), *args],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=out,
            start_new_session=True,
        )


# alice, a member of project acme, whose events go to one webhook endpoint at {url}.
WEBHOOK_SETUP = """
from django.contrib.auth.models import User
from memories import services
from memories.models import Membership, Project, WebhookEndpoint
user = User.objects.create_user("alice")
admin = User.objects.create_superuser("root")
project = Project.objects.create(slug="acme", name="Acme")
Membership.objects.create(project=project, user=user)
services.webhook_endpoint_save(actor=admin, via="tests", endpoint=WebhookEndpoint(project=project, url="{url}"))
"""


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


def api_call(
    port: int, method: str, path: str, token: str, body: dict[str, object] | None = None
) -> tuple[int, dict[str, Any]]:
    """One JSON request to a server on 127.0.0.1:``port`` with a bearer token: (status, body),
    or (0, {}) when nothing answers (not started yet, or stopped)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        response = connection.getresponse()
        return response.status, json.loads(response.read() or b"{}")
    except OSError:
        return 0, {}
    finally:
        connection.close()


def eventually(check: Callable[[], bool], within: float, what: str) -> None:
    deadline = time.monotonic() + within
    while not check():
        assert time.monotonic() < deadline, f"not within {within} s: {what}"
        time.sleep(0.1)


def issue_token(env: dict[str, str], username: str = "alice") -> str:
    """A new token for ``username`` (created if need be), as the README issues one."""
    issued = subprocess.run(
        [str(ROOT / "zm"), "manage", "issue_token", username, "--create-user", "--name", "tests"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return issued.stdout.strip().splitlines()[-1]


# A memory written in project acme by alice, in a separate process (``manage shell -c``).
WRITE_IN_ACME = """
from django.contrib.auth.models import User
from memories.models import Project
from tests.factories import make_memory
make_memory(User.objects.get(username="alice"), "{text}", project=Project.objects.get(slug="acme"))
"""
