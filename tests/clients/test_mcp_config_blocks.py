"""The README's MCP config blocks ("Agents over MCP"), run as written against the production server.

Each block is read from README.md and only the README's address (http://127.0.0.1:8000/mcp/) and
token placeholders are replaced, then a real client uses it:

- Claude Code: the pinned ``claude`` CLI itself (tests/clients/tools), which runs offline for its
  ``mcp`` commands: ``claude mcp get`` connects to the server (an MCP handshake over streamable
  HTTP) and prints ``Status: ✔ Connected``, or the server's 401. An agent turn needs a model,
  which is an Anthropic account and the network; here a scripted stand-in for the Messages API
  on localhost takes its place (tests/clients/model_standin.py), so ``claude -p`` lists the
  server's tools and calls ``remember`` then ``recall`` through the README's config, offline.
- Cursor cannot run here: its block is taken the way Cursor reads it (``${env:NAME}`` expanded
  from the environment) and a real client, the official MCP Python SDK, connects with exactly its
  ``url`` and ``headers``, lists the tools and calls ``remember`` then ``recall``.
- The generic block: the MCP Inspector's CLI (pinned) reads it as the README's command does, lists
  the tools and calls ``remember`` then ``recall``.

The landing page shows the generic block and the Claude Code line too: it is checked against the
README here, on the same running server.

The server is gunicorn (WSGI), as ``./zm serve`` runs it: the MCP endpoint is an ordinary Django
view and answers there (tests/platform/test_production_server.py), so no ASGI server is needed.
"""

from __future__ import annotations

import asyncio
import html
import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from memories.models import Memory
from tests.clients.model_standin import Script, model_standin, text_of
from tests.conftest import Persona
from tests.platform.helpers import ROOT

pytestmark = pytest.mark.django_db(transaction=True)

README = ROOT / "README.md"
README_URL = "http://127.0.0.1:8000/mcp/"
README_TOKEN = "zm_XXXXXXXX_..."  # the generic block's placeholder for a token written in
TOOLS = Path(__file__).parent / "tools" / "node_modules" / ".bin"
# The README runs the Inspector through npx at the version tests/clients/tools pins; the tests run
# that pinned binary (the same package), so nothing is fetched at test time.
INSPECTOR_NPX = "npx @modelcontextprotocol/inspector@{}".format(
    json.loads((Path(__file__).parent / "tools" / "package.json").read_text())["devDependencies"][
        "@modelcontextprotocol/inspector"
    ]
)
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.DOTALL | re.MULTILINE)
CLI_TIMEOUT = 120

# The tools the README's MCP section names, all of them and no others.
TOOL_NAMES = {
    "remember",
    "remember_batch",
    "recall",
    "get_context",
    "whoami",
    "forget",
    "restore_memory",
    "link",
    "memory_history",
    "memory_get",
    "memory_feed",
    "events",
}


def mcp_section() -> str:
    text = README.read_text()
    start = text.index("## Agents over MCP")
    end = re.compile(r"^##", re.MULTILINE).search(text, start + 1)  # the next section or subsection
    assert end is not None
    return text[start : end.start()]


def blocks(language: str) -> list[str]:
    return [body for lang, body in FENCE.findall(mcp_section()) if lang == language]


def the_block(language: str, marker: str) -> str:
    """The one block of ``language`` in the MCP section that contains ``marker``."""
    found = [body for body in blocks(language) if marker in body]
    assert len(found) == 1, (marker, found)
    return found[0]


def claude_code_command() -> str:
    return the_block("bash", "claude mcp add")


def claude_code_project_file() -> str:
    return the_block("json", "${ZEROMEMORY_TOKEN}")


def cursor_file() -> str:
    return the_block("json", "${env:ZEROMEMORY_TOKEN}")


def generic_file() -> str:
    return the_block("json", README_TOKEN)


def inspector_command() -> str:
    command = the_block("bash", "@modelcontextprotocol/inspector")
    assert command.startswith(INSPECTOR_NPX + " "), command  # the version the tests run
    return command


def at(server: str, text: str) -> str:
    """The block with the README's address replaced by the running server's."""
    assert README_URL in text
    return text.replace(README_URL, f"{server}/mcp/")


