"""The review queue's events in memories' feed (a leaf: memories.choices imports it while the
models load, so it imports nothing of the project): their types, written by review's trigger through
the feed's seam (migration 0007, ``zeromemory_feed_append()``), and the key under which the feed
names their subject, the conflict (read with the types by memories.choices)."""

from __future__ import annotations

# A conflict was queued; data {"conflict", "older", "newer", "relation", "confidence"}.
CONFLICT_OPENED = "conflict.opened"
# A conflict left pending (resolved or dismissed); data adds "status" and "resolution".
CONFLICT_RESOLVED = "conflict.resolved"
CONFLICT_EVENT_TYPES = (CONFLICT_OPENED, CONFLICT_RESOLVED)

# What memories' feed announces of review (settings.FEED_EVENT_SOURCES names this module: the
# feed's type enum is built from it at import time, memories.choices). Member names and order
# are the API's (the OpenAPI EventTypeEnum, a webhook endpoint's choices).
FEED_EVENT_TYPES = [("CONFLICT_OPENED", CONFLICT_OPENED), ("CONFLICT_RESOLVED", CONFLICT_RESOLVED)]

# The feed's answers and webhooks name a conflict event's conflict under this key.
SUBJECT_KEY = "conflict"
