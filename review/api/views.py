"""The review queue as an API, for tools that moderate elsewhere (SPEC R-A6)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.pagination import CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from memories.api.auth import request_user
from memories.api.pagination import page_parameters
from memories.api.schema import error_responses
from review import services
from review.api.serializers import (
    ConflictPageSerializer,
    ConflictQuerySerializer,
    ConflictSerializer,
    ResolveSerializer,
)
from review.selectors import conflict_list


class ConflictPagination(CursorPagination):
    ordering = ("-opened_at", "-id")
    page_size = 50
    page_size_query_param = "limit"
    max_page_size = 200


class ConflictListView(APIView):
    @extend_schema(
        operation_id="conflicts_list",
        parameters=[ConflictQuerySerializer, *page_parameters(ConflictPagination.max_page_size)],
        # 404: a cursor that is not one of ours (DRF's "Invalid cursor").
        responses={200: ConflictPageSerializer, **error_responses(400, 404)},
        summary="Conflicts both of whose memories you may retire (pending by default).",
    )
    def get(self, request: Request) -> Response:
        query = ConflictQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        conflicts = conflict_list(user=request_user(request), status=query.validated_data["status"])
        paginator = ConflictPagination()
        page = paginator.paginate_queryset(conflicts, request, view=self)
        assert page is not None
        return Response({"results": ConflictSerializer(page, many=True).data, "next": paginator.get_next_link()})


class ConflictResolveView(APIView):
    @extend_schema(
        operation_id="conflicts_resolve",
        parameters=[OpenApiParameter("conflict_id", int, OpenApiParameter.PATH)],
        request=ResolveSerializer,
        responses={200: ConflictSerializer, **error_responses(404, 409, body=True)},
        summary="Settle a conflict: newer_supersedes, older_stands, keep_both or dismiss.",
    )
    def post(self, request: Request, conflict_id: int) -> Response:
        payload = ResolveSerializer(data=request.data)
        payload.is_valid(raise_exception=True)
        conflict = services.conflict_resolve(
            user=request_user(request), conflict_id=conflict_id, action=payload.validated_data["action"]
        )
        return Response(ConflictSerializer(conflict).data)
