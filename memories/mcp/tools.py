"""The MCP tools: names, descriptions and arguments, each bound to an agent verb.

The descriptions are where an agent learns how to use the server (recall before writing,
declare what a write replaces), so they say it plainly and show the exact argument shapes.
A tool's arguments are the agent contract's shape for its verb, plus what REST carries outside
the body (the memory in the path, the Idempotency-Key header, a page's cursor); its input
schema is generated from that shape, and the arguments are checked by the contract itself, as
for the REST API, so a bad argument answers the same ``invalid`` error with field messages.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User

from memories.agent import batch, contract, events
from memories.agent import verbs as agent
from memories.agent.fields import Field, Shape, Text
from memories.errors import ValidationFailed
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

# What a tool takes beyond its verb's body: each defined once, for every tool that takes it.
MEMORY_ID: dict[str, Field | Shape] = {"memory_id": contract.memory_id_field()}
# "id" is accepted for memory_id too: agents that know the REST paths (/memories/{id}/) reach for it.
MEMORY_ID_ALIAS = ("id",)
IDEMPOTENCY_KEY: dict[str, Field | Shape] = {
    "idempotency_key": Text(
        required=False,
        max_length=contract.MAX_IDEMPOTENCY_KEY_LENGTH,
        trim=False,
        description="Retry safety: a repeat with the same key and arguments returns the first answer.",
    )
}


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
Up to {max_supersedes} supersedes targets per write. Targets that are missing or forgotten are reported \
in `skipped` and the write still succeeds.

Several agents share the store: the version you read may have been replaced by another agent \
before you write (a stale version). `on_stale` says what then happens:
  "skip" (default): your memory is stored, the target is reported in `skipped` as \
{"dst", "reason": "dead", "current": "<the version current now>"}, and a conflict is opened for a \
person, since two live versions now stand;
  "reject": nothing is stored; the error `stale_target` (409) lists {"dst", "current"} per stale \
target. Read the current version with `memory_history` or `recall`, decide, and write again naming it;
  "follow": your memory supersedes the current version instead (listed in `superseded`, and in \
`followed` as {"dst", "current"}), keeping one line of versions.
Use "reject" when you can reread and decide, "follow" when your write is meant to be the latest \
whatever happened meanwhile.

Without a declaration the answer lists `similar_existing`: your nearest live memories. If one \
is an older version of what you just wrote, call remember again with the same content and \
links=[{"type": "supersedes", "dst": "<that id>"}] (the repeat is absorbed and the declaration \
applies). Repeating a statement verbatim never makes a duplicate: the answer has absorbed=true. \
Writing again the exact text of one of your retired versions stores it (it may be a revert) and \
says so in `matches_retired`, with the version current now.

Answers {"memory", "absorbed", "superseded", "skipped", "followed"?, "similar_existing"?, "hint"?, \
"matches_retired"?}.""".replace("{max_supersedes}", str(contract.MAX_SUPERSEDES))

RECALL_DESCRIPTION = """\
Search what you (and your projects) know: hybrid semantic and full-text search over memories \
you may see. Call it before remembering, and whenever the conversation touches something you \
may have stored. Live memories only unless include_superseded; `as_of` answers as the store \
stood at that time. Answers {"results": [{"memory", "distance", "score"}]}, best first."""

BATCH_DESCRIPTION = f"""\
Remember many statements in one call (up to {contract.MAX_BATCH_ITEMS}): `items` is a list of remember \
arguments, each with its own `links` declarations and `on_stale`. Each item is answered as it would be alone, \
in order: {{"status": 201 or 200 (absorbed), <the remember answer>}} or {{"status": 4xx, "error": \
{{...}}}}; a bad item does not stop the others. With "atomic": true the batch is all or nothing: \
the first item that fails rolls back every item and the call fails with that item's error. \
Each item counts against your rate limit. Answers {{"results": [...]}}."""

CONTEXT_DESCRIPTION = """\
What you know about a question, as a block ready to put in your prompt, within `max_tokens` \
(counted with the server's embedding tokenizer; never exceeded). The facts are recall's best, \
most relevant first; open tasks and questions are listed apart; a fact that replaced an older \
version says what it was and until when ("was: … (until DATE)"). Answers {"text", "tokens", \
"token_counter", "items": [{"id", "kind", "project", "section", "score", "tokens", \
"created_at", "was"}], "left_out"}."""

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

EVENTS_DESCRIPTION = """\
What changed, oldest first: events of the memories you may see (memory.created, \
memory.superseded, memory.forgotten, memory.restored, …) and of the conflicts you may moderate \
(conflict.opened, conflict.resolved), optionally for one project, some types (comma-separated) \
or since a time. Answers {"results", "next", "has_more"}: keep next and pass it back as cursor \
to get only what happened after (it stays valid when nothing new has happened). After the \
server's database is restored from a backup an older cursor answers feed_epoch_changed (410): \
read the current state again, then the feed without a cursor."""


@dataclass(frozen=True)
class AgentTool:
    name: str
    title: str
    description: str
    # What the tool takes, checked and published alike (input_schema); run() hands the verb's
    # part to the verb, which checks it against the same contract shape.
    arguments: Shape
    run: Callable[[User, Credential, dict[str, Any]], dict[str, Any]]
    read_only: bool = False
    idempotent: bool = False

    @property
    def input_schema(self) -> dict[str, Any]:
        return self.arguments.schema()

    def unknown_arguments(self, arguments: dict[str, Any]) -> dict[str, list[str]]:
        """Arguments the tool does not take (a batch's items' too). Refused rather than ignored:
        a misspelt ``links`` would otherwise turn a declared supersede into a plain write without
        a word. Checked before the call runs, for the tools whose verb takes no shape."""
        return self.arguments.unknown(arguments)


