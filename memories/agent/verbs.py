"""The agent verbs: check the arguments, call the service or selector, answer JSON-ready data.

REST (``memories.api``) and MCP (``memories.mcp``) both call these, so a verb means the same
thing and fails with the same error codes whichever door an agent uses. Nothing here knows
HTTP: a failure is raised as a ``DomainError`` (its class carries the status a web door
answers with), and where a door's answer depends on the outcome (created or absorbed) the
result says so.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db.models import QuerySet

import memories.context
import memories.recall
from memories import selectors, services
from memories.agent import contract
from memories.agent.fields import is_query
from memories.agent.results import (
    context_body,
    history_body,
    link_body,
    memory_body,
    recall_body,
    remember_body,
    timestamp,
)
from memories.errors import NotFound
from memories.models import Credential, Membership, Memory, token_scope
from memories.platform.idempotency import request_fingerprint, run_idempotently
from memories.platform.ratelimit import credential_limit, credential_remaining
from memories.platform.replicas import note_write, read_alias, replica_read, replica_reads
from memories.services import LinkSpec, content_vectors
from memories.visibility import member_projects

Body = dict[str, Any]


@dataclass(frozen=True)
class Remembered:
    body: Body
    # Absorbed into an existing memory (R-D1) rather than stored as a new one.
    absorbed: bool


@dataclass(frozen=True)
class Linked:
    body: Body
    created: bool


def remember_parsed(
    *,
    user: User,
    credential: Credential,
    fields: dict[str, Any],
    vectors: tuple[list[float], list[list[float]]] | None = None,
) -> Body:
    """A remember of arguments the contract has already checked (``remember`` and the batch)."""
    result = services.memory_remember(
        user=user,
        credential=credential,
        content=fields["content"],
        kind=fields["kind"],
        project_slug=fields.get("project"),
        visibility=fields.get("visibility"),
        session=fields.get("session"),
        metadata=fields.get("metadata"),
        links=[LinkSpec(type=link["type"], dst=link["dst"]) for link in fields.get("links") or []],
        valid_from=fields.get("valid_from"),
        valid_until=fields.get("valid_until"),
        on_stale=fields["on_stale"],
        vectors=vectors,
    )
    note_write(user=user)
    return remember_body(result)


def remember(*, user: User, credential: Credential, arguments: Any, idempotency_key: str | None = None) -> Remembered:
    if idempotency_key is None:
        body = remember_parsed(user=user, credential=credential, fields=contract.REMEMBER.parse(arguments))
        return Remembered(body=body, absorbed=bool(body["absorbed"]))

    def prepare() -> Callable[[], Body]:
        # Checked and embedded before the key's transaction opens (run_idempotently says why).
        fields = contract.REMEMBER.parse(arguments)
        vectors = content_vectors(fields["content"])
        return lambda: remember_parsed(user=user, credential=credential, fields=fields, vectors=vectors)

    body = run_idempotently(
        credential=credential,
        key=idempotency_key,
        request_hash=request_fingerprint("remember", arguments),
        prepare=prepare,
    )
    return Remembered(body=body, absorbed=bool(body["absorbed"]))


def _read_filters(fields: dict[str, Any]) -> dict[str, Any]:
    """contract's read filters (recall's and the context pack's) as their keyword arguments."""
    return {
        "query": fields["query"],
        "project_slug": fields.get("project"),
        "kinds": fields.get("kinds"),
        "as_of": fields.get("as_of"),
        "valid_at": fields.get("valid_at"),
        "include_expired": fields["include_expired"],
        "metadata": fields.get("metadata"),
    }


def recall(*, user: User, arguments: Any) -> Body:
    fields = contract.RECALL.parse(arguments)

    def read() -> Body:
        hits = memories.recall.recall(
            user=user,
            limit=fields["limit"],
            include_superseded=fields["include_superseded"],
            **_read_filters(fields),
        )
        return recall_body(hits)

    return replica_read(read, user=user)


def context(*, user: User, arguments: Any) -> Body:
    fields = contract.CONTEXT.parse(arguments)

    def read() -> Body:
        pack = memories.context.context_pack(user=user, max_tokens=fields["max_tokens"], **_read_filters(fields))
        return context_body(pack)

    return replica_read(read, user=user)


def whoami(*, user: User, credential: Credential) -> Body:
    """Who the caller is, through which token, what that token may reach, and its rate budget."""
    scope = token_scope(user)
    roles = dict(Membership.objects.filter(user=user).values_list("project_id", "role"))
    projects = member_projects(user).order_by("slug")
    per_minute = credential_limit()
    return {
        "user": user.get_username(),
        "credential": {
            "label": credential.label,
            "prefix": credential.prefix,
            "provenance": credential.provenance,
            "created_at": timestamp(credential.created_at),
            "expires_at": timestamp(credential.expires_at),
        },
        "scope": {
            "projects": sorted(project.slug for project in projects) if scope and scope.project_ids else None,
            "read_only": bool(scope and scope.read_only),
        },
        "projects": [{"slug": project.slug, "name": project.name, "role": roles[project.pk]} for project in projects],
        "rate_limit": {
            "per_minute": per_minute.requests if per_minute is not None else None,
            "remaining": credential_remaining(credential),
        },
    }


