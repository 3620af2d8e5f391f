"""SIGKILL the whole production server (master and workers) in the middle of concurrent writes.

The writes include declared supersedes naming two or three targets, which update several
rows and insert links and events in one transaction. After the kill nothing may be half
done: every memory has its creation event, every declared supersede link's target is retired
by that link's source, no retired memory lacks its link or event, check_integrity passes, and
every write acknowledged before the kill is there. Then a new server on the same database
serves again.

``ZEROMEMORY_KILL_ROUNDS=5`` repeats the kill (each round: start, write, kill, check).
"""

from __future__ import annotations

import json
import os
import random
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.db import connection

from memories.choices import EventAction, LinkOrigin, LinkType, State
from memories.models import Link, Memory, MemoryEvent
from tests.conftest import Persona
from tests.platform.helpers import child_env, manage
from tests.platform.server import Gunicorn, request, session_database_url

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

ROUNDS = int(os.environ.get("ZEROMEMORY_KILL_ROUNDS", "1"))
WRITERS = 16
# Kill once this many writes were acknowledged and the writers keep going.
KILL_AFTER_ACKS = 60
TARGET_POOL = 12


class Writers:
    def __init__(self, port: int, tokens: list[str], pool: list[str]) -> None:
        self.port, self.tokens = port, tokens
        self.lock = threading.Lock()
        self.pool = pool  # live memories any writer may name as supersede targets
        self.acked: list[dict[str, Any]] = []
        self.in_flight: dict[int, dict[str, Any]] = {}
        self.unanswered: list[dict[str, Any]] = []
        self.errors: list[tuple[int, Any]] = []
        self.stop = threading.Event()
        self.counter = 0

    def run(self, seed: int) -> None:
        rng = random.Random(seed)
        token = self.tokens[seed % len(self.tokens)]
        deadline = time.monotonic() + 120
        while not self.stop.is_set() and time.monotonic() < deadline:
            with self.lock:
                self.counter += 1
                number = self.counter
                targets = rng.sample(self.pool, min(len(self.pool), rng.choice([1, 2, 3])))
            kind = rng.choice(["remember", "supersede", "supersede", "forget"]) if targets else "remember"
            write: dict[str, Any] = {"kind": kind, "content": f"Kill test write {number}: {uuid.uuid4().hex}."}
            if kind == "forget":
                write["target"] = targets[0]
                path, body = f"/api/v1/memories/{targets[0]}/forget/", {}
            else:
                body = {"content": write["content"], "project": "acme"}
                if kind == "supersede":
                    write["targets"] = targets
                    body["links"] = [{"type": "supersedes", "dst": target} for target in targets]
                path = "/api/v1/memories/"
            with self.lock:
                self.in_flight[number] = write
            answer = request(self.port, "POST", path, token, body)
            with self.lock:
                del self.in_flight[number]
                if answer.status == 0:
                    self.unanswered.append(write)
                    return  # the server is gone
                if answer.status >= 500:
                    self.errors.append((answer.status, answer.body))
                if answer.status in {200, 201}:
                    write["answer"] = answer.body
                    self.acked.append(write)
                    if kind == "supersede":
                        won = answer.body["superseded"]
                        self.pool = [m for m in self.pool if m not in won] + [answer.body["memory"]["id"]]
                    elif kind == "remember":
                        self.pool.append(answer.body["memory"]["id"])
                    else:
                        self.pool = [m for m in self.pool if m != write["target"]]


def _sessions(application: str, in_transaction: bool = False) -> int:
    query = "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s"
    if in_transaction:
        query += " AND xact_start IS NOT NULL"
    with connection.cursor() as cursor:
        cursor.execute(query, [application])
        (count,) = cursor.fetchone()
    return int(count)


def _wait_for_sessions_to_end(application: str, within: float = 30) -> None:
    """The killed workers' sessions end (their open transactions roll back) on their own."""
    left = _sessions(application)
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        left = _sessions(application)
        if left == 0:
            return
        time.sleep(0.2)
    raise AssertionError(f"{left} sessions of the killed server are still open")