def client_env(home: Path, **extra: str) -> dict[str, str]:
    """A client's environment: its own HOME (nothing read from or left in the real one), the pinned
    tools first on PATH, nothing of Anthropic's, and no traffic beyond what the command needs."""
    assert (TOOLS / "claude").exists(), "the pinned MCP clients are missing: ./zm test installs them (npm ci)"
    env = {key: value for key, value in os.environ.items() if not key.startswith(("ANTHROPIC_", "CLAUDE_"))}
    home.mkdir(parents=True, exist_ok=True)
    env.update(
        HOME=str(home),
        PATH=f"{TOOLS}{os.pathsep}{env.get('PATH', '')}",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        DISABLE_AUTOUPDATER="1",
        # The Inspector keeps secrets in the OS keychain, or a file in HOME: neither here.
        MCP_INSPECTOR_SECRET_STORE="memory",
    )
    env.pop("ZEROMEMORY_TOKEN", None)  # only the token a test gives
    env.update(extra)
    return env


def run(script: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=CLI_TIMEOUT,
        check=False,
    )


def lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines()]


# --- the blocks are all there, and each is what its client reads ------------------------------


def test_the_mcp_section_has_the_blocks_this_file_runs_and_no_others() -> None:
    # A block added to the section without a test here fails this one.
    assert len(blocks("json")) == 3
    assert len(blocks("bash")) == 2
    for text in (claude_code_project_file(), cursor_file(), generic_file()):
        (entry,) = json.loads(text)["mcpServers"].values()
        assert entry["url"] == README_URL
        assert list(entry["headers"]) == ["Authorization"]
    assert json.loads(cursor_file())["mcpServers"]["zeromemory"].keys() == {"url", "headers"}
    assert json.loads(claude_code_project_file())["mcpServers"]["zeromemory"]["type"] == "http"
    assert json.loads(generic_file())["mcpServers"]["zeromemory"]["type"] == "http"


# --- Claude Code, the real CLI ---------------------------------------------------------------


def test_claude_code_adds_the_server_from_the_readme_command_and_connects(
    server: str, alice: Persona, tmp_path: Path
) -> None:
    project = (tmp_path / "project").resolve()  # the path Claude Code keys its project config by
    project.mkdir()
    env = client_env(tmp_path / "home", ZEROMEMORY_TOKEN=alice.token)

    done = run(at(server, claude_code_command()), project, env)

    assert done.returncode == 0, done.stdout + done.stderr
    shown = lines(done.stdout)
    assert "Status: ✔ Connected" in shown, done.stdout
    assert f"URL: {server}/mcp/" in shown
    assert "Type: http" in shown
    assert f"Authorization: Bearer {alice.token}" in shown  # the variable, expanded by the shell
    # What claude mcp add stored, in the temporary HOME's config, for this project.
    stored = json.loads((tmp_path / "home" / ".claude.json").read_text())
    entry = stored["projects"][str(project)]["mcpServers"]["zeromemory"]
    assert entry == {"type": "http", "url": f"{server}/mcp/", "headers": {"Authorization": f"Bearer {alice.token}"}}


def test_claude_code_with_a_wrong_token_shows_the_servers_401(server: str, alice: Persona, tmp_path: Path) -> None:
    project = (tmp_path / "project").resolve()  # the path Claude Code keys its project config by
    project.mkdir()
    env = client_env(tmp_path / "home", ZEROMEMORY_TOKEN="zm_nope_nope")

    done = run(at(server, claude_code_command()), project, env)

    assert done.returncode == 0, done.stdout + done.stderr  # claude mcp get reports, it does not fail
    shown = lines(done.stdout)
    assert "Status: ✘ Failed to connect" in shown, done.stdout
    assert "Status: ✔ Connected" not in shown
    # The server's own refusal, as Claude Code relays it.
    assert "(HTTP 401)" in done.stdout
    assert '{"error": {"code": "authentication_failed"' in done.stdout


