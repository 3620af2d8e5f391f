"""A throwaway deployment for the whole-store runs: writes go through the real API while a real
hygiene worker runs, then the outcome is read from the database.

Nothing is simulated: a fresh embedded PostgreSQL cluster (in a temporary data folder, or a
fresh database in ``data_dir``), ``manage.py migrate``, one token per writer from
``issue_token``, projects from ``create_project``/``add_member``, gunicorn serving
``zeromemory.wsgi`` as ``./zm serve`` does, and one ``manage.py db_worker`` running beside it
while one keep-alive client per writer POSTs every memory in order to ``/api/v1/memories/`` (no
``links``: every write goes to hygiene). When the queue is drained the processes are stopped and
the outcome is read from the database: which memories were retired and by which, the judgments,
the conflicts.

The worker runs while the writes arrive, as in production, so a memory's check may run after a
few later memories exist; the writes are deterministic, the interleaving is not quite.

Used by ``whole_store`` (short facts) and ``chat_run`` (chat turns).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]  # the repository: evaluation/ sits at its top
DATABASE = "zeromemory_hygiene_eval"
# The ONNX export of the embedding model (about 20 s) is cached under DATA_DIR/onnx; a fresh
# data folder would export it again on every run, so it shares the development one's.
DEFAULT_ONNX_CACHE = ROOT / ".data" / "onnx"
REQUEST_TIMEOUT = 60.0
READY_WITHIN = 240.0
MANAGE_TIMEOUT = 300.0
TERMINAL_TASK_STATES = ("SUCCESSFUL", "FAILED")


class EvaluationError(RuntimeError):
    """The run could not be completed; the message says where it stopped."""


# -- processes ------------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _child_env(database_url: str, data_dir: Path) -> dict[str, str]:
    """The environment of every child: this database only, nothing inherited that points elsewhere."""
    dropped = {"DATABASE_URL", "DATABASE_REPLICA_URLS", "ZEROMEMORY_DATA_DIR", "ZEROMEMORY_TASKS_IMMEDIATE"}
    env = {key: value for key, value in os.environ.items() if key not in dropped}
    env.update(
        {
            "DATABASE_URL": database_url,
            "ZEROMEMORY_DATA_DIR": str(data_dir),
            "DJANGO_SETTINGS_MODULE": "zeromemory.settings",
            "DJANGO_DEBUG": "false",
            "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
            # One agent writing thousands of memories in a few minutes is over the default per-token limit.
            "ZEROMEMORY_RATE_LIMIT_PER_MINUTE": "0",
            "ZEROMEMORY_LOG_LEVEL": "WARNING",
            "PYTHONUNBUFFERED": "1",
        }
    )
    return env


def _manage(*args: str, env: dict[str, str]) -> str:
    result = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=MANAGE_TIMEOUT,
        check=False,
    )
    if result.returncode != 0:
        raise EvaluationError(f"manage.py {' '.join(args)} failed ({result.returncode}):\n{result.stderr[-3000:]}")
    return result.stdout


@dataclass
class _Child:
    """A child process in its own process group, logging to a file."""

    name: str
    command: list[str]
    env: dict[str, str]
    log_path: Path
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                self.command, cwd=ROOT, env=self.env, stdout=log, stderr=log, start_new_session=True
            )

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self, grace: float = 30.0) -> None:
        """SIGTERM (gunicorn and db_worker both finish what they are doing), SIGKILL after ``grace``."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)

    def log_tail(self, lines: int = 30) -> str:
        if not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    def log_errors(self) -> int:
        if not self.log_path.exists():
            return 0
        text = self.log_path.read_text(errors="replace")
        return text.count("Traceback") + text.count(" ERROR ")


# -- the client -----------------------------------------------------------------------------------


