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
            "opened_at",
            "resolved_at",
            "older",
            "newer",
        ]
        read_only_fields = fields


class ConflictPageSerializer(serializers.Serializer[Any]):
    results = ConflictSerializer(many=True, help_text="Newest first.")
    next = serializers.URLField(allow_null=True, help_text="The next page (the same query with a cursor), or null.")
