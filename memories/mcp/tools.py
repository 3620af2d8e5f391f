"""The MCP tools: names, descriptions and input schemas, each bound to an agent verb.

The descriptions are where an agent learns how to use the server (recall before writing,
declare what a write replaces), so they say it plainly and show the exact argument shapes.
The input schemas are written from the agent contract's limits, and arguments are checked by
the contract itself, as for the REST API, so a bad argument answers the same ``invalid`` error
with field messages; the schemas here describe, they do not gate.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User

from memories.agent import batch, contract, events
from memories.agent import verbs as agent
from memories.choices import Kind, LinkType, Visibility
from memories.errors import ValidationFailed
from memories.ids import MEMORY_ID_RE
from memories.models import Credential

INSTRUCTIONS = """\
zeromemory keeps short statements ("memories") for you and your team across conversations.
- Before you write, recall: search for what you already know about the topic.
- One fact per memory, in a sentence that stands on its own.
- When a fact changes, replace the old memory in the same write: call remember with
  links=[{"type": "supersedes", "dst": "<id of the old memory>"}]. The old version is retired
  (reversibly) and kept as history; recall then answers with the new one only.
- If a remember answer lists similar_existing, read them: if one is an older version of what
  you wrote, remember the same content again with that supersedes link (the repeat is absorbed).
- forget retires a memory that is simply no longer true; restore_memory undoes a retirement.
"""

MEMORY_ID_SCHEMA: dict[str, Any] = {
    "type": "string",
    "pattern": MEMORY_ID_RE.pattern,
    "description": "A memory id: mem_ followed by a 26-character ULID.",
}
PROJECT_SCHEMA: dict[str, Any] = {
    "type": ["string", "null"],
    "maxLength": contract.MAX_PROJECT_SLUG_LENGTH,
    "description": "Project slug. Omit it for your personal scope.",
}


def _object(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


REMEMBER_DESCRIPTION = """\
Store one short, self-contained statement (a fact, decision, preference, plan, procedure, \
observation, task or open question).

Recall first: call `recall` on the topic before writing, so you know whether you are adding \
something new or replacing something you already stored.

Replacing an old fact (the deploy window moved, a decision changed, a task is done): declare it \
in this same call and the server stores the new memory, retires the old one (reversibly) and \
records the version link, atomically:
  {"content": "Deploy window is Friday 14:00 UTC.", "project": "acme",
   "links": [{"type": "supersedes", "dst": "mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2T"}]}
Up to {max_supersedes} supersedes targets per write. Targets that are already retired or missing are reported \
in `skipped` and the write still succeeds.

Without a declaration the answer lists `similar_existing`: your nearest live memories. If one \
is an older version of what you just wrote, call remember again with the same content and \
links=[{"type": "supersedes", "dst": "<that id>"}] (the repeat is absorbed and the declaration \
applies). Repeating a statement verbatim never makes a duplicate: the answer has absorbed=true.

