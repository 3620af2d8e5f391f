"""The agent operations, independent of transport.

Each takes the caller and the request's JSON, validates it with the API's serializers, calls
the service or selector and answers ``(HTTP status, body)``. The REST views and the MCP tools
both call these, so an operation means the same thing (and fails with the same error codes)
whichever way an agent reaches it. Errors are raised, not returned: DRF's ``ValidationError``
for bad input, ``memories.errors.DomainError`` for the rest.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

from django.contrib.auth.models import User
from django.db import transaction
from django.http import HttpRequest, QueryDict
from rest_framework import status
from rest_framework.request import Request

from memories import selectors, services
from memories.api.pagination import FeedPagination
from memories.api.serializers import (
    FeedQuerySerializer,
    LinkCreateSerializer,
    LinkSerializer,
    MemorySerializer,
    ReasonSerializer,
    RecallHitSerializer,
    RecallInputSerializer,
    RememberInputSerializer,
    link_specs,
    remember_response,
)
from memories.models import Credential, Memory
from memories.platform.idempotency import request_fingerprint, run_idempotently
from memories.platform.replicas import read_alias, replica_reads
from memories.recall import recall as recall_hits

Outcome = tuple[int, dict[str, Any]]


def remember(*, user: User, credential: Credential, data: Any, idempotency_key: str | None = None) -> Outcome:
    def perform() -> Outcome:
        payload = RememberInputSerializer(data=data)
        payload.is_valid(raise_exception=True)
        fields: dict[str, Any] = dict(payload.validated_data)
        result = services.memory_remember(
            user=user,
            credential=credential,
            content=fields["content"],
            kind=fields["kind"],
            project_slug=fields.get("project"),
            visibility=fields.get("visibility"),
            session=fields.get("session"),
            metadata=fields.get("metadata"),
            links=link_specs(fields),
        )
        answer = status.HTTP_200_OK if result.absorbed else status.HTTP_201_CREATED
        return answer, remember_response(result)

    if idempotency_key is None:
        return perform()
    return run_idempotently(
        credential=credential,
        key=idempotency_key,
        request_hash=request_fingerprint("POST", "/api/v1/memories/", data),
        perform=perform,
    )


def recall(*, user: User, data: Any) -> Outcome:
    payload = RecallInputSerializer(data=data)
    payload.is_valid(raise_exception=True)
    fields = payload.validated_data
    with replica_reads():
        hits = recall_hits(
            user=user,
            query=fields["query"],
            project_slug=fields.get("project"),
            kinds=fields.get("kinds"),
            limit=fields["limit"],
            include_superseded=fields["include_superseded"],
            as_of=fields.get("as_of"),
        )
        return status.HTTP_200_OK, {"results": RecallHitSerializer(hits, many=True).data}


def _lifecycle_action(
    *, user: User, credential: Credential, memory_id: str, data: Any, service: Callable[..., Memory]
) -> Outcome:
    """forget and restore: the same request ({"reason"?}) and answer (the memory)."""
    payload = ReasonSerializer(data=data if data is not None else {})
    payload.is_valid(raise_exception=True)
    # Read back under the row lock the service took: read after its commit, a racing forget or
    # restore could already have changed the memory, and a forget answered "live".
    with transaction.atomic():
        service(user=user, credential=credential, memory_id=memory_id, reason=payload.validated_data["reason"])
        return status.HTTP_200_OK, MemorySerializer(selectors.memory_get(user=user, memory_id=memory_id)).data


def forget(*, user: User, credential: Credential, memory_id: str, data: Any = None) -> Outcome:
    return _lifecycle_action(
        user=user, credential=credential, memory_id=memory_id, data=data, service=services.memory_forget
    )


def restore(*, user: User, credential: Credential, memory_id: str, data: Any = None) -> Outcome:
    return _lifecycle_action(
        user=user, credential=credential, memory_id=memory_id, data=data, service=services.memory_restore
    )


def link(*, user: User, data: Any) -> Outcome:
    payload = LinkCreateSerializer(data=data)
    payload.is_valid(raise_exception=True)
    fields = payload.validated_data
    created_link, created = services.link_create(
        user=user, src_id=fields["src"], dst_id=fields["dst"], type=fields["type"]
    )
    return (status.HTTP_201_CREATED if created else status.HTTP_200_OK), LinkSerializer(created_link).data


def history(*, user: User, memory_id: str) -> Outcome:
    found = selectors.memory_history(user=user, memory_id=memory_id)
    return status.HTTP_200_OK, {
        "head": found.head,
        "versions": MemorySerializer(found.versions, many=True).data,
        "edges": LinkSerializer(found.edges, many=True).data,
    }


def detail(*, user: User, memory_id: str) -> Outcome:
    return status.HTTP_200_OK, MemorySerializer(selectors.memory_get(user=user, memory_id=memory_id)).data


def feed_queryset(*, user: User, data: Any) -> Any:
    """The feed's rows, unpaginated; the caller pages them (the REST view by cursor URL)."""
    query = FeedQuerySerializer(data=data)
    query.is_valid(raise_exception=True)
    params = query.validated_data
    project = selectors.project_for_member(user=user, slug=params["project"]) if params.get("project") else None
    memories = selectors.memory_feed(
        user=user, state=params["state"], kind=params.get("kind"), project=project, query=params.get("q")
    )
    # Evaluated later, by the paginator: pin the database now (a replica, if there is one).
    with replica_reads():
        return memories.using(read_alias(Memory))


def feed_page(*, user: User, data: Any) -> Outcome:
    """One page of the feed for callers without URLs (MCP): ``cursor`` in, ``next`` cursor out."""
    params = dict(data or {})
    cursor, limit = params.pop("cursor", None), params.pop("limit", None)
    memories = feed_queryset(user=user, data=params)
    http_request = HttpRequest()
    # The paginator builds its links from the request's origin; this request has none (and must
    # not be checked against ALLOWED_HOSTS), and only the cursor of the link is used.
    http_request.__dict__["_current_scheme_host"] = "http://mcp.invalid"
    http_request.GET = QueryDict(mutable=True)
    if cursor:
        http_request.GET["cursor"] = str(cursor)
    if limit is not None:
        http_request.GET["limit"] = str(limit)
    paginator = FeedPagination()
    page = paginator.paginate_queryset(memories, Request(http_request))
    assert page is not None
    next_link = paginator.get_next_link()
    next_cursor = parse_qs(urlsplit(next_link).query)["cursor"][0] if next_link else None
    return status.HTTP_200_OK, {"results": MemorySerializer(page, many=True).data, "next": next_cursor}
