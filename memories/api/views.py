"""Thin REST views: read the HTTP request, run the agent verb (shared with MCP), answer with the
status the outcome calls for."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param
from rest_framework.views import APIView

from memories.agent import batch, contract, events, review
from memories.agent import verbs as agent
from memories.agent.results import memory_body
from memories.api import examples as ex
from memories.api.auth import request_credential, request_user
from memories.api.pagination import FeedPagination, page_parameters
from memories.api.schema import error_responses, shape_body, shape_parameters
from memories.api.serializers import (
    BatchResponseSerializer,
    ContextResponseSerializer,
    EventPageSerializer,
    FeedPageSerializer,
    HistorySerializer,
    LinkSerializer,
    MemorySerializer,
    RecallResponseSerializer,
    RememberResponseSerializer,
    WhoamiSerializer,
)

IDEMPOTENCY_HEADER = OpenApiParameter(
    "Idempotency-Key",
    {"type": "string", "minLength": 1, "maxLength": contract.MAX_IDEMPOTENCY_KEY_LENGTH},
    OpenApiParameter.HEADER,
    required=False,
    description="Retry-safe writes: a replay with the same key and body returns the original answer "
    "and changes nothing (keys are per token, kept 24 hours).",
)

MEMORY_ID = OpenApiParameter("memory_id", str, OpenApiParameter.PATH, description="mem_ + 26-character ULID")

# The request bodies, documented from the shapes the verbs check them against.
REMEMBER_BODY = shape_body("Remember", contract.REMEMBER)
BATCH_BODY = shape_body("Batch", contract.BATCH)
RECALL_BODY = shape_body("Recall", contract.RECALL)
CONTEXT_BODY = shape_body("Context", contract.CONTEXT)
LINK_BODY = shape_body("LinkCreate", contract.LINK)
REASON_BODY = shape_body("Reason", contract.REASON)
APPROVE_BODY = shape_body("Approve", contract.APPROVE)


class MemoryListView(APIView):
    """``GET``: the feed. ``POST``: remember."""

    @extend_schema(
        operation_id="memories_feed",
        parameters=[*shape_parameters(contract.FEED), *page_parameters(FeedPagination.max_page_size)],
        responses={200: FeedPageSerializer, **error_responses(400, 404)},
        examples=[ex.FEED_RESPONSE],
        summary="The feed: visible memories, newest first, cursor-paginated.",
    )
    def get(self, request: Request) -> Response:
        rows = agent.feed_rows(user=request_user(request), arguments=request.query_params)
        paginator = FeedPagination()
        page = paginator.paginate_queryset(rows, request, view=self) or []  # None only unpaginated
        return Response({"results": [memory_body(memory) for memory in page], "next": paginator.get_next_link()})

    @extend_schema(
        operation_id="memories_remember",
        request=REMEMBER_BODY,
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
        remembered = agent.remember(
            user=request_user(request),
            credential=request_credential(request),
            arguments=request.data,
            idempotency_key=request.headers.get("Idempotency-Key"),
        )
        return Response(remembered.body, status=status.HTTP_200_OK if remembered.absorbed else status.HTTP_201_CREATED)


class MemoryBatchView(APIView):
    @extend_schema(
        operation_id="memories_batch",
        request=BATCH_BODY,
        parameters=[IDEMPOTENCY_HEADER],
        responses={200: BatchResponseSerializer, **error_responses(403, 404, 409, 422, 429, 503, body=True)},
        summary="Remember many statements in one request, each answered as it would be alone.",
        examples=[
            ex.BATCH_RESPONSE,
            OpenApiExample(
                "Two writes, the second replacing an old fact",
                request_only=True,
                value={
                    "items": [
                        {"content": "The staging database is db-4.", "project": "acme"},
                        {
                            "content": "Deploy window is Friday 14:00 UTC.",
                            "project": "acme",
                            "links": [{"type": "supersedes", "dst": "mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2T"}],
                        },
                    ]
                },
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        return Response(
            batch.remember_batch(
                user=request_user(request),
                credential=request_credential(request),
                arguments=request.data,
                idempotency_key=request.headers.get("Idempotency-Key"),
            )
        )


class MemoryDetailView(APIView):
    @extend_schema(
        operation_id="memories_detail",
        parameters=[MEMORY_ID],
        responses={200: MemorySerializer, **error_responses(404)},
        examples=[ex.MEMORY_RESPONSE],
        summary="One memory with its lifecycle fields.",
    )
    def get(self, request: Request, memory_id: str) -> Response:
        return Response(agent.detail(user=request_user(request), memory_id=memory_id))


class MemoryApproveView(APIView):
    @extend_schema(
        operation_id="memories_approve",
        parameters=[MEMORY_ID],
        request=APPROVE_BODY,
        responses={
            200: MemorySerializer,
            201: RememberResponseSerializer,
            **error_responses(403, 404, 409, body=True),
        },
        summary="Approve a pending write (it counts from now on), or approve your corrected version of it.",
        examples=[
            OpenApiExample("As it is", request_only=True, value={}),
            OpenApiExample(
                "Edited", request_only=True, value={"content": "The staging database is db-7 (checked with ops)."}
            ),
        ],
    )
    def post(self, request: Request, memory_id: str) -> Response:
        reviewed = review.approve(
            user=request_user(request),
            credential=request_credential(request),
            memory_id=memory_id,
            arguments=request.data,
        )
        return Response(reviewed.body, status=status.HTTP_201_CREATED if reviewed.created else status.HTTP_200_OK)


class MemoryRejectView(APIView):
    @extend_schema(
        operation_id="memories_reject",
        parameters=[MEMORY_ID],
        request=REASON_BODY,
        responses={200: MemorySerializer, **error_responses(403, 404, 409, body=True)},
        summary="Reject a pending write: forgotten (a restore sends it back to review).",
    )
    def post(self, request: Request, memory_id: str) -> Response:
        return Response(
            review.reject(
                user=request_user(request),
                credential=request_credential(request),
                memory_id=memory_id,
                arguments=request.data,
            )
        )


class MemoryForgetView(APIView):
    @extend_schema(
        operation_id="memories_forget",
        parameters=[MEMORY_ID],
        request=REASON_BODY,
        responses={200: MemorySerializer, **error_responses(403, 404, 409, body=True)},
        summary="Retire a memory with no successor (reversible with restore).",
        examples=[
            *[ex.FORGOTTEN_RESPONSE],
            OpenApiExample("With a reason", request_only=True, value={"reason": "The office moved."}),
        ],
    )
    def post(self, request: Request, memory_id: str) -> Response:
        return Response(
            agent.forget(
                user=request_user(request),
                credential=request_credential(request),
                memory_id=memory_id,
                arguments=request.data,
            )
        )


class MemoryRestoreView(APIView):
    @extend_schema(
        operation_id="memories_restore",
        parameters=[MEMORY_ID],
        request=REASON_BODY,
        responses={200: MemorySerializer, **error_responses(403, 404, 409, body=True)},
        examples=[ex.MEMORY_RESPONSE],
        summary="Make a superseded or forgotten memory live again.",
    )
    def post(self, request: Request, memory_id: str) -> Response:
        return Response(
            agent.restore(
                user=request_user(request),
                credential=request_credential(request),
                memory_id=memory_id,
                arguments=request.data,
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
        return Response(agent.history(user=request_user(request), memory_id=memory_id))


class LinkCreateView(APIView):
    @extend_schema(
        operation_id="links_create",
        request=LINK_BODY,
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
        linked = agent.link(user=request_user(request), arguments=request.data)
        return Response(linked.body, status=status.HTTP_201_CREATED if linked.created else status.HTTP_200_OK)


class ContextView(APIView):
    @extend_schema(
        operation_id="context",
        request=CONTEXT_BODY,
        responses={200: ContextResponseSerializer, **error_responses(404, body=True)},
        summary="A prompt-ready block of what the caller knows about a question, within a token budget.",
        examples=[
            ex.CONTEXT_RESPONSE,
            OpenApiExample(
                "Context for a question",
                request_only=True,
                value={"query": "When is the deploy window?", "project": "acme", "max_tokens": 300},
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        return Response(agent.context(user=request_user(request), arguments=request.data))


class WhoamiView(APIView):
    @extend_schema(
        operation_id="whoami",
        responses={200: WhoamiSerializer, **error_responses()},
        summary="The caller: user, token, what the token may reach, projects with roles, rate budget left.",
        examples=[ex.WHOAMI_RESPONSE],
    )
    def get(self, request: Request) -> Response:
        return Response(agent.whoami(user=request_user(request), credential=request_credential(request)))


class EventListView(APIView):
    @extend_schema(
        operation_id="events",
        parameters=[*shape_parameters(contract.EVENTS), *page_parameters(contract.MAX_FEED_PAGE_SIZE)],
        responses={200: EventPageSerializer, **error_responses(400, 404, 410)},
        examples=[ex.EVENTS_RESPONSE],
        summary="What changed: events of the memories and conflicts the caller may see, oldest first.",
    )
    def get(self, request: Request) -> Response:
        page = events.events_page(user=request_user(request), arguments=request.query_params)
        if page["next"] is not None:
            page["next"] = replace_query_param(request.build_absolute_uri(), "cursor", page["next"])
        return Response(page)


class RecallView(APIView):
    @extend_schema(
        operation_id="recall",
        request=RECALL_BODY,
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
        return Response(agent.recall(user=request_user(request), arguments=request.data))
