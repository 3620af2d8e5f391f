"""A stand-in for the Anthropic Messages API on localhost, so the real Claude Code CLI can run an
agent turn offline: it answers with scripted tool calls instead of a model's choices.

``claude -p`` sends its requests to ``ANTHROPIC_BASE_URL``. The stand-in answers each request
that offers the zeromemory tools with the next step of a script (a tool call, or at the end a text
that repeats the last tool result), and any other request (Claude Code's side requests) with a
short text. Every request is kept, so a test can read what Claude Code offered the model and the
tool results it sent back: the MCP server's answers, as Claude Code received them.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Script:
    """The tool calls to make, in order, once the request offers ``marker`` among its tools."""

    marker: str
    calls: list[tuple[str, dict[str, Any]]]
    requests: list[dict[str, Any]] = field(default_factory=list)

    def tool_results(self, body: dict[str, Any]) -> list[dict[str, Any]]:
        return [
            block
            for message in body.get("messages", [])
            if message.get("role") == "user" and isinstance(message.get("content"), list)
            for block in message["content"]
            if block.get("type") == "tool_result"
        ]

    def next(self, body: dict[str, Any]) -> tuple[list[dict[str, Any]], str]:
        """The answer's content blocks and stop reason."""
        if self.marker not in {tool.get("name") for tool in body.get("tools", [])}:
            return [{"type": "text", "text": "ok"}], "end_turn"
        results = self.tool_results(body)
        if len(results) < len(self.calls):
            name, arguments = self.calls[len(results)]
            return [
                {"type": "tool_use", "id": f"toolu_{len(results):02d}", "name": name, "input": arguments}
            ], "tool_use"
        return [{"type": "text", "text": text_of(results[-1])}], "end_turn"


def text_of(tool_result: dict[str, Any]) -> str:
    content = tool_result.get("content", "")
    if isinstance(content, str):
        return content
    return "".join(block.get("text", "") for block in content)


def _event(name: str, data: dict[str, Any]) -> bytes:
    return f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()


def _stream(message: dict[str, Any]) -> Iterator[bytes]:
    """The message as the API streams it (server-sent events), which is how Claude Code asks."""
    yield _event("message_start", {"type": "message_start", "message": {**message, "content": [], "stop_reason": None}})
    for index, block in enumerate(message["content"]):
        start: dict[str, Any]
        if block["type"] == "text":
            start = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        else:
            start = {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        yield _event("content_block_start", {"type": "content_block_start", "index": index, "content_block": start})
        yield _event("content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta})
        yield _event("content_block_stop", {"type": "content_block_stop", "index": index})
    yield _event(
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
            "usage": {"output_tokens": 1},
        },
    )
    yield _event("message_stop", {"type": "message_stop"})


def _handler(script: Script) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            """Quiet: the requests are kept in the script."""

        def _json(self, status: int, body: dict[str, Any]) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(json.dumps(body).encode())

        def do_GET(self) -> None:
            self._json(404, {"type": "error", "error": {"type": "not_found_error", "message": self.path}})

        def do_POST(self) -> None:
            body: dict[str, Any] = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
            if not self.path.startswith("/v1/messages") or "count_tokens" in self.path:
                self._json(200, {"input_tokens": 1})
                return
            script.requests.append(body)
            content, stop = script.next(body)
            message = {
                "id": f"msg_{len(script.requests):02d}",
                "type": "message",
                "role": "assistant",
                "model": body.get("model", "stand-in"),
                "content": content,
                "stop_reason": stop,
                "stop_sequence": None,
                "usage": {"input_tokens": 1, "output_tokens": 1},
            }
            if not body.get("stream"):
                self._json(200, message)
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            for chunk in _stream(message):
                self.wfile.write(chunk)

    return Handler


@contextmanager
def model_standin(script: Script) -> Iterator[str]:
    """The stand-in's base URL, for ``ANTHROPIC_BASE_URL``, while the block runs."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(script))
    thread = threading.Thread(target=server.serve_forever, name="model-standin", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
