"""The production command (gunicorn, threaded WSGI workers, as ./zm serve runs it) serves the
REST API and MCP from the same processes, with pooled database connections."""

from __future__ import annotations

import urllib.parse
from typing import Any

import pytest

from memories.models import Memory
from tests.conftest import Persona
from tests.platform.server import gunicorn_server, request

pytestmark = pytest.mark.django_db(transaction=True)


def _post(port: int, path: str, token: str, body: dict[str, Any], **headers: str) -> tuple[int, Any]:
    answer = request(port, "POST", path, token, body, **headers)
    return answer.status, answer.body


def test_gunicorn_serves_rest_and_mcp(alice: Persona, carol: Persona) -> None:
    with gunicorn_server() as server:
        stored = [
            _post(server.port, "/api/v1/memories/", alice.token, {"content": f"Fact number {n} about the ledger."})
            for n in range(6)
        ]
        tools = _post(
            server.port,
            "/mcp/",
            alice.token,
            {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}},
            Accept="application/json, text/event-stream",
            **{"MCP-Protocol-Version": "2025-06-18"},
        )
        recalled = _post(
            server.port,
            "/mcp/",
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
    with gunicorn_server() as server:
        got = request(server.port, "GET", f"/api/v1/memories/?{query}", alice.token)
        answer = got.status, got.headers["Content-Type"], got.body

    assert answer == (200, "application/json", {"results": [], "next": None})
