"""Thin REST views: parse the HTTP request, run the operation (shared with MCP), render."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from memories.api import examples as ex
from memories.api import operations
from memories.api.auth import request_credential, request_user
from memories.api.pagination import FeedPagination, page_parameters
from memories.api.schema import error_responses
from memories.api.serializers import (
    FeedPageSerializer,
    FeedQuerySerializer,
    HistorySerializer,
    LinkCreateSerializer,
    LinkSerializer,
    MemorySerializer,
    ReasonSerializer,
    RecallInputSerializer,
    RecallResponseSerializer,
    RememberInputSerializer,
    RememberResponseSerializer,
)
from memories.platform.idempotency import MAX_KEY_LENGTH

IDEMPOTENCY_HEADER = OpenApiParameter(
    "Idempotency-Key",
    {"type": "string", "minLength": 1, "maxLength": MAX_KEY_LENGTH},
    OpenApiParameter.HEADER,
    required=False,
    description="Retry-safe writes: a replay with the same key and body returns the original answer "
    "and changes nothing (keys are per token, kept 24 hours).",
)

MEMORY_ID = OpenApiParameter("memory_id", str, OpenApiParameter.PATH, description="mem_ + 26-character ULID")


class MemoryListView(APIView):
    """``GET``: the feed. ``POST``: remember."""

    @extend_schema(
        operation_id="memories_feed",
        parameters=[FeedQuerySerializer, *page_parameters(FeedPagination.max_page_size)],
        responses={200: FeedPageSerializer, **error_responses(400, 404)},
        examples=[ex.FEED_RESPONSE],
        summary="The feed: visible memories, newest first, cursor-paginated.",
    )
    def get(self, request: Request) -> Response:
        memories = operations.feed_queryset(user=request_user(request), data=request.query_params)
        paginator = FeedPagination()
        page = paginator.paginate_queryset(memories, request, view=self)
        assert page is not None
        return Response({"results": MemorySerializer(page, many=True).data, "next": paginator.get_next_link()})

    @extend_schema(
        operation_id="memories_remember",
        request=RememberInputSerializer,
        parameters=[IDEMPOTENCY_HEADER],
        responses={
            201: RememberResponseSerializer,
            200: RememberResponseSerializer,
            **error_responses(403, 404, 409, 422, body=True),
        },
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
        answer, body = operations.remember(
            user=request_user(request),
            credential=request_credential(request),
            data=request.data,
            idempotency_key=request.headers.get("Idempotency-Key"),
        )
        return Response(body, status=answer)


class MemoryDetailView(APIView):
    @extend_schema(
        operation_id="memories_detail",
        parameters=[MEMORY_ID],
        responses={200: MemorySerializer, **error_responses(404)},
        examples=[ex.MEMORY_RESPONSE],
        summary="One memory with its lifecycle fields.",
    )
    def get(self, request: Request, memory_id: str) -> Response:
        return _respond(operations.detail(user=request_user(request), memory_id=memory_id))


def _respond(outcome: operations.Outcome) -> Response:
    answer, body = outcome
    return Response(body, status=answer)


class MemoryForgetView(APIView):
    @extend_schema(
        operation_id="memories_forget",
        parameters=[MEMORY_ID],
        request=ReasonSerializer,
        responses={200: MemorySerializer, **error_responses(403, 404, 409, body=True)},
        summary="Retire a memory with no successor (reversible with restore).",
        examples=[
            *[ex.FORGOTTEN_RESPONSE],
            OpenApiExample("With a reason", request_only=True, value={"reason": "The office moved."}),
        ],
    )
    def post(self, request: Request, memory_id: str) -> Response:
        return _respond(
            operations.forget(
                user=request_user(request),
                credential=request_credential(request),
                memory_id=memory_id,
                data=request.data,
            )
        )


class MemoryRestoreView(APIView):
    @extend_schema(
        operation_id="memories_restore",
        parameters=[MEMORY_ID],
        request=ReasonSerializer,
        responses={200: MemorySerializer, **error_responses(403, 404, 409, body=True)},
        examples=[ex.MEMORY_RESPONSE],
        summary="Make a superseded or forgotten memory live again.",
    )
    def post(self, request: Request, memory_id: str) -> Response:
        return _respond(
            operations.restore(
                user=request_user(request),
                credential=request_credential(request),
                memory_id=memory_id,
                data=request.data,
            )
        )


class MemoryHistoryView(APIView):
    @extend_schema(
        operation_id="memories_history",
        parameters=[MEMORY_ID],
        responses={200: HistorySerializer, **error_responses(404)},
        examples=[ex.HISTORY_RESPONSE],
        summary="The version chain around a memory: every memory joined to it by supersedes links.",
    )
    def get(self, request: Request, memory_id: str) -> Response:
        return _respond(operations.history(user=request_user(request), memory_id=memory_id))


class LinkCreateView(APIView):
    @extend_schema(
        operation_id="links_create",
        request=LinkCreateSerializer,
        responses={201: LinkSerializer, 200: LinkSerializer, **error_responses(403, 404, body=True)},
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
        return _respond(operations.link(user=request_user(request), data=request.data))


class RecallView(APIView):
    @extend_schema(
        operation_id="recall",
        request=RecallInputSerializer,
        responses={200: RecallResponseSerializer, **error_responses(404, body=True)},
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
        return _respond(operations.recall(user=request_user(request), data=request.data))
