"""Long text: recall and remember on a store of chat turns, next to a store of short notes.

    ./zm bench --longtext                          # 10,000 and 100,000; updates docs/performance.md
    ./zm bench --longtext --sizes 10000            # one size
    ./zm bench --longtext --explain                # also EXPLAIN (ANALYZE, BUFFERS) of the slow statements
    ./zm bench --longtext --code /path/to/checkout # serve another checkout on the same stores (an A/B)

Issue 31: recall on 2,170 long chat turns took 254 ms p50 where short notes take ~20 ms at
100,000. For each size N this builds two stores of one owner (user ``bench``): N chat turns
(bench/chat_corpus.py: the project's own chat generator, with their sentence vectors, as a
remember stores them) and N short notes (bench/corpus.py, the suite's notes, which have no
sentence vectors). Half of each store is in a project ``chat`` (visibility project), half
personal. Each store is seeded once (bench/seed.py's way: indexes dropped during the load, built
after, vacuumed and analysed), kept as a template database, and cloned for every run.

On each store, back to back at one size, the production server (as ``./zm serve`` runs it;
no hygiene worker) answers one keep-alive client: remember into the project (chat turns held out
of the store on the chat store, new notes on the notes store; no declaration, so every write
ranks similar_existing and its hint), recall over everything visible, and recall in the project.
The chat store's writes and questions are chat turns (median 34 words, several sentences); the
notes store's are notes and short questions, as in bench/suite.py. Then, in process, where the
time goes (embedding, SQL, Python; medians) and, with ``--explain``, the plan of each statement
that took more than a few milliseconds.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from common import ROOT, Timer, in_process_breakdown, percentile, setup_django
from corpus import note, notes, question

SEED_VERSION = "v1"
KINDS = ("notes", "chat")
PROJECT = "chat"
OUTPUT_JSON = ROOT / "docs" / "performance-longtext.json"
# docs/performance.md's section, between these markers (bench/report.py keeps it).
SECTION_START = "<!-- long text: written by bench/longtext.py -->"
SECTION_END = "<!-- end of long text -->"


# -- the stores -------------------------------------------------------------------------------


def newest_migration(code: Path) -> str:
    """The newest memories migration of a checkout: the schema its stores are seeded at."""
    return sorted(path.stem for path in (code / "memories" / "migrations").glob("0*.py"))[-1]


def template_name(kind: str, size: int, schema: str) -> str:
    # One template per schema: a checkout is timed on a store laid out by its own migrations
    # (0024 changed where a long row keeps its vector, which only a fresh load shows).
    return f"zm_longtext_{kind}_{size}_{schema[:4]}"


def marker(kind: str, size: int) -> str:
    return f"longtext-{SEED_VERSION}-{kind}-{size}"


def is_seeded(kind: str, size: int) -> bool:
    from memories.models import Memory, Project

    return Project.objects.filter(slug=marker(kind, size)).exists() and Memory.objects.count() == size


def _drop_indexes(cursor: Any, tables: list[str]) -> list[str]:
    """Drop the tables' indexes other than constraints'; their definitions, to rebuild them."""
    cursor.execute(
        "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = ANY(%s) "
        "AND indexname NOT IN (SELECT conname FROM pg_constraint)",
        [tables],
    )
    found = cursor.fetchall()
    for name, _ in found:
        cursor.execute(f'DROP INDEX "{name}"')
    return [definition for _, definition in found]


def seed_store(kind: str, size: int, cache_dir: Path) -> None:
    """Fill the (freshly migrated) current database: ``size`` memories of ``kind`` for ``bench``."""
    import numpy as np
    from django.contrib.auth.models import User
    from django.db import connection, transaction
    from django.utils import timezone
    from pgvector.psycopg import register_vector
    from seed import CORPUS_SEED, vectors_for
    from tqdm import tqdm

    from memories.choices import LOOP_KINDS, EventAction, LoopStatus, State
    from memories.embedding import get_embedder
    from memories.ids import new_memory_id
    from memories.models import Memory, MemoryEvent, MemorySentence, Project
    from memories.services import membership_set
    from memories.text import content_fingerprint

    sentence_vectors = None
    if kind == "chat":
        from chat_corpus import chat_turns, chat_vectors

        texts = chat_turns(size)
        vectors = chat_vectors(texts, cache_dir)
        contents = [("fact", text) for text in texts]
        whole = vectors.whole
        sentence_vectors = vectors
    else:
        contents = notes(CORPUS_SEED, size)
        whole = vectors_for(size, cache_dir)[:size]

    bench = User.objects.create(username="bench")
    project = Project.objects.create(slug=PROJECT, name="Chat")
    membership_set(actor=None, via="bench", project=project, user=bench, role="member")
    model_name = get_embedder().name
    now = timezone.now()
    start = now - timedelta(days=365)
    step = timedelta(days=365) / size
    ids = [new_memory_id() for _ in range(size)]
    tables = [Memory._meta.db_table, MemorySentence._meta.db_table]
    with connection.cursor() as cursor:
        indexes = _drop_indexes(cursor, tables)
    batch = 2000
    with transaction.atomic(), tqdm(total=size, unit="memory", desc=f"seeding {size:,} {kind}") as progress:
        for first in range(0, size, batch):
            rows = []
            for n in range(first, min(size, first + batch)):
                memory_kind, content = contents[n]
                in_project = n % 2 == 0
                created = start + step * n
                rows.append(
                    Memory(
                        id=ids[n],
                        content=content,
                        content_fingerprint=content_fingerprint(content),
                        kind=memory_kind,
                        owner=bench,
                        project=project if in_project else None,
                        visibility="project" if in_project else "private",
                        embedding=whole[n].tolist(),
                        embedding_model=model_name,
                        state=State.LIVE,
                        loop_status=LoopStatus.OPEN if memory_kind in LOOP_KINDS else None,
                        created_at=created,
                        updated_at=created,
                    )
                )
            Memory.objects.bulk_create(rows)
            progress.update(len(rows))
        MemoryEvent.objects.bulk_create(
            (
                MemoryEvent(memory_id=ids[n], action=EventAction.CREATED, actor=bench, created_at=start + step * n)
                for n in range(size)
            ),
            batch_size=5000,
        )
    if sentence_vectors is not None:
        # COPY in binary: a few hundred thousand vectors as text would take minutes.
        raw = connection.connection
        register_vector(raw)
        table = MemorySentence._meta.db_table
        offsets = sentence_vectors.offsets
        with (
            raw.cursor() as cursor,
            cursor.copy(f"COPY {table} (memory_id, position, embedding) FROM STDIN WITH (FORMAT BINARY)") as copy,
            tqdm(total=int(offsets[-1]), unit="sentence", desc="sentence vectors") as progress,
        ):
            copy.set_types(["text", "int2", "vector"])
            for n in range(size):
                for position, vector in enumerate(sentence_vectors.of(n)):
                    copy.write_row((ids[n], position, np.asarray(vector, dtype=np.float32)))
                progress.update(int(offsets[n + 1] - offsets[n]))
        raw.commit()
    print(f"building {len(indexes)} indexes…", flush=True)
    with connection.cursor() as cursor:
        cursor.execute("SET maintenance_work_mem = '2GB'")
        cursor.execute("SET max_parallel_maintenance_workers = 2")
        for definition in tqdm(indexes, unit="index", desc="indexes"):
            cursor.execute(definition)
        Project.objects.create(slug=marker(kind, size), name="benchmark store marker")
        cursor.execute("VACUUM ANALYZE")


def ensure_store(kind: str, size: int, reseed: bool, code: Path = ROOT) -> str:
    """The template database of ``size`` memories of ``kind``, at the schema of ``code``
    (seeded by this checkout's code after migrating back to that schema, which this
    checkout's migrations know how to do)."""
    from django.conf import settings
    from django.core.management import call_command

    schema = newest_migration(code)
    template = template_name(kind, size, schema)
    setup_django(fresh=False, database=template)
    if reseed or not is_seeded(kind, size):
        setup_django(fresh=True, database=template)
        if schema != newest_migration(ROOT):
            call_command("migrate", "memories", schema, verbosity=0)
        with Timer() as timer:
            seed_store(kind, size, Path(settings.DATA_DIR) / "bench")
        print(f"seeded {size:,} {kind} at {schema} in {timer.ms / 1000:.0f} s", flush=True)
    return template


# -- the workload -----------------------------------------------------------------------------


@dataclass
class Workload:
    """What one store's run writes and asks: ``writes[n]`` and ``questions[n]``."""

    writes: list[tuple[str, str]]  # (kind, content)
    questions: list[str]


def workload(kind: str, size: int, count: int) -> Workload:
    if kind == "chat":
        from chat_corpus import chat_turns, held_out_turns

        turns = held_out_turns(2 * count, stored=set(chat_turns(size)))
        # Questions an agent asks with a user's chat turn: the turn itself, as a watcher would.
        return Workload([("fact", turn) for turn in turns[:count]], turns[count:])
    rng = random.Random(size)
    return Workload([note(rng) for _ in range(count)], [question(rng) for _ in range(count)])


def _expect(status: int, wanted: tuple[int, ...], body: Any) -> None:
    if status not in wanted:
        raise SystemExit(f"unexpected answer {status}: {json.dumps(body)[:500]}")


def http_run(port: int, token: str, work: Workload, runs: int, warm: int) -> dict[str, list[float]]:
    from suite import Client, timed

    client = Client(port, token)

    def remember(n: int) -> float:
        kind, content = work.writes[n]
        status, body, ms = client.call(
            "POST", "/api/v1/memories/", {"content": content, "kind": kind, "project": PROJECT}
        )
        _expect(status, (200, 201), body)
        if not body.get("similar_existing"):
            raise SystemExit(f"a write answered without similar_existing: {json.dumps(body)[:300]}")
        return ms

    def recall(n: int, project: bool = False) -> float:
        request = {"query": work.questions[n], "limit": 10} | ({"project": PROJECT} if project else {})
        status, body, ms = client.call("POST", "/api/v1/recall/", request)
        _expect(status, (200,), body)
        if len(body["results"]) != 10:
            raise SystemExit(f"recall returned {len(body['results'])} rows")
        return ms

    # Warm both workers (their connections, caches and the model) on texts the timed runs do not use.
    for n in range(runs, runs + warm):
        remember(n)
        recall(n)
        recall(n, project=True)
    return {
        "remember": timed("remember", runs, remember),
        "recall": timed("recall", runs, recall),
        "recall in the project": timed("recall in the project", runs, lambda n: recall(n, project=True)),
    }


def in_process(token: str, work: Workload, runs: int, offset: int) -> dict[str, dict[str, float]]:
    """Medians of each operation's total, embedding, SQL (at the driver) and the rest, in process
    (bench/common.py, ``in_process_breakdown``)."""
    from django.test import Client as DjangoClient

    client = DjangoClient(HTTP_AUTHORIZATION=f"Bearer {token}", HTTP_HOST="127.0.0.1")
    operations: dict[str, Callable[[int], Any]] = {
        "remember": lambda n: client.post(
            "/api/v1/memories/",
            {"content": work.writes[n][1], "kind": work.writes[n][0], "project": PROJECT},
            content_type="application/json",
        ),
        "recall": lambda n: client.post(
            "/api/v1/recall/", {"query": work.questions[n], "limit": 10}, content_type="application/json"
        ),
    }
    return in_process_breakdown(operations, runs, warm=5, first=offset)


def explain(token: str, work: Workload, offset: int, slower_than_ms: float, out: list[str]) -> None:
    """EXPLAIN (ANALYZE, BUFFERS) of every statement of one remember and one recall that took
    more than ``slower_than_ms`` (run again, in a transaction rolled back: the plan of a write's
    ranking needs the write's own row)."""
    from django.db import connection, transaction
    from django.test import Client as DjangoClient

    client = DjangoClient(HTTP_AUTHORIZATION=f"Bearer {token}", HTTP_HOST="127.0.0.1")
    statements: list[tuple[float, str, Any]] = []

    def capture(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            statements.append(((time.perf_counter() - started) * 1000, sql, params))

    calls = {
        "remember": lambda: client.post(
            "/api/v1/memories/",
            {"content": work.writes[offset][1], "kind": work.writes[offset][0], "project": PROJECT},
            content_type="application/json",
        ),
        "recall": lambda: client.post(
            "/api/v1/recall/", {"query": work.questions[offset], "limit": 10}, content_type="application/json"
        ),
    }
    for name, call in calls.items():
        call()  # warm
        statements.clear()
        with connection.execute_wrapper(capture):
            call()
        out.append(
            f"\n### {name}: {len(statements)} statements, {sum(s[0] for s in statements):.1f} ms at the driver\n"
        )
        for ms, sql, params in statements:
            if ms < slower_than_ms or not sql.lstrip().upper().startswith(("SELECT", "WITH")):
                continue
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS) {sql}", params)
                plan = "\n".join(row[0] for row in cursor.fetchall())
                transaction.set_rollback(True)
            out.append(f"{ms:.1f} ms:\n\n```sql\n{_shorten(sql)}\n```\n\n```\n{plan}\n```\n")


def _shorten(sql: str) -> str:
    """The statement with its vector literals cut (384 numbers each)."""
    import re

    return re.sub(r"'\[[-0-9.e, ]{200,}\]'", "'[…]'", sql)


# -- one size, both stores --------------------------------------------------------------------


@dataclass
class StoreResult:
    kind: str
    size: int
    latency: dict[str, list[float]] = field(default_factory=dict)
    breakdown: dict[str, dict[str, float]] = field(default_factory=dict)

    def p(self, operation: str, share: float) -> float:
        return percentile(self.latency[operation], share)


def _token() -> str:
    from django.contrib.auth.models import User

    from memories.services import credential_issue

    _, token = credential_issue(
        actor=None, via="bench", user=User.objects.get(username="bench"), provenance="authoritative", label="bench"
    )
    return token


def run_store(kind: str, size: int, args: argparse.Namespace, plans: list[str]) -> StoreResult:
    from suite import Server, clone

    code = Path(args.code).resolve() if args.code else ROOT
    url = clone(ensure_store(kind, size, args.reseed, code))
    token = _token()
    work = workload(kind, size, 2 * args.requests + 2 * args.warm + 40)
    result = StoreResult(kind, size)
    print(f"\n{size:,} {kind} (served from {code})", flush=True)
    server = Server(url, args.port, code=code)
    try:
        result.latency = http_run(args.port, token, work, args.requests, args.warm)
    finally:
        server.stop()
    if code == ROOT:
        offset = args.requests + args.warm
        result.breakdown = in_process(token, work, min(args.requests, 50), offset)
        if args.explain:
            plans.append(f"\n## {size:,} {kind}\n")
            explain(token, work, offset + 60, args.explain_over, plans)
    return result


# -- the report -------------------------------------------------------------------------------


def load_results() -> dict[str, Any]:
    return json.loads(OUTPUT_JSON.read_text()) if OUTPUT_JSON.exists() else {}


def save(results: list[StoreResult], args: argparse.Namespace, label: str) -> dict[str, Any]:
    from report import _commit, _machine

    data = load_results()
    runs = data.setdefault("runs", {})
    runs[label] = {
        "measured": f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC",
        "commit": _commit() if not args.code else f"served from {args.code}",
        "machine": _machine(),
        "requests": args.requests,
        "stores": [
            {
                "kind": r.kind,
                "size": r.size,
                "latency_ms": {
                    operation: {name: percentile(times, share) for name, share in (("p50", 0.5), ("p95", 0.95))}
                    for operation, times in r.latency.items()
                },
                "breakdown_ms": r.breakdown,
            }
            for r in results
        ],
    }
    OUTPUT_JSON.write_text(json.dumps(data, indent=2) + "\n")
    return data


def render(data: dict[str, Any]) -> str:
    """docs/performance.md's long-text section, from docs/performance-longtext.json."""
    lines = [
        SECTION_START,
        "## Long text: chat turns against short notes",
        "",
        "Written by `./zm bench --longtext` (bench/longtext.py). Stores of one owner: N chat turns "
        "(bench/chat_corpus.py: the project's chat generator, median 34 words, 4.2 sentence vectors a "
        "turn) and N short notes (bench/corpus.py, no sentence vectors), half in a project. Over HTTP "
        "to the production server, one client: remember into the project (no declaration, so every "
        "write ranks similar_existing), recall, recall in the project; on the chat store the writes "
        "and questions are chat turns held out of the store. Milliseconds, p50 / p95.",
        "",
    ]
    for label, run in data.get("runs", {}).items():
        stores = run["stores"]
        sizes = sorted({s["size"] for s in stores})
        lines += [
            f"**{label}** ({run['measured']}, {run['commit']}, {run['requests']} requests per operation)",
            "",
            "| operation | " + " | ".join(f"notes / chat at {size:,}" for size in sizes) + " | chat ÷ notes (p50) |",
            "| --- | " + " | ".join("---:" for _ in sizes) + " | ---: |",
        ]
        operations = list(stores[0]["latency_ms"])
        for operation in operations:
            cells, ratios = [], []
            for size in sizes:
                by_kind = {s["kind"]: s["latency_ms"][operation] for s in stores if s["size"] == size}
                if set(by_kind) != set(KINDS):
                    cells.append("-")
                    continue
                notes_p, chat_p = by_kind["notes"], by_kind["chat"]
                cells.append(f"{notes_p['p50']:.1f} / {notes_p['p95']:.1f} — {chat_p['p50']:.1f} / {chat_p['p95']:.1f}")
                ratios.append(f"{chat_p['p50'] / notes_p['p50']:.1f}x")
            lines.append(f"| {operation} | " + " | ".join(cells) + f" | {', '.join(ratios)} |")
        breakdowns = [s for s in stores if s["breakdown_ms"]]
        if breakdowns:
            lines += [
                "",
                "In process, medians: total = embedding + SQL + Python (ms).",
                "",
                "| store | remember | recall |",
                "| --- | ---: | ---: |",
            ]
            for s in breakdowns:
                parts = ("embedding", "sql", "python")
                cells = [
                    f"{s['breakdown_ms'][op]['total']:.1f} = "
                    + " + ".join(f"{s['breakdown_ms'][op][part]:.1f}" for part in parts)
                    for op in ("remember", "recall")
                ]
                lines.append(f"| {s['size']:,} {s['kind']} | " + " | ".join(cells) + " |")
        lines.append("")
    notes_path = Path(__file__).with_name("performance-longtext-notes.md")
    if notes_path.exists():
        lines += [notes_path.read_text().strip(), ""]
    lines.append(SECTION_END)
    return "\n".join(lines)


def write_section(path: Path, data: dict[str, Any]) -> None:
    """Put the section into docs/performance.md, replacing the one there."""
    text = path.read_text() if path.exists() else ""
    section = render(data)
    if SECTION_START in text and SECTION_END in text:
        before, rest = text.split(SECTION_START, 1)
        after = rest.split(SECTION_END, 1)[1]
        text = before + section + after
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    path.write_text(text)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000", help="comma-separated store sizes")
    parser.add_argument("--kinds", default=",".join(KINDS), help="which stores: notes, chat or both")
    parser.add_argument("--requests", type=int, default=200, help="timed requests per operation")
    parser.add_argument("--warm", type=int, default=20, help="untimed requests per operation first")
    parser.add_argument("--port", type=int, default=8793)
    parser.add_argument("--reseed", action="store_true", help="rebuild the stores")
    parser.add_argument("--seed-only", action="store_true", help="seed the stores and stop")
    parser.add_argument("--code", help="serve this checkout instead (an A/B), on stores seeded at its schema")
    parser.add_argument("--label", default="this checkout", help="the run's name in the report")
    parser.add_argument("--explain", action="store_true", help="EXPLAIN ANALYZE the slow statements")
    parser.add_argument("--explain-over", type=float, default=3.0, help="ms; statements slower are explained")
    parser.add_argument("--plans", default=str(ROOT / "docs" / "performance-longtext-plans.md"))
    parser.add_argument("--output", default=str(ROOT / "docs" / "performance.md"))
    args = parser.parse_args(argv)
    # The in-process part logs every request at INFO otherwise.
    os.environ.setdefault("ZEROMEMORY_LOG_LEVEL", "WARNING")
    sizes = [int(size) for size in args.sizes.split(",")]
    kinds = [kind for kind in args.kinds.split(",") if kind]
    setup_django(fresh=False, database="zm_bench_scratch")
    if args.seed_only:
        for size in sizes:
            for kind in kinds:
                ensure_store(kind, size, args.reseed, Path(args.code).resolve() if args.code else ROOT)
        return
    plans: list[str] = []
    results = [run_store(kind, size, args, plans) for size in sizes for kind in kinds]
    data = save(results, args, args.label)
    write_section(Path(args.output), data)
    print(render(data))
    if plans:
        Path(args.plans).write_text(
            f"# Long text: query plans\n\n<!-- Written by `./zm bench --longtext --explain` on "
            f"{datetime.now(UTC):%Y-%m-%d}. -->\n" + "\n".join(plans) + "\n"
        )
        print(f"wrote {args.plans}")


if __name__ == "__main__":
    main()
