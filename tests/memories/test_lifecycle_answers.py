"""forget and restore answer the state they left the memory in, even when another forget or
restore of the same memory commits right after them (found by tests/faults/test_stress.py)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection

from memories import services
from memories.agent import verbs
from memories.platform import replicas
from tests.factories import make_memory

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    ("action", "racer", "state"), [("forget", "restore", "forgotten"), ("restore", "forget", "live")]
)
def test_the_answer_shows_the_state_this_request_left(alice, monkeypatch, action, racer, state):
    memory = make_memory(alice.user, "A fact forgotten and restored at once.")
    if action == "restore":
        services.memory_forget(user=alice.user, credential=None, memory_id=memory.pk)
    racing_service = services.memory_restore if racer == "restore" else services.memory_forget
    note_write = replicas.note_write
    racers: list[threading.Thread] = []

    def race() -> None:
        try:
            racing_service(user=alice.user, credential=None, memory_id=memory.pk)
        finally:
            connection.close()

    def racer_commits_first(**kwargs: Any) -> Any:
        # The other request runs after this one's write committed and before its answer is
        # built (note_write comes between the two), and finishes: the row lock is released.
        racers.append(threading.Thread(target=race))
        racers[0].start()
        racers[0].join(timeout=10.0)
        assert not racers[0].is_alive()
        return note_write(**kwargs)

    monkeypatch.setattr(verbs, "note_write", racer_commits_first)

    response = alice.client.post(f"/api/v1/memories/{memory.pk}/{action}/", {}, format="json")
    racers[0].join(timeout=30)

    assert response.status_code == 200
    assert response.json()["state"] == state
    memory.refresh_from_db()
    assert memory.state != state  # the racer went through, after this request
