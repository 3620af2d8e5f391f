"""The agent verbs' arguments: every limit once, and the shapes checked against them.

Both doors check arguments with these shapes, and both publish them: the MCP tools' input
schemas and the OpenAPI request bodies are generated from them (``Shape.schema()``), with the
descriptions written here, so neither a limit nor a field can drift between them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from memories.agent.fields import (
    Boolean,
    Choice,
    Integer,
    Invalid,
    Items,
    Json,
    JsonObject,
    Shape,
    Text,
    Timestamp,
    slug,
    surrogate_problem,
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
    "PAGE",
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
            # A lone surrogate (JSON's "\\udc00") has no UTF-8 form: the driver failed with a 500.
            if problem := next(filter(None, map(surrogate_problem, item)), None):
                return f"metadata: {problem}"
            stack.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
        elif isinstance(item, str) and "\x00" in item:
            # PostgreSQL's jsonb cannot hold \u0000: the insert failed and answered 503.
            return "metadata cannot contain the NUL character (\\u0000)."
        elif isinstance(item, str) and (problem := surrogate_problem(item)):
            return f"metadata: {problem}"
    return None


def _metadata(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise Invalid(["metadata must be a JSON object."])
    return _metadata_fits(value)


def _metadata_fits(value: dict[str, Any]) -> dict[str, Any]:
    """A metadata object PostgreSQL can store and compare, and of the size the server takes: a
    write's metadata and a read's metadata filter alike."""
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


MEMORY_ID_DESCRIPTION = "A memory id: mem_ followed by a 26-character ULID."


def memory_id_field(**options: Any) -> Text:
    options.setdefault("description", MEMORY_ID_DESCRIPTION)
    return Text(max_length=ID_LENGTH, pattern=MEMORY_ID_RE, invalid="Not a memory id.", **options)


def _project(description: str, **options: Any) -> Text:
    return slug(max_length=MAX_PROJECT_SLUG_LENGTH, required=False, description=description, **options)


ON_STALE_DESCRIPTION = (
    "What to do when a supersedes target was already replaced by another write (a stale version): "
    '"skip" (default) stores this memory anyway and reports the target as skipped "dead" with the id of the '
    '"current" version — two live versions then stand and a conflict is opened for a person to settle; '
    '"reject" stores nothing and answers 409 stale_target with the current version of each stale target, '
    'so you can reread it and decide (compare-and-set); "follow" supersedes the current version instead, '
    "keeping one line of versions."
)
# Keys a writer may reach for to declare a replacement; refused with the way that works.
_SUPERSEDE_HINT = 'Declare a replacement with links=[{"type": "supersedes", "dst": "<id>"}].'


REMEMBER = Shape(
    {
        "content": Text(
            max_length=MAX_CONTENT_LENGTH,
            description=f"The statement to remember, 1 to {MAX_CONTENT_LENGTH:,} characters (trimmed).",
        ),
        "kind": Choice(
            choices=KINDS,
            default=Kind.FACT.value,
            description="What the statement is; a task or an open-question is an open loop until superseded.",
        ),
        "project": _project("Project slug; omit it for your personal scope.", allow_null=True),
        "visibility": Choice(
            choices=VISIBILITIES,
            required=False,
            description="project: every project member sees it (the default in a project); private: only you. "
            "A personal memory is always private.",
        ),
        "session": Text(
            max_length=MAX_SESSION_LENGTH,
            required=False,
            allow_null=True,
            description="Your conversation or run id; repeats are absorbed within a session.",
        ),
        "metadata": Json(
            json_type="object",
            required=False,
            default=dict,
            description=f"Any JSON object, at most {MAX_METADATA_BYTES:,} bytes.",
        ),
        "links": Items(
            child=Shape(
                {
                    "type": Choice(
                        choices=LINK_TYPES,
                        description="supersedes retires dst in this same write; the others only record an edge.",
                    ),
                    "dst": memory_id_field(),
                }
            ),
            required=False,
            max_length=MAX_LINKS,
            description='Typed edges from the new memory. {"type": "supersedes", "dst": "mem_…"} retires the '
            f"named memory in the same write (at most {MAX_SUPERSEDES} distinct targets).",
        ),
        "valid_from": Timestamp(
            required=False,
            allow_null=True,
            description="ISO 8601; when the statement starts to hold in the world (valid time).",
        ),
        "valid_until": Timestamp(
            required=False,
            allow_null=True,
            description="ISO 8601; when it stops holding. After it the memory stays live and readable, but "
            "recall, context and similar_existing leave it out unless asked.",
        ),
        # What a supersedes target that another write already replaced means (SPEC R-S11).
        "on_stale": Choice(choices=ON_STALE_MODES, default=OnStale.SKIP.value, description=ON_STALE_DESCRIPTION),
    },
    refine={"metadata": _metadata},
    whole=_remember_whole,
    hints=dict.fromkeys(("supersedes", "supersede", "replaces"), _SUPERSEDE_HINT),
)


def _metadata_filter_refined(value: dict[str, Any] | None) -> dict[str, Any] | None:
    return value if value is None else _metadata_fits(value)


_FILTER_REFINE: dict[str, Callable[[Any], Any]] = {"metadata": _metadata_filter_refined}


def _metadata_filter() -> JsonObject:
    # JSON containment (PostgreSQL's @>), the one meaning of a metadata filter wherever it is read.
    return JsonObject(
        required=False,
        allow_null=True,
        description="Only memories whose metadata contains this JSON object: each key with the same value, "
        'nested objects alike, arrays by their elements (e.g. {"team": "infra"}).',
    )


# What recall and the context pack both read by: the question and the filters on what it finds.
_READ_FILTERS = {
    "query": Text(max_length=MAX_CONTENT_LENGTH, description="What to look for, in words."),
    "project": _project("This project plus your personal scope; omit it for everything you may see.", allow_null=True),
    "kinds": Items(
        child=Choice(choices=KINDS),
        required=False,
        max_length=MAX_RECALL_KINDS,
        description="Only memories of these kinds.",
    ),
    "as_of": Timestamp(required=False, allow_null=True, description="ISO 8601; answers as the store stood then."),
    "valid_at": Timestamp(
        required=False, allow_null=True, description="ISO 8601; only memories whose valid time holds then."
    ),
    "include_expired": Boolean(
        default=False, description="Also memories whose valid time has ended (left out by default)."
    ),
    "metadata": _metadata_filter(),
}

RECALL = Shape(
    {
        **_READ_FILTERS,
        "limit": Integer(
            minimum=MIN_RECALL_LIMIT,
            maximum=MAX_RECALL_LIMIT,
            default=RECALL_LIMIT,
            description="How many results, best first.",
        ),
        "include_superseded": Boolean(
            default=False, description="Also versions that were superseded (live ones only by default)."
        ),
    },
    refine=_FILTER_REFINE,
)

CONTEXT = Shape(
    {
        **_READ_FILTERS,
        "max_tokens": Integer(
            minimum=MIN_CONTEXT_TOKENS,
            maximum=MAX_CONTEXT_TOKENS,
            default=CONTEXT_TOKENS,
            description="The block's budget, counted with the embedding model's tokenizer; never exceeded.",
        ),
    },
    refine=_FILTER_REFINE,
)

# Each item is checked as a remember body on its own (agent.batch), so that one bad item answers
# its own 400 instead of failing the batch.
BATCH = Shape(
    {
        "items": Items(
            child=Json(checked_as=REMEMBER),
            min_length=1,
            max_length=MAX_BATCH_ITEMS,
            description=f"Up to {MAX_BATCH_ITEMS} remember bodies, each with its own declarations.",
        ),
        "atomic": Boolean(
            default=False,
            description="One transaction for the whole batch: the first item that fails rolls all back and "
            "answers for the batch (its status and error, the item's index in `fields`).",
        ),
    }
)


def _reason(description: str = "Why (kept in the history).") -> Text:
    return Text(required=False, allow_blank=True, max_length=MAX_REASON_LENGTH, default="", description=description)


REASON = Shape({"reason": _reason()})

LINK = Shape(
    {
        "src": memory_id_field(description="The memory the edge starts from (you must be able to write it)."),
        "dst": memory_id_field(description="The memory it points to."),
        "type": Choice(
            choices=LINK_TYPES, description="What the edge says; a supersedes link made here retires nothing."
        ),
    }
)

# Where a list's next page starts and how long it is. REST reads both from the query string with
# its paginator (a size past the maximum is the maximum); a JSON caller (MCP) is held to these.
PAGE = Shape(
    {
        "cursor": Text(
            required=False, allow_blank=True, description="Where the page starts: the previous answer's next."
        ),
        "limit": Integer(
            minimum=1,
            maximum=MAX_FEED_PAGE_SIZE,
            default=FEED_PAGE_SIZE,
            description=f"Results per page (default {FEED_PAGE_SIZE}, at most {MAX_FEED_PAGE_SIZE}).",
        ),
    }
)
_PAGE_KEYS = frozenset(PAGE.fields)

FEED = Shape(
    {
        "state": Choice(
            choices=FEED_STATES, default="live", description="Which memories: live ones unless you ask for others."
        ),
        "kind": Choice(choices=KINDS, required=False, description="Only memories of this kind."),
        "project": _project("Only this project's memories."),
        "q": Text(max_length=MAX_FEED_QUERY_LENGTH, required=False, description="Text search of content."),
        "metadata": _metadata_filter(),
    },
    passthrough=_PAGE_KEYS,
    refine=_FILTER_REFINE,
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
        "project": _project("Only this project's events."),
        "type": Text(
            required=False,
            max_length=400,
            description="Only these event types, separated by commas: " + ", ".join(EVENT_TYPES) + ".",
        ),
        "since": Timestamp(required=False, allow_null=True, description="Only events at or after this time."),
    },
    refine={"type": _event_types},
    passthrough=_PAGE_KEYS,
)

# A maintainer's review of a pending write: approve it as it is, or with corrected ``content``
# (written as the maintainer's own version, replacing the pending one).
APPROVE = Shape(
    {
        "content": Text(
            max_length=MAX_CONTENT_LENGTH,
            required=False,
            description="Corrected content: written as your own memory, replacing the pending one (a declared "
            "supersede by you). Leave it out to approve the pending memory as it is.",
        ),
        "reason": _reason(),
    }
)
