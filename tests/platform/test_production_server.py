"""The production command (gunicorn, threaded WSGI workers, as ./zm serve runs it) serves the
REST API and MCP from the same processes, with pooled database connections."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

import pytest

from memories.models import Memory
from tests.conftest import Persona
from tests.platform.server import gunicorn_server

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


def test_gunicorn_serves_rest_and_mcp(alice: Persona, carol: Persona) -> None:
    with gunicorn_server() as base:
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

    assert [status for status, _ in stored] == [201] * 6
    assert Memory.objects.filter(owner=alice.user).count() == 6
    assert tools[0] == 200
    assert "remember" in {tool["name"] for tool in tools[1]["result"]["tools"]}
    assert recalled[0] == 200
    assert recalled[1]["result"]["structuredContent"] == {"results": []}  # carol sees none of alice's


def test_the_longest_query_the_api_accepts_reaches_it(alice: Persona) -> None:
    """q may be 500 characters; percent-encoded four-byte ones make a 6 KB request line, over
    gunicorn's default limit (4094 bytes), which refused it with an HTML 400 of its own."""
    query = urllib.parse.urlencode({"q": "\U000134b4" * 500, "project": "acme", "state": "all"})
    with gunicorn_server() as base:
        request = urllib.request.Request(
            f"{base}/api/v1/memories/?{query}", headers={"Authorization": f"Bearer {alice.token}"}
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            answer = response.status, response.headers["Content-Type"], json.loads(response.read())

    assert answer == (200, "application/json", {"results": [], "next": None})
