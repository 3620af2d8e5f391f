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


def _encode(position: tuple[int, int, int]) -> str:
    epoch, txid, event_id = position
    # Epoch 0 (every event written before epochs existed, and until the first restore) keeps
    # the cursors' old two-part shape, so cursors saved before the upgrade still read on.
    text = f"{txid}.{event_id}" if epoch == 0 else f"{epoch}.{txid}.{event_id}"
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def _decode(cursor: Any) -> tuple[int, int, int]:
    try:
        text = str(cursor)
        parts = [int(part) for part in base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)).decode().split(".")]
    except (ValueError, TypeError, binascii.Error, UnicodeDecodeError):
        raise NotFound("Invalid cursor") from None
    if len(parts) == 2:
        return 0, parts[0], parts[1]
    if len(parts) == 3:
        return parts[0], parts[1], parts[2]
    raise NotFound("Invalid cursor")


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
