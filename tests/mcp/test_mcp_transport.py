"""The /mcp/ endpoint as HTTP: authentication, methods, hand-written JSON-RPC, WSGI, isolation."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx2
import pytest
from django.test import Client as DjangoClient
from mcp.shared.exceptions import MCPError

from memories import services
from memories.models import Memory
from tests.conftest import Persona
from tests.helpers import store_snapshot
from tests.mcp.conftest import Agent, agent_for, open_client

pytestmark = pytest.mark.django_db(transaction=True)

ACCEPT = "application/json, text/event-stream"


def rpc(method: str, params: dict[str, Any] | None = None, ident: int | None = 1) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    if ident is not None:
        message["id"] = ident
    return message


INITIALIZE = rpc(
    "initialize",
    {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "curl", "version": "1"}},
)


def post(url: str, message: dict[str, Any], token: str | None, **headers: str) -> httpx2.Response:
    sent = {"Accept": ACCEPT, "Content-Type": "application/json", **headers}
    if token is not None:
        sent["Authorization"] = f"Bearer {token}"
    return httpx2.post(url, content=json.dumps(message), headers=sent, timeout=60)


@pytest.mark.parametrize("header", [None, "Bearer zm_nope_nope", "Token abc", "Bearer"])
def test_requests_without_a_valid_token_answer_401_before_anything_else(
    asgi_server: str, alice: Persona, header: str | None
) -> None:
    headers = {"Accept": ACCEPT, "Content-Type": "application/json"}
    if header is not None:
        headers["Authorization"] = header
    call = rpc("tools/call", {"name": "remember", "arguments": {"content": "sneaky"}})

    response = httpx2.post(f"{asgi_server}/mcp/", content=json.dumps(call), headers=headers, timeout=60)

    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == 'Bearer realm="zeromemory"'
    expected = "not_authenticated" if header is None else "authentication_failed"
    assert response.json()["error"]["code"] == expected
    assert Memory.objects.count() == 0


def test_a_revoked_token_is_refused(asgi_server: str, alice: Persona) -> None:
    services.credential_revoke(actor=None, via="tests", credential=alice.credential)

    response = post(f"{asgi_server}/mcp/", INITIALIZE, alice.token)

    assert response.status_code == 401
    assert response.json()["error"]["code"] == "authentication_failed"


def test_the_sdk_client_without_a_token_cannot_connect(asgi_server: str, alice: Persona) -> None:
    with pytest.raises(ExceptionGroup) as raised:
        Agent(asgi_server, None).tools()
    assert raised.group_contains(MCPError)


def test_a_hand_written_json_rpc_exchange_works_on_both_spellings_of_the_path(asgi_server: str, alice: Persona) -> None:
    for path in ("/mcp/", "/mcp"):
        hello = post(f"{asgi_server}{path}", INITIALIZE, alice.token)
        assert hello.status_code == 200
        assert hello.headers["content-type"].startswith("application/json")
        assert hello.json()["result"]["serverInfo"]["name"] == "zeromemory"
        assert "supersedes" in hello.json()["result"]["instructions"]

    call = rpc("tools/call", {"name": "remember", "arguments": {"content": "Hand-written JSON-RPC works."}}, 2)
    answer = post(f"{asgi_server}/mcp", call, alice.token, **{"MCP-Protocol-Version": "2025-06-18"})

    result = answer.json()["result"]
    assert result["isError"] is False
    assert result["structuredContent"]["memory"]["content"] == "Hand-written JSON-RPC works."
    assert json.loads(result["content"][0]["text"]) == result["structuredContent"]


def test_get_offers_no_event_stream(asgi_server: str, alice: Persona) -> None:
    response = httpx2.get(
        f"{asgi_server}/mcp/", headers={"Authorization": f"Bearer {alice.token}", "Accept": ACCEPT}, timeout=60
    )

    assert response.status_code == 405
    assert response.headers["Allow"] == "POST"
    assert response.json()["error"]["code"] == "method_not_allowed"


def test_malformed_json_rpc_is_a_protocol_error_not_a_server_error(asgi_server: str, alice: Persona) -> None:
    before = store_snapshot()
    response = httpx2.post(
        f"{asgi_server}/mcp/",
        content=b"{not json",
        headers={"Authorization": f"Bearer {alice.token}", "Accept": ACCEPT, "Content-Type": "application/json"},
        timeout=60,
    )

    assert 400 <= response.status_code < 500
    assert store_snapshot() == before


def test_the_endpoint_is_served_by_the_wsgi_stack_too(alice: Persona) -> None:
    """runserver and WSGI servers reach the same view through Django's sync handler."""
    client = DjangoClient(HTTP_AUTHORIZATION=f"Bearer {alice.token}", HTTP_ACCEPT=ACCEPT)
    call = rpc("tools/call", {"name": "remember", "arguments": {"content": "WSGI serves MCP as well."}})

    response = client.post("/mcp/", data=json.dumps(call), content_type="application/json")

    assert response.status_code == 200
    structured = json.loads(response.content)["result"]["structuredContent"]
    assert structured["memory"]["owner"] == "alice"
    assert Memory.objects.get(pk=structured["memory"]["id"]).content == "WSGI serves MCP as well."


