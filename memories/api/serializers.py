"""The REST API's response shapes, as the OpenAPI schema documents them.

Answers are built by ``memories.agent.results`` (tests hold the two equal). Request bodies are
documented from the agent contract's shapes themselves (``memories.api.schema.shape_body``),
which is also what checks them."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import inline_serializer
from rest_framework import serializers

from memories.agent import contract
from memories.agent.results import link_body, memory_body
from memories.choices import Kind
from memories.models import MEMORY_FIELDS, Link, Memory


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


class SimilarExistingSerializer(serializers.Serializer[Any]):
    id = serializers.CharField()
    kind = serializers.CharField()
    project = serializers.CharField(allow_null=True)
    distance = serializers.FloatField(help_text="Cosine distance between the embeddings of the two memories.")
    score = serializers.FloatField(
        help_text="The ranking score, descending: vector similarity (1 - distance) plus a weighted "
        "full-text match (BM25 of the written text's rarest words, as a share of the text matching itself) "
        "plus a weighted sentence side (how far the memory stands above the mean of the three nearest to one "
        "of the text's sentences; 0 for most memories)."
    )
    age = serializers.CharField(help_text='Human, e.g. "3 weeks".')
    age_seconds = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    preview = serializers.CharField(help_text="At most 160 characters.")


class SkippedSerializer(serializers.Serializer[Any]):
    dst = serializers.CharField()
    reason = serializers.ChoiceField(choices=["missing", "dead", "self"])
    current = serializers.CharField(
        required=False,
        allow_null=True,
        help_text="On a `dead` entry: the live head of the target's version chain (the version current now, "
        "among those you may see), or null when none is live.",
    )


class FollowedSerializer(serializers.Serializer[Any]):
    dst = serializers.CharField(help_text="The stale version the write named.")
    current = serializers.CharField(help_text="The current version it superseded instead (listed in `superseded`).")


class MatchesRetiredSerializer(serializers.Serializer[Any]):
    id = serializers.CharField(help_text="A retired version of yours, in this scope, with this very text.")
    state = serializers.CharField()
    current = serializers.CharField(allow_null=True, help_text="The version of its chain current now, or null.")


class RedactedSerializer(serializers.Serializer[Any]):
    type = serializers.CharField(help_text="What was found, e.g. aws-access-key, private-key, json-web-token.")
    where = serializers.CharField(help_text="content, or metadata.<path>.")


class RememberResponseSerializer(serializers.Serializer[Any]):
    memory = MemorySerializer()
    absorbed = serializers.BooleanField()
    superseded = serializers.ListField(child=serializers.CharField())
    skipped = SkippedSerializer(many=True)
    followed = FollowedSerializer(
        many=True,
        required=False,
        help_text='Present when `"on_stale": "follow"` superseded the current version of a stale target.',
    )
    similar_existing = SimilarExistingSerializer(
        many=True,
        required=False,
        help_text="Present exactly when the write replaced nothing: it declared no supersedes, or every target "
        "it named was skipped.",
    )
    matches_retired = MatchesRetiredSerializer(
        many=True,
        required=False,
        help_text="Present when the text equals a retired version of yours in this scope (stored all the same: "
        "it may be a revert).",
    )
    hint = serializers.CharField(required=False, help_text="Present when similar_existing is not empty.")
    redacted = RedactedSerializer(
        many=True,
        required=False,
        help_text="Present when the secret guard replaced credentials with [redacted:<type>] (docs/api.md).",
    )


class RecallHitSerializer(serializers.Serializer[Any]):
    memory = MemorySerializer()
    distance = serializers.FloatField(help_text="Cosine distance between the query and the memory.")
    score = serializers.FloatField(help_text="Fused rank score (higher is better).")


class RecallResponseSerializer(serializers.Serializer[Any]):
    results = RecallHitSerializer(many=True)


class BatchResultSerializer(RememberResponseSerializer):
    status = serializers.IntegerField(help_text="What the item would have answered alone: 201, 200 (absorbed) or 4xx.")
    memory = MemorySerializer(required=False)
    absorbed = serializers.BooleanField(required=False)
    superseded = serializers.ListField(child=serializers.CharField(), required=False)
    skipped = SkippedSerializer(many=True, required=False)
    error = serializers.DictField(required=False, help_text="The error shape's `error`, for a failed item.")


class BatchResponseSerializer(serializers.Serializer[Any]):
    results = BatchResultSerializer(many=True, help_text="One per item, in item order.")


# Built from dicts: fields named `label` and `read_only` cannot be declared on a serializer class.
WHOAMI_CREDENTIAL = inline_serializer(
    name="WhoamiCredential",
    fields={
        "label": serializers.CharField(),
        "prefix": serializers.CharField(help_text="The token's public prefix (the secret is never shown again)."),
        "provenance": serializers.ChoiceField(choices=["authoritative", "provisional"]),
        "created_at": serializers.DateTimeField(),
        "expires_at": serializers.DateTimeField(allow_null=True),
    },
)
WHOAMI_SCOPE = inline_serializer(
    name="WhoamiScope",
    fields={
        "projects": serializers.ListField(
            child=serializers.CharField(), allow_null=True, help_text="null: not narrowed to projects."
        ),
        "read_only": serializers.BooleanField(),
    },
)


class WhoamiProjectSerializer(serializers.Serializer[Any]):
    slug = serializers.CharField()
    name = serializers.CharField()
    role = serializers.ChoiceField(choices=["member", "maintainer"])


class WhoamiRateSerializer(serializers.Serializer[Any]):
    per_minute = serializers.IntegerField(allow_null=True, help_text="null: no limit.")
    remaining = serializers.IntegerField(allow_null=True, help_text="Requests this token may still send now.")


class WhoamiSerializer(serializers.Serializer[Any]):
    user = serializers.CharField()
    credential = WHOAMI_CREDENTIAL
    scope = WHOAMI_SCOPE
    projects = WhoamiProjectSerializer(many=True, help_text="Projects this token reaches, with the user's role.")
    rate_limit = WhoamiRateSerializer()


class ContextWasSerializer(serializers.Serializer[Any]):
    id = serializers.CharField(help_text="The version this item superseded, quoted in its 'was' line.")
    until = serializers.DateTimeField(help_text="When that version was retired.")


class ContextItemSerializer(serializers.Serializer[Any]):
    id = serializers.CharField()
    kind = serializers.ChoiceField(choices=Kind.choices)
    project = serializers.CharField(allow_null=True)
    section = serializers.ChoiceField(choices=["facts", "open_loops"])
    score = serializers.FloatField(help_text="recall's fused score (higher is better).")
    tokens = serializers.IntegerField(help_text="The item's lines in the block, in tokens.")
    created_at = serializers.DateTimeField()
    was = ContextWasSerializer(allow_null=True)


class ContextResponseSerializer(serializers.Serializer[Any]):
    text = serializers.CharField(help_text="The prompt-ready block ('' when nothing matched or fitted).")
    tokens = serializers.IntegerField(help_text="The block's length in tokens (≤ max_tokens).")
    token_counter = serializers.CharField(help_text="What counted the tokens.")
    items = ContextItemSerializer(many=True, help_text="What the block holds, in its order.")
    left_out = serializers.IntegerField(help_text="Recalled memories that did not fit the budget.")


class LinkSerializer(serializers.ModelSerializer[Link]):
    src = serializers.CharField(source="src_id", read_only=True)
    dst = serializers.CharField(source="dst_id", read_only=True)

    class Meta:
        model = Link
        fields = ["id", "src", "dst", "type", "origin", "reverted", "created_at"]
        read_only_fields = fields

    def to_representation(self, instance: Link) -> dict[str, Any]:
        return link_body(instance)

    def generic_representation(self, instance: Link) -> dict[str, Any]:
        """DRF's own walk over the declared fields: what link_body must equal (tested)."""
        return super().to_representation(instance)


