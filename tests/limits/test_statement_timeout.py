"""Server processes bound every SQL statement: a request stuck behind a lock answers 503 after
ZEROMEMORY_STATEMENT_TIMEOUT_SECONDS, having changed nothing, instead of holding its thread."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.db import transaction

from memories.choices import State
from memories.models import Memory
from tests.conftest import Persona
from tests.factories import make_memory
from tests.platform.server import gunicorn_server, request

pytestmark = pytest.mark.django_db(transaction=True)


def _forget(port: int, token: str, memory_id: str) -> tuple[int, Any]:
    answer = request(port, "POST", f"/api/v1/memories/{memory_id}/forget/", token, {})
    return answer.status, answer.body


def test_a_request_waiting_on_a_lock_gives_up_with_503_and_changes_nothing(alice: Persona) -> None:
    memory = make_memory(alice.user, "The on-call rota changes on Fridays.")
    with gunicorn_server(workers=1, threads=2, ZEROMEMORY_STATEMENT_TIMEOUT_SECONDS="1") as server:
        with transaction.atomic():
            Memory.objects.select_for_update().get(pk=memory.pk)  # held until the block ends
            started = time.monotonic()
            status, body = _forget(server.port, alice.token, memory.pk)
            waited = time.monotonic() - started
            assert Memory.objects.get(pk=memory.pk).state == State.LIVE
        after = _forget(server.port, alice.token, memory.pk)

    assert status == 503
    assert body["error"] == {
        "code": "database_unavailable",
        "message": "The database could not complete the request; nothing was changed.",
    }
    assert 1 <= waited < 10
    assert after[0] == 200
    assert Memory.objects.get(pk=memory.pk).state == State.FORGOTTEN