@dataclass
class _Client:
    """One keep-alive HTTP client on loopback. A dropped connection is reopened and the request
    sent again (at most ``attempts`` times); a resent write that had been stored is absorbed by
    the dedup cascade, so it cannot create a second memory."""

    port: int
    token: str = ""
    attempts: int = 3
    resent: int = 0
    connection: http.client.HTTPConnection | None = None

    def _connect(self) -> http.client.HTTPConnection:
        if self.connection is None:
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=REQUEST_TIMEOUT)
        return self.connection

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        payload = None if body is None else json.dumps(body)
        for attempt in range(1, self.attempts + 1):
            connection = self._connect()
            try:
                connection.request(method, path, body=payload, headers=headers)
                response = connection.getresponse()
                raw = response.read()
            except (OSError, http.client.HTTPException):
                self.close()
                if attempt == self.attempts:
                    raise
                self.resent += 1
                time.sleep(0.2 * attempt)
                continue
            try:
                parsed: Any = json.loads(raw) if raw else None
            except ValueError:
                parsed = raw.decode(errors="replace")
            return response.status, parsed
        raise AssertionError("unreachable")  # pragma: no cover


def _wait_ready(server: _Child, port: int) -> None:
    deadline = time.monotonic() + READY_WITHIN
    probe = _Client(port, attempts=1)
    while True:
        try:
            status, _ = probe.request("GET", "/api/v1/memories/")
            if status == 401:
                return
        except (OSError, http.client.HTTPException):
            pass
        finally:
            probe.close()
        if not server.alive():
            raise EvaluationError(f"gunicorn exited before answering:\n{server.log_tail()}")
        if time.monotonic() > deadline:
            raise EvaluationError(f"gunicorn did not answer within {READY_WITHIN:.0f}s:\n{server.log_tail()}")
        time.sleep(0.3)


# -- the database ---------------------------------------------------------------------------------


@contextlib.contextmanager
def _embedded_cluster(data_dir: Path | None) -> Iterator[tuple[Any, Path]]:
    """The embedded server of ``data_dir`` (a temporary folder, destroyed afterwards, if None),
    held by this process for the whole run."""
    from zeromemory.embedded_db import EmbeddedServer

    temporary = data_dir is None
    folder = Path(tempfile.mkdtemp(prefix="zm-hygiene-eval-")) if data_dir is None else data_dir.resolve()
    server = EmbeddedServer(folder)
    acquired = False
    try:
        server.acquire("postgres")
        acquired = True
        yield server, folder
    finally:
        if acquired:
            watchdog = _watchdog_pid(folder)
            # Stops the server unless another process uses it too (a shared data_dir).
            server.release()
            if temporary:
                # The watchdog takes the folder's lock file once more on its way out; deleting
                # the folder before it has gone would leave that file behind.
                _wait_gone(watchdog, within=15.0)
        if temporary:
            shutil.rmtree(folder, ignore_errors=True)


def _watchdog_pid(folder: Path) -> int | None:
    try:
        return int((folder / "run" / "watchdog.pid").read_text())
    except (OSError, ValueError):
        return None


def _wait_gone(pid: int | None, *, within: float) -> None:
    import psutil

    if pid is None:
        return
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return
        except psutil.Error:
            return
        time.sleep(0.2)


def _fresh_database(server: Any) -> str:
    import psycopg

    with psycopg.connect(server.url("postgres"), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{DATABASE}"')
    return str(server.url(DATABASE))


def _task_counts(database_url: str) -> Counter[str]:
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT status, count(*) FROM django_tasks_database_dbtaskresult GROUP BY status"
        ).fetchall()
    return Counter({str(status): int(count) for status, count in rows})


@dataclass(frozen=True)
class ConflictRow:
    """A conflict as the run left it, with the owner and scope of its newer memory and, when the
    table has one, its slot key (another branch adds ``review_conflict.slot``)."""

    id: int
    older: str
    newer: str
    relation: str
    confidence: float
    status: str
    owner: int | None = None
    project: int | None = None
    slot: str = ""


@dataclass
class StoreAfterRun:
    state: dict[str, str]
    superseded_by: dict[str, str]
    judgments: dict[tuple[str, str], tuple[str, float, str]]  # (older, newer) → relation, confidence, outcome
    conflicts: list[ConflictRow]
    tasks: Counter[str]
    link_origins: Counter[str]
    worker_span: tuple[float, float] | None  # first task started, last finished (epoch seconds)
    worker_busy: float
    slot_column: bool = False  # whether review_conflict has a slot column

    @property
    def pending(self) -> list[ConflictRow]:
        return [conflict for conflict in self.conflicts if conflict.status == "pending"]


