"""A million memories on one primary: ``./zm bench --scale 1000000`` (docs/scaling.md).

    ./zm bench --scale 1000000                      # build once (16 minutes on 2 cores), measure
    ./zm bench --scale 1000000 --real-corpus FILE   # mix in a real text corpus (see below)
    ./zm bench --scale 20000 --requests 20          # a quick look at the whole run

The store is built once into DATA_DIR/scale-<size>/ and reused by later runs (``--rebuild``
starts again). It runs on a standalone PostgreSQL over TCP (the pip-installed binaries started
as their own server, as topology.py does) sized like a dedicated database host:
shared_buffers 4 GB, maintenance_work_mem 4 GB.

**Owners.** About one owner per thousand memories (1,000 at a million): a few large ones (5 of
50,000 each at a million: a twentieth of the store each) and the rest drawn log-normally around
a median of a few hundred (clipped to 20..10,000), scaled to fill the size. Owners work in teams
of five, one project per team; 60% of a memory's writes go to the team's project, 40% to the
owner's personal scope. Along each owner's history 12% of the writes supersede the owner's
previous memory in that scope (a declared link, the older one retired) and 3% are forgotten
later, so the store holds live, superseded and forgotten rows as a long-running one does.
Every memory has its created event, every retirement its event, and the feed follows from them
by its own triggers.

**Texts and vectors.** The packaged model (all-MiniLM-L6-v2 through ONNX) embeds a base corpus
for real: the suite's 100,000 generated notes (bench/corpus.py, cached with the other benches)
and, with ``--real-corpus``, a real one: each line of a text file, or each string field of each
line of a JSON-lines file, split into sentences (memories.text.sentences; 8 to 60 words kept).
A base text is used at most once per owner. Its first use anywhere is the text and its own
vector; every later use (another owner writing the same kind of fact) is the text varied by one
of the templates in VARIANTS (a prefix, a date, a person), with the base vector moved by
Gaussian noise. The noise is calibrated, not guessed: the run embeds 1,000 (text, variant) pairs
for real, measures the mean cosine between a text's vector and its variant's, and sets the
noise so the synthetic variants sit at the same mean cosine from their base (printed).
Embedding all million texts for real would take 50 minutes on these 2 cores; this way 100,000
(cached) do, and the rest are as far from their originals as real rephrasings are.

**What it measures** (the hygiene worker off, as in the suite): build time by phase, disk per
table and index, then for a small owner (the median size) and a large one (50,000): HTTP p50/p95
of remember, declared supersede and recall through ``./zm web`` (2 gunicorn workers); recall's
vector side (memories.search.vector_ranking, the production path) against an exact scan of the
same visible rows, recall@10 and its latency; and similar_existing's latency for owners of
growing size (R-N1: exact by definition, so its cost grows with the owner).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from common import ROOT, Timer, embed_texts, percentile

sys.path.insert(0, str(ROOT))

NAME = "zm_scale"
TEAM = 5
PROJECT_SHARE = 0.6
SUPERSEDE_SHARE = 0.12
FORGET_SHARE = 0.03
BIG_OWNERS = 5
CALIBRATION_PAIRS = 1000
BASE_NOTES = 100_000
SERVER_OPTIONS = (
    "-c shared_buffers=4GB -c maintenance_work_mem=4GB -c effective_cache_size=16GB "
    "-c max_parallel_maintenance_workers=1 -c max_wal_size=8GB -c checkpoint_timeout=30min"
)
PEOPLE = ["Ana", "Bilal", "Chen", "Dara", "Eli", "Fatima", "Goran", "Hana", "Ivo", "Jun", "Lena", "Omar"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
MONTHS = ["January", "March", "May", "July", "September", "November"]
VARIANTS = [
    "Reminder: {text}",
    "{text} (noted again on {day})",
    "{text} — confirmed by {person}",
    "As of {month}, {lower}",
    "Still true: {text}",
    "{person} says: {text}",
    "FYI {lower}",
    "{text} Checked on {day}.",
]


def vary(text: str, reuse: int) -> str:
    """The ``reuse``-th variant of ``text`` (reuse >= 1): the template and its fillers by number."""
    template = VARIANTS[(reuse - 1) % len(VARIANTS)]
    lower = text[:1].lower() + text[1:]
    n = reuse // len(VARIANTS)
    return template.format(
        text=text,
        lower=lower,
        day=DAYS[n % len(DAYS)],
        person=PEOPLE[(n // len(DAYS)) % len(PEOPLE)],
        month=MONTHS[n % len(MONTHS)],
    )


# -- the corpus ------------------------------------------------------------------------------


def real_sentences(path: Path) -> list[str]:
    """The sentences of a text file (a line each) or of a JSON-lines file's string fields."""
    from memories.text import sentences

    texts: list[str] = []
    for raw in path.read_text(errors="replace").splitlines():
        line = raw.strip()
        if not line:
            continue
        if path.suffix == ".jsonl":
            texts.extend(_strings(json.loads(line)))
        else:
            texts.append(line)
    kept: dict[str, None] = {}
    for text in texts:
        for found in sentences(text) or [text]:
            sentence = re.sub(r"\s+", " ", found).strip()
            if 8 <= len(sentence.split()) <= 60:
                kept[sentence] = None
    return list(kept)


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [text for item in value for text in _strings(item)]
    if isinstance(value, dict):
        return [text for item in value.values() for text in _strings(item)]
    return []