class FeedPageSerializer(serializers.Serializer[Any]):
    results = MemorySerializer(many=True, help_text="Newest first.")
    next = serializers.URLField(allow_null=True, help_text="The next page (the same query with a cursor), or null.")


class HistorySerializer(serializers.Serializer[Any]):
    head = serializers.CharField(allow_null=True, help_text="The newest live version, or null.")
    versions = MemorySerializer(many=True, help_text="Oldest first.")
    edges = LinkSerializer(many=True)


class FeedEventSerializer(serializers.Serializer[Any]):
    id = serializers.CharField(help_text="evt_ + a number; a webhook delivery carries the same id.")
    type = serializers.ChoiceField(choices=list(contract.EVENT_TYPES))
    created_at = serializers.DateTimeField()
    project = serializers.CharField(allow_null=True)
    memory = serializers.CharField(help_text="The memory the event is about; for a conflict, the newer one.")
    conflict = serializers.IntegerField(allow_null=True, help_text="The conflict's id, for conflict events.")
    data = serializers.DictField(  # type: ignore[assignment]
        help_text="What happened: a supersede's successor and origin, a retirement's reason, a conflict's "
        "pair, relation and resolution."
    )


class EventPageSerializer(serializers.Serializer[Any]):
    results = FeedEventSerializer(many=True, help_text="Oldest first.")
    next = serializers.URLField(
        allow_null=True,
        help_text="Where to continue: after the last event, or this same position when nothing new has "
        "arrived (poll it). Null only when there is nothing yet and no cursor was given.",
    )
    has_more = serializers.BooleanField(help_text="More events are waiting right now.")
