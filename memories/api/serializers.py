"""Request validation and response shapes of the REST API (and MCP, which reuses them)."""

from __future__ import annotations

import json
from typing import Any

from django.utils import timezone
from rest_framework import serializers

from memories.choices import Kind, LinkType, Visibility
from memories.humanize import age
from memories.ids import ID_LENGTH, MEMORY_ID_RE
from memories.models import MAX_CONTENT_LENGTH, MAX_METADATA_BYTES, MAX_SESSION_LENGTH, MEMORY_FIELDS, Link, Memory
from memories.services import LinkSpec, RememberResult
from memories.text import preview

MAX_LINKS = 50


class MemorySerializer(serializers.ModelSerializer[Memory]):
    """The memory object: the same fields everywhere in the API (SPEC §3)."""

    owner = serializers.CharField(source="owner.username", read_only=True)
    project = serializers.SerializerMethodField()
    superseded_by = serializers.CharField(source="superseded_by_id", read_only=True, allow_null=True)
    closed_by = serializers.CharField(source="closed_by_id", read_only=True, allow_null=True)

    class Meta:
        model = Memory
        fields = list(MEMORY_FIELDS)
        read_only_fields = fields

    def get_project(self, memory: Memory) -> str | None:
        return memory.project.slug if memory.project is not None else None

    def to_representation(self, instance: Memory) -> dict[str, Any]:
        # The declared fields above document the shape (OpenAPI); answers are built directly,
        # 20x faster than walking them (a 50-row feed page spent ~5 ms here).
        return memory_body(instance)

    def generic_representation(self, instance: Memory) -> dict[str, Any]:
        """DRF's own walk over the declared fields: what memory_body must equal (tested)."""
        return super().to_representation(instance)


_DATETIME = serializers.DateTimeField()


def _when(value: Any) -> str | None:
    return _DATETIME.to_representation(value) if value is not None else None


def memory_body(memory: Memory) -> dict[str, Any]:
    """The memory object (SPEC §3) as MemorySerializer declares it."""
    return {
        "id": memory.id,
        "content": memory.content,
        "kind": memory.kind,
        "owner": memory.owner.username,
        "project": memory.project.slug if memory.project is not None else None,
        "visibility": memory.visibility,
        "provenance": memory.provenance,
        "session": memory.session,
        "metadata": memory.metadata,
        "state": memory.state,
        "superseded_by": memory.superseded_by_id,
        "invalidated_at": _when(memory.invalidated_at),
        "loop_status": memory.loop_status,
        "closed_by": memory.closed_by_id,
        "closed_at": _when(memory.closed_at),
        "created_at": _when(memory.created_at),
        "updated_at": _when(memory.updated_at),
    }


class LinkInputSerializer(serializers.Serializer[Any]):
    type = serializers.ChoiceField(choices=LinkType.choices)
    dst = serializers.RegexField(MEMORY_ID_RE, max_length=ID_LENGTH, error_messages={"invalid": "Not a memory id."})


# Deep enough for any real metadata; shallow enough that nothing that walks it recursively
# (json.dumps for the size, the jsonb adapter) can exhaust Python's stack.
MAX_METADATA_DEPTH = 64


