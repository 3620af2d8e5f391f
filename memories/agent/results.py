"""The agent verbs' answers as JSON-ready dicts: the memory object, the link object and the
bodies built from them (SPEC §3, §4), the same through every door."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from memories.choices import FEED_SUBJECT_KEY_ORDER, FEED_SUBJECT_KEYS
from memories.context import ContextPack
from memories.embedding.tokens import counter_name
from memories.humanize import age
from memories.models import FeedEvent, Link, Memory
from memories.recall import RecallHit
from memories.selectors import History
from memories.services import RememberResult
from memories.text import preview


def timestamp(value: datetime | None) -> str | None:
    """ISO 8601 in the server's zone (UTC), with Z for +00:00."""
    if value is None:
        return None
    text = value.astimezone(timezone.get_current_timezone()).isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def memory_body(memory: Memory) -> dict[str, Any]:
    """The memory object (SPEC §3)."""
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
        "invalidated_at": timestamp(memory.invalidated_at),
        "loop_status": memory.loop_status,
        "closed_by": memory.closed_by_id,
        "closed_at": timestamp(memory.closed_at),
        "valid_from": timestamp(memory.valid_from),
        "valid_until": timestamp(memory.valid_until),
        "purged_at": timestamp(memory.purged_at),
        "created_at": timestamp(memory.created_at),
        "updated_at": timestamp(memory.updated_at),
    }


def feed_event_body(event: FeedEvent) -> dict[str, Any]:
    """One event of the feed, and the envelope of a webhook delivery (docs/api.md). For an event
    another app appended, its subject under the key that app declared (choices.FEED_SUBJECT_KEYS:
    review's conflicts, whose ``memory`` is the newer of the pair and ``data`` names both)."""
    body: dict[str, Any] = {
        "id": event.public_id,
        "type": event.type,
        "created_at": timestamp(event.created_at),
        "project": event.project.slug if event.project is not None else None,
        "memory": event.memory_id,
    }
    for key in FEED_SUBJECT_KEY_ORDER:
        body[key] = event.subject_id if FEED_SUBJECT_KEYS.get(event.type) == key else None
    body["data"] = event.data
    return body


def link_body(link: Link) -> dict[str, Any]:
    """The link object (SPEC R-O4)."""
    return {
        "id": link.id,
        "src": link.src_id,
        "dst": link.dst_id,
        "type": link.type,
        "origin": link.origin,
        "reverted": link.reverted,
        "created_at": timestamp(link.created_at),
    }


def similar_hint(listed: list[dict[str, Any]]) -> str:
    """The hint beside a non-empty similar_existing, given its entries (SPEC R-N4). It names the
    first entry as the memory to replace only when the ranking makes that plausible: urging a
    supersede of the nearest of ten weak matches invites the agent to retire a fact that still
    holds. Otherwise it gives the call shape without a target."""
    from memories.search import likely_predecessor

    first = listed[0]
    if likely_predecessor(distance=first["distance"], score=first["score"]):
        return (
            f"The first of these, {first['id']}, is close enough to be an older version of what you just "
            "wrote. If it is, replace it: remember the same content again with "
            f'"links": [{{"type": "supersedes", "dst": "{first["id"]}"}}] (the repeat is absorbed into '
            "the memory you just wrote and the declaration still applies). If it is a different fact, "
            "do nothing."
        )
    return (
        "These are your live memories most like what you just wrote, best match first. None is close "
        "enough to look like an older version of it: if what you wrote is a new fact, do nothing. If one "
        "of them is an older version all the same, replace it: remember the same content again with "
        '"links": [{"type": "supersedes", "dst": "<id>"}], with that entry\'s id (the repeat is absorbed '
        "into the memory you just wrote and the declaration still applies)."
    )


def remember_body(result: RememberResult) -> dict[str, Any]:
    """The answer to a remember (SPEC §3)."""
    body: dict[str, Any] = {
        "memory": memory_body(result.memory),
        "absorbed": result.absorbed,
        "superseded": result.superseded,
        "skipped": result.skipped,
    }
    if result.followed:
        body["followed"] = result.followed
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
                "created_at": timestamp(item.memory.created_at),
                "preview": preview(item.memory.content),
            }
            for item in result.similar_existing
        ]
        if body["similar_existing"]:
            body["hint"] = similar_hint(body["similar_existing"])
    if result.matches_retired:
        body["matches_retired"] = result.matches_retired
    if result.redacted:
        body["redacted"] = result.redacted
    return body


def recall_body(hits: list[RecallHit]) -> dict[str, Any]:
    return {
        "results": [
            {"memory": memory_body(hit.memory), "distance": float(hit.distance), "score": float(hit.score)}
            for hit in hits
        ]
    }


def context_body(pack: ContextPack) -> dict[str, Any]:
    return {
        "text": pack.text,
        "tokens": pack.tokens,
        "token_counter": counter_name(),
        "items": [
            {
                "id": item.memory.pk,
                "kind": item.memory.kind,
                "project": item.memory.project.slug if item.memory.project is not None else None,
                "section": item.section,
                "score": float(item.score),
                "tokens": item.tokens,
                "created_at": timestamp(item.memory.created_at),
                "was": (
                    {"id": item.was.pk, "until": timestamp(item.was.invalidated_at)} if item.was is not None else None
                ),
            }
            for item in pack.items
        ],
        "left_out": pack.left_out,
    }


def history_body(found: History) -> dict[str, Any]:
    return {
        "head": found.head,
        "versions": [memory_body(memory) for memory in found.versions],
        "edges": [link_body(link) for link in found.edges],
    }
