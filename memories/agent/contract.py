"""The agent verbs' arguments: every limit once, and the shapes checked against them.

The REST serializers (which document the OpenAPI schema) and the MCP tools' input schemas are
written from these constants, and both doors check arguments with these shapes, so a limit
cannot drift between them.
"""

from __future__ import annotations

import json
from typing import Any

from memories.agent.fields import (
    Boolean,
    Choice,
    Integer,
    Invalid,
    Items,
    Json,
    Shape,
    Text,
    Timestamp,
    slug,
)
from memories.choices import FeedEventType, Kind, LinkType, OnStale, Visibility
from memories.context import CONTEXT_TOKENS, MAX_CONTEXT_TOKENS, MIN_CONTEXT_TOKENS
from memories.ids import ID_LENGTH, MEMORY_ID_RE
from memories.models import MAX_CONTENT_LENGTH, MAX_METADATA_BYTES, MAX_SESSION_LENGTH
from memories.platform.idempotency import MAX_KEY_LENGTH as MAX_IDEMPOTENCY_KEY_LENGTH
from memories.selectors import FEED_STATES
from memories.services.remember import MAX_SUPERSEDES

__all__ = [
    "APPROVE",
    "BATCH",
    "CONTEXT",
    "CONTEXT_TOKENS",
    "EVENTS",
    "EVENT_TYPES",
    "FEED",
    "FEED_PAGE_SIZE",
    "FEED_STATES",
    "LINK",
    "MAX_BATCH_ITEMS",
    "MAX_CONTENT_LENGTH",
    "MAX_CONTEXT_TOKENS",
    "MAX_FEED_PAGE_SIZE",
    "MAX_FEED_QUERY_LENGTH",
    "MAX_IDEMPOTENCY_KEY_LENGTH",
    "MAX_LINKS",
    "MAX_METADATA_BYTES",
    "MAX_METADATA_DEPTH",
    "MAX_PROJECT_SLUG_LENGTH",
    "MAX_REASON_LENGTH",
    "MAX_RECALL_KINDS",
    "MAX_RECALL_LIMIT",
    "MAX_SESSION_LENGTH",
    "MAX_SUPERSEDES",
    "MIN_CONTEXT_TOKENS",
    "MIN_RECALL_LIMIT",
    "ON_STALE_MODES",
    "REASON",
    "RECALL",
    "RECALL_LIMIT",
    "REMEMBER",
    "metadata_problem",
]

# Links a write may carry; of them at most MAX_SUPERSEDES distinct supersedes targets (R-V2).
MAX_LINKS = 50
MAX_PROJECT_SLUG_LENGTH = 64  # Project.slug
# Deep enough for any real metadata; shallow enough that nothing that walks it recursively
# (json.dumps for the size, the jsonb adapter) can exhaust Python's stack.
MAX_METADATA_DEPTH = 64
MIN_RECALL_LIMIT, MAX_RECALL_LIMIT, RECALL_LIMIT = 1, 50, 10
# Items of one batch write: enough for an import-sized burst, small enough that one request (and
# an atomic batch's transaction) stays short.
MAX_BATCH_ITEMS = 200
MAX_RECALL_KINDS = len(Kind.values)
MAX_REASON_LENGTH = 2000
MAX_FEED_QUERY_LENGTH = 500
FEED_PAGE_SIZE, MAX_FEED_PAGE_SIZE = 50, 200

KINDS = tuple(Kind.values)
LINK_TYPES = tuple(LinkType.values)
VISIBILITIES = tuple(Visibility.values)
ON_STALE_MODES = tuple(OnStale.values)


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


def _metadata(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise Invalid(["metadata must be a JSON object."])
    problem = metadata_problem(value)
    if problem is not None:
        raise Invalid([problem])
    size = len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())
    if size > MAX_METADATA_BYTES:
        raise Invalid([f"metadata is {size} bytes of JSON; the limit is {MAX_METADATA_BYTES}."])
    return value


def _remember_whole(values: dict[str, Any]) -> None:
    if not values.get("project") and values.get("visibility") == Visibility.PROJECT:
        raise Invalid({"visibility": ["A personal memory (no project) is always private."]})
    start, end = values.get("valid_from"), values.get("valid_until")
    if start is not None and end is not None and start >= end:
        raise Invalid({"valid_until": ["valid_until must be after valid_from."]})


