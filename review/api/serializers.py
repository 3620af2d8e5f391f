from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field, inline_serializer
from rest_framework import serializers

from memories.api.public import MemorySerializer
from review.models import Conflict, Resolution


class ConflictSerializer(serializers.ModelSerializer[Conflict]):
    older = MemorySerializer()
    newer = MemorySerializer()
    # Declared so the schema admits the empty string a pending conflict answers with.
    resolution = serializers.ChoiceField(choices=Resolution.choices, allow_blank=True, read_only=True)
    stale_version = serializers.SerializerMethodField(
        help_text="A fork (SPEC R-S12): the version both writers replaced, when you may see it; null for a "
        "judge's conflict."
    )

    class Meta:
        model = Conflict
        fields = [
            "id",
            "status",
            "relation",
            "confidence",
            "rationale",
            "resolution",
            "same_credential",
            "stale_version",
            "opened_at",
            "resolved_at",
            "older",
            "newer",
        ]
        read_only_fields = fields

    def get_stale_version(self, conflict: Conflict) -> str | None:
        # Named only to whom may see it (the one visibility rule): the views pass the ids the
        # viewer may see, read once for the page.
        visible: set[str] = self.context.get("visible_stale", set())
        return conflict.stale_version_id if conflict.stale_version_id in visible else None


class ConflictGroupSerializer(serializers.Serializer[Any]):
    """A group of pending conflicts that are one decision (review.selectors.ConflictGroup)."""

    conflicts = serializers.ListField(
        child=serializers.IntegerField(), help_text="The ids of every conflict of the group, ascending."
    )
    values = MemorySerializer(many=True, help_text="The group's live memories, newest first: the values in dispute.")


@extend_schema_field(ConflictGroupSerializer)
class _GroupField(serializers.Field[Any, Any, Any, Any]):
    """The group a listed conflict leads, rendered by the view for the page at once (one query
    for every value of the page). Not read-only only so that the schema may call it optional:
    the pending listing has it on every item, the others on none."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(source="*", required=False, **kwargs)

    def to_representation(self, value: Conflict) -> dict[str, Any]:
        groups: dict[int, dict[str, Any]] = self.context["groups"]
        return groups[value.pk]


class ConflictGroupItemSerializer(ConflictSerializer):
    """A pending listing's item: the group's lead conflict (its earliest opened), as the
    per-conflict listing shows a conflict, and the whole group."""

    group = _GroupField(
        help_text="Pending listing only: the group this conflict leads. Settle it at once with "
        "POST /api/v1/conflicts/{id}/group/resolve/."
    )

    class Meta(ConflictSerializer.Meta):
        fields = [*ConflictSerializer.Meta.fields, "group"]
        read_only_fields = ConflictSerializer.Meta.fields


class ConflictGroupPageSerializer(serializers.Serializer[Any]):
    results = ConflictGroupItemSerializer(
        many=True, help_text="One item per group, newest first by the group's lead conflict."
    )
    next = serializers.URLField(allow_null=True, help_text="The next page (the same query with a cursor), or null.")


class GroupDecisionSerializer(serializers.Serializer[Any]):
    conflicts = ConflictSerializer(many=True, help_text="Every conflict of the group, settled, ascending by id.")
    values = MemorySerializer(
        many=True, help_text="The memories that were the group's values, newest first, as they are after the decision."
    )


class GroupChangedErrorSerializer(serializers.Serializer[Any]):
    """The error shape (SPEC R-O8) of a group decision's 409: ``group_changed`` with the group as
    it is now, or ``not_live``."""

    error = inline_serializer(
        name="GroupChangedErrorDetail",
        fields={
            "code": serializers.CharField(help_text="`group_changed` or `not_live`."),
            "message": serializers.CharField(help_text="For people; may change."),
            "group": ConflictGroupSerializer(
                required=False, help_text="On `group_changed`: the conflict's group as it is now."
            ),
        },
    )