Answers {"memory", "absorbed", "superseded", "skipped", "similar_existing"?, "hint"?}.""".replace(
    "{max_supersedes}", str(contract.MAX_SUPERSEDES)
)

REMEMBER_SCHEMA = _object(
    {
        "content": {
            "type": "string",
            "minLength": 1,
            "maxLength": contract.MAX_CONTENT_LENGTH,
            "description": f"The statement, 1 to {contract.MAX_CONTENT_LENGTH:,} characters.",
        },
        "kind": {"type": "string", "enum": list(Kind.values), "default": Kind.FACT.value},
        "project": PROJECT_SCHEMA,
        "visibility": {
            "type": "string",
            "enum": list(Visibility.values),
            "description": "project: every project member sees it (the default in a project); private: only you. "
            "A personal memory is always private.",
        },
        "session": {
            "type": ["string", "null"],
            "maxLength": contract.MAX_SESSION_LENGTH,
            "description": "Your conversation or run id; repeats are absorbed within a session.",
        },
        "metadata": {
            "type": "object",
            "description": f"Any JSON object, at most {contract.MAX_METADATA_BYTES:,} bytes.",
        },
        "links": {
            "type": "array",
            "maxItems": contract.MAX_LINKS,
            "description": 'Typed edges from the new memory. {"type": "supersedes", "dst": id} replaces that memory.',
            "items": _object(
                {"type": {"type": "string", "enum": list(LinkType.values)}, "dst": MEMORY_ID_SCHEMA},
                ["type", "dst"],
            ),
        },
        "valid_from": {
            "type": ["string", "null"],
            "format": "date-time",
            "description": "ISO 8601: when the statement starts to hold in the world (valid time).",
        },
        "valid_until": {
            "type": ["string", "null"],
            "format": "date-time",
            "description": "ISO 8601: when it stops holding; after it, recall and context leave it out unless asked.",
        },
        "idempotency_key": {
            "type": "string",
            "minLength": 1,
            "maxLength": contract.MAX_IDEMPOTENCY_KEY_LENGTH,
            "description": "Retry safety: a repeat with the same key and arguments returns the first answer.",
        },
    },
    ["content"],
)

RECALL_DESCRIPTION = """\
Search what you (and your projects) know: hybrid semantic and full-text search over memories \
you may see. Call it before remembering, and whenever the conversation touches something you \
may have stored. Live memories only unless include_superseded; `as_of` answers as the store \
stood at that time. Answers {"results": [{"memory", "distance", "score"}]}, best first."""

# What recall and get_context both take (memories.agent.contract's read filters).
READ_FILTERS_SCHEMA: dict[str, Any] = {
    "query": {"type": "string", "minLength": 1, "maxLength": contract.MAX_CONTENT_LENGTH},
    "project": {**PROJECT_SCHEMA, "description": "This project plus your personal scope."},
    "kinds": {
        "type": "array",
        "items": {"type": "string", "enum": list(Kind.values)},
        "maxItems": contract.MAX_RECALL_KINDS,
    },
    "as_of": {"type": ["string", "null"], "format": "date-time", "description": "ISO 8601 timestamp."},
    "valid_at": {
        "type": ["string", "null"],
        "format": "date-time",
        "description": "ISO 8601: only memories whose valid time holds then.",
    },
    "include_expired": {"type": "boolean", "default": False},
}

RECALL_SCHEMA = _object(
    {
        **READ_FILTERS_SCHEMA,
        "limit": {
            "type": "integer",
            "minimum": contract.MIN_RECALL_LIMIT,
            "maximum": contract.MAX_RECALL_LIMIT,
            "default": contract.RECALL_LIMIT,
        },
        "include_superseded": {"type": "boolean", "default": False},
    },
    ["query"],
)

BATCH_DESCRIPTION = f"""\
Remember many statements in one call (up to {contract.MAX_BATCH_ITEMS}): `items` is a list of remember \
arguments, each with its own `links` declarations. Each item is answered as it would be alone, \
in order: {{"status": 201 or 200 (absorbed), <the remember answer>}} or {{"status": 4xx, "error": \
{{...}}}}; a bad item does not stop the others. With "atomic": true the batch is all or nothing: \
the first item that fails rolls back every item and the call fails with that item's error. \
Each item counts against your rate limit. Answers {{"results": [...]}}."""

BATCH_SCHEMA = _object(
    {
        "items": {
            "type": "array",
            "items": {
                **REMEMBER_SCHEMA,
                "properties": {k: v for k, v in REMEMBER_SCHEMA["properties"].items() if k != "idempotency_key"},
            },
            "maxItems": contract.MAX_BATCH_ITEMS,
            "minItems": 1,
        },
        "atomic": {"type": "boolean", "default": False},
        "idempotency_key": REMEMBER_SCHEMA["properties"]["idempotency_key"],
    },
    ["items"],
)

CONTEXT_DESCRIPTION = """\
What you know about a question, as a block ready to put in your prompt, within `max_tokens` \
(counted with the server's embedding tokenizer; never exceeded). The facts are recall's best, \
most relevant first; open tasks and questions are listed apart; a fact that replaced an older \
version says what it was and until when ("was: … (until DATE)"). Answers {"text", "tokens", \
"token_counter", "items": [{"id", "kind", "project", "section", "score", "tokens", \
"created_at", "was"}], "left_out"}."""

CONTEXT_SCHEMA = _object(
    {
        **READ_FILTERS_SCHEMA,
        "max_tokens": {
            "type": "integer",
            "minimum": contract.MIN_CONTEXT_TOKENS,
            "maximum": contract.MAX_CONTEXT_TOKENS,
            "default": contract.CONTEXT_TOKENS,
        },
    },
    ["query"],
)

ONE_MEMORY_SCHEMA = _object({"memory_id": MEMORY_ID_SCHEMA}, ["memory_id"])
REASON_SCHEMA = {
    "type": "string",
    "maxLength": contract.MAX_REASON_LENGTH,
    "description": "Why (kept in the history).",
}
LIFECYCLE_SCHEMA = _object({"memory_id": MEMORY_ID_SCHEMA, "reason": REASON_SCHEMA}, ["memory_id"])

