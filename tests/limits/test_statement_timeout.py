"""Server processes bound every SQL statement: a request stuck behind a lock answers 503 after
ZEROMEMORY_STATEMENT_TIMEOUT_SECONDS, having changed nothing, instead of holding its thread."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request

import pytest
from django.db import transaction

from memories.choices import State
from memories.models import Memory
from tests.conftest import Persona
from tests.factories import make_memory
from tests.platform.server import gunicorn_server

pytestmark = pytest.mark.django_db(transaction=True)


def _forget(base: str, token: str, memory_id: str) -> tuple[int, dict[str, object]]:
    request = urllib.request.Request(
        f"{base}/api/v1/memories/{memory_id}/forget/",
        data=b"{}",
        method="POST",
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_a_request_waiting_on_a_lock_gives_up_with_503_and_changes_nothing(alice: Persona) -> None:
    memory = make_memory(alice.user, "The on-call rota changes on Fridays.")
    with gunicorn_server(workers=1, threads=2, ZEROMEMORY_STATEMENT_TIMEOUT_SECONDS="1") as base:
        with transaction.atomic():
            Memory.objects.select_for_update().get(pk=memory.pk)  # held until the block ends
            started = time.monotonic()
            status, body = _forget(base, alice.token, memory.pk)
            waited = time.monotonic() - started
            assert Memory.objects.get(pk=memory.pk).state == State.LIVE
        after = _forget(base, alice.token, memory.pk)

    assert status == 503
    assert body["error"] == {
        "code": "database_unavailable",
        "message": "The database could not complete the request; nothing was changed.",
    }
    assert 1 <= waited < 10
    assert after[0] == 200
    assert Memory.objects.get(pk=memory.pk).state == State.FORGOTTEN
