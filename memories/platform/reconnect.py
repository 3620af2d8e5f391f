"""What the long-running processes (the webhook sender, the task worker) treat as a lost database
— a restart, a failover, the database not up yet — and how long they pause before trying again."""

from __future__ import annotations

import psycopg
from django import db as django_db

# Through Django, or on a connection of psycopg's own (the sender's LISTEN connection).
DATABASE_LOST: tuple[type[BaseException], ...] = (
    django_db.OperationalError,
    django_db.InterfaceError,
    psycopg.OperationalError,
    psycopg.InterfaceError,
)
RECONNECT_FIRST_SECONDS = 0.5
RECONNECT_MAX_SECONDS = 10.0


def next_pause(pause: float) -> float:
    """The pause after ``pause``: doubled, up to RECONNECT_MAX_SECONDS."""
    return min(pause * 2, RECONNECT_MAX_SECONDS)
