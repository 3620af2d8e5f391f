"""32 concurrent clients against the production server, racing on shared memories.

Mixed traffic from several personas' tokens: plain remembers, remembers with an
Idempotency-Key retried with the same key, declared supersedes of the same few shared
targets racing each other (some naming two or three targets in shuffled orders), forget and
restore of the same memories racing, links, recall, detail, history and the feed. Every
acknowledged write is recorded; afterwards the store must hold each one in the state the
acknowledgements imply, every version chain must be single-successor, check_integrity must
pass, and no request may have answered 5xx or gone unanswered.

CI runs ZEROMEMORY_STRESS_REQUESTS (default 2,400) requests; set it higher for a longer run,
e.g. ``ZEROMEMORY_STRESS_REQUESTS=20000 pytest tests/faults/test_stress.py -s``. The figures
are printed (with -s) and written to ``<tmp>/stress.json``.
"""

from __future__ import annotations

import json
import os
import random
import threading
import time
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from memories.choices import EventAction, LinkOrigin, LinkType, State
from memories.models import Link, Memory, MemoryEvent
from tests.conftest import Persona
from tests.factories import issue_token
from tests.platform.helpers import child_env, manage
from tests.platform.server import Answer, Gunicorn, request, session_database_url

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

CLIENTS = int(os.environ.get("ZEROMEMORY_STRESS_CLIENTS", "32"))
TOTAL_REQUESTS = int(os.environ.get("ZEROMEMORY_STRESS_REQUESTS", "2400"))
# A hard stop however slow the machine is: the test then checks what was done so far.
MAX_SECONDS = float(os.environ.get("ZEROMEMORY_STRESS_SECONDS", "300"))
SLOTS = 4  # few shared chains, so supersedes of the same target collide often
TOGGLES = 3  # memories forgotten and restored by everyone at once


@dataclass
class Client:
    name: str  # persona
    token: str


@dataclass
class Shared:
    """What the clients race on, plus the log of everything the server acknowledged."""

    slots: list[str]
    toggles: list[str]
    lock: threading.Lock = field(default_factory=threading.Lock)
    budget: int = 0
    deadline: float = 0.0
    answers: list[tuple[str, str, Answer]] = field(default_factory=list)  # (op, persona, answer)
    acks: list[dict[str, Any]] = field(default_factory=list)
    known: list[str] = field(default_factory=list)

    def take(self, count: int = 1) -> bool:
        with self.lock:
            if self.budget < count or time.monotonic() > self.deadline:
                return False
            self.budget -= count
            return True