def _has_column(conn: Any, table: str, column: str) -> bool:
    row = conn.execute(
        "SELECT 1 FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = %s AND column_name = %s",
        (table, column),
    ).fetchone()
    return row is not None


def read_store_after_run(database_url: str) -> StoreAfterRun:
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        memories = conn.execute("SELECT id, state, superseded_by_id FROM memories_memory").fetchall()
        judgments = conn.execute(
            "SELECT older_id, newer_id, relation, confidence, outcome FROM review_judgment"
        ).fetchall()
        slot_column = _has_column(conn, "review_conflict", "slot")
        conflicts = conn.execute(
            "SELECT c.id, c.older_id, c.newer_id, c.relation, c.confidence, c.status, m.owner_id, m.project_id, "
            + ("coalesce(c.slot, '')" if slot_column else "''")
            + " FROM review_conflict c JOIN memories_memory m ON m.id = c.newer_id ORDER BY c.id"
        ).fetchall()
        links = conn.execute(
            "SELECT origin, count(*) FROM memories_link WHERE type = 'supersedes' GROUP BY origin"
        ).fetchall()
        span = conn.execute(
            "SELECT extract(epoch FROM min(started_at)), extract(epoch FROM max(finished_at)),"
            " coalesce(extract(epoch FROM sum(finished_at - started_at)), 0)"
            " FROM django_tasks_database_dbtaskresult"
        ).fetchone()
    return StoreAfterRun(
        state={row[0]: row[1] for row in memories},
        superseded_by={row[0]: row[2] for row in memories if row[2]},
        judgments={(row[0], row[1]): (row[2], float(row[3]), row[4]) for row in judgments},
        conflicts=[
            ConflictRow(row[0], row[1], row[2], row[3], float(row[4]), row[5], row[6], row[7], row[8])
            for row in conflicts
        ],
        tasks=_task_counts(database_url),
        link_origins=Counter({str(origin): int(count) for origin, count in links}),
        worker_span=(float(span[0]), float(span[1])) if span and span[0] is not None and span[1] is not None else None,
        worker_busy=float(span[2]) if span else 0.0,
        slot_column=slot_column,
    )


# -- the run --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlannedWrite:
    """One POST of the run: who writes what. ``kind`` None leaves it to the server (``fact``)."""

    index: int
    owner: str
    content: str
    kind: str | None = None
    project: str | None = None


@dataclass
class Posted:
    memory_of: dict[int, str] = field(default_factory=dict)  # write index → memory id (the absorbing one)
    created: set[int] = field(default_factory=set)  # writes that created their memory
    latencies: list[float] = field(default_factory=list)


@dataclass
class ApiRun:
    """What a run through the API produced, before any scoring."""

    posted: Posted
    outcome: StoreAfterRun
    drained: bool
    timings: dict[str, float]
    run: dict[str, Any]

    def save(self, path: Path) -> None:
        """Keep the raw outcome (a few MB for thousands of writes), so a changed scoring can read
        it again without a run of many minutes."""
        outcome = self.outcome
        data = {
            "posted": {
                "memory_of": {str(index): memory for index, memory in self.posted.memory_of.items()},
                "created": sorted(self.posted.created),
                "latencies": self.posted.latencies,
            },
            "outcome": {
                "state": outcome.state,
                "superseded_by": outcome.superseded_by,
                "judgments": [[older, newer, *verdict] for (older, newer), verdict in outcome.judgments.items()],
                "conflicts": [list(vars(conflict).values()) for conflict in outcome.conflicts],
                "tasks": dict(outcome.tasks),
                "link_origins": dict(outcome.link_origins),
                "worker_span": outcome.worker_span,
                "worker_busy": outcome.worker_busy,
                "slot_column": outcome.slot_column,
            },
            "drained": self.drained,
            "timings": self.timings,
            "run": self.run,
        }
        path.write_text(json.dumps(data))

    @classmethod
    def load(cls, path: Path) -> ApiRun:
        data = json.loads(path.read_text())
        posted, outcome = data["posted"], data["outcome"]
        span = outcome["worker_span"]
        return cls(
            Posted(
                memory_of={int(index): memory for index, memory in posted["memory_of"].items()},
                created=set(posted["created"]),
                latencies=posted["latencies"],
            ),
            StoreAfterRun(
                state=outcome["state"],
                superseded_by=outcome["superseded_by"],
                judgments={(row[0], row[1]): (row[2], row[3], row[4]) for row in outcome["judgments"]},
                conflicts=[ConflictRow(*row) for row in outcome["conflicts"]],
                tasks=Counter(outcome["tasks"]),
                link_origins=Counter(outcome["link_origins"]),
                worker_span=(span[0], span[1]) if span else None,
                worker_busy=outcome["worker_busy"],
                slot_column=outcome["slot_column"],
            ),
            data["drained"],
            data["timings"],
            data["run"],
        )