def memory_id_field(**options: Any) -> Text:
    return Text(max_length=ID_LENGTH, pattern=MEMORY_ID_RE, invalid="Not a memory id.", **options)


REMEMBER = Shape(
    {
        "content": Text(max_length=MAX_CONTENT_LENGTH),
        "kind": Choice(choices=KINDS, default=Kind.FACT.value),
        "project": slug(max_length=MAX_PROJECT_SLUG_LENGTH, required=False, allow_null=True),
        "visibility": Choice(choices=VISIBILITIES, required=False),
        "session": Text(max_length=MAX_SESSION_LENGTH, required=False, allow_null=True),
        "metadata": Json(required=False, default=dict),
        "links": Items(
            child=Shape({"type": Choice(choices=LINK_TYPES), "dst": memory_id_field()}),
            required=False,
            max_length=MAX_LINKS,
        ),
        "valid_from": Timestamp(required=False, allow_null=True),
        "valid_until": Timestamp(required=False, allow_null=True),
        # What a supersedes target that another write already replaced means (SPEC R-S11).
        "on_stale": Choice(choices=ON_STALE_MODES, default=OnStale.SKIP.value),
    },
    refine={"metadata": _metadata},
    whole=_remember_whole,
)

# What recall and the context pack both read by: the question and the filters on what it finds.
_READ_FILTERS = {
    "query": Text(max_length=MAX_CONTENT_LENGTH),
    "project": slug(max_length=MAX_PROJECT_SLUG_LENGTH, required=False, allow_null=True),
    "kinds": Items(child=Choice(choices=KINDS), required=False, max_length=MAX_RECALL_KINDS),
    "as_of": Timestamp(required=False, allow_null=True),
    "valid_at": Timestamp(required=False, allow_null=True),
    "include_expired": Boolean(default=False),
}

RECALL = Shape(
    {
        **_READ_FILTERS,
        "limit": Integer(minimum=MIN_RECALL_LIMIT, maximum=MAX_RECALL_LIMIT, default=RECALL_LIMIT),
        "include_superseded": Boolean(default=False),
    }
)

CONTEXT = Shape(
    {
        **_READ_FILTERS,
        "max_tokens": Integer(minimum=MIN_CONTEXT_TOKENS, maximum=MAX_CONTEXT_TOKENS, default=CONTEXT_TOKENS),
    }
)

# Each item is checked as a remember body on its own (agent.batch), so that one bad item answers
# its own 400 instead of failing the batch.
BATCH = Shape(
    {
        "items": Items(child=Json(), max_length=MAX_BATCH_ITEMS),
        "atomic": Boolean(default=False),
    }
)

REASON = Shape({"reason": Text(required=False, allow_blank=True, max_length=MAX_REASON_LENGTH, default="")})

LINK = Shape({"src": memory_id_field(), "dst": memory_id_field(), "type": Choice(choices=LINK_TYPES)})

FEED = Shape(
    {
        "state": Choice(choices=FEED_STATES, default="live"),
        "kind": Choice(choices=KINDS, required=False),
        "project": slug(max_length=MAX_PROJECT_SLUG_LENGTH, required=False),
        "q": Text(max_length=MAX_FEED_QUERY_LENGTH, required=False),
    }
)

EVENT_TYPES = tuple(FeedEventType.values)


def _event_types(value: str | None) -> list[str]:
    """``type``: one event type or several separated by commas."""
    types = [item.strip() for item in (value or "").split(",") if item.strip()]
    unknown = [item for item in types if item not in EVENT_TYPES]
    if unknown:
        raise Invalid([f"Unknown event type {unknown[0]!r}: choose from {', '.join(EVENT_TYPES)}."])
    return types


EVENTS = Shape(
    {
        "project": slug(max_length=MAX_PROJECT_SLUG_LENGTH, required=False),
        "type": Text(required=False, max_length=400),
        "since": Timestamp(required=False, allow_null=True),
    },
    refine={"type": _event_types},
)

# A maintainer's review of a pending write: approve it as it is, or with corrected ``content``
# (written as the maintainer's own version, replacing the pending one).
APPROVE = Shape(
    {
        "content": Text(max_length=MAX_CONTENT_LENGTH, required=False),
        "reason": Text(required=False, allow_blank=True, max_length=MAX_REASON_LENGTH, default=""),
    }
)