FORGET_DESCRIPTION = """\
Retire a memory that is no longer true and has no replacement (to replace it, use remember \
with a supersedes link instead). Reversible with restore_memory; idempotent. A superseded \
memory answers not_live. Answers the memory."""

RESTORE_DESCRIPTION = """\
Make a superseded or forgotten memory live again (undo a supersede or a forget): its \
successor link stays in the history marked reverted, and a loop it closed reopens. Idempotent \
on a live memory. Answers the memory."""

LINK_DESCRIPTION = """\
Record a typed edge between two memories you can see (you must be able to write src). It never \
retires anything: even a supersedes link made here leaves dst live. To replace a memory, \
remember the new version with links=[{"type": "supersedes", "dst": id}]. Answers the link."""

HISTORY_DESCRIPTION = """\
The version chain of a memory: every version joined to it by supersedes links (both \
directions), oldest first, the links between them, and head (the newest live version). \
Answers {"head", "versions", "edges"}."""

GET_DESCRIPTION = "One memory with its lifecycle fields (state, superseded_by, loop status...)."

FEED_DESCRIPTION = """\
Browse memories you may see, newest first (live ones unless state says otherwise), optionally \
filtered by kind, project or a text query. Answers {"results", "next"}: pass next back as \
cursor for the following page (null at the end)."""

FEED_SCHEMA = _object(
    {
        "state": {"type": "string", "enum": list(contract.FEED_STATES), "default": "live"},
        "kind": {"type": "string", "enum": list(Kind.values)},
        "project": {"type": "string", "maxLength": contract.MAX_PROJECT_SLUG_LENGTH},
        "q": {"type": "string", "maxLength": contract.MAX_FEED_QUERY_LENGTH, "description": "Text search of content."},
        "limit": {
            "type": "integer",
            "minimum": 1,
            "maximum": contract.MAX_FEED_PAGE_SIZE,
            "default": contract.FEED_PAGE_SIZE,
        },
        "cursor": {"type": "string", "description": "The previous page's next."},
    },
    [],
)

EVENTS_DESCRIPTION = """\
What changed, oldest first: events of the memories you may see (memory.created, \
memory.superseded, memory.forgotten, memory.restored, …) and of the conflicts you may moderate \
(conflict.opened, conflict.resolved), optionally for one project, some types (comma-separated) \
or since a time. Answers {"results", "next", "has_more"}: keep next and pass it back as cursor \
to get only what happened after (it stays valid when nothing new has happened)."""

EVENTS_SCHEMA = _object(
    {
        "project": {"type": "string", "maxLength": contract.MAX_PROJECT_SLUG_LENGTH},
        "type": {"type": "string", "maxLength": 400, "description": "Event types, separated by commas."},
        "since": {"type": "string", "format": "date-time"},
        "limit": {
            "type": "integer",
            "minimum": 1,
            "maximum": contract.MAX_FEED_PAGE_SIZE,
            "default": contract.FEED_PAGE_SIZE,
        },
        "cursor": {"type": "string", "description": "The previous answer's next."},
    },
    [],
)


@dataclass(frozen=True)
class AgentTool:
    name: str
    title: str
    description: str
    input_schema: dict[str, Any]
    run: Callable[[User, Credential, dict[str, Any]], dict[str, Any]]
    read_only: bool = False
    idempotent: bool = False


def _memory_id(arguments: dict[str, Any]) -> str:
    # "id" is accepted too: agents that know the REST paths (/memories/{id}/) reach for it.
    memory_id = arguments.pop("memory_id", None) or arguments.pop("id", None)
    if not isinstance(memory_id, str) or not memory_id:
        raise ValidationFailed("memory_id is required.", fields={"memory_id": ["This field is required."]})
    return memory_id


def _remember_batch(user: User, credential: Credential, arguments: dict[str, Any]) -> dict[str, Any]:
    key = arguments.pop("idempotency_key", None)
    return batch.remember_batch(
        user=user, credential=credential, arguments=arguments, idempotency_key=None if key is None else str(key)
    )


def _remember(user: User, credential: Credential, arguments: dict[str, Any]) -> dict[str, Any]:
    key = arguments.pop("idempotency_key", None)
    return agent.remember(
        user=user, credential=credential, arguments=arguments, idempotency_key=None if key is None else str(key)
    ).body


def _forget(user: User, credential: Credential, arguments: dict[str, Any]) -> dict[str, Any]:
    return agent.forget(user=user, credential=credential, memory_id=_memory_id(arguments), arguments=arguments)


