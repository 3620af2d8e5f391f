"""The event feed verb: what changed among the memories and conflicts an agent may see."""

from __future__ import annotations

import base64
import binascii
from typing import Any

from django.contrib.auth.models import User

from memories import selectors
from memories.agent import contract
from memories.agent.results import feed_event_body
from memories.agent.verbs import page_arguments
from memories.errors import NotFound

Body = dict[str, Any]


def _encode(position: tuple[int, int]) -> str:
    return base64.urlsafe_b64encode(f"{position[0]}.{position[1]}".encode()).decode().rstrip("=")


def _decode(cursor: Any) -> tuple[int, int]:
    try:
        text = str(cursor)
        txid, event_id = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)).decode().split(".")
        return int(txid), int(event_id)
    except (ValueError, TypeError, binascii.Error, UnicodeDecodeError):
        raise NotFound("Invalid cursor") from None


def events_page(*, user: User, arguments: Any) -> Body:
    """One page of events, oldest first. ``next`` is where to ask from next time: after the
    last event returned, or the cursor given when nothing new has arrived, so that a reader who
    polls with it misses nothing (null only when nothing was given and nothing is there)."""
    cursor, size = page_arguments(arguments)
    filters = contract.EVENTS.parse(arguments)  # cursor and limit pass through it, read above
    after = _decode(cursor) if cursor else None
    project = selectors.project_for_member(user=user, slug=filters["project"]) if filters.get("project") else None
    page = selectors.feed_events_page(
        user=user,
        project=project,
        types=filters.get("type") or (),
        since=filters.get("since"),
        after=after,
        size=size,
    )
    last = page.last or after
    return {
        "results": [feed_event_body(event) for event in page.events],
        "next": _encode(last) if last is not None else None,
        "has_more": page.more,
    }
