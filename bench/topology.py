"""The deployed topology under faults (issue 33, item 1): ``./zm bench --topology``.

Starts, on this machine, what docs/scaling.md and deploy/ tell an operator to run apart:

- a standalone PostgreSQL over TCP (the pip-installed binaries under pg_ctl, no embedded manager:
  nothing registers as its client and no watchdog stops it), and one streaming replica of it;
- PgBouncer (Debian's package) in transaction mode in front of the primary;
- the Procfile's roles with one environment: ``release`` (./zm migrate) once, then two ``web``
  (./zm web on two ports), two ``worker`` and two ``sender`` processes, with
  DATABASE_URL=PgBouncer, DATABASE_DIRECT_URL=the primary, ZEROMEMORY_DB_POOLER=transaction and
  DATABASE_REPLICA_URLS=the replica;
- a local webhook receiver (tests/webhooks/receiver.py) as a project's endpoint.

A load of concurrent agents goes through both app servers round-robin: remember, declared
supersede under each ``on_stale`` mode, batch, recall and context. Every write carries an
Idempotency-Key and is retried with the same key after a transport failure or a 5xx, as a client
should, so a retried write that is stored twice shows as ``duplicated``. A connection refused
before anything was sent goes to the other app server (what a load balancer's health check does).
Mid-run it SIGKILLs one app server (restarted, as a supervisor would), one worker while it holds
a task and one sender, and restarts the primary (``pg_ctl restart -m fast``). Then it checks that
every write answered 2xx is in the store, that no content is stored twice, ``manage.py
check_integrity``, that every task ends SUCCESSFUL and the killed worker's were requeued (the
lease) and finished by another worker, that the receiver got every event
the outbox holds for it, and that no request answered 5xx outside the fault windows (the requests
that failed inside one are counted apart). Its last line:

    topology: acknowledged=N lost=0 duplicated=0 integrity=clean tasks_stuck=0 webhooks_missing=0 errors_5xx=0

and it exits 1 when any check fails. Before the faulted run it times each operation with one and
with two app servers (throughput, p50/p95).

    ./zm bench --topology                    # the long form (about 5 minutes)
    ./zm bench --topology --short            # the CI form (tests/platform/test_topology.py)
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.zm_serve import fresh_env, share_exported_model  # noqa: E402
from tests.platform.helpers import free_port  # noqa: E402
from tests.platform.pgbouncer import pgbouncer  # noqa: E402
from tests.platform.replica import start_replica, wait_caught_up  # noqa: E402
from tests.webhooks.receiver import Receiver  # noqa: E402
from zeromemory.embedded_db import SYSTEM_USER, EmbeddedServer, _bin_dir  # noqa: E402

NAME = "zm_topology"
ON_STALE = ("skip", "reject", "follow")
READY_WITHIN = 180.0

SETUP = """
import json
from django.contrib.auth.models import User
from memories.choices import Provenance
from memories.models import Membership, Project, WebhookEndpoint
from memories.services import credential_issue
project = Project.objects.create(slug="acme", name="Acme")
tokens = []
for n in range({agents}):
    user = User.objects.create_user(f"agent{{n}}")
    Membership.objects.create(project=project, user=user)
    tokens.append(credential_issue(actor=None, via="cli", user=user, label="topology",
                                   provenance=Provenance.AUTHORITATIVE)[1])