def run_counts(writes: int, posted: Posted, outcome: StoreAfterRun) -> dict[str, Any]:
    """What a whole-store run wrote and what hygiene did, counted alike for every store."""
    outcomes = Counter(result for _relation, _confidence, result in outcome.judgments.values())
    return {
        "writes": writes,
        "created": len(posted.created),
        "absorbed": writes - len(posted.created),
        "judgments": len(outcome.judgments),
        "auto_resolved": outcomes["auto_resolved"],
        "queued": outcomes["queued"],
        "no_action": outcomes["no_action"],
        "superseded": sum(1 for state in outcome.state.values() if state == "superseded"),
        "pending_conflicts": len(outcome.pending),
        "tasks": dict(sorted(outcome.tasks.items())),
        "supersede_links": dict(sorted(outcome.link_origins.items())),
    }


def progress_bar(iterable: Any, *, enabled: bool, **options: Any) -> Any:
    if not enabled:
        return iterable
    from tqdm import tqdm

    return tqdm(iterable, file=sys.stderr, **options)


def _post_all(clients: Mapping[str, _Client], writes: Sequence[PlannedWrite], *, progress: bool) -> Posted:
    posted = Posted()
    seen: set[str] = set()
    for write in progress_bar(writes, enabled=progress, desc="writes", unit="write"):
        body: dict[str, Any] = {"content": write.content}
        if write.kind is not None:
            body["kind"] = write.kind
        if write.project is not None:
            body["project"] = write.project
        started = time.perf_counter()
        status, answer = clients[write.owner].request("POST", "/api/v1/memories/", body)
        posted.latencies.append(time.perf_counter() - started)
        if status not in (200, 201) or not isinstance(answer, dict):
            raise EvaluationError(f"write {write.index} answered {status}: {str(answer)[:500]}")
        memory_id = answer["memory"]["id"]
        # No two writes of a store are the same statement of one owner, so an absorbed write whose
        # memory no earlier write had made was resent after a dropped connection: its first attempt
        # made it.
        if not answer.get("absorbed") or memory_id not in seen:
            posted.created.add(write.index)
        posted.memory_of[write.index] = memory_id
        seen.add(memory_id)
    return posted


def _drain(database_url: str, expected: int, *, timeout: float, progress: bool, worker: _Child) -> tuple[bool, float]:
    """Wait until no task is ready or running (bounded by ``timeout``); (drained, seconds waited)."""
    started = time.monotonic()
    bar = None
    try:
        while True:
            counts = _task_counts(database_url)
            finished = sum(counts[state] for state in TERMINAL_TASK_STATES)
            if progress and bar is None:
                from tqdm import tqdm

                # Starts at what the worker finished while the writes went in, so the rate shown
                # is the drain's own (not that backlog over the first poll's half second).
                bar = tqdm(total=expected, initial=finished, desc="hygiene tasks", unit="task", file=sys.stderr)
            elif bar is not None:
                bar.update(finished - bar.n)
            if counts["READY"] + counts["RUNNING"] == 0 and sum(counts.values()) >= expected:
                return True, time.monotonic() - started
            if not worker.alive():
                raise EvaluationError(f"the task worker exited:\n{worker.log_tail()}")
            if time.monotonic() - started > timeout:
                return False, time.monotonic() - started
            time.sleep(0.5)
    finally:
        if bar is not None:
            bar.close()


