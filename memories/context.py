"""The context pack: what an agent should know about a question, as a prompt-ready block that
fits a token budget (``POST /api/v1/context/``, the MCP tool ``get_context``).

The facts are recall's (the same hybrid ranking, visibility and filters), packed best first
until the budget is spent; open loops (open tasks and questions) are listed apart. A fact that
replaced another carries one "was: … (until DATE)" line from its version chain: the version it
superseded, when the caller may see it. Tokens are counted with the embedding model's own
tokenizer (``memories.embedding.tokens``); the block is never over ``max_tokens``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db.models import QuerySet

from memories.choices import LOOP_KINDS, LoopStatus, State
from memories.compiled import USER_ID, CompiledQuery, id_slots, id_values, ids_of
from memories.embedding.tokens import count_tokens
from memories.models import Memory
from memories.recall import RecallHit, recall
from memories.visibility import compiled_rule_applies, visible_memories

# How many of recall's best the pack considers: as many as could fit, up to recall's maximum.
# An item's line is at least 12 tokens ("- (fact, 2026-12-04) a"), so a budget of B tokens holds
# at most B / 12 items; asking recall for more would only cost (a deeper walk, 3 times the limit).
CANDIDATES = 50
MIN_ITEM_TOKENS = 12
EXTRA_CANDIDATES = 30
MIN_CONTEXT_TOKENS, MAX_CONTEXT_TOKENS, CONTEXT_TOKENS = 16, 8192, 1000
# A "was" line quotes the old version's first words: enough to tell what changed.
WAS_WORDS = 24

FACTS, OPEN_LOOPS = "facts", "open_loops"
HEADINGS = {FACTS: "Current facts, most relevant first:", OPEN_LOOPS: "Open loops:"}


@dataclass(frozen=True)
class PackedItem:
    memory: Memory
    score: float
    section: str
    # The version this memory superseded, named in its "was" line (None: no line).
    was: Memory | None
    tokens: int


@dataclass(frozen=True)
class ContextPack:
    text: str
    tokens: int
    items: list[PackedItem]
    # Recalled memories that did not fit the budget.
    left_out: int


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _day(moment: datetime | None) -> str:
    return moment.date().isoformat() if moment is not None else "?"


def _label(memory: Memory) -> str:
    parts = [memory.kind]
    if memory.kind in LOOP_KINDS and memory.loop_status == LoopStatus.CLOSED:
        parts.append("closed")
    if memory.project is not None:
        parts.append(memory.project.slug)
    parts.append(_day(memory.created_at))
    return ", ".join(parts)


def _was_text(old: Memory) -> str:
    words = _one_line(old.content).split(" ")
    quoted = " ".join(words[:WAS_WORDS]) + (" …" if len(words) > WAS_WORDS else "")
    return f"  was: {quoted} (until {_day(old.invalidated_at)})"


def _older(user: User, ids: list[str], as_of: datetime | None) -> QuerySet[Memory]:
    """The retired versions ``ids`` superseded that ``user`` may see, most recently retired first."""
    # A purged version has no words to quote.
    older = visible_memories(user).filter(superseded_by_id__in=ids, state=State.SUPERSEDED, purged_at__isnull=True)
    if as_of is not None:
        older = older.filter(invalidated_at__lte=as_of)
    return older.only("id", "content", "superseded_by_id", "invalidated_at").order_by("-invalidated_at", "-id")


@functools.cache
def _older_read(count: int) -> CompiledQuery[Memory]:
    """``_older`` of ``count`` ids for a user's full token, compiled once per count
    (memories.compiled): every context pack reads it."""

    def build(user_id: int, **ids: str) -> QuerySet[Memory]:
        caller = User(pk=user_id, is_active=True)
        return _older(caller, ids_of(ids, count), None)

    return CompiledQuery(Memory, build, [USER_ID, *id_slots(count)])


def _last_versions(user: User, ids: list[str], as_of: datetime | None) -> dict[str, Memory]:
    """For each of ``ids``, the most recently retired version it superseded that ``user`` may
    see (as it stood at ``as_of``, when given)."""
    if not ids:
        return {}
    if as_of is None and compiled_rule_applies(user):
        older = _older_read(len(ids)).run(len(ids), user_id=user.pk, **id_values(ids))
    else:
        older = list(_older(user, ids, as_of))
    found: dict[str, Memory] = {}
    for memory in older:
        found.setdefault(str(memory.superseded_by_id), memory)
    return found


def _section(hit: RecallHit) -> str:
    memory = hit.memory
    return OPEN_LOOPS if memory.kind in LOOP_KINDS and memory.loop_status == LoopStatus.OPEN else FACTS


def context_pack(
    *,
    user: User,
    query: str,
    max_tokens: int,
    project_slug: str | None = None,
    kinds: list[str] | None = None,
    as_of: datetime | None = None,
    valid_at: datetime | None = None,
    include_expired: bool = False,
    metadata: dict[str, Any] | None = None,
) -> ContextPack:
    limit = min(CANDIDATES, max(10, -(-max_tokens // MIN_ITEM_TOKENS)))
    hits = recall(
        user=user,
        query=query,
        project_slug=project_slug,
        kinds=kinds,
        limit=limit,
        as_of=as_of,
        valid_at=valid_at,
        include_expired=include_expired,
        metadata=metadata,
        # 30 beyond the limit rather than recall's 3 times: the same best 50 for 120 of 120
        # questions at 100,000 memories, 7 ms sooner (docs/api.md).
        candidates=limit + EXTRA_CANDIDATES,
    )
    last = _last_versions(user, [hit.memory.pk for hit in hits], as_of)
    entries = []
    for hit in hits:
        old = last.get(hit.memory.pk)
        lines = [f"- ({_label(hit.memory)}) {_one_line(hit.memory.content)}"]
        if old is not None:
            lines.append(_was_text(old))
        entries.append((hit, _section(hit), old, "\n".join(lines)))
    heading_tokens = dict(zip(HEADINGS, count_tokens(list(HEADINGS.values())), strict=True))
    entry_tokens = count_tokens([text for *_, text in entries])

    # Best first; an entry that does not fit is passed over for the smaller ones after it.
    spent = 0
    chosen: dict[str, list[tuple[PackedItem, str]]] = {FACTS: [], OPEN_LOOPS: []}
    for (hit, section, old, text), tokens in zip(entries, entry_tokens, strict=True):
        cost = tokens + (0 if chosen[section] else heading_tokens[section])
        if spent + cost > max_tokens:
            continue
        spent += cost
        chosen[section].append((PackedItem(hit.memory, hit.score, section, old, tokens), text))
    text = _render(chosen)
    # The block's count is the sum of its lines' (the tokenizer splits on whitespace); it is
    # counted whole all the same, and trimmed from the end should that ever not hold.
    tokens = count_tokens([text])[0] if text else 0
    while tokens > max_tokens:
        last_section = OPEN_LOOPS if chosen[OPEN_LOOPS] else FACTS
        chosen[last_section].pop()
        text = _render(chosen)
        tokens = count_tokens([text])[0] if text else 0
    items = [item for picked in chosen.values() for item, _ in picked]
    return ContextPack(text=text, tokens=tokens, items=items, left_out=len(hits) - len(items))


def _render(chosen: dict[str, list[tuple[PackedItem, str]]]) -> str:
    return "\n\n".join(
        "\n".join([HEADINGS[section], *(text for _, text in picked)]) for section, picked in chosen.items() if picked
    )
