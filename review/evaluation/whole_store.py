"""Run a synthetic agent's life (``review.evaluation.store``) through the real API and a real
hygiene worker, and score what hygiene did to the whole store.

Nothing is simulated: a fresh embedded PostgreSQL cluster (in a temporary data folder, or a
fresh database in ``data_dir``), ``manage.py migrate``, a token from ``issue_token``, the
project from ``create_project``/``add_member``, gunicorn serving ``zeromemory.wsgi`` as
``./zm serve`` does, and one ``manage.py db_worker`` running beside it while one keep-alive
client POSTs every memory in order to ``/api/v1/memories/`` (no ``links``: every write goes to
hygiene). When the queue is drained the processes are stopped and the outcome is read from the
database: which memories were retired and by which, the judgments, the pending conflicts.

The worker runs while the writes arrive, as in production, so a memory's check may run after a
few later memories exist; the store is deterministic, the interleaving is not quite.
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
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from review.evaluation.store import (
    ACCEPTABLE_RELATIONS,
    CUED_UPDATE,
    DEFAULT_SEED,
    DIFFERENT_ATTRIBUTE,
    DIFFERENT_SUBJECT,
    HARMFUL_CLASSES,
    LOOP_OUTCOME,
    PAIR_CLASSES,
    PARAPHRASE,
    Store,
    Write,
    generate_store,
    may_retire,
    pair_class,
)

ROOT = Path(__file__).resolve().parents[2]
DATABASE = "zeromemory_hygiene_eval"
USERNAME = "life-agent"
# The ONNX export of the embedding model (about 20 s) is cached under DATA_DIR/onnx; a fresh
# data folder would export it again on every run, so it shares the development one's.
DEFAULT_ONNX_CACHE = ROOT / ".data" / "onnx"
REQUEST_TIMEOUT = 60.0
READY_WITHIN = 240.0
MANAGE_TIMEOUT = 300.0
EXAMPLES = 20
CONFLICT_EXAMPLES = 10
COVERAGE_SPLIT = {CUED_UPDATE: "cued_updates", LOOP_OUTCOME: "loop_outcomes", PARAPHRASE: "duplicates"}
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
            # One agent writing 2,400 memories in a few minutes is over the default per-token limit.
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


@dataclass
class _StoreAfterRun:
    state: dict[str, str]
    superseded_by: dict[str, str]
    judgments: dict[tuple[str, str], tuple[str, float, str]]  # (older, newer) → relation, confidence, outcome
    conflicts: list[tuple[str, str, str, float, str]]  # older, newer, relation, confidence, status
    tasks: Counter[str]
    link_origins: Counter[str]
    worker_span: tuple[float, float] | None  # first task started, last finished (epoch seconds)
    worker_busy: float


def _read_store_after_run(database_url: str) -> _StoreAfterRun:
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        memories = conn.execute("SELECT id, state, superseded_by_id FROM memories_memory").fetchall()
        judgments = conn.execute(
            "SELECT older_id, newer_id, relation, confidence, outcome FROM review_judgment"
        ).fetchall()
        conflicts = conn.execute(
            "SELECT older_id, newer_id, relation, confidence, status FROM review_conflict ORDER BY id"
        ).fetchall()
        links = conn.execute(
            "SELECT origin, count(*) FROM memories_link WHERE type = 'supersedes' GROUP BY origin"
        ).fetchall()
        span = conn.execute(
            "SELECT extract(epoch FROM min(started_at)), extract(epoch FROM max(finished_at)),"
            " coalesce(extract(epoch FROM sum(finished_at - started_at)), 0)"
            " FROM django_tasks_database_dbtaskresult"
        ).fetchone()
    return _StoreAfterRun(
        state={row[0]: row[1] for row in memories},
        superseded_by={row[0]: row[2] for row in memories if row[2]},
        judgments={(row[0], row[1]): (row[2], float(row[3]), row[4]) for row in judgments},
        conflicts=[(row[0], row[1], row[2], float(row[3]), row[4]) for row in conflicts],
        tasks=_task_counts(database_url),
        link_origins=Counter({str(origin): int(count) for origin, count in links}),
        worker_span=(float(span[0]), float(span[1])) if span and span[0] is not None and span[1] is not None else None,
        worker_busy=float(span[2]) if span else 0.0,
    )


# -- the run --------------------------------------------------------------------------------------


@dataclass
class _Posted:
    memory_of: dict[int, str] = field(default_factory=dict)  # write index → memory id (the absorbing one)
    created: set[int] = field(default_factory=set)  # writes that created their memory
    latencies: list[float] = field(default_factory=list)


def _progress(iterable: Any, *, enabled: bool, **options: Any) -> Any:
    if not enabled:
        return iterable
    from tqdm import tqdm

    return tqdm(iterable, file=sys.stderr, **options)


def _post_all(client: _Client, store: Store, *, progress: bool) -> _Posted:
    posted = _Posted()
    seen: set[str] = set()
    for write in _progress(store.writes, enabled=progress, desc="writes", unit="write"):
        body: dict[str, Any] = {"content": write.content, "kind": write.kind}
        if write.project is not None:
            body["project"] = write.project
        started = time.perf_counter()
        status, answer = client.request("POST", "/api/v1/memories/", body)
        posted.latencies.append(time.perf_counter() - started)
        if status not in (200, 201) or not isinstance(answer, dict):
            raise EvaluationError(f"write {write.index} answered {status}: {str(answer)[:500]}")
        memory_id = answer["memory"]["id"]
        # No two writes of the store are the same statement, so an absorbed write whose memory no
        # earlier write had made was resent after a dropped connection: its first attempt made it.
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


def run_whole_store(
    *,
    size: int = 2400,
    seed: int = DEFAULT_SEED,
    data_dir: Path | None = None,
    workers: int = 2,
    threads: int = 4,
    drain_timeout: float = 900.0,
    onnx_cache: Path | None = DEFAULT_ONNX_CACHE,
    progress: bool = True,
) -> dict[str, Any]:
    """Write the store through the API with a worker running, wait for hygiene, score it.

    ``data_dir``: an embedded cluster's data folder to run in (a fresh database
    ``zeromemory_hygiene_eval`` is made there and left for inspection); None, a temporary one
    that is deleted afterwards. ``onnx_cache``: where the embedding model's ONNX export is kept
    between runs (None: exported into the data folder).
    """
    began = time.monotonic()
    store = generate_store(size=size, seed=seed)
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
        token = (
            _manage("issue_token", USERNAME, "--create-user", "--name", "evaluation", env=env).strip().splitlines()[-1]
        )
        _manage("create_project", store.project, env=env)
        _manage("add_member", store.project, USERNAME, env=env)
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
        client = _Client(port, token)
        try:
            gunicorn.start()
            worker.start()
            _wait_ready(gunicorn, port)
            timings["setup_seconds"] = time.monotonic() - began
            writing = time.monotonic()
            posted = _post_all(client, store, progress=progress)
            timings["write_seconds"] = time.monotonic() - writing
            drained, waited = _drain(
                database_url, len(posted.created), timeout=drain_timeout, progress=progress, worker=worker
            )
            timings["drain_after_writes_seconds"] = waited
        finally:
            client.close()
            worker.stop()
            gunicorn.stop()
        outcome = _read_store_after_run(database_url)
        log_errors = {"gunicorn": gunicorn.log_errors(), "db_worker": worker.log_errors()}
    timings["total_seconds"] = time.monotonic() - began
    if outcome.worker_span is not None:
        timings["worker_wall_seconds"] = outcome.worker_span[1] - outcome.worker_span[0]
    timings["worker_busy_seconds"] = outcome.worker_busy
    latencies = sorted(posted.latencies)
    timings["write_p50_ms"] = 1000 * latencies[len(latencies) // 2]
    timings["write_p95_ms"] = 1000 * latencies[int(len(latencies) * 0.95)]
    result = score(store, posted, outcome)
    result["drained"] = drained
    result["timings"] = {name: round(value, 3) for name, value in timings.items()}
    result["run"] = {
        "size": size,
        "seed": seed,
        "gunicorn_workers": workers,
        "gunicorn_threads": threads,
        "resent_requests": client.resent,
        "log_errors": log_errors,
        "judge": os.environ.get("ZEROMEMORY_JUDGE", "local"),
    }
    return result


# -- scoring --------------------------------------------------------------------------------------


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


@dataclass
class _Scoring:
    """One run's store, what was posted and what hygiene did, with the lookups between them."""

    store: Store
    posted: _Posted
    outcome: _StoreAfterRun
    write_of: dict[str, int] = field(default_factory=dict)  # memory id → the write that created it

    def __post_init__(self) -> None:
        self.write_of = {self.posted.memory_of[index]: index for index in sorted(self.posted.created)}

    def write_for(self, memory_id: str) -> Write | None:
        index = self.write_of.get(memory_id)
        return None if index is None else self.store.writes[index]

    def judgment(self, older: Write, newer: Write) -> tuple[str, float, str] | None:
        return self.outcome.judgments.get((self.posted.memory_of[older.index], self.posted.memory_of[newer.index]))

    def example(self, older: Write, newer: Write, cls: str) -> dict[str, Any]:
        judged = self.judgment(older, newer)
        return {
            "class": cls,
            "older": older.content,
            "newer": newer.content,
            "older_write": older.index,
            "newer_write": newer.index,
            "relation": judged[0] if judged else None,
            "confidence": round(judged[1], 3) if judged else None,
        }

    def retirements(self) -> dict[str, Any]:
        """Every superseded memory against the memory that retired it."""
        by_class: Counter[str] = Counter()
        wrongful: list[tuple[Write, Write, str]] = []
        for memory_id, successor_id in self.outcome.superseded_by.items():
            older, newer = self.write_for(memory_id), self.write_for(successor_id)
            if older is None or newer is None or self.outcome.state.get(memory_id) != "superseded":
                continue
            cls = pair_class(older, newer)
            by_class[cls] += 1
            if not may_retire(older, newer):
                wrongful.append((older, newer, cls))
        wrongful.sort(key=lambda item: item[0].index)
        wrongful_classes = Counter(cls for _, _, cls in wrongful)
        return {
            "wrongful_retirements": len(wrongful),
            "wrongful_harmful": sum(1 for _, _, cls in wrongful if cls in HARMFUL_CLASSES),
            "wrongful_by_class": _by_class(wrongful_classes),
            "retirements_by_class": _by_class(by_class),
            "wrongful_examples": _diverse(wrongful, EXAMPLES, self.example),
        }

    def coverage(self) -> dict[str, Any]:
        """The legitimate (older, newer) pairs of the ground truth: retired by that newer, or why not."""
        covered: Counter[str] = Counter()
        total: Counter[str] = Counter()
        misses: dict[str, Counter[str]] = defaultdict(Counter)
        writes, created = self.store.writes, self.posted.created
        for newer in writes:
            for older in (writes[index] for index in newer.retires):
                if older.index not in created or newer.index not in created:
                    continue  # absorbed by the dedup cascade: not hygiene's pair
                split = COVERAGE_SPLIT[newer.category]
                total[split] += 1
                retirer = self.outcome.superseded_by.get(self.posted.memory_of[older.index])
                if retirer == self.posted.memory_of[newer.index]:
                    covered[split] += 1
                    continue
                misses[split][self._miss_reason(older, newer, retirer)] += 1
        return {
            "true_update_coverage": _share(sum(covered.values()), sum(total.values())),
            "true_update_coverage_split": {
                split: {"covered": covered[split], "pairs": total[split], "share": _share(covered[split], total[split])}
                for split in COVERAGE_SPLIT.values()
            },
            "coverage_misses": {split: dict(misses[split].most_common()) for split in COVERAGE_SPLIT.values()},
        }

    def _miss_reason(self, older: Write, newer: Write, retirer: str | None) -> str:
        judged = self.judgment(older, newer)
        if judged is not None:
            return f"judged {judged[0]} ({judged[2]})"
        if retirer is not None:
            other = self.write_for(retirer)
            if other is not None and may_retire(older, other):
                return "older retired by another legitimate successor"
            return "older retired wrongly before"
        return "never judged (not among the candidates)"

    def queue(self) -> dict[str, Any]:
        pending = [conflict for conflict in self.outcome.conflicts if conflict[4] == "pending"]
        classes: Counter[str] = Counter()
        relations: Counter[str] = Counter()
        queued: list[tuple[Write, Write, str]] = []
        for older_id, newer_id, relation, _confidence, _status in pending:
            older, newer = self.write_for(older_id), self.write_for(newer_id)
            if older is not None and newer is not None:
                cls = pair_class(older, newer)
                classes[cls] += 1
                queued.append((older, newer, cls))
            relations[relation] += 1
        return {
            "pending_conflicts_per_100_writes": round(100 * len(pending) / len(self.store.writes), 2),
            "conflicts_different_subject_share": _share(classes[DIFFERENT_SUBJECT], len(pending)),
            "conflicts_different_attribute_share": _share(classes[DIFFERENT_ATTRIBUTE], len(pending)),
            "conflicts_by_class": _by_class(classes),
            "conflicts_by_relation": dict(relations.most_common()),
            # Pairs that should never be in the queue (R-H7) first.
            "conflict_examples": _diverse(queued, CONFLICT_EXAMPLES, self.example),
        }

    def judgments(self) -> dict[str, Any]:
        """Every judgment against the ground truth's class of its pair."""
        confusion: dict[str, Counter[str]] = defaultdict(Counter)
        agreeing = 0
        for (older_id, newer_id), (relation, _confidence, _outcome) in self.outcome.judgments.items():
            older, newer = self.write_for(older_id), self.write_for(newer_id)
            if older is None or newer is None:
                continue
            cls = pair_class(older, newer)
            confusion[cls][relation] += 1
            agreeing += relation in ACCEPTABLE_RELATIONS[cls]
        return {
            "judge_agreement": _share(agreeing, len(self.outcome.judgments)),
            "judgments_by_class": {cls: dict(confusion[cls].most_common()) for cls in PAIR_CLASSES if confusion[cls]},
        }

    def counts(self) -> dict[str, Any]:
        outcomes = Counter(result for _relation, _confidence, result in self.outcome.judgments.values())
        writes = len(self.store.writes)
        return {
            "writes": writes,
            "created": len(self.posted.created),
            "absorbed": writes - len(self.posted.created),
            "judgments": len(self.outcome.judgments),
            "auto_resolved": outcomes["auto_resolved"],
            "queued": outcomes["queued"],
            "no_action": outcomes["no_action"],
            "superseded": sum(1 for state in self.outcome.state.values() if state == "superseded"),
            "pending_conflicts": sum(1 for conflict in self.outcome.conflicts if conflict[4] == "pending"),
            "tasks": dict(sorted(self.outcome.tasks.items())),
            "supersede_links": dict(sorted(self.outcome.link_origins.items())),
        }


