"""``/mcp/``: the MCP streamable-HTTP endpoint, served by Django next to the REST API.

Mounted as an ordinary (async) Django view rather than a separate ASGI app, so every way of
running the project serves it — ``runserver``, any WSGI server, any ASGI server — behind the
same middleware (allowed hosts, security headers) and the same bearer tokens.

The SDK runs stateless with JSON responses: every POST is a complete exchange, nothing is kept
between requests, so any app process can answer any request (horizontal scaling needs no sticky
sessions). There is no server-to-client stream, so GET answers 405 as the transport allows.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

from asgiref.sync import sync_to_async
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings

from memories.agent.errors import as_domain_error, domain_error_body, error_body, error_status, server_error_body
from memories.errors import RateLimited
from memories.mcp.server import CURRENT_CALLER, SERVER, Caller
from memories.platform.ratelimit import credential_wait
from memories.platform.tokens import BEARER, BearerRefused, credential_for_header

AUTHENTICATE = f'{BEARER} realm="zeromemory"'
# Django already checks the Host header against ALLOWED_HOSTS (the DNS-rebinding defence), and
# every request needs a bearer token, which a rebinding page cannot have.
TRANSPORT_SECURITY = TransportSecuritySettings(enable_dns_rebinding_protection=False)


def _unauthorized(code: str, message: str) -> JsonResponse:
    response = JsonResponse(error_body(code, message), status=401)
    response["WWW-Authenticate"] = AUTHENTICATE
    return response


def _authenticate(header: str) -> Caller | JsonResponse:
    """The same rules and rate limit as the REST API's, answered the same way."""
    try:
        credential = credential_for_header(header)
    except BearerRefused as refused:
        return _unauthorized("authentication_failed", refused.message)
    if credential is None:
        return _unauthorized("not_authenticated", "Authentication credentials were not provided.")
    wait = credential_wait(credential)
    if wait is not None:
        # The same budget as the REST API's, refused with its answer, before the SDK sees the call.
        refusal = RateLimited(wait)
        response = JsonResponse(domain_error_body(refusal), status=error_status(refusal))
        response["Retry-After"] = str(wait)
        return response
    return Caller(user=credential.user, credential=credential)


def _asgi_scope(request: HttpRequest) -> dict[str, Any]:
    headers = [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in request.headers.items()]
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": request.method,
        "scheme": request.scheme,
        "path": request.path,
        "raw_path": request.path.encode(),
        "root_path": "",
        "query_string": request.META.get("QUERY_STRING", "").encode("latin-1"),
        "headers": headers,
        "client": (request.META.get("REMOTE_ADDR", ""), 0),
        "server": (request.get_host(), int(request.get_port() or 80)),
    }


async def _exchange(request: HttpRequest) -> HttpResponse:
    """Hand the request to the SDK's transport and collect its (single, JSON) answer."""
    body = request.body
    delivered = False

    async def receive() -> dict[str, Any]:
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}
        return {"type": "http.disconnect"}

    status = 500
    headers: list[tuple[bytes, bytes]] = []
    chunks: list[bytes] = []

    async def send(message: MutableMapping[str, Any]) -> None:
        nonlocal status, headers
        if message["type"] == "http.response.start":
            status = message["status"]
            headers = list(message.get("headers", []))
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    # A manager per request: stateless mode keeps nothing between requests, and this way the
    # endpoint works on whatever event loop runs the view (ASGI server, or WSGI's per-request one).
    manager = StreamableHTTPSessionManager(
        app=SERVER, json_response=True, stateless=True, security_settings=TRANSPORT_SECURITY
    )
    async with manager.run():
        await manager.handle_request(_asgi_scope(request), receive, send)

    response = HttpResponse(b"".join(chunks), status=status)
    for name, value in headers:
        if name.lower() not in (b"content-length", b"date", b"server"):
            response[name.decode("latin-1")] = value.decode("latin-1")
    return response


@csrf_exempt
async def mcp_endpoint(request: HttpRequest) -> HttpResponse:
    if request.method not in ("POST", "DELETE"):
        response = JsonResponse(
            error_body("method_not_allowed", "POST JSON-RPC messages here; this server offers no event stream."),
            status=405,
        )
        response["Allow"] = "POST"
        return response
    try:
        caller = await sync_to_async(_authenticate)(request.headers.get("Authorization", ""))
    except DatabaseError as exc:
        # Tool calls report database errors themselves; the token lookup runs before them, and
        # unhandled it reached Django's handler: a 500 instead of the API's 503.
        error = as_domain_error(exc)
        if error is None:
            return JsonResponse(server_error_body(), status=500)
        return JsonResponse(domain_error_body(error), status=error_status(error))
    if isinstance(caller, HttpResponse):
        return caller
    token = CURRENT_CALLER.set(caller)
    try:
        return await _exchange(request)
    finally:
        CURRENT_CALLER.reset(token)