def run_through_api(
    writes: Sequence[PlannedWrite],
    *,
    projects: Mapping[str, Sequence[str]] | None = None,
    data_dir: Path | None = None,
    workers: int = 2,
    threads: int = 4,
    drain_timeout: float = 900.0,
    onnx_cache: Path | None = DEFAULT_ONNX_CACHE,
    progress: bool = True,
) -> ApiRun:
    """Post ``writes`` in order (one token per owner) with a worker running, wait for hygiene,
    read the outcome.

    ``projects``: slug → usernames to make members, created before the writes. ``data_dir``: an
    embedded cluster's data folder to run in (a fresh database ``zeromemory_hygiene_eval`` is made
    there and left for inspection); None, a temporary one that is deleted afterwards.
    ``onnx_cache``: where the embedding model's ONNX export is kept between runs (None: exported
    into the data folder).
    """
    began = time.monotonic()
    owners = list(dict.fromkeys(write.owner for write in writes))
    timings: dict[str, float] = {}
    with _embedded_cluster(Path(data_dir) if data_dir is not None else None) as (server, folder):
        database_url = _fresh_database(server)
        if onnx_cache is not None and not (folder / "onnx").exists():
            onnx_cache.mkdir(parents=True, exist_ok=True)
            (folder / "onnx").symlink_to(onnx_cache.resolve(), target_is_directory=True)
        env = _child_env(database_url, folder)
        logs = folder / "eval-logs"
        logs.mkdir(exist_ok=True)
        _manage("migrate", "--noinput", env=env)
        port = _free_port()
        gunicorn = _Child(
            "gunicorn",
            [
                str(Path(sys.executable).parent / "gunicorn"),
                "zeromemory.wsgi:application",
                *("--bind", f"127.0.0.1:{port}", "--workers", str(workers), "--worker-class", "gthread"),
                *("--threads", str(threads), "--log-level", "warning", "--graceful-timeout", "10"),
            ],
            env,
            logs / "gunicorn.log",
        )
        worker = _Child(
            "db_worker",
            [sys.executable, str(ROOT / "manage.py"), "db_worker", "--queue-name", "*"],
            env,
            logs / "db_worker.log",
        )
        clients: dict[str, _Client] = {}
        try:
            # The server and the worker load the model while the writers' tokens are issued (each
            # a process of its own, side by side): a few seconds of every run's set-up.
            gunicorn.start()
            worker.start()
            with ThreadPoolExecutor(max_workers=4) as pool:
                issued = pool.map(
                    lambda owner: _manage("issue_token", owner, "--create-user", "--name", "evaluation", env=env),
                    owners,
                )
                tokens = {owner: output.strip().splitlines()[-1] for owner, output in zip(owners, issued, strict=True)}
            for slug, members in (projects or {}).items():
                _manage("create_project", slug, env=env)
                for member in members:
                    _manage("add_member", slug, member, env=env)
            clients.update({owner: _Client(port, token) for owner, token in tokens.items()})
            _wait_ready(gunicorn, port)
            timings["setup_seconds"] = time.monotonic() - began
            writing = time.monotonic()
            posted = _post_all(clients, writes, progress=progress)
            timings["write_seconds"] = time.monotonic() - writing
            drained, waited = _drain(
                database_url, len(posted.created), timeout=drain_timeout, progress=progress, worker=worker
            )
            timings["drain_after_writes_seconds"] = waited
        finally:
            for client in clients.values():
                client.close()
            worker.stop()
            gunicorn.stop()
        outcome = read_store_after_run(database_url)
        log_errors = {"gunicorn": gunicorn.log_errors(), "db_worker": worker.log_errors()}
    timings["total_seconds"] = time.monotonic() - began
    if outcome.worker_span is not None:
        timings["worker_wall_seconds"] = outcome.worker_span[1] - outcome.worker_span[0]
    timings["worker_busy_seconds"] = outcome.worker_busy
    latencies = sorted(posted.latencies)
    if latencies:
        timings["write_p50_ms"] = 1000 * latencies[len(latencies) // 2]
        timings["write_p95_ms"] = 1000 * latencies[int(len(latencies) * 0.95)]
    run = {
        "gunicorn_workers": workers,
        "gunicorn_threads": threads,
        "writers": len(owners),
        "resent_requests": sum(client.resent for client in clients.values()),
        "log_errors": log_errors,
        "judge": os.environ.get("ZEROMEMORY_JUDGE", "local"),
    }
    return ApiRun(posted, outcome, drained, {name: round(value, 3) for name, value in timings.items()}, run)
