"""The MCP server: lists the tools and runs a call as the authenticated caller.

The caller is set by the HTTP endpoint (``memories.mcp.views``) in a context variable before
the SDK handles the request; the SDK runs the handlers in tasks spawned from that request, which
inherit it. A tool's work is synchronous Django code, run off the event loop.
"""

from __future__ import annotations

import json
import logging
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

import mcp_types as types
from asgiref.sync import sync_to_async
from django.contrib.auth.models import User
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server

from memories.agent.errors import as_domain_error, domain_error_body, error_body, server_error_body
from memories.mcp.tools import INSTRUCTIONS, TOOLS, AgentTool
from memories.models import Credential

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Caller:
    user: User
    credential: Credential


CURRENT_CALLER: ContextVar[Caller | None] = ContextVar("zeromemory_mcp_caller", default=None)


def _result(body: dict[str, Any], *, is_error: bool = False) -> types.CallToolResult:
    # Structured content for clients that read it, the same JSON as text for those that do not.
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text)], structured_content=body, is_error=is_error
    )


def _error(code: str, message: str, fields: dict[str, Any] | None = None) -> types.CallToolResult:
    return _result(error_body(code, message, fields), is_error=True)


def run_tool(tool: AgentTool, caller: Caller, arguments: dict[str, Any]) -> types.CallToolResult:
    """Run one tool call the way the REST view runs its request: same operation, same errors."""
    unknown = tool.unknown_arguments(arguments)
    if unknown:
        return _error("invalid", f"{tool.name} does not take these arguments; see fields.", unknown)
    try:
        body = tool.run(caller.user, caller.credential, dict(arguments))
    except Exception as exc:
        error = as_domain_error(exc)
        if error is None:
            logger.exception("Unhandled error in MCP tool %s", tool.name)
            return _result(server_error_body(), is_error=True)
        return _result(domain_error_body(error), is_error=True)
    return _result(body)


async def list_tools(
    ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
) -> types.ListToolsResult:
    return types.ListToolsResult(
        tools=[
            types.Tool(
                name=tool.name,
                title=tool.title,
                description=tool.description,
                input_schema=tool.input_schema,
                annotations=types.ToolAnnotations(
                    title=tool.title,
                    read_only_hint=tool.read_only,
                    destructive_hint=False,
                    idempotent_hint=tool.read_only or tool.idempotent,
                    open_world_hint=False,
                ),
            )
            for tool in TOOLS.values()
        ]
    )


async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
    tool = TOOLS.get(params.name)
    if tool is None:
        return _error("unknown_tool", f"No tool named {params.name!r}; the tools are {', '.join(TOOLS)}.")
    caller = CURRENT_CALLER.get()
    if caller is None:
        # The endpoint authenticates before the SDK sees the request; reaching here without a
        # caller means a code path skipped it. Refuse rather than act as nobody.
        return _error("not_authenticated", "Authentication credentials were not provided.")
    arguments = params.arguments if isinstance(params.arguments, dict) else {}
    return await sync_to_async(run_tool)(tool, caller, arguments)


SERVER: Server[Any] = Server(
    "zeromemory",
    version="1.0",
    title="zeromemory",
    instructions=INSTRUCTIONS,
    on_list_tools=list_tools,
    on_call_tool=call_tool,
)