endpoint = WebhookEndpoint.objects.create(project=project, url={url!r})
print(json.dumps({{
"tokens": tokens, "endpoint": endpoint.pk}}))
"""

CHECK = """
import json, sys
from django.db.models import Count
from memories.models import Memory, WebhookDelivery
from django_tasks_db.models import DBTaskResult
given = json.load(open({path!r}))
acked = given["acknowledged"]
stored = dict(Memory.objects.filter(pk__in=list(acked)).values_list("pk", "content"))
lost = [pk for pk, content in acked.items() if stored.get(pk) != content]
duplicated = list(
    Memory.objects.filter(content__in=given["sent"]).values("content").annotate(n=Count("pk")).filter(n__gt=1)
    .values_list("content", flat=True)
)
rerun = DBTaskResult.objects.extra(where=["jsonb_array_length(worker_ids) > 1"]).count()
tasks = dict(DBTaskResult.objects.values_list("status").annotate(n=Count("pk")))
held = {{
    str(pk): [status, worker_ids]
    for pk, status, worker_ids in DBTaskResult.objects.filter(pk__in=given["held"]).values_list(
        "pk", "status", "worker_ids"
    )
}}
outbox = WebhookDelivery.objects.filter(endpoint_id=given["endpoint"])
deliveries = dict(outbox.values_list("state").annotate(n=Count("pk")))
expected = ["evt_%d" % pk for pk in outbox.values_list("event_id", flat=True)]
print(json.dumps({{
    "rerun": rerun, "held": held, "lost": lost, "duplicated": duplicated, "tasks": tasks, "deliveries": deliveries,
    "expected_events": expected,
}}))
"""


# -- the servers ---------------------------------------------------------------------------


class Primary:
    """A standalone PostgreSQL on TCP: initdb and pg_ctl, as an operator's own server runs.
    (EmbeddedServer's initdb and pg_ctl start with the project's settings; acquire(), the
    embedded manager's registration and watchdog, is never called.)"""

    def __init__(self, folder: Path, *, database: str = NAME, extra_options: str = "") -> None:
        self.database = database
        self.server = EmbeddedServer(folder, port=free_port(), extra_options=extra_options)
        self.server.data_dir.mkdir(parents=True, exist_ok=True)
        self.server._initdb()
        self.server._start()
        self.server._ensure_database(database)

    @property
    def url(self) -> str:
        return self.server.url(self.database)

    def restart(self) -> None:
        """``pg_ctl restart -m fast``: every connection is cut, the server back with its options.
        With its log file and no pipes: the new postmaster would hold a captured stdout open."""
        kwargs: dict[str, Any] = {}
        if os.geteuid() == 0:
            kwargs = {"user": SYSTEM_USER, "group": SYSTEM_USER}
        pgdata, log = str(self.server.pgdata), str(self.server.log_file)
        code = subprocess.call(
            [str(_bin_dir() / "pg_ctl"), "-D", pgdata, "-l", log, "-m", "fast", "-w", "-t", "60", "restart"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=90,
            **kwargs,
        )
        if code != 0:
            raise RuntimeError(f"pg_ctl restart failed ({code}): {self.server.log_file}")

    def stop(self) -> None:
        self.server.stop()


@dataclass
class Role:
    """One Procfile process, in its own process group (a SIGKILL reaches gunicorn's workers too)."""

    name: str
    argv: list[str]
    env: dict[str, str]
    log: Path
    process: subprocess.Popen[bytes] | None = None
    # A task worker is started with a --worker-id of its own (db_worker's option), a new one per
    # start as the option asks, so the bench can tell which tasks it holds (the worker_ids of
    # django_tasks_database_dbtaskresult, which the lease reads too).
    worker: bool = False
    starts: int = 0

    @property
    def worker_id(self) -> str:
        return f"topology-{self.name}-{self.starts}"

    def start(self) -> None:
        self.starts += 1
        argv = [*self.argv, "--worker-id", self.worker_id] if self.worker else self.argv
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen(
                argv, cwd=ROOT, env=self.env, stdout=out, stderr=out, start_new_session=True
            )

    def signal(self, number: int) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, number)

    def kill(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=35)
            except subprocess.TimeoutExpired:
                self.kill()


def _status(port: int) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", "/api/v1/memories/")
        return connection.getresponse().status
    except OSError:
        return 0
    finally:
        connection.close()


def wait_web(role: Role, port: int) -> None:
    deadline = time.monotonic() + READY_WITHIN
    while _status(port) != 401:
        assert role.process is not None
        if role.process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"{role.name} did not start:\n{role.log.read_text(errors='replace')[-3000:]}")
        time.sleep(0.3)