def _memory_id(arguments: dict[str, Any]) -> str:
    # Checked as REST checks the id in its path: any text, and one that names no memory is a
    # 404 (not a 400), whichever door asked.
    memory_id, alias = arguments.pop("memory_id", None), arguments.pop("id", None)
    memory_id = memory_id or alias
    if memory_id is None or memory_id == "":
        raise ValidationFailed("memory_id is required.", fields={"memory_id": ["This field is required."]})
    if not isinstance(memory_id, str):
        raise ValidationFailed("memory_id is not a memory id.", fields={"memory_id": ["Not a valid string."]})
    return memory_id


def _idempotency_key(arguments: dict[str, Any]) -> str | None:
    given = {name: arguments.pop(name) for name in IDEMPOTENCY_KEY if name in arguments}
    key: str | None = Shape(IDEMPOTENCY_KEY).parse(given).get("idempotency_key")
    return key


def _remember_batch(user: User, credential: Credential, arguments: dict[str, Any]) -> dict[str, Any]:
    key = _idempotency_key(arguments)
    return batch.remember_batch(user=user, credential=credential, arguments=arguments, idempotency_key=key)


def _remember(user: User, credential: Credential, arguments: dict[str, Any]) -> dict[str, Any]:
    key = _idempotency_key(arguments)
    return agent.remember(user=user, credential=credential, arguments=arguments, idempotency_key=key).body


def _forget(user: User, credential: Credential, arguments: dict[str, Any]) -> dict[str, Any]:
    return agent.forget(user=user, credential=credential, memory_id=_memory_id(arguments), arguments=arguments)


def _restore(user: User, credential: Credential, arguments: dict[str, Any]) -> dict[str, Any]:
    return agent.restore(user=user, credential=credential, memory_id=_memory_id(arguments), arguments=arguments)


ONE_MEMORY = Shape(MEMORY_ID, passthrough=frozenset(MEMORY_ID_ALIAS))
LIFECYCLE = contract.REASON.extend(MEMORY_ID, passthrough=MEMORY_ID_ALIAS)

TOOLS: dict[str, AgentTool] = {
    tool.name: tool
    for tool in [
        AgentTool("remember", "Remember", REMEMBER_DESCRIPTION, contract.REMEMBER.extend(IDEMPOTENCY_KEY), _remember),
        AgentTool(
            "recall",
            "Recall",
            RECALL_DESCRIPTION,
            contract.RECALL,
            lambda user, _credential, arguments: agent.recall(user=user, arguments=arguments),
            read_only=True,
        ),
        AgentTool(
            "remember_batch",
            "Remember many",
            BATCH_DESCRIPTION,
            contract.BATCH.extend(IDEMPOTENCY_KEY),
            _remember_batch,
        ),
        AgentTool(
            "whoami",
            "Who am I",
            "Who you are to this server: your user, the token you connect with and what it may reach "
            "(projects, read-only, expiry), your projects with your role in each, and the requests "
            'your token may still send this minute. Answers {"user", "credential", "scope", "projects", '
            '"rate_limit"}.',
            Shape({}),
            lambda user, credential, _arguments: agent.whoami(user=user, credential=credential),
            read_only=True,
        ),
        AgentTool(
            "get_context",
            "Get context",
            CONTEXT_DESCRIPTION,
            contract.CONTEXT,
            lambda user, _credential, arguments: agent.context(user=user, arguments=arguments),
            read_only=True,
        ),
        AgentTool("forget", "Forget", FORGET_DESCRIPTION, LIFECYCLE, _forget, idempotent=True),
        AgentTool("restore_memory", "Restore a memory", RESTORE_DESCRIPTION, LIFECYCLE, _restore, idempotent=True),
        AgentTool(
            "link",
            "Link two memories",
            LINK_DESCRIPTION,
            contract.LINK,
            lambda user, _credential, arguments: agent.link(user=user, arguments=arguments).body,
            idempotent=True,
        ),
        AgentTool(
            "memory_history",
            "Version history",
            HISTORY_DESCRIPTION,
            ONE_MEMORY,
            lambda user, _credential, arguments: agent.history(user=user, memory_id=_memory_id(arguments)),
            read_only=True,
        ),
        AgentTool(
            "memory_get",
            "Get a memory",
            GET_DESCRIPTION,
            ONE_MEMORY,
            lambda user, _credential, arguments: agent.detail(user=user, memory_id=_memory_id(arguments)),
            read_only=True,
        ),
        AgentTool(
            "memory_feed",
            "Browse memories",
            FEED_DESCRIPTION,
            contract.FEED.extend(contract.PAGE.fields),
            lambda user, _credential, arguments: agent.feed_page(user=user, arguments=arguments),
            read_only=True,
        ),
        AgentTool(
            "events",
            "What changed",
            EVENTS_DESCRIPTION,
            contract.EVENTS.extend(contract.PAGE.fields),
            lambda user, _credential, arguments: events.events_page(user=user, arguments=arguments or {}),
            read_only=True,
        ),
    ]
}