def _restore(user: User, credential: Credential, arguments: dict[str, Any]) -> dict[str, Any]:
    return agent.restore(user=user, credential=credential, memory_id=_memory_id(arguments), arguments=arguments)


TOOLS: dict[str, AgentTool] = {
    tool.name: tool
    for tool in [
        AgentTool("remember", "Remember", REMEMBER_DESCRIPTION, REMEMBER_SCHEMA, _remember),
        AgentTool(
            "recall",
            "Recall",
            RECALL_DESCRIPTION,
            RECALL_SCHEMA,
            lambda user, _credential, arguments: agent.recall(user=user, arguments=arguments),
            read_only=True,
        ),
        AgentTool("remember_batch", "Remember many", BATCH_DESCRIPTION, BATCH_SCHEMA, _remember_batch),
        AgentTool(
            "whoami",
            "Who am I",
            "Who you are to this server: your user, the token you connect with and what it may reach "
            "(projects, read-only, expiry), your projects with your role in each, and the requests "
            'your token may still send this minute. Answers {"user", "credential", "scope", "projects", '
            '"rate_limit"}.',
            _object({}, []),
            lambda user, credential, _arguments: agent.whoami(user=user, credential=credential),
            read_only=True,
        ),
        AgentTool(
            "get_context",
            "Get context",
            CONTEXT_DESCRIPTION,
            CONTEXT_SCHEMA,
            lambda user, _credential, arguments: agent.context(user=user, arguments=arguments),
            read_only=True,
        ),
        AgentTool(
            "forget",
            "Forget",
            FORGET_DESCRIPTION,
            LIFECYCLE_SCHEMA,
            _forget,
            idempotent=True,
        ),
        AgentTool(
            "restore_memory",
            "Restore a memory",
            RESTORE_DESCRIPTION,
            LIFECYCLE_SCHEMA,
            _restore,
            idempotent=True,
        ),
        AgentTool(
            "link",
            "Link two memories",
            LINK_DESCRIPTION,
            _object(
                {"src": MEMORY_ID_SCHEMA, "dst": MEMORY_ID_SCHEMA, "type": {"type": "string", "enum": LinkType.values}},
                ["src", "dst", "type"],
            ),
            lambda user, _credential, arguments: agent.link(user=user, arguments=arguments).body,
            idempotent=True,
        ),
        AgentTool(
            "memory_history",
            "Version history",
            HISTORY_DESCRIPTION,
            ONE_MEMORY_SCHEMA,
            lambda user, _credential, arguments: agent.history(user=user, memory_id=_memory_id(arguments)),
            read_only=True,
        ),
        AgentTool(
            "memory_get",
            "Get a memory",
            GET_DESCRIPTION,
            ONE_MEMORY_SCHEMA,
            lambda user, _credential, arguments: agent.detail(user=user, memory_id=_memory_id(arguments)),
            read_only=True,
        ),
        AgentTool(
            "memory_feed",
            "Browse memories",
            FEED_DESCRIPTION,
            FEED_SCHEMA,
            lambda user, _credential, arguments: agent.feed_page(user=user, arguments=arguments),
            read_only=True,
        ),
        AgentTool(
            "events",
            "What changed",
            EVENTS_DESCRIPTION,
            EVENTS_SCHEMA,
            lambda user, _credential, arguments: events.events_page(user=user, arguments=arguments or {}),
            read_only=True,
        ),
    ]
}


def unknown_arguments(tool: AgentTool, arguments: dict[str, Any]) -> dict[str, list[str]]:
    """Arguments the tool does not take. Refused rather than ignored: a misspelt ``links``
    would otherwise turn a declared supersede into a plain write without a word."""
    allowed = set(tool.input_schema["properties"])
    if "memory_id" in allowed:
        allowed.add("id")
    unknown: dict[str, list[str]] = {}
    for name, value in arguments.items():
        if name not in allowed:
            unknown[name] = [_unknown_message(name)]
            continue
        # A list of objects (remember_batch's items): each object's arguments too.
        element = tool.input_schema["properties"].get(name, {}).get("items", {})
        if isinstance(value, list) and "properties" in element:
            for index, item in enumerate(value):
                for key in item if isinstance(item, dict) else ():
                    if key not in element["properties"]:
                        unknown[f"{name}[{index}].{key}"] = [_unknown_message(key)]
    return unknown


def _unknown_message(name: str) -> str:
    message = "Unknown argument."
    if name in {"supersedes", "supersede", "replaces"}:
        message += ' Declare a replacement with links=[{"type": "supersedes", "dst": "<id>"}].'
    return message
