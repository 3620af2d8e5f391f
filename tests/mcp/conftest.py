"""A real ASGI server (uvicorn, the project's ``zeromemory.asgi:application``) for MCP clients.

The server runs in a thread of the test process so it shares the test database; the tests
talk to it over TCP with the MCP SDK's own client, as an agent would.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import httpx2
import pytest
import uvicorn
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult, Tool

from tests.conftest import Persona


@pytest.fixture(scope="module")
def asgi_server(django_db_setup: None, django_db_blocker: Any) -> Iterator[str]:
    from zeromemory.asgi import application

    config = uvicorn.Config(application, host="127.0.0.1", port=0, log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="uvicorn", daemon=True)
    with django_db_blocker.unblock():
        thread.start()
        deadline = time.monotonic() + 60
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                pytest.fail("uvicorn did not start")
            time.sleep(0.02)
        port = server.servers[0].sockets[0].getsockname()[1]
        yield f"http://127.0.0.1:{port}"
        server.should_exit = True
        thread.join(timeout=30)


@pytest.fixture(autouse=True)
def _no_background_hygiene(settings: Any) -> None:
    """The stories here are about the tools; the hygiene judge would retire memories under them."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}


@asynccontextmanager
async def open_client(url: str, token: str | None, *, mode: str = "auto") -> AsyncIterator[Client]:
    """The SDK's client over streamable HTTP, sending the bearer token on every request."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=60) as http,
        Client(streamable_http_client(url, http_client=http), mode=mode) as client,
    ):
        yield client


class Agent:
    """An MCP client holding one persona's token. Each call is a fresh connection (sync for tests)."""

    def __init__(self, base_url: str, token: str | None, *, mode: str = "auto", path: str = "/mcp/") -> None:
        self.url = base_url + path
        self.token = token
        self.mode = mode

    async def _with_client(self, action: Any) -> Any:
        async with open_client(self.url, self.token, mode=self.mode) as client:
            return await action(client)

    def call(self, name: str, arguments: dict[str, Any] | None = None) -> CallToolResult:
        async def action(client: Client) -> CallToolResult:
            return await client.call_tool(name, arguments or {})

        result: CallToolResult = asyncio.run(self._with_client(action))
        return result

    def ok(self, name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        result = self.call(name, arguments)
        assert not result.is_error, result.structured_content
        body: dict[str, Any] = result.structured_content
        return body

    def error(self, name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        result = self.call(name, arguments)
        assert result.is_error, result.structured_content
        body: dict[str, Any] = result.structured_content["error"]
        return body

    def tools(self) -> list[Tool]:
        async def action(client: Client) -> list[Tool]:
            return list((await client.list_tools()).tools)

        tools: list[Tool] = asyncio.run(self._with_client(action))
        return tools


@pytest.fixture(params=["auto", "legacy"])
def mode(request: pytest.FixtureRequest) -> str:
    """auto negotiates the 2026-07-28 protocol; legacy is the initialize handshake older clients use."""
    return str(request.param)


def agent_for(asgi_server: str, persona: Persona, mode: str = "auto") -> Agent:
    return Agent(asgi_server, persona.token, mode=mode)