def metadata_problem(value: dict[str, Any]) -> str | None:
    """Why PostgreSQL or the stack could not take this metadata, or None. Iterative on purpose."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_METADATA_DEPTH:
            return f"metadata is nested deeper than {MAX_METADATA_DEPTH} levels."
        if isinstance(item, dict):
            if any("\x00" in key for key in item):
                return "metadata cannot contain the NUL character (\\u0000)."
            stack.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
        elif isinstance(item, str) and "\x00" in item:
            # PostgreSQL's jsonb cannot hold \u0000: the insert failed and answered 503.
            return "metadata cannot contain the NUL character (\\u0000)."
    return None


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
    links = serializers.ListField(
        child=LinkInputSerializer(),
        required=False,
        max_length=MAX_LINKS,
        help_text='Typed edges from the new memory. {"type": "supersedes", "dst": "mem_…"} retires the '
        "named memory in the same write (at most 10 distinct targets).",
    )

    def validate_metadata(self, value: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise serializers.ValidationError("metadata must be a JSON object.")
        problem = metadata_problem(value)
        if problem is not None:
            raise serializers.ValidationError(problem)
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


def link_specs(data: dict[str, Any]) -> list[LinkSpec]:
    return [LinkSpec(type=link["type"], dst=link["dst"]) for link in data.get("links") or []]


def similar_hint(first_id: str) -> str:
    return (
        "These are your live memories most like what you just wrote, best match first. If one of them "
        "is an older version of what you just wrote, replace it: remember the same content again with "
        f'"links": [{{"type": "supersedes", "dst": "{first_id}"}}] (the repeat is absorbed into '
        "the memory you just wrote and the declaration still applies). If they are different "
        "facts, do nothing."
    )


def remember_response(result: RememberResult) -> dict[str, Any]:
    """The body of a remember answer (SPEC §3), shared by the REST API and MCP."""
    body: dict[str, Any] = {
        "memory": MemorySerializer(result.memory).data,
        "absorbed": result.absorbed,
        "superseded": result.superseded,
        "skipped": result.skipped,
    }
    if result.similar_existing is not None:
        now = timezone.now()
        body["similar_existing"] = [
            {
                "id": item.memory.pk,
                "kind": item.memory.kind,
                "project": item.memory.project.slug if item.memory.project is not None else None,
                "distance": round(item.distance, 6),
                "score": round(item.score, 6),
                "age": age((now - item.memory.created_at).total_seconds()),
                "age_seconds": int((now - item.memory.created_at).total_seconds()),
                "created_at": serializers.DateTimeField().to_representation(item.memory.created_at),
                "preview": preview(item.memory.content),
            }
            for item in result.similar_existing
        ]
        if body["similar_existing"]:
            body["hint"] = similar_hint(body["similar_existing"][0]["id"])
    return body


class SimilarExistingSerializer(serializers.Serializer[Any]):
    id = serializers.CharField()
    kind = serializers.CharField()
    project = serializers.CharField(allow_null=True)
    distance = serializers.FloatField(help_text="Cosine distance between the embeddings of the two memories.")
    score = serializers.FloatField(
        help_text="The ranking score, descending: vector similarity (1 - distance) plus a weighted "
        "full-text match (BM25 of the written text's rarest words, as a share of the text matching itself)."
    )
    age = serializers.CharField(help_text='Human, e.g. "3 weeks".')
    age_seconds = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    preview = serializers.CharField(help_text="At most 160 characters.")


class SkippedSerializer(serializers.Serializer[Any]):
    dst = serializers.CharField()
    reason = serializers.ChoiceField(choices=["missing", "dead", "self"])


class RememberResponseSerializer(serializers.Serializer[Any]):
    memory = MemorySerializer()
    absorbed = serializers.BooleanField()
    superseded = serializers.ListField(child=serializers.CharField())
    skipped = SkippedSerializer(many=True)
    similar_existing = SimilarExistingSerializer(
        many=True, required=False, help_text="Present exactly when the write declared no supersedes."
    )
    hint = serializers.CharField(required=False, help_text="Present when similar_existing is not empty.")


class RecallInputSerializer(serializers.Serializer[Any]):
    query = serializers.CharField(max_length=MAX_CONTENT_LENGTH, trim_whitespace=True, allow_blank=False)
    project = serializers.SlugField(required=False, allow_null=True, max_length=64)
    kinds = serializers.ListField(child=serializers.ChoiceField(choices=Kind.choices), required=False, max_length=8)
    limit = serializers.IntegerField(min_value=1, max_value=50, default=10)
    include_superseded = serializers.BooleanField(default=False)
    as_of = serializers.DateTimeField(
        required=False, allow_null=True, help_text="ISO 8601; answers as the store stood then."
    )


class RecallHitSerializer(serializers.Serializer[Any]):
    memory = MemorySerializer()
    distance = serializers.FloatField(help_text="Cosine distance between the query and the memory.")
    score = serializers.FloatField(help_text="Fused rank score (higher is better).")


class RecallResponseSerializer(serializers.Serializer[Any]):
    results = RecallHitSerializer(many=True)


class LinkSerializer(serializers.ModelSerializer[Link]):
    src = serializers.CharField(source="src_id", read_only=True)
    dst = serializers.CharField(source="dst_id", read_only=True)

    class Meta:
        model = Link
        fields = ["id", "src", "dst", "type", "origin", "reverted", "created_at"]
        read_only_fields = fields


class LinkCreateSerializer(serializers.Serializer[Any]):
    src = serializers.RegexField(MEMORY_ID_RE, max_length=ID_LENGTH, error_messages={"invalid": "Not a memory id."})
    dst = serializers.RegexField(MEMORY_ID_RE, max_length=ID_LENGTH, error_messages={"invalid": "Not a memory id."})
    type = serializers.ChoiceField(choices=LinkType.choices)


class ReasonSerializer(serializers.Serializer[Any]):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=2000, default="")


class FeedPageSerializer(serializers.Serializer[Any]):
    results = MemorySerializer(many=True, help_text="Newest first.")
    next = serializers.URLField(allow_null=True, help_text="The next page (the same query with a cursor), or null.")


class HistorySerializer(serializers.Serializer[Any]):
    head = serializers.CharField(allow_null=True, help_text="The newest live version, or null.")
    versions = MemorySerializer(many=True, help_text="Oldest first.")
    edges = LinkSerializer(many=True)
