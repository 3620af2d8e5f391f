"""One-off commands that cannot go through a transaction-mode pooler reconnect to the database
itself (DATABASE_DIRECT_URL; docs/scaling.md, "Behind a pooler"): migrate (a session-level
advisory lock, CREATE INDEX CONCURRENTLY), backup (pg_dump's snapshot spans its statements) and
restore (CREATE / ALTER … RENAME / DROP DATABASE, and the sessions it must see)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import DEFAULT_DB_ALIAS


def connection_go_direct(connection: Any) -> None:
    """Behind a transaction pooler, point ``connection`` at the database itself, for this process
    only. Before anything queries it: the system checks already do."""
    if settings.DB_POOLER == "none" or connection.alias != DEFAULT_DB_ALIAS:
        return
    if settings.DATABASE_DIRECT is None:
        raise ImproperlyConfigured(settings.DATABASE_DIRECT_MISSING_MESSAGE)
    connection.close()
    # The pool, if one was opened already (asking connection.pool would open one).
    if connection.alias in connection._connection_pools:
        connection.close_pool()
    # Over the pooled entry: Django filled in its defaults (TIME_ZONE…) there.
    connection.settings_dict = {**connection.settings_dict, **settings.DATABASE_DIRECT}