class Worker:
    def __init__(self, port: int, client: Client, shared: Shared, seed: int) -> None:
        self.port, self.client, self.shared = port, client, shared
        self.random = random.Random(seed)

    def call(self, op: str, method: str, path: str, body: Any = None, **headers: str) -> Answer:
        answer = request(self.port, method, path, self.client.token, body, **headers)
        self.shared.answers.append((op, self.client.name, answer))
        return answer

    def content(self, label: str) -> str:
        return f"Stress {label} by {self.client.name}: {uuid.uuid4().hex}."

    def run(self) -> None:
        operations = [
            (self.remember, 14),
            (self.remember_idempotently, 10),
            (self.supersede, 18),
            (self.supersede_several, 6),
            (self.supersede_idempotently, 5),
            (self.toggle, 16),
            (self.forget_head, 3),
            (self.link, 7),
            (self.recall, 8),
            (self.read, 18),
        ]
        functions = [function for function, _ in operations]
        weights = [weight for _, weight in operations]
        while True:
            operation = self.random.choices(functions, weights)[0]
            if not operation():
                return

    # -- writes ----------------------------------------------------------------------------

    def remember(self) -> bool:
        if not self.shared.take():
            return False
        content = self.content("fact")
        answer = self.call("remember", "POST", "/api/v1/memories/", {"content": content, "project": "acme"})
        if answer.status == 201:
            memory_id = answer.body["memory"]["id"]
            self.shared.acks.append({"op": "remember", "id": memory_id, "content": content, "owner": self.client.name})
            self.shared.known.append(memory_id)
        return True

    def remember_idempotently(self) -> bool:
        """The first attempt and its retries with the same key, some of them concurrent."""
        if not self.shared.take(3):
            return False
        key = f"stress-{uuid.uuid4().hex}"
        body = {"content": self.content("retried fact"), "project": "acme"}
        answers: list[Answer] = []

        def attempt() -> None:
            answers.append(self.call("remember-idem", "POST", "/api/v1/memories/", body, **{"Idempotency-Key": key}))

        racer = threading.Thread(target=attempt)
        racer.start()
        attempt()
        racer.join(timeout=60)
        attempt()  # after both: a plain retry, which must replay the original answer
        for answer in answers:
            if answer.status == 201:
                self.shared.acks.append(
                    {"op": "remember-idem", "key": key, "id": answer.body["memory"]["id"], "content": body["content"]}
                )
        return True

    def supersede(self) -> bool:
        if not self.shared.take():
            return False
        slot = self.random.randrange(SLOTS)
        self._supersede([slot])
        return True

    def supersede_several(self) -> bool:
        if not self.shared.take():
            return False
        slots = self.random.sample(range(SLOTS), self.random.choice([2, 3]))
        self._supersede(slots)
        return True

    def supersede_idempotently(self) -> bool:
        """A supersede sent with a key twice at once, then retried: bob's are refused (403), and
        a refused first attempt frees its key while its twin is claiming it."""
        if not self.shared.take(3):
            return False
        self._supersede([self.random.randrange(SLOTS)], key=f"stress-{uuid.uuid4().hex}")
        return True

    def _supersede(self, slots: list[int], key: str | None = None) -> None:
        with self.shared.lock:
            targets = [self.shared.slots[slot] for slot in slots]
        self.random.shuffle(targets)
        content = self.content("successor")
        body = {
            "content": content,
            "project": "acme",
            "links": [{"type": "supersedes", "dst": target} for target in targets],
        }
        if key is None:
            answers = [self.call("supersede", "POST", "/api/v1/memories/", body)]
        else:
            answers = []

            def attempt() -> None:
                answers.append(
                    self.call("supersede-idem", "POST", "/api/v1/memories/", body, **{"Idempotency-Key": key})
                )

            racer = threading.Thread(target=attempt)
            racer.start()
            attempt()
            racer.join(timeout=60)
            attempt()
        for answer in answers:
            if answer.status != 201:
                continue
            successor = answer.body["memory"]["id"]
            won = answer.body["superseded"]
            self.shared.acks.append(
                {
                    "op": "supersede",
                    "id": successor,
                    "content": content,
                    "targets": targets,
                    "won": won,
                    "skipped": answer.body["skipped"],
                    "key": key,
                }
            )
            with self.shared.lock:
                for slot in slots:
                    if self.shared.slots[slot] in won:
                        self.shared.slots[slot] = successor

    def forget_head(self) -> bool:
        """forget racing the supersedes of the same shared target."""
        if not self.shared.take(2):
            return False
        slot = self.random.randrange(SLOTS)
        with self.shared.lock:
            target = self.shared.slots[slot]
        answer = self.call("forget-head", "POST", f"/api/v1/memories/{target}/forget/", {"reason": "stress"})
        if answer.status != 200:
            return True
        self.shared.acks.append({"op": "forget-head", "id": target, "state": answer.body["state"]})
        # The chain ended: a fresh memory takes the slot, so the race goes on.
        content = self.content("new head")
        fresh = self.call("remember", "POST", "/api/v1/memories/", {"content": content, "project": "acme"})
        if fresh.status == 201:
            new_id = fresh.body["memory"]["id"]
            self.shared.acks.append({"op": "remember", "id": new_id, "content": content, "owner": self.client.name})
            with self.shared.lock:
                if self.shared.slots[slot] == target:
                    self.shared.slots[slot] = new_id
        return True

    def toggle(self) -> bool:
        if not self.shared.take():
            return False
        target = self.random.choice(self.shared.toggles)
        action = self.random.choice(["forget", "restore"])
        answer = self.call(action, "POST", f"/api/v1/memories/{target}/{action}/", {})
        if answer.status == 200:
            self.shared.acks.append({"op": action, "id": target, "state": answer.body["state"]})
        return True

    def link(self) -> bool:
        if not self.shared.take():
            return False
        src, dst = self.random.sample(self.shared.known[-40:], 2)
        answer = self.call("link", "POST", "/api/v1/links/", {"src": src, "dst": dst, "type": "relates_to"})
        if answer.status in {200, 201}:
            self.shared.acks.append({"op": "link", "id": answer.body["id"], "src": src, "dst": dst})
        return True

    # -- reads -----------------------------------------------------------------------------

    def recall(self) -> bool:
        if not self.shared.take():
            return False
        self.call("recall", "POST", "/api/v1/recall/", {"query": "stress successor fact", "project": "acme"})
        return True

    def read(self) -> bool:
        if not self.shared.take():
            return False
        with self.shared.lock:
            target = self.random.choice(self.shared.slots + self.shared.toggles)
        path = self.random.choice(
            [f"/api/v1/memories/{target}/", f"/api/v1/memories/{target}/history/", "/api/v1/memories/?project=acme"]
        )
        self.call("read", "GET", path)
        return True


