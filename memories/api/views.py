"""Thin API views: validate, call a service or selector, render."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from memories import selectors, services
from memories.api import examples as ex
from memories.api.pagination import FeedPagination
from memories.api.serializers import (
    FeedQuerySerializer,
    HistorySerializer,
    LinkCreateSerializer,
    LinkSerializer,
    MemorySerializer,
    ReasonSerializer,
    RecallHitSerializer,
    RecallInputSerializer,
    RecallResponseSerializer,
    RememberInputSerializer,
    RememberResponseSerializer,
    link_specs,
    remember_response,
)
from memories.auth import request_credential, request_user
from memories.idempotency import request_fingerprint, run_idempotently
from memories.models import Memory
from memories.recall import recall

IDEMPOTENCY_HEADER = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="Retry-safe writes: a replay with the same key and body returns the original answer "
    "and changes nothing (keys are per token, kept 24 hours).",
)


class MemoryListView(APIView):
    """``GET``: the feed. ``POST``: remember."""

    @extend_schema(
        operation_id="memories_feed",
        parameters=[FeedQuerySerializer],
        responses={200: MemorySerializer(many=True)},
        examples=[ex.FEED_RESPONSE],
        summary="The feed: visible memories, newest first, cursor-paginated.",
    )
    def get(self, request: Request) -> Response:
        query = FeedQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        params = query.validated_data
        user = request_user(request)
        project = selectors.project_for_member(user=user, slug=params["project"]) if params.get("project") else None
        memories = selectors.memory_feed(
            user=user, state=params["state"], kind=params.get("kind"), project=project, query=params.get("q")
        )
        paginator = FeedPagination()
        page = paginator.paginate_queryset(memories, request, view=self)
        assert page is not None
        return Response({"results": MemorySerializer(page, many=True).data, "next": paginator.get_next_link()})

    @extend_schema(
        operation_id="memories_remember",
        request=RememberInputSerializer,
        parameters=[IDEMPOTENCY_HEADER],
        responses={201: RememberResponseSerializer, 200: RememberResponseSerializer},
        summary="Remember a statement; optionally declare the memories it supersedes.",
        examples=[
            ex.REMEMBER_RESPONSE,
            ex.SUPERSEDE_RESPONSE,
            OpenApiExample(
                "Declared supersede",
                request_only=True,
                value={
                    "content": "Deploy window is Friday 14:00 UTC (moved from Monday).",
                    "kind": "fact",
                    "project": "acme",
                    "links": [{"type": "supersedes", "dst": "mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2T"}],
                },
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        user = request_user(request)
        credential = request_credential(request)

        def perform() -> tuple[int, Any]:
            payload = RememberInputSerializer(data=request.data)
            payload.is_valid(raise_exception=True)
            data: dict[str, Any] = dict(payload.validated_data)
            result = services.memory_remember(
                user=user,
                credential=credential,
                content=data["content"],
                kind=data["kind"],
                project_slug=data.get("project"),
                visibility=data.get("visibility"),
                session=data.get("session"),
                metadata=data.get("metadata"),
                links=link_specs(data),
            )
            answer = status.HTTP_200_OK if result.absorbed else status.HTTP_201_CREATED
            return answer, remember_response(result)

        key = request.headers.get("Idempotency-Key")
        if key is None:
            answer, body = perform()
        else:
            answer, body = run_idempotently(
                credential=credential,
                key=key,
                request_hash=request_fingerprint("POST", request.path, request.data),
                perform=perform,
            )
        return Response(body, status=answer)


class MemoryDetailView(APIView):
    @extend_schema(
        operation_id="memories_detail",
        parameters=[OpenApiParameter("memory_id", str, OpenApiParameter.PATH, description="mem_ + 26-character ULID")],
        responses={200: MemorySerializer},
        examples=[ex.MEMORY_RESPONSE],
        summary="One memory with its lifecycle fields.",
    )
    def get(self, request: Request, memory_id: str) -> Response:
        memory = selectors.memory_get(user=request_user(request), memory_id=memory_id)
        return Response(MemorySerializer(memory).data)


def _lifecycle_action(request: Request, memory_id: str, service: Callable[..., Memory]) -> Response:
    """forget and restore: the same request ({"reason"?}) and answer (the memory)."""
    payload = ReasonSerializer(data=request.data)
    payload.is_valid(raise_exception=True)
    user = request_user(request)
    service(
        user=user, credential=request_credential(request), memory_id=memory_id, reason=payload.validated_data["reason"]
    )
    return Response(MemorySerializer(selectors.memory_get(user=user, memory_id=memory_id)).data)


MEMORY_ID = OpenApiParameter("memory_id", str, OpenApiParameter.PATH, description="mem_ + 26-character ULID")


class MemoryForgetView(APIView):
    @extend_schema(
        operation_id="memories_forget",
        parameters=[MEMORY_ID],
        request=ReasonSerializer,
        responses={200: MemorySerializer},
        summary="Retire a memory with no successor (reversible with restore).",
        examples=[
            *[ex.FORGOTTEN_RESPONSE],
            OpenApiExample("With a reason", request_only=True, value={"reason": "The office moved."}),
        ],
    )
    def post(self, request: Request, memory_id: str) -> Response:
        return _lifecycle_action(request, memory_id, services.memory_forget)


class MemoryRestoreView(APIView):
    @extend_schema(
        operation_id="memories_restore",
        parameters=[MEMORY_ID],
        request=ReasonSerializer,
        responses={200: MemorySerializer},
        examples=[ex.MEMORY_RESPONSE],
        summary="Make a superseded or forgotten memory live again.",
    )
    def post(self, request: Request, memory_id: str) -> Response:
        return _lifecycle_action(request, memory_id, services.memory_restore)


class MemoryHistoryView(APIView):
    @extend_schema(
        operation_id="memories_history",
        parameters=[MEMORY_ID],
        responses={200: HistorySerializer},
        examples=[ex.HISTORY_RESPONSE],
        summary="The version chain around a memory: every memory joined to it by supersedes links.",
    )
    def get(self, request: Request, memory_id: str) -> Response:
        history = selectors.memory_history(user=request_user(request), memory_id=memory_id)
        return Response(
            {
                "head": history.head,
                "versions": MemorySerializer(history.versions, many=True).data,
                "edges": LinkSerializer(history.edges, many=True).data,
            }
        )


class LinkCreateView(APIView):
    @extend_schema(
        operation_id="links_create",
        request=LinkCreateSerializer,
        responses={201: LinkSerializer, 200: LinkSerializer},
        summary="Record a typed edge between two memories (it never retires anything).",
        examples=[
            ex.LINK_RESPONSE,
            OpenApiExample(
                "relates_to",
                request_only=True,
                value={
                    "src": "mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2T",
                    "dst": "mem_01JD8Z7A1B2C3D4E5F6G7H8J9K",
                    "type": "relates_to",
                },
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        payload = LinkCreateSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        link, created = services.link_create(
            user=request_user(request), src_id=data["src"], dst_id=data["dst"], type=data["type"]
        )
        return Response(LinkSerializer(link).data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class RecallView(APIView):
    @extend_schema(
        operation_id="recall",
        request=RecallInputSerializer,
        responses={200: RecallResponseSerializer},
        summary="Find what the caller knows: hybrid semantic and full-text search.",
        examples=[
            ex.RECALL_RESPONSE,
            OpenApiExample(
                "Recall before writing",
                request_only=True,
                value={"query": "When is the deploy window?", "project": "acme", "limit": 5},
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        payload = RecallInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data = payload.validated_data
        hits = recall(
            user=request_user(request),
            query=data["query"],
            project_slug=data.get("project"),
            kinds=data.get("kinds"),
            limit=data["limit"],
            include_superseded=data["include_superseded"],
            as_of=data.get("as_of"),
        )
        return Response({"results": RecallHitSerializer(hits, many=True).data})
