"""Thin API views: validate, call a service or selector, render."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from memories import selectors, services
from memories.api.pagination import FeedPagination
from memories.api.serializers import FeedQuerySerializer, MemorySerializer, RememberInputSerializer
from memories.auth import request_credential, request_user

RememberResponse = inline_serializer(
    name="RememberResponse",
    fields={
        "memory": MemorySerializer(),
        "absorbed": serializers.BooleanField(),
        "superseded": serializers.ListField(child=serializers.CharField()),
        "skipped": serializers.ListField(child=serializers.DictField()),
    },
)


class MemoryListView(APIView):
    """``GET``: the feed. ``POST``: remember."""

    @extend_schema(
        operation_id="memories_feed",
        parameters=[FeedQuerySerializer],
        responses={200: MemorySerializer(many=True)},
        summary="The feed: visible memories, newest first, cursor-paginated.",
    )
    def get(self, request: Request) -> Response:
        query = FeedQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        params = query.validated_data
        project = (
            selectors.project_for_member(user=request_user(request), slug=params["project"])
            if params.get("project")
            else None
        )
        memories = selectors.memory_feed(
            user=request_user(request),
            state=params["state"],
            kind=params.get("kind"),
            project=project,
            query=params.get("q"),
        )
        paginator = FeedPagination()
        page = paginator.paginate_queryset(memories, request, view=self)
        assert page is not None
        return Response({"results": MemorySerializer(page, many=True).data, "next": paginator.get_next_link()})

    @extend_schema(
        operation_id="memories_remember",
        request=RememberInputSerializer,
        responses={201: RememberResponse},
        summary="Remember a statement.",
    )
    def post(self, request: Request) -> Response:
        payload = RememberInputSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        data: dict[str, Any] = dict(payload.validated_data)
        project = (
            selectors.project_for_member(user=request_user(request), slug=data["project"])
            if data.get("project")
            else None
        )
        memory = services.memory_create(
            user=request_user(request),
            credential=request_credential(request),
            content=data["content"],
            kind=data["kind"],
            project=project,
            visibility=data.get("visibility"),
            session=data.get("session"),
            metadata=data.get("metadata"),
        )
        body = {"memory": MemorySerializer(memory).data, "absorbed": False, "superseded": [], "skipped": []}
        return Response(body, status=status.HTTP_201_CREATED)


class MemoryDetailView(APIView):
    @extend_schema(
        operation_id="memories_detail",
        parameters=[OpenApiParameter("memory_id", str, OpenApiParameter.PATH)],
        responses={200: MemorySerializer},
        summary="One memory with its lifecycle fields.",
    )
    def get(self, request: Request, memory_id: str) -> Response:
        memory = selectors.memory_get(user=request_user(request), memory_id=memory_id)
        return Response(MemorySerializer(memory).data)