@dataclass
class Topology:
    primary: Primary
    replica_url: str
    env: dict[str, str]
    folder: Path
    receiver: Receiver
    tokens: list[str]
    endpoint: int
    web: list[tuple[Role, int]] = field(default_factory=list)
    workers: list[Role] = field(default_factory=list)
    senders: list[Role] = field(default_factory=list)

    def manage_shell(self, code: str, timeout: float = 300) -> str:
        done = subprocess.run(
            [str(ROOT / "zm"), "manage", "shell", "-c", code],
            cwd=ROOT,
            env={**self.env, "DATABASE_URL": self.primary.url},  # around the pooler, as migrate goes
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(done.stderr[-3000:])
        return done.stdout.strip().splitlines()[-1]


@contextmanager
def topology(folder: Path, agents: int, web_workers: int) -> Iterator[Topology]:
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    roles: list[Role] = []
    with ExitStack() as stack:
        primary = Primary(folder / "primary")
        stack.callback(primary.stop)
        replica = start_replica(primary.server, folder / "replica", NAME)
        stack.callback(replica.stop)
        bouncer = stack.enter_context(pgbouncer(primary.server, NAME, pool_size=20))
        receiver = Receiver()
        receiver.start()
        stack.callback(receiver.stop)
        data = folder / "data"
        share_exported_model(data)
        env = fresh_env(
            data,
            DATABASE_URL=bouncer.url(NAME),
            DATABASE_DIRECT_URL=primary.url,
            ZEROMEMORY_DB_POOLER="transaction",
            DATABASE_REPLICA_URLS=replica.url,
            DJANGO_SECRET_KEY="topology-" + uuid.uuid4().hex,
            ZEROMEMORY_WEBHOOK_ALLOWED_NETWORKS="127.0.0.1/32",
            # Short, so that the killed worker's task and the killed sender's claim come back
            # within the drain wait (the defaults are 60 s and 10 + 30 s).
            ZEROMEMORY_TASK_LEASE_SECONDS="10",
            ZEROMEMORY_WEBHOOK_TIMEOUT_SECONDS="3",
            ZEROMEMORY_WEBHOOK_RETRY_DELAYS="1,2,5,10,20,30,60,120",
            # Many agents on few tokens each sending as fast as they can: not a rate-limit test.
            ZEROMEMORY_RATE_LIMIT_PER_MINUTE="0",
            ZEROMEMORY_LOG_LEVEL="WARNING",
            ZEROMEMORY_WORKERS=str(web_workers),
        )
        release = subprocess.run(
            [str(ROOT / "zm"), "migrate"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False
        )
        if release.returncode != 0:
            raise RuntimeError(f"./zm migrate failed:\n{release.stderr[-3000:]}")
        top = Topology(primary, replica.url, env, folder, receiver, [], 0)
        made = json.loads(top.manage_shell(SETUP.format(agents=agents, url=receiver.url)))
        top.tokens, top.endpoint = made["tokens"], made["endpoint"]
        logs = folder / "logs"
        logs.mkdir()
        for n in (1, 2):
            port = free_port()
            web = Role(
                f"web{n}", [str(ROOT / "zm"), "web"], {**env, "ZEROMEMORY_PORT": str(port)}, logs / f"web{n}.log"
            )
            top.web.append((web, port))
            top.workers.append(
                Role(f"worker{n}", [str(ROOT / "zm"), "worker"], env, logs / f"worker{n}.log", worker=True)
            )
            top.senders.append(Role(f"sender{n}", [str(ROOT / "zm"), "sender"], env, logs / f"sender{n}.log"))
        roles = [role for role, _ in top.web] + top.workers + top.senders
        try:
            for role in roles:
                role.start()
            for role, port in top.web:
                wait_web(role, port)
            wait_caught_up(replica, primary.url, within=60)
            yield top
        finally:
            for role in roles:
                role.stop()


# -- the agents ----------------------------------------------------------------------------


@dataclass
class Ledger:
    """What the agents saw, shared by their threads."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    acknowledged: dict[str, str] = field(default_factory=dict)  # memory id -> content
    sent: list[str] = field(default_factory=list)
    latency: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors_5xx: list[str] = field(default_factory=list)
    in_fault: list[str] = field(default_factory=list)  # failed inside a fault window
    rerouted: int = 0
    # 409 idempotency_in_progress: a retry sent while its first attempt's transaction was still
    # open. The claim dies with that transaction (memories.platform.idempotency), so a killed app
    # server's attempts no longer hold their keys; the release before held them two minutes.
    waited_in_progress: int = 0
    # The tasks worker1 held when it was SIGKILLed (django_tasks_db ids).
    held: list[str] = field(default_factory=list)
    killed_worker: str = ""
    # Requests sent and not yet answered, per app server port; and at each kill, how many.
    flying: dict[int, int] = field(default_factory=lambda: defaultdict(int))
    at_kills: list[str] = field(default_factory=list)
    statuses: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    # Fault windows: (start, end or None while open), monotonic seconds.
    windows: list[list[float | None]] = field(default_factory=list)

    def open_window(self, what: str, ports: list[int]) -> list[float | None]:
        """A fault begins: from now until its end, failed requests are the fault's."""
        window: list[float | None] = [time.monotonic(), None]
        with self.lock:
            self.windows.append(window)
            self.at_kills.append(f"{what}: {sum(self.flying[port] for port in ports)} in flight")
        return window

    def in_window(self, started: float, ended: float) -> bool:
        with self.lock:
            return any(
                start is not None and start <= ended and (end is None or started <= end) for start, end in self.windows
            )


class Agent:
    def __init__(self, number: int, token: str, ports: list[int], ledger: Ledger, stop: threading.Event) -> None:
        self.number, self.token, self.ports, self.ledger, self.stop = number, token, ports, ledger, stop
        self.turn = number
        self.mine: list[str] = []  # my memory ids, oldest first
        self.retired: list[str] = []  # ids a supersede of mine retired: stale targets from then on
        self.count = 0
        self.steps = 0

    def call(self, op: str, path: str, body: dict[str, Any], key: str | None) -> tuple[int, Any]:
        """One operation, retried (same Idempotency-Key) after a transport failure or a 5xx."""
        headers = {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"}
        if key:
            headers["Idempotency-Key"] = key
        payload = json.dumps(body)
        deadline = time.monotonic() + 180
        attempt = 0
        while attempt < 12 or time.monotonic() < deadline:
            attempt += 1
            self.turn += 1
            port = self.ports[self.turn % len(self.ports)]
            started = time.monotonic()
            status, answer, refused = 0, None, False
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            with self.ledger.lock:
                self.ledger.flying[port] += 1
            try:
                connection.request("POST", path, body=payload, headers=headers)
                response = connection.getresponse()
                raw = response.read()
                status = response.status
                answer = json.loads(raw) if raw else None
            except ConnectionRefusedError:
                refused = True
            except (OSError, http.client.HTTPException, ValueError):
                status = 0
            finally:
                connection.close()
                with self.ledger.lock:
                    self.ledger.flying[port] -= 1
            ended = time.monotonic()
            if refused:  # nothing reached a server: the balancer's next pick
                with self.ledger.lock:
                    self.ledger.rerouted += 1
                time.sleep(0.05)
                continue
            if status == 409 and (answer or {}).get("error", {}).get("code") == "idempotency_in_progress":
                with self.ledger.lock:
                    self.ledger.waited_in_progress += 1
                if time.monotonic() > deadline:
                    break
                time.sleep(3.0)
                continue
            if status and status < 500:
                with self.ledger.lock:
                    self.ledger.latency[op].append((ended - started) * 1000)
                    self.ledger.statuses[f"{op} {status}"] += 1
                return status, answer
            what = f"{op} {status or 'no answer'} on :{port} attempt {attempt}"
            if self.ledger.in_window(started, ended + 1.0):
                with self.ledger.lock:
                    self.ledger.in_fault.append(what)
            else:
                with self.ledger.lock:
                    self.ledger.errors_5xx.append(f"{what}: {str(answer)[:200]}")
            if attempt >= 12:
                break
            time.sleep(min(0.2 * 2 ** (attempt - 1), 3.0))
        return 0, None

    def content(self) -> str:
        self.count += 1
        topic = ("build", "deploy", "pager", "cache")[self.count % 4]
        text = f"agent {self.number} fact {self.count}: the {topic} note {uuid.uuid4().hex[:12]}"
        with self.ledger.lock:
            self.ledger.sent.append(text)
        return text

    def acknowledge(self, memory: dict[str, Any], content: str) -> None:
        with self.ledger.lock:
            self.ledger.acknowledged[memory["id"]] = content
        self.mine.append(memory["id"])

    def remember(self, op: str, links: list[dict[str, str]] | None = None, on_stale: str | None = None) -> None:
        content = self.content()
        body: dict[str, Any] = {"content": content, "project": "acme", "visibility": "project"}
        if links:
            body["links"] = links
        if on_stale:
            body["on_stale"] = on_stale
        status, answer = self.call(op, "/api/v1/memories/", body, uuid.uuid4().hex)
        if status in (200, 201):
            self.acknowledge(answer["memory"], content)
            self.retired.extend(answer.get("superseded", []))

    def step(self) -> None:
        self.steps += 1
        kind = self.steps % 7
        if kind in (0, 3) or not self.mine:
            self.remember("remember")
        elif kind in (1, 4):
            # The newest (a plain supersede) or an older one, already replaced: a stale target.
            on_stale = ON_STALE[(self.steps // 7) % 3]
            target = self.retired[-1] if kind == 4 and self.retired else self.mine[-1]
            self.remember(f"supersede/{on_stale}", [{"type": "supersedes", "dst": target}], on_stale)
        elif kind == 2:
            contents = [self.content() for _ in range(3)]
            items = [{"content": text, "project": "acme", "visibility": "project"} for text in contents]
            status, answer = self.call("batch", "/api/v1/memories/batch/", {"items": items}, uuid.uuid4().hex)
            if status == 200:
                for text, result in zip(contents, answer["results"], strict=True):
                    if result["status"] in (200, 201):
                        self.acknowledge(result["memory"], text)
        elif kind == 5:
            self.call("recall", "/api/v1/recall/", {"query": "which note about the deploy", "limit": 10}, None)
        else:
            self.call("context", "/api/v1/context/", {"query": "what do we know about the pager"}, None)

    def run(self) -> None:
        while not self.stop.is_set():
            self.step()


def run_load(top: Topology, ports: list[int], agents: int, seconds: float, ledger: Ledger, faults: bool) -> float:
    stop = threading.Event()
    crew = [Agent(n, top.tokens[n], ports, ledger, stop) for n in range(agents)]
    threads = [threading.Thread(target=agent.run, daemon=True) for agent in crew]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    if faults:
        inject_faults(top, ledger, seconds)
    else:
        time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join(timeout=300)
    return time.monotonic() - started


def inject_faults(top: Topology, ledger: Ledger, seconds: float) -> None:
    """A fault every quarter of the run: the app server, a worker and a sender, the primary."""
    step = seconds / 5
    time.sleep(step)
    say("SIGKILL web1 (restarted at once, as a supervisor would)")
    web, port = top.web[0]
    window = ledger.open_window("SIGKILL web1", [port])
    web.kill()
    web.start()
    wait_web(web, port)
    window[1] = time.monotonic()
    time.sleep(step)
    say("SIGKILL worker1 and sender1 (not restarted: the others take over)")
    ledger.held = kill_holding_a_task(top.primary.url, top.workers[0], within=max(step, 60.0))
    ledger.killed_worker = top.workers[0].worker_id
    ledger.at_kills.append(f"SIGKILL worker1: {len(ledger.held)} task(s) RUNNING under it")
    top.senders[0].kill()
    time.sleep(step)
    say("pg_ctl restart -m fast on the primary")
    window = ledger.open_window("primary restart", [port for _, port in top.web])
    top.primary.restart()
    window[1] = time.monotonic() + 5.0  # the pools' reconnects
    time.sleep(step)
    say("restarting worker1 and sender1")
    top.workers[0].start()
    top.senders[0].start()
    time.sleep(step)


def kill_holding_a_task(url: str, worker: Role, within: float) -> list[str]:
    """SIGKILL ``worker`` while it holds a task (RUNNING with its id last in ``worker_ids``), the
    lease's case; the ids of the tasks it held. The agents keep remembering, and each remember
    queues hygiene work, so there are tasks to catch. The worker is frozen (SIGSTOP) before the
    look, so the task it is seen to hold cannot finish before the SIGKILL; looked at again once
    it is dead (a finishing UPDATE already sent still commits), and if it no longer holds one it
    is started again (a new id) and caught again."""
    import psycopg

    query = (
        "SELECT id::text FROM django_tasks_database_dbtaskresult"
        " WHERE status = 'RUNNING' AND worker_ids ->> -1 = %s ORDER BY id"
    )
    deadline = time.monotonic() + within
    with psycopg.connect(url, autocommit=True) as conn:
        while time.monotonic() < deadline:
            if not conn.execute(query, [worker.worker_id]).fetchall():
                time.sleep(0.005)
                continue
            worker.signal(signal.SIGSTOP)
            if not conn.execute(query, [worker.worker_id]).fetchall():
                worker.signal(signal.SIGCONT)  # it finished the task before it stopped
                continue
            worker.kill()
            time.sleep(1.0)  # its connections closed: what it had sent is in, or rolled back
            held = [row[0] for row in conn.execute(query, [worker.worker_id]).fetchall()]
            if held:
                return held
            worker.start()
    raise RuntimeError(f"{worker.name} held no task within {within:.0f} s")


# -- the figures ---------------------------------------------------------------------------


def say(text: str) -> None:
    print(f"topology: {text}", flush=True)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def report_timings(label: str, ledger: Ledger, elapsed: float) -> list[str]:
    lines = [f"{label}: {sum(len(v) for v in ledger.latency.values()) / elapsed:.1f} requests/s over {elapsed:.0f} s"]
    for op in sorted(ledger.latency):
        values = ledger.latency[op]
        lines.append(
            f"  {op:<18} n={len(values):>5}  {len(values) / elapsed:6.1f}/s  "
            f"p50 {percentile(values, 0.5):7.1f} ms  p95 {percentile(values, 0.95):7.1f} ms"
        )
    answered = ", ".join(f"{key}: {n}" for key, n in sorted(ledger.statuses.items()))
    lines.append(f"  answers: {answered}")
    for line in lines:
        print(line, flush=True)
    return lines


def drain(top: Topology, within: float) -> dict[str, Any]:
    """Until every task is SUCCESSFUL and every delivery for the receiver delivered, or ``within``."""
    path = top.folder / "ledger-check.json"
    deadline = time.monotonic() + within
    while True:
        found = json.loads(top.manage_shell(CHECK.format(path=str(path))))
        settled = set(found["tasks"]) <= {"SUCCESSFUL"} and set(found["deliveries"]) <= {"delivered"}
        if settled or time.monotonic() > deadline:
            return dict(found)
        time.sleep(2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--topology", action="store_true", help="(how bench/suite.py hands over)")
    parser.add_argument("--short", action="store_true", help="the CI form: fewer agents, shorter runs")
    parser.add_argument("--agents", type=int, default=None)
    parser.add_argument("--seconds", type=float, default=None, help="length of the faulted run")
    parser.add_argument("--timing-seconds", type=float, default=None, help="each timing run (one, two servers)")
    parser.add_argument("--web-workers", type=int, default=2, help="gunicorn workers per app server")
    parser.add_argument("--folder", default=os.environ.get("ZEROMEMORY_TOPOLOGY_DIR", "/tmp/zm-topology"))
    args = parser.parse_args(argv)
    agents = args.agents or (4 if args.short else 8)
    seconds = args.seconds or (50.0 if args.short else 150.0)
    timing = args.timing_seconds if args.timing_seconds is not None else (0.0 if args.short else 30.0)
    folder = Path(args.folder)
    say(f"starting in {folder}: primary, replica, PgBouncer, 2 web, 2 workers, 2 senders, receiver")
    with topology(folder, agents, args.web_workers) as top:
        ports = [port for _, port in top.web]
        if timing:
            for label, chosen in (("one app server", ports[:1]), ("two app servers", ports)):
                ledger = Ledger()
                elapsed = run_load(top, chosen, agents, timing, ledger, faults=False)
                report_timings(f"{label}, {agents} agents", ledger, elapsed)
        ledger = Ledger()
        say(f"faulted run: {agents} agents for {seconds:.0f} s through both app servers")
        elapsed = run_load(top, ports, agents, seconds, ledger, faults=True)
        report_timings(f"under faults, {agents} agents", ledger, elapsed)
        (top.folder / "ledger-check.json").write_text(
            json.dumps(
                {
                    "acknowledged": ledger.acknowledged,
                    "sent": ledger.sent,
                    "endpoint": top.endpoint,
                    "held": ledger.held,
                }
            )
        )
        found = drain(top, within=120)
        integrity = subprocess.run(
            [str(ROOT / "zm"), "manage", "check_integrity"],
            cwd=ROOT,
            env={**top.env, "DATABASE_URL": top.primary.url},
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        received = {item.headers.get("zeromemory-event-id") for item in list(top.receiver.received)}
        missing = [event for event in found["expected_events"] if event not in received]
    stuck = sum(n for status, n in found["tasks"].items() if status != "SUCCESSFUL")
    # worker1's tasks at its SIGKILL: each put back in the queue by the lease and finished by
    # another worker (a second id in its worker_ids), SUCCESSFUL.
    taken_over = [
        pk
        for pk, (status, worker_ids) in found["held"].items()
        if status == "SUCCESSFUL" and worker_ids[-1] != ledger.killed_worker
    ]
    clean = integrity.returncode == 0
    if not clean:
        print(integrity.stdout[-3000:], integrity.stderr[-1000:], flush=True)
    for failure in ledger.in_fault[:20]:
        print(f"  inside a fault window: {failure}", flush=True)
    for error in ledger.errors_5xx[:20]:
        print(f"  5xx: {error}", flush=True)
    for item in found["lost"][:20]:
        print(f"  lost: {item}", flush=True)
    for item in found["duplicated"][:20]:
        print(f"  duplicated: {item}", flush=True)
    say(
        f"tasks {found['tasks']} ({found['rerun']} run again by a second worker); worker1 held "
        f"{len(ledger.held)} at its SIGKILL, requeued and SUCCESSFUL under another worker "
        f"{len(taken_over)}; "
        f"deliveries {found['deliveries']}, events for the receiver "
        f"{len(found['expected_events'])}, received {len(received)} distinct; "
        f"at the kills {'; '.join(ledger.at_kills)}; failed inside a fault window (each retried) "
        f"{len(ledger.in_fault)}; rerouted after a refused connection {ledger.rerouted}; "
        f"retries answered 409 idempotency_in_progress (and retried) {ledger.waited_in_progress}"
    )
    print(
        f"topology: acknowledged={len(ledger.acknowledged)} lost={len(found['lost'])} "
        f"duplicated={len(found['duplicated'])} integrity={'clean' if clean else 'breached'} "
        f"tasks_stuck={stuck} webhooks_missing={len(missing)} errors_5xx={len(ledger.errors_5xx)}",
        flush=True,
    )
    failed = found["lost"] or found["duplicated"] or not clean or stuck or missing or ledger.errors_5xx
    failed = failed or len(taken_over) != len(ledger.held)
    return 1 if failed or not ledger.acknowledged else 0


if __name__ == "__main__":
    sys.exit(main())
