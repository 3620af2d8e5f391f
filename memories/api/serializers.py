"""Request validation and response shapes of the REST API (and MCP, which reuses them)."""

from __future__ import annotations

import json
from typing import Any

from rest_framework import serializers

from memories.choices import Kind, Visibility
from memories.models import MAX_CONTENT_LENGTH, MAX_METADATA_BYTES, MAX_SESSION_LENGTH, Memory


class MemorySerializer(serializers.ModelSerializer[Memory]):
    """The memory object: the same fields everywhere in the API (SPEC §3)."""

    owner = serializers.CharField(source="owner.username", read_only=True)
    project = serializers.SerializerMethodField()
    superseded_by = serializers.CharField(source="superseded_by_id", read_only=True, allow_null=True)
    closed_by = serializers.CharField(source="closed_by_id", read_only=True, allow_null=True)

    class Meta:
        model = Memory
        fields = [
            "id",
            "content",
            "kind",
            "owner",
            "project",
            "visibility",
            "provenance",
            "session",
            "metadata",
            "state",
            "superseded_by",
            "invalidated_at",
            "loop_status",
            "closed_by",
            "closed_at",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields

    def get_project(self, memory: Memory) -> str | None:
        return memory.project.slug if memory.project is not None else None


class RememberInputSerializer(serializers.Serializer[Any]):
    content = serializers.CharField(
        max_length=MAX_CONTENT_LENGTH,
        trim_whitespace=True,
        allow_blank=False,
        help_text="The statement to remember, 1 to 8,000 characters (trimmed).",
    )
    kind = serializers.ChoiceField(choices=Kind.choices, default=Kind.FACT)
    project = serializers.SlugField(
        required=False, allow_null=True, max_length=64, help_text="Project slug; omit for your personal scope."
    )
    visibility = serializers.ChoiceField(choices=Visibility.choices, required=False)
    session = serializers.CharField(
        required=False, allow_null=True, max_length=MAX_SESSION_LENGTH, trim_whitespace=True, allow_blank=False
    )
    metadata = serializers.JSONField(required=False, default=dict)

    def validate_metadata(self, value: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise serializers.ValidationError("metadata must be a JSON object.")
        size = len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())
        if size > MAX_METADATA_BYTES:
            raise serializers.ValidationError(f"metadata is {size} bytes of JSON; the limit is {MAX_METADATA_BYTES}.")
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs.get("project") and attrs.get("visibility") == Visibility.PROJECT:
            raise serializers.ValidationError({"visibility": "A personal memory (no project) is always private."})
        return attrs


class FeedQuerySerializer(serializers.Serializer[Any]):
    state = serializers.ChoiceField(choices=["live", "superseded", "forgotten", "all"], default="live")
    kind = serializers.ChoiceField(choices=Kind.choices, required=False)
    project = serializers.SlugField(required=False, max_length=64)
    q = serializers.CharField(required=False, max_length=500, trim_whitespace=True)