def test_sigkill_mid_write_leaves_no_partial_write(alice: Persona, dave: Persona, tmp_path: Path) -> None:
    # Named, so that the killed server's sessions can be told from the test's own.
    url = f"{session_database_url()}&application_name=zm-killed"
    figures: list[dict[str, Any]] = []
    for round_number in range(ROUNDS):
        server = Gunicorn(url)
        server.start(tmp_path / f"gunicorn-{round_number}.log")
        pool = []
        for n in range(TARGET_POOL):
            answer = request(
                server.port,
                "POST",
                "/api/v1/memories/",
                alice.token,
                {"content": f"Kill target {round_number}.{n}: {uuid.uuid4().hex}.", "project": "acme"},
            )
            assert answer.status == 201, answer
            pool.append(answer.body["memory"]["id"])
        # Only dave, a maintainer of acme, writes: every target he names is his to retire, so
        # every write can go through and the kill catches real multi-row transactions.
        writers = Writers(server.port, [dave.token], pool)
        threads = [threading.Thread(target=writers.run, args=(n,)) for n in range(WRITERS)]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 120
        while len(writers.acked) < KILL_AFTER_ACKS and time.monotonic() < deadline:
            time.sleep(0.02)
        sessions_at_kill = _sessions("zm-killed")
        transactions_at_kill = _sessions("zm-killed", in_transaction=True)
        with writers.lock:
            in_flight_at_kill = len(writers.in_flight)
            acked_at_kill = len(writers.acked)
            server.kill()
        writers.stop.set()
        for thread in threads:
            thread.join(timeout=60)
        assert acked_at_kill >= KILL_AFTER_ACKS, server.log_tail()
        assert not writers.errors, writers.errors[:5]
        assert sessions_at_kill > 0  # the server's sessions are the ones waited for below
        _wait_for_sessions_to_end("zm-killed")

        # Checked on the acknowledgements known when the kill was sent: a write answered in
        # the instant after the kill has been committed too, and is checked as well.
        _check_no_partial_write()
        _check_acknowledged(writers.acked)
        present = _check_unanswered(writers.unanswered)
        integrity = manage("check_integrity", env=child_env(DATABASE_URL=url))
        assert integrity.returncode == 0, integrity.stdout + integrity.stderr
        figures.append(
            {
                "acknowledged": len(writers.acked),
                "acknowledged_at_kill": acked_at_kill,
                "in_flight_at_kill": in_flight_at_kill,
                "transactions_open_just_before_kill": transactions_at_kill,
                "unanswered": len(writers.unanswered),
                "unanswered_committed": present,
                "supersedes_acknowledged": sum(1 for w in writers.acked if w["kind"] == "supersede"),
            }
        )

        # The same database, a new server: it serves, reads and writes.
        again = Gunicorn(url)
        again.start(tmp_path / f"gunicorn-{round_number}-again.log")
        try:
            some = writers.acked[0]["answer"]
            memory_id = some["memory"]["id"] if "memory" in some else some["id"]
            assert request(again.port, "GET", f"/api/v1/memories/{memory_id}/", alice.token).status == 200
            after = request(
                again.port, "POST", "/api/v1/memories/", alice.token, {"content": f"After the kill {round_number}."}
            )
            assert after.status == 201, after
        finally:
            again.stop()
    print(json.dumps(figures, indent=2))


def _check_no_partial_write() -> None:
    unborn = Memory.objects.exclude(pk__in=MemoryEvent.objects.filter(action=EventAction.CREATED).values("memory_id"))
    assert not unborn.exists(), list(unborn.values_list("pk", flat=True))
    for link in Link.objects.filter(type=LinkType.SUPERSEDES, origin=LinkOrigin.DECLARED, reverted=False):
        target = Memory.objects.get(pk=link.dst_id)
        assert (target.state, target.superseded_by_id) == (State.SUPERSEDED, link.src_id), link.pk
        assert MemoryEvent.objects.filter(
            memory=target, action=EventAction.SUPERSEDED, data__successor=link.src_id
        ).exists()
    for memory in Memory.objects.filter(state=State.SUPERSEDED):
        assert Link.objects.filter(
            src_id=memory.superseded_by_id, dst=memory, type=LinkType.SUPERSEDES, reverted=False
        ).exists(), memory.pk
    for memory in Memory.objects.filter(state=State.FORGOTTEN):
        assert MemoryEvent.objects.filter(memory=memory, action=EventAction.FORGOTTEN).exists(), memory.pk


def _check_acknowledged(acked: list[dict[str, Any]]) -> None:
    for write in acked:
        answer = write["answer"]
        if write["kind"] == "forget":
            assert Memory.objects.get(pk=write["target"]).state == State.FORGOTTEN
            continue
        memory = Memory.objects.get(pk=answer["memory"]["id"])
        assert memory.content == write["content"]
        for target in answer.get("superseded", []):
            assert Memory.objects.get(pk=target).superseded_by_id == memory.pk


def _check_unanswered(unanswered: list[dict[str, Any]]) -> int:
    """A write cut off by the kill happened completely or not at all. Returns how many did."""
    present = 0
    for write in unanswered:
        if write["kind"] == "forget":
            continue
        memory = Memory.objects.filter(content=write["content"]).first()
        if memory is None:
            continue
        present += 1
        for target in write.get("targets", []):
            retired_by_it = Memory.objects.filter(pk=target, superseded_by=memory).exists()
            linked = Link.objects.filter(src=memory, dst_id=target, type=LinkType.SUPERSEDES).exists()
            assert retired_by_it == linked, (memory.pk, target)
    return present
