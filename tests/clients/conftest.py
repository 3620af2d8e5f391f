"""The clients (clients/python, clients/typescript) against the production server.

gunicorn runs on the session's test database as ``./zm serve`` runs it (tests/platform/server.py),
once per module; the personas are committed before each test (``transaction=True``), so the
server sees them, and flushed after it. Hygiene is not run here (no worker): the clients'
stories are about what the API answers, not about what the judge later does.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.platform.server import gunicorn_server


@pytest.fixture(scope="module")
def server(django_db_setup: None, django_db_blocker: Any) -> Iterator[str]:
    """The base URL of a running server (its log is printed when a test fails with a 5xx)."""
    with django_db_blocker.unblock(), gunicorn_server() as running:
        yield running.base_url
