"""An Idempotency-Key's claim lives and dies with the first attempt's transaction.

The claim is an advisory lock in the write's own transaction (memories.platform.idempotency).
Here: an app server SIGKILLed while its write waits inside that transaction leaves nothing
behind, and the retry runs at once (the release before answered 409 for two minutes: its
IN_PROGRESS row, committed on its own, outlived the process); and two attempts racing with one
key store one memory, round after round."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

import psycopg
import pytest
from rest_framework.test import APIClient

from memories.choices import State
from memories.models import IdempotencyRecord, Memory
from tests.conftest import Persona
from tests.factories import make_memory
from tests.helpers import REMEMBER, supersedes
from tests.memories.test_remember_concurrency import run_together
from tests.platform.helpers import eventually
from tests.platform.server import Answer, gunicorn_server, request, session_database_url

pytestmark = pytest.mark.django_db(transaction=True)


def waiting_on_a_lock(database_url: str) -> int:
    """How many sessions of the database wait for a row lock on a memory."""
    with psycopg.connect(database_url, autocommit=True) as watcher:
        row = watcher.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
            " AND wait_event_type = 'Lock' AND query ILIKE '%memories_memory%'"
        ).fetchone()
    return int(row[0]) if row else 0


def kill_mid_write_then_retry(
    *,
    database_url: str,
    target_id: str,
    send: Callable[[], Answer],
    kill: Callable[[], None],
    restart: Callable[[], Callable[[], Answer]],
) -> tuple[Answer, Answer, list[Answer]]:
    """A declared supersede of ``target_id`` sent with an Idempotency-Key (``send``) waits inside
    its transaction for the row lock this function holds; meanwhile a retry is sent; then the
    server is SIGKILLed (``kill``), the lock released, a server started (``restart``, which
    returns how to send the retry there), and the retry sent until it is not a 409, for 30 s at
    most. Returns the first attempt's answer, the retry's while it waited, and the retries after."""
    first: list[Answer] = []
    with psycopg.connect(database_url) as holder:
        holder.execute("SELECT id FROM memories_memory WHERE id = %s FOR UPDATE", [target_id])
        sender = threading.Thread(target=lambda: first.append(send()))
        sender.start()
        eventually(lambda: waiting_on_a_lock(database_url) == 1, 60, "the first attempt waits for the row lock")
        during = send()  # the first attempt's transaction is open: its claim holds
        kill()
        sender.join(timeout=60)
        holder.rollback()  # the dead server's session takes the lock, finds its client gone, aborts
    retry = restart()
    after = [retry()]
    deadline = time.monotonic() + 30
    while after[-1].status == 409 and time.monotonic() < deadline:
        time.sleep(0.5)
        after.append(retry())
    return first[0], during, after


def test_a_retry_after_the_server_died_mid_write_runs_at_once(alice: Persona) -> None:
    target = make_memory(alice.user, "The deploy window is Tuesday 10:00.")
    content = "The deploy window is Thursday 14:00."
    body = {"content": content, "links": supersedes(target.id)}
    key = {"Idempotency-Key": "deploy-window-1"}
    url = session_database_url()

    with ExitStack() as servers:
        first_server = servers.enter_context(gunicorn_server(workers=1, threads=2))

        def restart() -> Callable[[], Answer]:
            second = servers.enter_context(gunicorn_server(workers=1, threads=2))
            return lambda: request(second.port, "POST", REMEMBER, alice.token, body, **key)

        first, during, after = kill_mid_write_then_retry(
            database_url=url,
            target_id=target.id,
            send=lambda: request(first_server.port, "POST", REMEMBER, alice.token, body, **key),
            kill=first_server.kill,
            restart=restart,
        )

    assert first.status == 0  # killed before it answered
    assert (during.status, during.body["error"]["code"]) == (409, "idempotency_in_progress")
    # The retry ran the write: no 409 at all, where the release before answered 409 until the
    # claim was two minutes old.
    assert [answer.status for answer in after] == [201], [answer.body for answer in after]
    stored = Memory.objects.filter(content=content)
    assert stored.count() == 1
    target.refresh_from_db()
    assert (target.state, target.superseded_by_id) == (State.SUPERSEDED, stored.get().pk)
    record = IdempotencyRecord.objects.get(credential=alice.credential, key="deploy-window-1")
    assert record.status == IdempotencyRecord.Status.COMPLETED
    assert record.response_body == after[0].body


def _post(token: str, body: dict[str, Any], key: str) -> Callable[[], tuple[int, Any]]:
    def post() -> tuple[int, Any]:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
        response = client.post(REMEMBER, body, format="json", HTTP_IDEMPOTENCY_KEY=key)
        return response.status_code, response.json()

    return post


def test_two_attempts_racing_with_one_key_store_one_memory_every_round(alice: Persona) -> None:
    outcomes: list[tuple[int, ...]] = []
    for round_number in range(20):
        content = f"Round {round_number}: the build cache lives in bucket b-{round_number}."
        post = _post(alice.token, {"content": content}, f"race-{round_number}")

        results = run_together([post, post])

        statuses = tuple(sorted(status for status, _ in results))
        outcomes.append(statuses)
        # One ran the write; the other was refused while it ran (409) or replayed its answer.
        assert statuses in {(201, 201), (201, 409)}, results
        assert len({body["memory"]["id"] for status, body in results if status == 201}) == 1
        refused = [body for status, body in results if status == 409]
        assert all(body["error"]["code"] == "idempotency_in_progress" for body in refused)
        assert Memory.objects.filter(content=content).count() == 1
        record = IdempotencyRecord.objects.get(credential=alice.credential, key=f"race-{round_number}")
        assert record.status == IdempotencyRecord.Status.COMPLETED
    assert Memory.objects.count() == 20
    print(f"racing rounds: {outcomes.count((201, 409))} refused 409, {outcomes.count((201, 201))} replayed")