def _lifecycle(
    *, user: User, credential: Credential, memory_id: str, arguments: Any, service: Callable[..., Memory]
) -> Body:
    """forget and restore: the same arguments ({"reason"?}) and answer (the memory)."""
    fields = contract.REASON.parse(arguments if arguments is not None else {})
    # The answer is the memory as the service left it under its row lock (owner and project
    # loaded with the lock): a read after the commit could see a racing forget or restore, and
    # a forget answer "live".
    memory = service(user=user, credential=credential, memory_id=memory_id, reason=fields["reason"])
    note_write(user=user)
    return memory_body(memory)


def forget(*, user: User, credential: Credential, memory_id: str, arguments: Any = None) -> Body:
    return _lifecycle(
        user=user, credential=credential, memory_id=memory_id, arguments=arguments, service=services.memory_forget
    )


def restore(*, user: User, credential: Credential, memory_id: str, arguments: Any = None) -> Body:
    return _lifecycle(
        user=user, credential=credential, memory_id=memory_id, arguments=arguments, service=services.memory_restore
    )


def link(*, user: User, arguments: Any) -> Linked:
    fields = contract.LINK.parse(arguments)
    created_link, created = services.link_create(
        user=user, src_id=fields["src"], dst_id=fields["dst"], type=fields["type"]
    )
    note_write(user=user)
    return Linked(body=link_body(created_link), created=created)


def history(*, user: User, memory_id: str) -> Body:
    return history_body(selectors.memory_history(user=user, memory_id=memory_id))


def detail(*, user: User, memory_id: str) -> Body:
    return memory_body(selectors.memory_get(user=user, memory_id=memory_id))


def _feed_filters(user: User, arguments: Any) -> dict[str, Any]:
    params = contract.FEED.parse(arguments)
    project = selectors.project_for_member(user=user, slug=params["project"]) if params.get("project") else None
    return {
        "state": params["state"],
        "kind": params.get("kind"),
        "project": project,
        "query": params.get("q"),
        "metadata": params.get("metadata"),
    }


def feed_rows(*, user: User, arguments: Any) -> QuerySet[Memory]:
    """The feed's rows, unpaged, for a door that pages them itself (REST, by cursor URL)."""
    rows = selectors.memory_feed(user=user, **_feed_filters(user, arguments))
    # Evaluated later, by the door's paginator: pin the database now (a replica, if one is fit).
    with replica_reads(user=user):
        return rows.using(read_alias(Memory))


def page_size(raw: Any) -> int:
    """A page size as the REST feed reads its ``limit``: past the maximum is the maximum, and
    anything but a positive integer is the default."""
    try:
        size = int(str(raw))
    except ValueError:
        return contract.FEED_PAGE_SIZE
    if size <= 0:
        return contract.FEED_PAGE_SIZE
    return min(size, contract.MAX_FEED_PAGE_SIZE)


def page_arguments(arguments: Any) -> tuple[str | None, int]:
    """A list's ``cursor`` and page size. From a query string they are read as the REST
    paginator reads them; JSON arguments (MCP) are held to the contract's PAGE, as every other
    JSON argument is to its shape."""
    if is_query(arguments):
        limit = arguments.get("limit")
        return arguments.get("cursor") or None, contract.FEED_PAGE_SIZE if limit is None else page_size(limit)
    given = {name: arguments[name] for name in contract.PAGE.fields if name in arguments}
    page = contract.PAGE.parse(given)
    return page.get("cursor") or None, page["limit"]


def _encode_cursor(after: tuple[datetime, str]) -> str:
    created_at, memory_id = after
    raw = json.dumps([created_at.isoformat(), memory_id], separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _decode_cursor(cursor: Any) -> tuple[datetime, str]:
    try:
        text = str(cursor)
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        created_at, memory_id = json.loads(raw)
        return datetime.fromisoformat(created_at), str(memory_id)
    except (ValueError, TypeError, binascii.Error):
        # Worded as the REST feed answers a cursor that is not one of its own.
        raise NotFound("Invalid cursor") from None


def feed_page(*, user: User, arguments: Any) -> Body:
    """One page of the feed for a door without URLs (MCP): ``cursor`` in, ``next`` cursor out."""
    arguments = arguments or {}
    cursor, size = page_arguments(arguments)
    filters = _feed_filters(user, arguments)
    after = _decode_cursor(cursor) if cursor else None
    page = replica_read(lambda: selectors.memory_feed_page(user=user, after=after, size=size, **filters), user=user)
    return {
        "results": [memory_body(memory) for memory in page.memories],
        "next": _encode_cursor(page.next_after) if page.next_after is not None else None,
    }