@dataclass
class Corpus:
    texts: list[str]
    kinds: list[str]
    vectors: Any  # (len(texts), 384) float32, unit length
    real: int  # how many of the texts (the last ones) come from the real corpus
    noise: float = 0.0
    calibration: dict[str, float] = field(default_factory=dict)


def base_corpus(cache: Path, real_path: Path | None, size: int) -> Corpus:
    """The generated notes (as many as the store has memories, up to BASE_NOTES) and the real
    corpus's sentences, each with the model's vector."""
    import numpy as np
    from corpus import notes
    from seed import CORPUS_SEED, vectors_for

    count = min(BASE_NOTES, size)
    generated = notes(CORPUS_SEED, count)
    texts = [content for _, content in generated]
    kinds = [kind for kind, _ in generated]
    vectors = np.asarray(vectors_for(count, cache), dtype=np.float32)
    real = 0
    if real_path is not None:
        found = [text for text in real_sentences(real_path) if text not in set(texts)]
        digest = f"{len(found)}-{hashlib.sha256(chr(10).join(found).encode()).hexdigest()[:12]}"
        path = cache / f"scale-real-{digest}.npy"
        if path.exists():
            extra = np.load(path)
        else:
            extra = embed_texts(found, "embedding the real corpus")
            np.save(path, extra)
        texts += found
        kinds += ["observation"] * len(found)
        vectors = np.vstack([vectors, extra])
        real = len(found)
    return Corpus(texts, kinds, vectors, real)


def calibrate(corpus: Corpus, rng: Any) -> None:
    """The noise that puts a synthetic variant as far from its base as a real variant is."""
    import numpy as np

    picks = rng.choice(len(corpus.texts), min(CALIBRATION_PAIRS, len(corpus.texts)), replace=False)
    variants = [vary(corpus.texts[n], 1 + int(rng.integers(0, 40))) for n in picks]
    real = embed_texts(variants, "calibrating the variants")
    cosines = np.sum(real * corpus.vectors[picks], axis=1)
    target = float(cosines.mean())
    dims = corpus.vectors.shape[1]
    # |v + g|, g ~ N(0, s^2 I): cos(v, v + g) is about 1 / sqrt(1 + dims s^2) for a unit v.
    noise = ((1 / target**2 - 1) / dims) ** 0.5
    synthetic = corpus.vectors[picks] + rng.normal(0, noise, size=real.shape).astype(np.float32)
    synthetic /= np.linalg.norm(synthetic, axis=1, keepdims=True)
    corpus.noise = noise
    corpus.calibration = {
        "model_mean": target,
        "model_p5": float(np.percentile(cosines, 5)),
        "synthetic_mean": float(np.sum(synthetic * corpus.vectors[picks], axis=1).mean()),
        "variant_to_synthetic": float(np.sum(synthetic * real, axis=1).mean()),
    }


