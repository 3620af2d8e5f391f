"""The review queue as an API, for tools that moderate elsewhere (SPEC R-A6)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.pagination import Cursor, CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from memories.agent import contract
from memories.agent.fields import Choice, Integer, Invalid, Items, Shape
from memories.api.public import (
    MemorySerializer,
    error_responses,
    page_parameters,
    request_user,
    shape_body,
    shape_parameters,
)
from review import services
from review.api.serializers import (
    ConflictGroupItemSerializer,
    ConflictGroupPageSerializer,
    ConflictSerializer,
    GroupChangedErrorSerializer,
    GroupDecisionSerializer,
)
from review.errors import GroupChanged
from review.models import GROUP_ACTIONS, MODERATOR_ACTIONS, ConflictStatus, GroupAction
from review.selectors import (
    ConflictGroup,
    conflict_groups,
    conflict_list,
    conflicts_by_id,
    group_memories,
    visible_stale_versions,
)

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


def _group_whole(values: dict[str, Any]) -> None:
    if values["action"] == GroupAction.STANDS and "memory" not in values:
        raise Invalid({"memory": ["This field is required with stands."]})
    if values["action"] != GroupAction.STANDS and "memory" in values:
        raise Invalid({"memory": ["Only with stands."]})


GROUP_RESOLVE = Shape(
    {
        "action": Choice(
            choices=GROUP_ACTIONS,
            description="stands: the memory named by `memory` stands, and every other live value of the group is "
            "retired as superseded by it (link origin moderator, reversible by a restore); keep_all (resolved) and "
            "dismiss (dismissed) change no memory. Every conflict of the group is settled at once.",
        ),
        "memory": contract.memory_id_field(
            required=False, description="With stands, and only then: the value that stands, one of the group's."
        ),
        "conflicts": Items(
            child=Integer(minimum=1),
            min_length=1,
            max_length=10_000,
            required=False,
            description="The group you decided on (its conflict ids, as the listing showed them). If the group is "
            "not that one now, nothing changes and the answer is 409 `group_changed` with the current group.",
        ),
    },
    whole=_group_whole,
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
        responses={200: ConflictGroupPageSerializer, **error_responses(400, 404)},
        summary="Conflicts both of whose memories you may retire (pending by default); pending ones as groups.",
    )
    def get(self, request: Request) -> Response:
        query = CONFLICTS_QUERY.parse(request.query_params)
        if query["status"] == ConflictStatus.PENDING:
            return self.groups(request)
        conflicts = conflict_list(user=request_user(request), status=query["status"])
        paginator = ConflictPagination()
        page = paginator.paginate_queryset(conflicts, request, view=self) or []  # None only unpaginated
        context = {"visible_stale": visible_stale_versions(request_user(request), page)}
        return Response(
            {"results": ConflictSerializer(page, many=True, context=context).data, "next": paginator.get_next_link()}
        )

    def groups(self, request: Request) -> Response:
        """The pending queue: one item per group, newest first by the group's lead conflict. The
        cursor is the last item's position (the lead's opened_at and id): a group keeps its place
        as conflicts join it, so pages neither repeat nor skip a group that was there before."""
        user = request_user(request)
        paginator = ConflictPagination()
        limit = paginator.get_page_size(request) or paginator.page_size
        groups = conflict_groups(user=user)
        cursor = paginator.decode_cursor(request)
        if cursor is not None and cursor.position is not None:  # "?cursor=" starts at the top, as DRF's does
            before = _position(cursor, paginator)
            groups = [group for group in groups if group.position < before]
        page = groups[:limit]
        leads = conflicts_by_id(user=user, ids=[group.lead for group in page])
        page = [group for group in page if group.lead in leads]  # settled and gone since it was read
        context = {
            "visible_stale": visible_stale_versions(user, leads.values()),
            "groups": group_bodies(user, page),
        }
        results = ConflictGroupItemSerializer([leads[group.lead] for group in page], many=True, context=context).data
        following = None
        if len(groups) > limit:
            paginator.base_url = request.build_absolute_uri()
            last = groups[limit - 1]
            position = f"{last.opened_at.isoformat()}|{last.lead}"
            following = paginator.encode_cursor(Cursor(offset=0, reverse=False, position=position))  # type: ignore[arg-type]
        return Response({"results": results, "next": following})


def _position(cursor: Cursor, paginator: CursorPagination) -> tuple[datetime, int]:
    """A group listing's cursor position; one of another listing's is no cursor of ours (404,
    as DRF answers an invalid cursor)."""
    try:
        when, lead = str(cursor.position).rsplit("|", 1)
        opened_at = datetime.fromisoformat(when)
        if opened_at.tzinfo is None:
            raise ValueError(when)
        return opened_at, int(lead)
    except (TypeError, ValueError):
        raise NotFound(paginator.invalid_cursor_message) from None


def group_bodies(user: User, groups: list[ConflictGroup]) -> dict[int, dict[str, Any]]:
    """Each group's `group` object by its lead: its conflicts and its live values, each memory
    as the API shows memories (one query for all)."""
    memories = group_memories(user=user, ids={value for group in groups for value in group.values})
    return {
        group.lead: {
            "conflicts": list(group.conflicts),
            "values": [MemorySerializer(memories[value]).data for value in group.values if value in memories],
        }
        for group in groups
    }


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


class ConflictGroupResolveView(APIView):
    @extend_schema(
        operation_id="conflicts_group_resolve",
        parameters=[
            OpenApiParameter(
                "conflict_id", int, OpenApiParameter.PATH, description="Any conflict of the group (e.g. its lead)."
            )
        ],
        request=shape_body("GroupResolve", GROUP_RESOLVE),
        responses={
            200: GroupDecisionSerializer,
            **error_responses(403, 404, body=True),
            409: OpenApiResponse(
                GroupChangedErrorSerializer,
                description="The group is not the one you decided on (`group_changed`, with the group as it is "
                "now), or the conflict or the value is settled or retired already (`not_live`). Nothing changed.",
            ),
        },
        summary="Settle a conflict's whole group at once: one value stands, keep all, or dismiss.",
    )
    def post(self, request: Request, conflict_id: int) -> Response:
        payload = GROUP_RESOLVE.parse(request.data)
        user = request_user(request)
        try:
            group = services.conflict_group_resolve(
                user=user,
                conflict_id=conflict_id,
                action=payload["action"],
                memory_id=payload.get("memory"),
                expected=payload.get("conflicts"),
            )
        except GroupChanged as changed:
            changed.rendered = group_bodies(user, [changed.group])[changed.group.lead]
            raise
        conflicts = conflicts_by_id(user=user, ids=group.conflicts)
        settled = [conflicts[pk] for pk in group.conflicts if pk in conflicts]
        memories = group_memories(user=user, ids=group.values)
        context = {"visible_stale": visible_stale_versions(user, settled)}
        return Response(
            {
                "conflicts": ConflictSerializer(settled, many=True, context=context).data,
                "values": [MemorySerializer(memories[value]).data for value in group.values if value in memories],
            }
        )