def test_claude_code_calls_remember_then_recall_through_the_readme_config(
    server: str, alice: Persona, tmp_path: Path
) -> None:
    """An agent turn in the real Claude Code, offline: the model is a stand-in on localhost that
    calls the tools by script (tests/clients/model_standin.py); Claude Code lists the server's
    tools, calls them over MCP with the README's config and hands the answers back."""
    project = (tmp_path / "project").resolve()  # the path Claude Code keys its project config by
    project.mkdir()
    script = Script(
        marker="mcp__zeromemory__remember",
        calls=[
            ("mcp__zeromemory__remember", {"content": "Claude Code reaches the store.", "project": "acme"}),
            ("mcp__zeromemory__recall", {"query": "Claude Code", "project": "acme"}),
        ],
    )
    with model_standin(script) as api:
        env = client_env(
            tmp_path / "home",
            ZEROMEMORY_TOKEN=alice.token,
            ANTHROPIC_BASE_URL=api,
            ANTHROPIC_API_KEY="sk-ant-standin",
            # Claude Code can hide MCP tools behind a search tool; listed, the stand-in sees them.
            ENABLE_TOOL_SEARCH="false",
        )
        added = run(at(server, claude_code_command()), project, env)
        assert added.returncode == 0, added.stdout + added.stderr
        turn = run(
            "claude -p 'Remember that Claude Code reaches the store, then recall it.'"
            " --allowedTools mcp__zeromemory__remember mcp__zeromemory__recall",
            project,
            env,
        )

    assert turn.returncode == 0, turn.stdout + turn.stderr
    offered = {tool["name"] for tool in script.requests[0]["tools"] if tool["name"].startswith("mcp__zeromemory__")}
    assert offered == {f"mcp__zeromemory__{name}" for name in TOOL_NAMES}
    remembered, recalled = (json.loads(text_of(result)) for result in script.tool_results(script.requests[-1]))
    memory = remembered["memory"]
    assert (memory["content"], memory["owner"], memory["project"]) == (
        "Claude Code reaches the store.",
        "alice",
        "acme",
    )
    assert [hit["memory"]["id"] for hit in recalled["results"]] == [memory["id"]]
    assert json.loads(turn.stdout) == recalled  # the stand-in's last answer repeats the recall
    assert Memory.objects.get(id=memory["id"]).content == "Claude Code reaches the store."


def approve_project_server(home: Path, project: Path, name: str) -> None:
    """What the first interactive ``claude`` run in the project records when its user trusts the
    folder and approves the project's server: the folder's trust in ~/.claude.json and the server
    in the project's .claude/settings.local.json (``enabledMcpjsonServers``, a documented setting).
    Without both, ``claude mcp get`` shows it pending and does not connect (checked below)."""
    config = home / ".claude.json"
    stored: dict[str, Any] = json.loads(config.read_text()) if config.exists() else {}
    stored.setdefault("projects", {}).setdefault(str(project), {})["hasTrustDialogAccepted"] = True
    config.write_text(json.dumps(stored))
    settings = project / ".claude" / "settings.local.json"
    settings.parent.mkdir(exist_ok=True)
    settings.write_text(json.dumps({"enabledMcpjsonServers": [name]}))


def test_claude_code_reads_the_readme_project_file_and_expands_the_token(
    server: str, alice: Persona, tmp_path: Path
) -> None:
    project = (tmp_path / "project").resolve()  # the path Claude Code keys its project config by
    project.mkdir()
    (project / ".mcp.json").write_text(at(server, claude_code_project_file()))
    home = tmp_path / "home"

    def get(token: str) -> list[str]:
        done = run("claude mcp get zeromemory", project, client_env(home, ZEROMEMORY_TOKEN=token))
        assert done.returncode == 0, done.stdout + done.stderr
        return lines(done.stdout)

    # Before the project's server is approved, Claude Code does not connect to it.
    assert "Status: ⏸ Pending approval (run `claude` to approve)" in get(alice.token)

    approve_project_server(home, project, "zeromemory")
    shown = get(alice.token)

    assert "Status: ✔ Connected" in shown
    assert "Scope: Project config (shared via .mcp.json)" in shown
    assert "Authorization: Bearer ${ZEROMEMORY_TOKEN}" in shown  # the file keeps the variable
    # The variable is what is sent: another value, and the server refuses.
    refused = get("zm_nope_nope")
    assert "Status: ✘ Failed to connect" in refused
    assert any("(HTTP 401)" in line for line in refused)


# --- Cursor's block, through the official MCP Python SDK ---------------------------------------


def cursor_entry(server: str, environment: dict[str, str]) -> dict[str, Any]:
    """The entry as Cursor reads it: ``${env:NAME}`` replaced by the variable's value."""
    text = re.sub(r"\$\{env:(\w+)\}", lambda found: environment[found.group(1)], at(server, cursor_file()))
    entry: dict[str, Any] = json.loads(text)["mcpServers"]["zeromemory"]
    return entry


async def sdk_session(entry: dict[str, Any], steps: Any, statuses: list[int] | None = None) -> Any:
    """A connection with exactly the entry's url and headers, as Cursor would open it; the HTTP
    status of each answer goes to ``statuses``."""

    async def record(response: httpx2.Response) -> None:
        if statuses is not None:
            statuses.append(response.status_code)

    async with (
        httpx2.AsyncClient(headers=entry["headers"], timeout=60, event_hooks={"response": [record]}) as http,
        Client(streamable_http_client(entry["url"], http_client=http)) as client,
    ):
        return await steps(client)


