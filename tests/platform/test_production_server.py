"""The production command (gunicorn, threaded WSGI workers, as ./zm serve runs it) serves the
REST API and MCP from the same processes, with pooled database connections."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from memories.models import Memory
from tests.conftest import Persona
from tests.platform.helpers import ROOT, child_env, free_port, gunicorn_server
from zeromemory.embedded_db import EmbeddedServer

pytestmark = pytest.mark.django_db(transaction=True)


def _post(url: str, token: str, body: dict[str, Any], **headers: str) -> tuple[int, Any]:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json", **headers},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def _ready(base: str) -> int | None:
    """The status of an anonymous read, or None while nothing listens yet."""
    try:
        with urllib.request.urlopen(f"{base}/api/v1/memories/", timeout=2) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return None


def test_gunicorn_serves_rest_and_mcp(alice: Persona, carol: Persona) -> None:
    port = free_port()
    env = child_env(
        DATABASE_URL=EmbeddedServer(settings.DATA_DIR).url(connection.settings_dict["NAME"]),
        ZEROMEMORY_DB_POOL="true",
        DJANGO_DEBUG="false",
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
    )
    gunicorn = str(Path(sys.executable).parent / "gunicorn")
    command = [gunicorn, "zeromemory.wsgi:application", "--bind", f"127.0.0.1:{port}", "--workers", "2"]
    server = subprocess.Popen(
        [*command, "--worker-class", "gthread", "--threads", "4"], cwd=ROOT, env=env, stderr=subprocess.PIPE
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while (answer := _ready(base)) is None:
            assert server.poll() is None, server.stderr.read().decode() if server.stderr else ""
            assert time.monotonic() < deadline, "gunicorn did not start"
            time.sleep(0.3)
        assert answer == 401

        stored = [
            _post(f"{base}/api/v1/memories/", alice.token, {"content": f"Fact number {n} about the ledger."})
            for n in range(6)
        ]
        tools = _post(
            f"{base}/mcp/",
            alice.token,
            {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}},
            Accept="application/json, text/event-stream",
            **{"MCP-Protocol-Version": "2025-06-18"},
        )
        recalled = _post(
            f"{base}/mcp/",
            carol.token,
            {
                "jsonrpc": "2.0",
                "id": 2,
                "method": "tools/call",
                "params": {"name": "recall", "arguments": {"query": "ledger"}},
            },
            Accept="application/json, text/event-stream",
            **{"MCP-Protocol-Version": "2025-06-18"},
        )
    finally:
        server.terminate()
        server.wait(timeout=30)

    assert [status for status, _ in stored] == [201] * 6
    assert Memory.objects.filter(owner=alice.user).count() == 6
    assert tools[0] == 200
    assert "remember" in {tool["name"] for tool in tools[1]["result"]["tools"]}
    assert recalled[0] == 200
    assert recalled[1]["result"]["structuredContent"] == {"results": []}  # carol sees none of alice's


def test_the_longest_query_the_api_accepts_reaches_it(alice: Persona, tmp_path: Path) -> None:
    """q may be 500 characters; percent-encoded four-byte ones make a 6 KB request line, over
    gunicorn's default limit (4094 bytes), which refused it with an HTML 400 of its own."""
    env = child_env(
        DATABASE_URL=EmbeddedServer(settings.DATA_DIR).url(connection.settings_dict["NAME"]),
        DJANGO_DEBUG="false",
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
    )
    query = urllib.parse.urlencode({"q": "\U000134b4" * 500, "project": "acme", "state": "all"})
    with gunicorn_server(env, tmp_path / "gunicorn.log") as base:
        request = urllib.request.Request(
            f"{base}/api/v1/memories/?{query}", headers={"Authorization": f"Bearer {alice.token}"}
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            answer = response.status, response.headers["Content-Type"], json.loads(response.read())

    assert answer == (200, "application/json", {"results": [], "next": None})