def test_concurrent_callers_each_act_as_themselves(asgi_server: str, alice: Persona, carol: Persona) -> None:
    """The caller travels in a context variable: interleaved requests must never swap identities."""

    async def remember_as(persona: Persona, n: int) -> str:
        async with open_client(f"{asgi_server}/mcp/", persona.token) as client:
            result = await client.call_tool("remember", {"content": f"{persona.username} note number {n}"})
            owner: str = result.structured_content["memory"]["owner"]
            return owner

    async def everyone() -> list[str]:
        return await asyncio.gather(*(remember_as(alice if n % 2 else carol, n) for n in range(16)))

    owners = asyncio.run(everyone())

    assert owners == ["alice" if n % 2 else "carol" for n in range(16)]
    for memory in Memory.objects.select_related("owner"):
        assert memory.content.startswith(memory.owner.username)


def test_a_database_error_answers_the_same_503_code(asgi_server: str, alice: Persona, monkeypatch: Any) -> None:
    from django.db import OperationalError

    from memories.agent import verbs

    def broken(**_: Any) -> Any:
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(verbs, "history", broken)
    memory = agent_for(asgi_server, alice).ok("remember", {"content": "Something to look up."})["memory"]

    error = agent_for(asgi_server, alice).error("memory_history", {"memory_id": memory["id"]})

    assert error["code"] == "database_unavailable"


def test_the_rest_api_and_mcp_share_one_budget_per_token(
    asgi_server: str, alice: Persona, bob: Persona, settings: Any
) -> None:
    settings.RATE_LIMIT_PER_MINUTE = 3
    call = rpc("tools/call", {"name": "remember", "arguments": {"content": "Past the budget, nothing is stored."}})
    assert alice.client.get("/api/v1/memories/").status_code == 200
    assert [post(f"{asgi_server}/mcp/", INITIALIZE, alice.token).status_code for _ in range(2)] == [200, 200]

    refused = post(f"{asgi_server}/mcp/", call, alice.token)

    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "20"
    assert refused.json()["error"]["code"] == "rate_limited"
    assert Memory.objects.count() == 0
    assert post(f"{asgi_server}/mcp/", INITIALIZE, bob.token).status_code == 200


def test_a_database_error_while_authenticating_answers_503_not_500(alice: Persona, monkeypatch: Any) -> None:
    """The token lookup comes before any tool runs; with the database down it must fail the same
    clean way (seen with PostgreSQL restarting under gunicorn: tests/faults)."""
    from django.db import OperationalError

    from memories.platform import tokens

    def unreachable(token: str) -> Any:
        raise OperationalError("couldn't get a connection after 10.00 sec")

    # The header reader both doors share looks the token up here.
    monkeypatch.setattr(tokens, "credential_for_token", unreachable)
    client = DjangoClient(HTTP_AUTHORIZATION=f"Bearer {alice.token}", HTTP_ACCEPT=ACCEPT)

    response = client.post("/mcp/", data=json.dumps(rpc("tools/list", {})), content_type="application/json")

    assert response.status_code == 503
    assert response.json()["error"]["code"] == "database_unavailable"


def _deep(levels: int) -> str:
    return '{"a":' * levels + "1" + "}" * levels


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("[" * 5000 + "]" * 5000, "recursion limit exceeded"),
        (
            '{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "remember", '
            '"arguments": {"content": "x", "metadata": ' + _deep(3000) + "}}}",
            "recursion limit exceeded",
        ),
        ("\x00", "expected value"),
    ],
    ids=["deep-array", "deep-arguments", "nul"],
)
def test_hostile_json_is_a_json_rpc_parse_error(alice: Persona, body: str, expected: str) -> None:
    """The fuzzer's REST findings (deep nesting, NUL) checked against the MCP endpoint's own parser."""
    client = DjangoClient(HTTP_AUTHORIZATION=f"Bearer {alice.token}", HTTP_ACCEPT=ACCEPT)

    response = client.post("/mcp/", data=body, content_type="application/json")

    assert response.status_code == 400
    error = json.loads(response.content)["error"]
    assert error["code"] == -32700
    assert expected in error["message"]
    assert Memory.objects.count() == 0


def test_a_nul_character_in_a_tool_argument_is_a_field_error(alice: Persona) -> None:
    client = DjangoClient(HTTP_AUTHORIZATION=f"Bearer {alice.token}", HTTP_ACCEPT=ACCEPT)
    call = rpc("tools/call", {"name": "remember", "arguments": {"content": "a\x00b"}})

    response = client.post("/mcp/", data=json.dumps(call), content_type="application/json")

    result = json.loads(response.content)["result"]
    assert result["isError"] is True
    assert result["structuredContent"]["error"]["fields"] == {"content": ["Null characters are not allowed."]}
    assert Memory.objects.count() == 0