def score(store: Store, posted: _Posted, outcome: _StoreAfterRun) -> dict[str, Any]:
    """The metrics of one run (described in ``bench/hygiene_store.py``)."""
    scoring = _Scoring(store, posted, outcome)
    return {
        "store": store.summary(),
        "counts": scoring.counts(),
        **scoring.retirements(),
        **scoring.coverage(),
        **scoring.queue(),
        **scoring.judgments(),
    }


def _by_class(counter: Counter[str]) -> dict[str, int]:
    return {cls: counter[cls] for cls in PAIR_CLASSES if counter[cls]}


def _diverse(items: list[tuple[Write, Write, str]], limit: int, render: Any) -> list[dict[str, Any]]:
    """Up to ``limit`` examples, taken in turn from each class (the harmful ones first)."""
    by_class: dict[str, list[tuple[Write, Write, str]]] = defaultdict(list)
    for item in items:
        by_class[item[2]].append(item)
    order = sorted(by_class, key=lambda cls: (cls not in HARMFUL_CLASSES, -len(by_class[cls])))
    chosen: list[dict[str, Any]] = []
    depth = 0
    while len(chosen) < limit and any(depth < len(by_class[cls]) for cls in order):
        for cls in order:
            if depth < len(by_class[cls]) and len(chosen) < limit:
                chosen.append(render(*by_class[cls][depth]))
        depth += 1
    return chosen