def _seed(port: int, token: str, count: int, label: str) -> list[str]:
    ids = []
    for number in range(count):
        answer = request(
            port,
            "POST",
            "/api/v1/memories/",
            token,
            {"content": f"Shared {label} {number}: {uuid.uuid4().hex}.", "project": "acme"},
        )
        assert answer.status == 201, answer
        ids.append(answer.body["memory"]["id"])
    return ids


def test_32_clients_racing_on_shared_memories(alice: Persona, bob: Persona, dave: Persona, tmp_path: Path) -> None:
    personas = {"alice": alice, "bob": bob, "dave": dave}
    # Several tokens per persona: the same user writing through different credentials.
    tokens = {
        name: [persona.token, *(issue_token(persona.user, label=f"stress{n}")[1] for n in range(2))]
        for name, persona in personas.items()
    }
    names = list(personas)
    clients = [Client(names[i % 3], tokens[names[i % 3]][(i // 3) % 3]) for i in range(CLIENTS)]

    server = Gunicorn(session_database_url())
    server.start(tmp_path / "gunicorn.log")
    try:
        shared = Shared(
            slots=_seed(server.port, alice.token, SLOTS, "fact"),
            toggles=_seed(server.port, alice.token, TOGGLES, "toggle"),
        )
        shared.known.extend(shared.slots + shared.toggles)
        shared.budget = TOTAL_REQUESTS
        started = time.monotonic()
        shared.deadline = started + MAX_SECONDS
        workers = [Worker(server.port, client, shared, seed=n) for n, client in enumerate(clients)]
        threads = [threading.Thread(target=worker.run, name=f"client-{n}") for n, worker in enumerate(workers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=MAX_SECONDS + 120)
        duration = time.monotonic() - started
        assert not any(thread.is_alive() for thread in threads), "a client is stuck"
    finally:
        server.stop()

    figures = _figures(shared, duration)
    print(json.dumps(figures, indent=2))
    (tmp_path / "stress.json").write_text(json.dumps(figures, indent=2))

    failures = [
        (op, who, a.status, a.body, a.error) for op, who, a in shared.answers if a.status == 0 or a.status >= 500
    ]
    assert not failures, f"{len(failures)} requests failed: {failures[:5]}\n{server.log_tail()}"
    assert figures["requests"] >= min(TOTAL_REQUESTS, 2000) * 0.95, "the run stopped early (time limit)"
    _check_refusals(shared)

    integrity = manage("check_integrity", env=child_env(DATABASE_URL=session_database_url()))
    assert integrity.returncode == 0, integrity.stdout + integrity.stderr
    _check_acknowledged_writes(shared)
    _check_version_chains()


def _figures(shared: Shared, duration: float) -> dict[str, Any]:
    per_op: dict[str, Counter[int]] = defaultdict(Counter)
    for op, _, answer in shared.answers:
        per_op[op][answer.status] += 1
    latencies = sorted(answer.seconds for _, _, answer in shared.answers)
    count = len(latencies)
    supersedes = [ack for ack in shared.acks if ack["op"] == "supersede"]
    return {
        "clients": CLIENTS,
        # Targets retired, and targets reported dead because a racing write retired them first.
        "supersede_targets_won": sum(len(ack["won"]) for ack in supersedes),
        "supersede_targets_lost_race": sum(len(ack["skipped"]) for ack in supersedes),
        "requests": count,
        "duration_s": round(duration, 1),
        "requests_per_s": round(count / duration, 1) if duration else None,
        "p50_ms": round(latencies[count // 2] * 1000) if count else None,
        "p99_ms": round(latencies[int(count * 0.99)] * 1000) if count else None,
        "by_operation": {op: dict(sorted(statuses.items())) for op, statuses in sorted(per_op.items())},
    }


# What each operation may answer: the success codes and the clean refusals SPEC allows it.
ALLOWED: dict[str, dict[int, str | None]] = {
    "remember": {201: None},
    # 409 idempotency_in_progress: the concurrent retry arrived while the first attempt ran.
    "remember-idem": {201: None, 409: "idempotency_in_progress"},
    # 403: a persona that may not retire a target (bob; alice naming dave's successor).
    "supersede": {201: None, 403: "supersede_target_forbidden"},
    "supersede-idem": {201: None, 403: "supersede_target_forbidden", 409: "idempotency_in_progress"},
    # 409 not_live: the head was superseded first; 403: not the caller's to retire.
    "forget-head": {200: None, 409: "not_live", 403: "forbidden"},
    "forget": {200: None, 403: "forbidden"},
    "restore": {200: None, 403: "forbidden"},
    "link": {200: None, 201: None, 403: "forbidden"},
    "recall": {200: None},
    "read": {200: None},
}


def _check_refusals(shared: Shared) -> None:
    for op, who, answer in shared.answers:
        allowed = ALLOWED[op]
        assert answer.status in allowed, (op, who, answer.status, answer.body)
        code = allowed[answer.status]
        if code is not None:
            assert answer.body["error"]["code"] == code, (op, who, answer.body)
        if answer.status == 403:
            # Only those without the right to retire are refused.
            assert who != "dave" or op == "link", (op, answer.body)


def _check_acknowledged_writes(shared: Shared) -> None:
    acks = shared.acks
    created = [ack for ack in acks if ack["op"] in {"remember", "remember-idem", "supersede"}]
    stored = {m.pk: m for m in Memory.objects.filter(pk__in=[ack["id"] for ack in created])}
    for ack in created:
        assert ack["id"] in stored, f"acknowledged write lost: {ack}"
        assert stored[ack["id"]].content == ack["content"]

    # An Idempotency-Key names one memory, however often and however concurrently retried.
    by_key: dict[str, set[str]] = defaultdict(set)
    for ack in acks:
        if ack.get("key"):
            by_key[ack["key"]].add(ack["id"])
    for key, ids in by_key.items():
        assert len(ids) == 1, (key, ids)
        content = stored[next(iter(ids))].content
        assert Memory.objects.filter(content=content).count() == 1, key

    # A won supersede: the target is superseded by that successor, with the declared link.
    winners: dict[str, str] = {}
    for ack in acks:
        if ack["op"] != "supersede":
            continue
        assert sorted([*ack["won"], *(s["dst"] for s in ack["skipped"])]) == sorted(set(ack["targets"])), ack
        assert all(s["reason"] == "dead" for s in ack["skipped"]), ack
        for target in ack["won"]:
            # The same successor again is a replay of one write, answered from its key.
            assert winners.get(target, ack["id"]) == ack["id"], f"{target} superseded twice: {winners[target]}, {ack}"
            winners[target] = ack["id"]
    for target, successor in winners.items():
        memory = Memory.objects.get(pk=target)
        assert (memory.state, memory.superseded_by_id) == (State.SUPERSEDED, successor), target
        assert Link.objects.filter(
            src_id=successor, dst_id=target, type=LinkType.SUPERSEDES, origin=LinkOrigin.DECLARED, reverted=False
        ).exists()
    # ...and nothing was retired by a supersede that no one was told about.
    retired_by_declaration = set(
        Link.objects.filter(type=LinkType.SUPERSEDES, origin=LinkOrigin.DECLARED).values_list("dst_id", flat=True)
    )
    assert retired_by_declaration == set(winners)

    forgotten_heads = {ack["id"] for ack in acks if ack["op"] == "forget-head"}
    assert not forgotten_heads & set(winners), "a target was both superseded and forgotten"
    for memory_id in forgotten_heads:
        assert Memory.objects.get(pk=memory_id).state == State.FORGOTTEN

    # Forget/restore races: each answer showed the state it asked for, and each memory's
    # events alternate (forgotten, restored, ...) as a serial history would, ending in its state.
    for ack in acks:
        if ack["op"] in {"forget", "restore"}:
            assert ack["state"] == (State.FORGOTTEN if ack["op"] == "forget" else State.LIVE), ack
    for memory_id in shared.toggles:
        actions = list(
            MemoryEvent.objects.filter(memory_id=memory_id, action__in=[EventAction.FORGOTTEN, EventAction.RESTORED])
            .order_by("id")
            .values_list("action", flat=True)
        )
        expected = [EventAction.FORGOTTEN, EventAction.RESTORED] * len(actions)
        assert actions == expected[: len(actions)], (memory_id, actions)
        state = State.FORGOTTEN if actions and actions[-1] == EventAction.FORGOTTEN else State.LIVE
        assert Memory.objects.get(pk=memory_id).state == state
        forgets = sum(1 for ack in acks if ack["op"] == "forget" and ack["id"] == memory_id)
        restores = sum(1 for ack in acks if ack["op"] == "restore" and ack["id"] == memory_id)
        assert actions.count(EventAction.FORGOTTEN) <= forgets
        assert actions.count(EventAction.RESTORED) <= restores

    links = [ack["id"] for ack in acks if ack["op"] == "link"]
    assert Link.objects.filter(pk__in=links).count() == len(set(links))


def _check_version_chains() -> None:
    """Each superseded memory has exactly one successor, and was superseded exactly once."""
    for memory in Memory.objects.filter(state=State.SUPERSEDED):
        retiring = Link.objects.filter(dst=memory, type=LinkType.SUPERSEDES, reverted=False).exclude(
            origin=LinkOrigin.LINK
        )
        assert list(retiring.values_list("src_id", flat=True)) == [memory.superseded_by_id], memory.pk
        assert MemoryEvent.objects.filter(memory=memory, action=EventAction.SUPERSEDED).count() == 1, memory.pk