# -- the layout ------------------------------------------------------------------------------


def owner_sizes(size: int, rng: Any) -> list[int]:
    """Memories per owner: BIG_OWNERS of a twentieth each, the rest log-normal, summing to size."""
    import numpy as np

    owners = max(TEAM * 2, size // 1000)
    big = size // 20
    rest = size - BIG_OWNERS * big
    drawn = np.clip(rng.lognormal(mean=np.log(450), sigma=1.0, size=owners - BIG_OWNERS), 20, 10_000)
    scaled = np.maximum(1, np.floor(drawn * rest / drawn.sum())).astype(int)
    scaled[: rest - int(scaled.sum())] += 1  # the rounding's remainder, one each
    return [big] * BIG_OWNERS + [int(n) for n in scaled]


# -- the server ------------------------------------------------------------------------------


class ScaleServer:
    """The standalone primary for the store (topology.py's, sized for it), kept between runs in
    its folder; one left running by an interrupted run is used as it is."""

    def __init__(self, folder: Path) -> None:
        from topology import Primary

        from zeromemory.embedded_db import EmbeddedServer

        server = EmbeddedServer(folder)
        if server.is_running():
            lines = (server.pgdata / "postmaster.pid").read_text().splitlines()
            self.server = EmbeddedServer(folder, port=int(lines[3]), extra_options=SERVER_OPTIONS)
        else:
            self.server = Primary(folder, database=NAME, extra_options=SERVER_OPTIONS).server

    @property
    def url(self) -> str:
        return self.server.url(NAME)

    def stop(self) -> None:
        self.server.stop()


def point_django_at(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    import django

    django.setup()


def migrate(url: str, data_dir: Path) -> None:
    from zm_serve import fresh_env

    env = fresh_env(data_dir, DATABASE_URL=url, ZEROMEMORY_LOG_LEVEL="WARNING")
    done = subprocess.run([str(ROOT / "zm"), "migrate"], cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"./zm migrate failed:\n{done.stderr[-3000:]}")


# -- the build -------------------------------------------------------------------------------


@dataclass
class Plan:
    """Every memory of the store, decided before any row is written: whose, which base text,
    when, in which scope, and how it ends (superseded by which, forgotten when)."""

    owner: Any  # int32 per memory
    base: Any  # int32: index into the corpus
    moment: Any  # float64: seconds into the history
    in_project: Any  # bool
    superseded_by: Any  # int64: the memory that replaced it, or -1
    forgotten_at: Any  # float64: seconds into the history, or nan


def plan_store(sizes: list[int], corpus: Corpus, rng: Any, span: float) -> Plan:
    import numpy as np

    total = sum(sizes)
    owner = np.repeat(np.arange(len(sizes), dtype=np.int32), sizes)
    base = np.concatenate([rng.choice(len(corpus.texts), count, replace=False) for count in sizes]).astype(np.int32)
    moment = np.concatenate([np.sort(rng.uniform(0, span, count)) for count in sizes])
    in_project = rng.random(total) < PROJECT_SHARE
    superseded_by = np.full(total, -1, dtype=np.int64)
    forgotten_at = np.full(total, np.nan)
    first = 0
    for count in sizes:
        last_in_scope: dict[bool, int] = {}
        for n in range(first, first + count):
            scoped = bool(in_project[n])
            previous = last_in_scope.get(scoped)
            if previous is not None and rng.random() < SUPERSEDE_SHARE:
                superseded_by[previous] = n
            last_in_scope[scoped] = n
        first += count
    live = superseded_by < 0
    forget = live & (rng.random(total) < FORGET_SHARE)
    forgotten_at[forget] = moment[forget] + (span - moment[forget]) * rng.random(int(forget.sum()))
    return Plan(owner, base, moment, in_project, superseded_by, forgotten_at)


def build(url: str, size: int, corpus: Corpus, seed: int) -> dict[str, Any]:
    """Load ``size`` memories into the migrated, empty database at ``url``; the phases' times.

    Rows are written in the order they were created across all owners, as a store that grew
    over two years lies on disk (an owner's rows spread over the whole table, not side by side:
    a layout by owner made scans of one owner's rows look cheaper than they are)."""
    import numpy as np
    import psycopg
    from django.contrib.auth.models import User
    from django.utils import timezone
    from pgvector.psycopg import register_vector
    from tqdm import tqdm

    from memories.choices import LOOP_KINDS, EventAction, LinkOrigin, LinkType, LoopStatus, State
    from memories.embedding import get_embedder
    from memories.ids import new_link_id, new_memory_id
    from memories.models import Membership, Project
    from memories.text import content_fingerprint

    rng = np.random.default_rng(seed)
    times: dict[str, float] = {}
    sizes = owner_sizes(size, rng)
    order = rng.permutation(len(sizes))  # teams mix large and small owners
    users = User.objects.bulk_create([User(username=f"owner{n:04d}") for n in range(len(sizes))])
    teams = (len(sizes) + TEAM - 1) // TEAM
    projects = Project.objects.bulk_create([Project(slug=f"team-{n:04d}", name=f"Team {n:04d}") for n in range(teams)])
    team_of = {int(owner): position // TEAM for position, owner in enumerate(order)}
    Membership.objects.bulk_create(
        [Membership(project=projects[team_of[n]], user=users[n], role="member") for n in range(len(sizes))]
    )
    span = 730 * 86400.0  # two years of history
    plan = plan_store(sizes, corpus, rng, span)
    ids = [new_memory_id() for _ in range(size)]
    owner_pk = np.array([user.pk for user in users])
    project_pk = np.array([projects[team_of[n]].pk for n in range(len(sizes))])
    uses = np.zeros(len(corpus.texts), dtype=np.int32)
    model = get_embedder().name
    now = timezone.now()
    origin = now - _seconds(span)

    def when(seconds: float) -> Any:
        return origin + _seconds(seconds)

    started = time.perf_counter()
    with psycopg.connect(url) as conn:
        register_vector(conn)
        conn.execute("SET synchronous_commit = off")
        indexes = conn.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename IN "
            "('memories_memory', 'memories_memoryevent', 'memories_feedevent', 'memories_link') "
            "AND indexname NOT IN (SELECT conname FROM pg_constraint)"
        ).fetchall()
        for name, _ in indexes:
            conn.execute(f'DROP INDEX "{name}"')
        conn.commit()
        memory_columns = (
            "id, content, content_fingerprint, kind, visibility, provenance, session_key, metadata, "
            "embedding, state, invalidated_at, created_at, updated_at, owner_id, superseded_by_id, "
            "project_id, embedding_model, loop_status"
        )
        events: list[tuple[Any, ...]] = []
        links: list[tuple[Any, ...]] = []
        with conn.cursor().copy(f"COPY memories_memory ({memory_columns}) FROM STDIN") as copy:
            for n in tqdm(np.argsort(plan.moment, kind="stable"), unit="memory", desc=f"loading {size:,}"):
                base, owner = int(plan.base[n]), int(plan.owner[n])
                uses[base] += 1
                reuse = int(uses[base]) - 1
                if reuse == 0:
                    text, vector = corpus.texts[base], corpus.vectors[base]
                else:
                    text = vary(corpus.texts[base], reuse)
                    vector = corpus.vectors[base] + rng.normal(0, corpus.noise, 384).astype(np.float32)
                    vector /= np.linalg.norm(vector)
                created = when(plan.moment[n])
                scoped = bool(plan.in_project[n])
                newer = int(plan.superseded_by[n])
                if newer >= 0:
                    state, ended, by = State.SUPERSEDED, when(plan.moment[newer]), ids[newer]
                elif not np.isnan(plan.forgotten_at[n]):
                    state, ended, by = State.FORGOTTEN, when(plan.forgotten_at[n]), None
                else:
                    state, ended, by = State.LIVE, None, None
                kind = corpus.kinds[base]
                copy.write_row(
                    (
                        ids[n],
                        text,
                        content_fingerprint(text),
                        kind,
                        "project" if scoped else "private",
                        "authoritative",
                        "",
                        "{}",
                        vector,
                        state,
                        ended,
                        created,
                        created,
                        int(owner_pk[owner]),
                        by,
                        int(project_pk[owner]) if scoped else None,
                        model,
                        LoopStatus.OPEN if kind in LOOP_KINDS else None,
                    )
                )
                actor = int(owner_pk[owner])
                events.append((ids[n], EventAction.CREATED, "{}", created, actor))
                if state == State.SUPERSEDED:
                    links.append((new_link_id(), LinkType.SUPERSEDES, LinkOrigin.DECLARED, ended, actor, ids[n], by))
                    data = json.dumps({"by": by, "origin": LinkOrigin.DECLARED})
                    events.append((ids[n], EventAction.SUPERSEDED, data, ended, actor))
                elif state == State.FORGOTTEN:
                    events.append((ids[n], EventAction.FORGOTTEN, "{}", ended, actor))
        # Links after every memory (their foreign keys), then events: their feed trigger writes
        # the feed rows as the server's own writes do.
        with conn.cursor().copy(
            "COPY memories_link (id, type, origin, created_at, created_by_id, dst_id, src_id, reverted) FROM STDIN"
        ) as copy:
            for link in links:
                copy.write_row((*link, False))
        conn.commit()
        times["load memories and links"] = time.perf_counter() - started
        events.sort(key=lambda event: event[3])
        with Timer() as event_time:
            with conn.cursor().copy(
                "COPY memories_memoryevent (memory_id, action, data, created_at, actor_id, reason) FROM STDIN"
            ) as copy:
                for event in tqdm(events, unit="event", desc="events and feed"):
                    copy.write_row((*event, ""))
            conn.commit()
        conn.autocommit = True
        with Timer() as index_time:
            for name, definition in tqdm(indexes, unit="index", desc="indexes"):
                with Timer() as one:
                    conn.execute(definition)
                times[f"index {name}"] = one.ms / 1000
        with Timer() as vacuum:
            conn.execute("VACUUM (ANALYZE)")
    times["events and feed"] = event_time.ms / 1000
    times["indexes, all"] = index_time.ms / 1000
    times["vacuum analyze"] = vacuum.ms / 1000
    return {"times": times, "owners": len(sizes), "sizes": sizes, "reused": int((uses > 1).sum())}


def _seconds(value: float) -> Any:
    from datetime import timedelta

    return timedelta(seconds=float(value))


def store_counts(url: str) -> dict[str, int]:
    """What the store holds, by state, with its links, events and feed rows."""
    import psycopg

    with psycopg.connect(url) as conn:
        states: dict[str, int] = dict(
            conn.execute("SELECT state, count(*) FROM memories_memory GROUP BY state").fetchall()
        )
        found = {f"memories {state}": int(n) for state, n in sorted(states.items())}
        for table in ("memories_link", "memories_memoryevent", "memories_feedevent"):
            row = conn.execute(f"SELECT count(*) FROM {table}").fetchone()
            found[table.removeprefix("memories_")] = int(row[0]) if row else 0
        row = conn.execute("SELECT count(DISTINCT owner_id) FROM memories_memory").fetchone()
        found["owners"] = int(row[0]) if row else 0
    return found


def disk(url: str) -> dict[str, int]:
    import psycopg

    with psycopg.connect(url) as conn:
        total = conn.execute("SELECT pg_database_size(current_database())").fetchone()
        rows = conn.execute(
            "SELECT c.relname, c.relkind, CASE c.relkind WHEN 'r' THEN pg_table_size(c.oid) "
            "ELSE pg_relation_size(c.oid) END "
            "FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = 'public' AND c.relkind IN ('r', 'i') ORDER BY 3 DESC LIMIT 40"
        ).fetchall()
    found = {"database": int(total[0]) if total else 0}
    for name, kind, bytes_ in rows:
        found[f"{'table' if kind == 'r' else 'index'} {name}"] = int(bytes_)
    return found


# -- the measurements ------------------------------------------------------------------------


@dataclass
class Owner:
    label: str
    user: Any
    size: int
    project: Any
    token: str = ""


def pick_owners() -> dict[str, Owner]:
    """The large owner, the median one, and owners near each size similar_existing is timed at."""
    from django.contrib.auth.models import User
    from django.db.models import Count

    from memories.choices import State
    from memories.models import Project

    counts = dict(
        User.objects.filter(memories__state=State.LIVE).annotate(n=Count("memories")).values_list("username", "n")
    )
    chosen: dict[str, Owner] = {}
    wanted = {"large": max(counts.values()), "small": sorted(counts.values())[len(counts) // 2]}
    for target in (100, 300, 1000, 3000, 10000):
        wanted[f"~{target}"] = target
    for label, target in wanted.items():
        name = min(counts, key=lambda username: (abs(counts[username] - target), username))
        user = User.objects.get(username=name)
        project = Project.objects.get(memberships__user=user)
        chosen[label] = Owner(label, user, counts[name], project)
    return chosen


def vector_side(owner: Owner, queries: list[list[float]]) -> dict[str, float]:
    """Recall's vector side for ``owner`` (the production call) against an exact scan of the same
    visible rows: recall@10, its p50/p95, and how often the index walk came back short."""
    from django.conf import settings
    from pgvector.django import CosineDistance

    from memories.choices import State
    from memories.models import Memory
    from memories.recall import MIN_CANDIDATES, ranks_exactly
    from memories.search import estimated_rows, exact_nearest, vector_ranking, walk_is_cheaper
    from memories.selectors import valid_condition
    from memories.statement_settings import statement_settings
    from memories.visibility import visible_memories, visible_parts

    memories = visible_memories(owner.user).filter(valid_condition()).filter(state__in=[State.LIVE])
    exact = ranks_exactly(project=None, kinds=None, as_of=None) or None  # as recall() asks
    *estimates, table = estimated_rows([*visible_parts(owner.user, memories), Memory.objects.all()])
    estimate = sum(estimates)
    walks = exact is None and walk_is_cheaper(visible=estimate, table=table, count=MIN_CANDIDATES)
    found, short, took = 0.0, 0, []
    for vector in queries:
        truth = {pk for pk, _ in exact_nearest(visible_parts(owner.user, memories), vector, 10)}
        with Timer() as timer:
            got = vector_ranking(memories, vector, MIN_CANDIDATES, user=owner.user, exact=exact)
        took.append(timer.ms)
        found += len(truth & {pk for pk, _ in got[:10]}) / max(1, min(10, len(truth)))
        if walks:
            walk = memories.annotate(distance=CosineDistance("embedding", vector)).order_by("distance")
            with statement_settings(settings.HNSW_SEARCH):
                short += len(walk.values_list("pk", flat=True)[:MIN_CANDIDATES]) < MIN_CANDIDATES
    visible = memories.count()
    return {
        "visible": visible,
        "estimated visible": estimate,
        "plan": "HNSW walk" if walks else "exact",
        "recall@10": found / len(queries),
        "p50": percentile(took, 0.5),
        "p95": percentile(took, 0.95),
        "walk short": short / len(queries),
    }


def similar_cost(owner: Owner, texts: list[str], vectors: list[list[float]]) -> dict[str, float]:
    from memories.selectors import similar_existing

    took = []
    for text, vector in zip(texts, vectors, strict=True):
        with Timer() as timer:
            similar_existing(user=owner.user, embedding=vector, text=text, project=owner.project, exclude_ids=[])
        took.append(timer.ms)
    return {"size": owner.size, "p50": percentile(took[3:], 0.5), "p95": percentile(took[3:], 0.95)}


def http_run(owners: list[Owner], url: str, data_dir: Path, requests: int, rng: random.Random) -> dict[str, Any]:
    """remember, declared supersede and recall through ``./zm web``, one keep-alive client."""
    from corpus import note, question
    from suite import Client
    from topology import Role, wait_web
    from zm_serve import fresh_env

    from memories.choices import State
    from memories.models import Memory
    from tests.platform.helpers import free_port

    port = free_port()
    env = fresh_env(
        data_dir,
        DATABASE_URL=url,
        ZEROMEMORY_PORT=str(port),
        ZEROMEMORY_RATE_LIMIT_PER_MINUTE="0",
        ZEROMEMORY_LOG_LEVEL="WARNING",
        ZEROMEMORY_WORKERS="2",
    )
    web = Role("web", [str(ROOT / "zm"), "web"], env, data_dir / "scale-web.log")
    web.start()
    results: dict[str, Any] = {}
    try:
        wait_web(web, port)
        for owner in owners:
            client = Client(port, owner.token)
            targets = list(
                Memory.objects.filter(owner=owner.user, state=State.LIVE)
                .order_by("?")
                .values_list("pk", "project__slug")[:requests]
            )
            timings: dict[str, list[float]] = {"remember": [], "declared supersede": [], "recall": []}
            for n in range(requests + 5):
                scope = owner.project.slug if n % 2 else None
                body = {"content": f"{note(rng)[1]} (run {n})", "project": scope}
                status, _, ms = client.call("POST", "/api/v1/memories/", body)
                _expect(status, 201, "remember")
                timings["remember"].append(ms)
                pk, slug = targets[n % len(targets)]
                body = {
                    "content": f"{note(rng)[1]} (replaces, run {n})",
                    "project": slug,
                    "links": [{"type": "supersedes", "dst": pk}],
                }
                status, answer, ms = client.call("POST", "/api/v1/memories/", body)
                _expect(status, 201, f"declared supersede {answer}")
                timings["declared supersede"].append(ms)
                status, _, ms = client.call("POST", "/api/v1/recall/", {"query": question(rng), "limit": 10})
                _expect(status, 200, "recall")
                timings["recall"].append(ms)
            results[owner.label] = {
                op: {"p50": percentile(ms[5:], 0.5), "p95": percentile(ms[5:], 0.95)} for op, ms in timings.items()
            }
    finally:
        web.stop()
    return results


def _expect(status: int, wanted: int, what: str) -> None:
    if status != wanted:
        raise RuntimeError(f"{what} answered {status}, not {wanted}")


def credentials(owners: list[Owner]) -> None:
    from memories.choices import Provenance
    from memories.services import credential_issue

    for owner in owners:
        owner.token = credential_issue(
            actor=None,
            via="cli",
            user=owner.user,
            label=f"scale bench {time.time_ns()}",
            provenance=Provenance.AUTHORITATIVE,
        )[1]


# -- the run ---------------------------------------------------------------------------------


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="./zm bench --scale", description=__doc__.splitlines()[0])
    parser.add_argument("size", type=int, help="memories in the store (e.g. 1000000)")
    parser.add_argument("--real-corpus", type=Path, help="a text file (a line each) or JSON-lines file to mix in")
    parser.add_argument("--rebuild", action="store_true", help="build the store again")
    parser.add_argument("--requests", type=int, default=100, help="timed HTTP requests per operation and owner")
    parser.add_argument("--queries", type=int, default=100, help="queries for recall@10 against exact")
    parser.add_argument("--output", type=Path, help="also write the figures here as JSON")
    args = parser.parse_args(argv)
    if args.size < 1000:
        parser.error("a store of at least 1,000 memories")
    if args.real_corpus is not None and not args.real_corpus.is_file():
        parser.error(f"--real-corpus {args.real_corpus}: no such file")

    data_dir = Path(os.environ.get("ZEROMEMORY_DATA_DIR") or ROOT / ".data").expanduser().resolve()
    folder = data_dir / f"scale-{args.size}"
    if args.rebuild:
        shutil.rmtree(folder, ignore_errors=True)
    built_file = folder / "built.json"
    server = ScaleServer(folder / "primary")
    try:
        return run(args, server, data_dir, built_file)
    finally:
        server.stop()


def run(args: argparse.Namespace, server: ScaleServer, data_dir: Path, built_file: Path) -> int:
    import numpy as np

    point_django_at(server.url)
    report: dict[str, Any] = {"size": args.size, "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    with Timer() as migrate_time:
        migrate(server.url, data_dir)
    report["migrate seconds"] = migrate_time.ms / 1000
    if built_file.exists():
        built = json.loads(built_file.read_text())
        print(f"reusing the store built {built['when']} ({built_file.parent})", flush=True)
    else:
        cache = data_dir / "bench"
        corpus = base_corpus(cache, args.real_corpus, args.size)
        rng = np.random.default_rng(args.size)
        calibrate(corpus, rng)
        say(
            f"corpus: {len(corpus.texts):,} base texts ({corpus.real:,} real); variants at cosine "
            f"{corpus.calibration['model_mean']:.3f} from their base by the model (p5 "
            f"{corpus.calibration['model_p5']:.3f}), synthetic {corpus.calibration['synthetic_mean']:.3f}"
        )
        with Timer() as total:
            figures = build(server.url, args.size, corpus, seed=args.size)
        built = {
            "when": report["when"],
            "seconds": total.ms / 1000,
            "phases": figures["times"],
            "owners": figures["owners"],
            "sizes": sorted(figures["sizes"], reverse=True)[:8],
            "median owner": int(np.median(figures["sizes"])),
            "base texts reused": figures["reused"],
            "corpus": {"texts": len(corpus.texts), "real": corpus.real, "calibration": corpus.calibration},
        }
        built_file.write_text(json.dumps(built, indent=1))
    report["build"] = built
    report["store"] = store_counts(server.url)
    say("store: " + ", ".join(f"{name} {count:,}" for name, count in report["store"].items()))
    say(f"built in {built['seconds'] / 60:.1f} min: {json.dumps(built['phases'])}")
    report["disk"] = disk(server.url)
    say(f"disk: database {report['disk']['database'] / 2**30:.2f} GiB")
    for name, size in list(report["disk"].items())[1:16]:
        say(f"  {name}: {size / 2**20:,.0f} MiB")

    from corpus import note, question

    from memories.embedding import get_embedder

    owners = pick_owners()
    credentials([owners["small"], owners["large"]])
    questions = random.Random(args.size)
    embedder = get_embedder()
    query_vectors = embedder.embed([question(questions) for _ in range(args.queries)])
    report["vector side"] = {}
    for label in ("small", "large"):
        figures = vector_side(owners[label], query_vectors)
        report["vector side"][label] = figures
        owner = owners[label]
        say(
            f"recall's vector side, {label} owner ({owner.size:,} own live, {figures['visible']:,} visible): "
            f"{figures['plan']}, recall@10 {figures['recall@10']:.3f}, p50 {figures['p50']:.1f} ms, "
            f"p95 {figures['p95']:.1f} ms, walk came back short {figures['walk short']:.0%}"
        )
    texts = [note(questions)[1] for _ in range(33)]
    vectors = embedder.embed(texts)
    report["similar_existing"] = {}
    for label in ("~100", "~300", "~1000", "~3000", "~10000", "large"):
        figures = similar_cost(owners[label], texts, vectors)
        report["similar_existing"][label] = figures
        size = figures["size"]
        say(f"similar_existing, owner of {size:,} live: p50 {figures['p50']:.1f} ms, p95 {figures['p95']:.1f} ms")
    report["http"] = http_run([owners["small"], owners["large"]], server.url, data_dir, args.requests, questions)
    for label, ops in report["http"].items():
        for op, figures in ops.items():
            size = owners[label].size
            say(f"HTTP {op}, {label} owner ({size:,}): p50 {figures['p50']:.0f} ms, p95 {figures['p95']:.0f} ms")
    if args.output:
        args.output.write_text(json.dumps(report, indent=1, default=str))
        say(f"wrote {args.output}")
    return 0


def say(message: str) -> None:
    print(f"[scale {time.strftime('%H:%M:%S')}] {message}", flush=True)