# -- the report -----------------------------------------------------------------------------------


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def _listing(counts: dict[str, int]) -> str:
    return ", ".join(f"{name} {count}" for name, count in counts.items()) or "none"


def _examples(items: list[dict[str, Any]]) -> list[str]:
    lines = []
    for item in items:
        verdict = f"{item['relation']} {item['confidence']}" if item["relation"] else "no judgment recorded"
        lines.append(f"  [{item['class']}; judged {verdict}]")
        lines.append(f"    older #{item['older_write']}: {item['older']}")
        lines.append(f"    newer #{item['newer_write']}: {item['newer']}")
    return lines


def format_report(result: dict[str, Any]) -> str:
    counts, timings, store = result["counts"], result["timings"], result["store"]
    lines = [
        "Whole-store hygiene evaluation",
        f"  store: {store['writes']} writes, {store['subjects']} subjects, {store['slots']} slots "
        f"({store['project_writes']} in the project, {store['personal_writes']} personal), "
        f"seed {result['run']['seed']}",
        "  categories: " + ", ".join(f"{name} {count}" for name, count in store["categories"].items()),
        f"  judge: {result['run']['judge']}; queue drained: {result['drained']}",
        "",
        f"Counts: {counts['created']} created, {counts['absorbed']} absorbed, {counts['judgments']} judgments, "
        f"{counts['auto_resolved']} auto-resolved, {counts['queued']} queued, {counts['no_action']} no action; "
        f"{counts['superseded']} memories superseded; tasks {counts['tasks']}",
        "",
        f"Wrongful retirements: {result['wrongful_retirements']} of {counts['superseded']} retirements "
        f"({result['wrongful_harmful']} harmful: a distinct fact taken out of the live store)",
        "  by class: " + _listing(result["wrongful_by_class"]),
        "  all retirements by class: " + _listing(result["retirements_by_class"]),
        f"True-update coverage: {_pct(result['true_update_coverage'])}",
    ]
    for split, figures in result["true_update_coverage_split"].items():
        misses = result["coverage_misses"][split]
        top = "; ".join(f"{reason} {count}" for reason, count in list(misses.items())[:4])
        lines.append(f"  {split}: {figures['covered']}/{figures['pairs']} ({_pct(figures['share'])}); missed: {top}")
    lines += [
        f"Pending conflicts: {counts['pending_conflicts']} "
        f"({result['pending_conflicts_per_100_writes']} per 100 writes)",
        f"  different subject: {_pct(result['conflicts_different_subject_share'])}, "
        f"different attribute: {_pct(result['conflicts_different_attribute_share'])}",
        "  by class: " + _listing(result["conflicts_by_class"]),
        f"Judge agreement with the ground truth: {_pct(result['judge_agreement'])} of {counts['judgments']} judgments",
    ]
    for cls, relations in result["judgments_by_class"].items():
        lines.append(f"  {cls}: " + _listing(relations))
    lines += [
        "",
        f"Time: setup {timings.get('setup_seconds', 0):.0f}s, writes {timings.get('write_seconds', 0):.0f}s "
        f"(p50 {timings.get('write_p50_ms', 0):.0f} ms, p95 {timings.get('write_p95_ms', 0):.0f} ms), "
        f"drain after writes {timings.get('drain_after_writes_seconds', 0):.0f}s, "
        f"worker wall {timings.get('worker_wall_seconds', 0):.0f}s "
        f"(busy {timings.get('worker_busy_seconds', 0):.0f}s), "
        f"total {timings.get('total_seconds', 0):.0f}s",
        "",
        "Wrongful retirement examples (older → retired by newer):",
        *_examples(result["wrongful_examples"]),
        "",
        "Pending conflict examples:",
        *_examples(result["conflict_examples"]),
    ]
    return "\n".join(lines)