def test_cursors_block_lists_the_tools_and_remembers_then_recalls(server: str, alice: Persona) -> None:
    entry = cursor_entry(server, {"ZEROMEMORY_TOKEN": alice.token})
    assert entry == {"url": f"{server}/mcp/", "headers": {"Authorization": f"Bearer {alice.token}"}}

    async def steps(client: Client) -> tuple[set[str], dict[str, Any], dict[str, Any]]:
        tools = {tool.name for tool in (await client.list_tools()).tools}
        stored = await client.call_tool("remember", {"content": "Cursor's block reaches the store.", "project": "acme"})
        found = await client.call_tool("recall", {"query": "Cursor's block", "project": "acme"})
        assert not stored.is_error
        assert not found.is_error
        return tools, stored.structured_content, found.structured_content

    tools, stored, found = asyncio.run(sdk_session(entry, steps))

    assert tools == TOOL_NAMES
    memory = stored["memory"]
    assert (memory["content"], memory["owner"], memory["project"]) == (
        "Cursor's block reaches the store.",
        "alice",
        "acme",
    )
    assert [hit["memory"]["id"] for hit in found["results"]] == [memory["id"]]
    assert Memory.objects.get(id=memory["id"]).content == "Cursor's block reaches the store."


def test_cursors_block_with_a_wrong_token_stores_nothing(server: str, alice: Persona) -> None:
    entry = cursor_entry(server, {"ZEROMEMORY_TOKEN": "zm_nope_nope"})

    async def steps(client: Client) -> Any:
        return await client.call_tool("remember", {"content": "Sneaked in.", "project": "acme"})

    statuses: list[int] = []
    with pytest.raises(ExceptionGroup) as raised:
        asyncio.run(sdk_session(entry, steps, statuses))

    assert raised.group_contains(MCPError)
    # Every request refused (the SDK tries the new handshake, then the initialize one older
    # servers speak): nothing reached a tool.
    assert statuses
    assert set(statuses) == {401}, statuses
    assert Memory.objects.count() == 0


# --- the generic block, through the MCP Inspector's CLI ---------------------------------------


def inspector(cwd: Path, env: dict[str, str], *arguments: str) -> Any:
    """The Inspector as the README's command runs it (``--config mcp.json --server zeromemory``),
    with more arguments; its answer is JSON on stdout."""
    command = inspector_command().split("--method")[0].strip()
    command = command.replace(INSPECTOR_NPX, "inspector")
    quoted = " ".join("'" + argument.replace("'", "'\\''") + "'" for argument in arguments)
    done = run(f"{command} {quoted}", cwd, env)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout)


def test_the_generic_block_works_with_the_readme_inspector_command(server: str, alice: Persona, tmp_path: Path) -> None:
    (tmp_path / "mcp.json").write_text(at(server, generic_file()).replace(README_TOKEN, alice.token))
    env = client_env(tmp_path / "home")

    # The README's command as written.
    done = run(inspector_command().replace(INSPECTOR_NPX, "inspector"), tmp_path, env)

    assert done.returncode == 0, done.stdout + done.stderr
    assert {tool["name"] for tool in json.loads(done.stdout)["tools"]} == TOOL_NAMES

    stored = inspector(
        tmp_path,
        env,
        *("--method", "tools/call", "--tool-name", "remember"),
        *("--tool-arg", "content=The generic block reaches the store.", "--tool-arg", "project=acme"),
    )
    found = inspector(
        tmp_path,
        env,
        *("--method", "tools/call", "--tool-name", "recall"),
        *("--tool-arg", "query=generic block", "--tool-arg", "project=acme"),
    )

    assert stored["isError"] is False
    memory = stored["structuredContent"]["memory"]
    assert (memory["content"], memory["owner"], memory["project"]) == (
        "The generic block reaches the store.",
        "alice",
        "acme",
    )
    assert found["isError"] is False
    assert [hit["memory"]["id"] for hit in found["structuredContent"]["results"]] == [memory["id"]]


# --- the landing page shows what the README shows ---------------------------------------------


def test_the_landing_pages_blocks_are_the_readmes(server: str, alice: Persona) -> None:
    page = httpx2.get(f"{server}/", timeout=60)
    assert page.status_code == 200
    shown = html.unescape(page.text)

    block = re.search(r"<pre>(.*?)</pre>", shown, re.DOTALL)
    assert block is not None
    landing = json.loads(block.group(1).replace("<token>", README_TOKEN))
    assert landing == json.loads(at(server, generic_file()))

    readme_line = at(server, claude_code_command()).splitlines()[0]
    assert f"<code>{readme_line}</code>" in shown
