from __future__ import annotations

from typing import Any

from rest_framework import serializers

from memories.api.serializers import MemorySerializer
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


class ConflictPageSerializer(serializers.Serializer[Any]):
    results = ConflictSerializer(many=True, help_text="Newest first.")
    next = serializers.URLField(allow_null=True, help_text="The next page (the same query with a cursor), or null.")
