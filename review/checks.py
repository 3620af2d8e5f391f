"""The hygiene queue's system check (SPEC R-H10): `manage.py check` warns when nothing is judging.

It reads the database, so it runs for the ``check`` command only (review's ``check`` extends
Django's to ask for it), plain or with ``--database``: not before every other management command,
nor in ``migrate``, nor in the worker's own start-up, where "start the worker" would be noise.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.core.checks import CheckMessage, Tags, register
from django.core.checks import Warning as CheckWarning
from django.db import DatabaseError, connections, router, transaction
from django_tasks_db.models import DBTaskResult

from review.health import START_THE_WORKER, hygiene_queue_status

_requested: ContextVar[bool] = ContextVar("review_hygiene_queue_check", default=False)


@contextmanager
def hygiene_queue_checked() -> Iterator[None]:
    """Within it, the system checks also read the hygiene task queue."""
    token = _requested.set(True)
    try:
        yield
    finally:
        _requested.reset(token)


def _may_read(alias: str, databases: Any) -> bool:
    if databases is not None:
        return alias in databases
    # An embedded server that nothing runs serves no deployment whose queue could stall, and a
    # plain check does not start one (`check --database default` does).
    server_running = getattr(connections[alias], "server_running", None)
    return server_running is None or bool(server_running())


@register(Tags.database)
def check_hygiene_queue(app_configs: Any = None, databases: Any = None, **kwargs: Any) -> list[CheckMessage]:
    if not _requested.get():
        return []
    alias = router.db_for_read(DBTaskResult) or "default"
    if not _may_read(alias, databases):
        return []
    try:
        # A savepoint, so that a failed read leaves an enclosing transaction usable.
        with transaction.atomic(using=alias):
            if DBTaskResult._meta.db_table not in connections[alias].introspection.table_names():
                return []  # not migrated yet: no queue to watch
            status = hygiene_queue_status(using=alias)
    except DatabaseError as exc:
        return [
            CheckWarning(
                f"Could not read the hygiene task queue on database {alias!r}: {exc}".strip(),
                id="review.W002",
            )
        ]
    if status is None or not status.stalled:
        return []
    return [
        CheckWarning(
            f"Hygiene tasks are waiting and no worker is taking them: {status.describe()}",
            hint=START_THE_WORKER,
            id="review.W001",
        )
    ]
