"""The review queue as an API, for tools that moderate elsewhere (SPEC R-A6)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.pagination import CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from memories.agent import contract
from memories.agent.fields import Choice, Shape
from memories.api.auth import request_user
from memories.api.pagination import page_parameters
from memories.api.schema import error_responses, shape_body, shape_parameters
from review import services
from review.api.serializers import ConflictPageSerializer, ConflictSerializer
from review.models import MODERATOR_ACTIONS, ConflictStatus
from review.selectors import conflict_list, visible_stale_versions

# What the queue's two operations take, checked (strictly, for the JSON body) and documented
# alike, as the agent verbs' arguments are.
CONFLICTS_QUERY = Shape(
    {
        "status": Choice(
            choices=tuple(ConflictStatus.values),
            default=ConflictStatus.PENDING.value,
            description="Which conflicts: pending ones unless you ask for others.",
        )
    },
    passthrough=frozenset(contract.PAGE.fields),
)
RESOLVE = Shape(
    {
        "action": Choice(
            choices=tuple(action.value for action in MODERATOR_ACTIONS),
            description="newer_supersedes retires the older memory by the newer, older_stands forgets the "
            "newer; keep_both (resolved) and dismiss (dismissed) change neither memory.",
        )
    }
)


class ConflictPagination(CursorPagination):
    ordering = ("-opened_at", "-id")
    page_size = 50
    page_size_query_param = "limit"
    max_page_size = 200


class ConflictListView(APIView):
    @extend_schema(
        operation_id="conflicts_list",
        parameters=[*shape_parameters(CONFLICTS_QUERY), *page_parameters(ConflictPagination.max_page_size)],
        # 404: a cursor that is not one of ours (DRF's "Invalid cursor").
        responses={200: ConflictPageSerializer, **error_responses(400, 404)},
        summary="Conflicts both of whose memories you may retire (pending by default).",
    )
    def get(self, request: Request) -> Response:
        query = CONFLICTS_QUERY.parse(request.query_params)
        conflicts = conflict_list(user=request_user(request), status=query["status"])
        paginator = ConflictPagination()
        page = paginator.paginate_queryset(conflicts, request, view=self)
        assert page is not None
        context = {"visible_stale": visible_stale_versions(request_user(request), page)}
        return Response(
            {"results": ConflictSerializer(page, many=True, context=context).data, "next": paginator.get_next_link()}
        )


class ConflictResolveView(APIView):
    @extend_schema(
        operation_id="conflicts_resolve",
        parameters=[OpenApiParameter("conflict_id", int, OpenApiParameter.PATH)],
        request=shape_body("Resolve", RESOLVE),
        responses={200: ConflictSerializer, **error_responses(404, 409, body=True)},
        summary="Settle a conflict: newer_supersedes, older_stands, keep_both or dismiss.",
    )
    def post(self, request: Request, conflict_id: int) -> Response:
        payload = RESOLVE.parse(request.data)
        conflict = services.conflict_resolve(
            user=request_user(request), conflict_id=conflict_id, action=payload["action"]
        )
        context = {"visible_stale": visible_stale_versions(request_user(request), [conflict])}
        return Response(ConflictSerializer(conflict, context=context).data)
