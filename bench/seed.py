"""Seeded benchmark stores: one database per size, built once and cloned for every run.

Layout of a store of N memories (bench/corpus.py makes the text):

* 50 users, 20 projects. ``bench`` (the measured caller) owns every tenth memory (10%),
  spread over its 3 projects (60%) and its personal scope (40%); the other 49 users are
  members of 2 projects each and write 70% into them (a tenth of those private), 30% personal.
* About a tenth of each owner's memories in one scope were superseded by the owner's next one
  there (a declared supersede link and its events), giving version chains of varying length.
* Created over the past year, oldest first.

Vectors come from the server's own embedder, computed once for the largest size and cached
under the data directory, so a re-run seeds in seconds. Indexes are dropped during the bulk
load and built afterwards (as a restore would), then the table is vacuumed and analysed.
"""

from __future__ import annotations

import hashlib
import random
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any

from common import ROOT, embed_texts  # noqa: F401 - sets up sys.path and settings
from corpus import notes

SEED_VERSION = "v1"
CORPUS_SEED = 20261203
USERS = 50
PROJECTS = 20
BENCH_PROJECTS = 3


def vectors_for(count: int, cache_dir: Path) -> Any:
    """Embeddings of the first ``count`` corpus notes (cached: embedding 100k takes minutes)."""
    import numpy as np

    from memories.embedding import get_embedder

    embedder = get_embedder()
    slug = hashlib.sha256(embedder.name.encode()).hexdigest()[:10]
    cache_dir.mkdir(parents=True, exist_ok=True)
    for existing in sorted(cache_dir.glob(f"vectors-{SEED_VERSION}-{slug}-*.npy")):
        size = int(existing.stem.rsplit("-", 1)[1])
        if size >= count:
            return np.load(existing, mmap_mode="r")[:count]
    vectors = embed_texts([content for _, content in notes(CORPUS_SEED, count)], "embedding the corpus")
    path = cache_dir / f"vectors-{SEED_VERSION}-{slug}-{count}.npy"
    np.save(path.with_suffix(".tmp.npy"), vectors)
    path.with_suffix(".tmp.npy").replace(path)
    return vectors


def seed_marker(size: int) -> str:
    return f"seed-{SEED_VERSION}-{size}"


def is_seeded(size: int) -> bool:
    from memories.models import Memory, Project

    return Project.objects.filter(slug=seed_marker(size)).exists() and Memory.objects.count() == size


def _owner_plan(size: int, rng: random.Random) -> list[tuple[int, int | None, str]]:
    """(user index, project index or None, visibility) per memory; user 0 is ``bench``."""
    memberships = {0: list(range(BENCH_PROJECTS))}
    for user in range(1, USERS):
        memberships[user] = [user % PROJECTS, (user * 7 + 3) % PROJECTS]
    plan: list[tuple[int, int | None, str]] = []
    project: int | None
    for n in range(size):
        if n % 10 == 0:
            project = memberships[0][(n // 10) % 5] if (n // 10) % 5 < BENCH_PROJECTS else None
            plan.append((0, project, "private" if project is None else "project"))
            continue
        user = 1 + n % (USERS - 1)
        if rng.random() < 0.7:
            project = rng.choice(memberships[user])
            plan.append((user, project, "private" if rng.random() < 0.1 else "project"))
        else:
            plan.append((user, None, "private"))
    return plan


def seed(size: int, cache_dir: Path, corpus_size: int) -> None:
    """Fill the (freshly migrated) current database with ``size`` memories."""
    from django.contrib.auth.models import User
    from django.db import connection, transaction
    from django.utils import timezone

    from memories.choices import LOOP_KINDS, EventAction, LinkOrigin, LinkType, LoopStatus, State
    from memories.embedding import get_embedder
    from memories.ids import new_link_id, new_memory_id
    from memories.models import Link, Memory, MemoryEvent, Project
    from memories.services import membership_set
    from memories.text import content_fingerprint

    rng = random.Random(CORPUS_SEED)
    corpus = notes(CORPUS_SEED, size)
    vectors = vectors_for(max(size, corpus_size), cache_dir)[:size]
    users = [User.objects.create(username="bench")] + [
        User.objects.create(username=f"user{n:02d}") for n in range(1, USERS)
    ]
    projects = [Project.objects.create(slug=f"team-{n:02d}", name=f"Team {n:02d}") for n in range(PROJECTS)]
    for team in projects[:BENCH_PROJECTS]:
        membership_set(actor=None, via="bench", project=team, user=users[0], role="member")
    for user in range(1, USERS):
        for index in {user % PROJECTS, (user * 7 + 3) % PROJECTS}:
            membership_set(actor=None, via="bench", project=projects[index], user=users[user], role="member")
    plan = _owner_plan(size, rng)

    now = timezone.now()
    start = now - timedelta(days=365)
    step = timedelta(days=365) / size
    ids = [new_memory_id() for _ in range(size)]
    superseded_by: dict[int, int] = {}
    last_in_scope: dict[tuple[int, int | None], int] = {}
    for n, (user, project, _) in enumerate(plan):
        previous = last_in_scope.get((user, project))
        if previous is not None and rng.random() < 0.1:
            superseded_by[previous] = n
        last_in_scope[(user, project)] = n

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'memories_memory' "
            "AND indexname NOT IN (SELECT conname FROM pg_constraint)"
        )
        indexes = cursor.fetchall()
        for name, _ in indexes:
            cursor.execute(f'DROP INDEX "{name}"')
    model_name = get_embedder().name
    batch = 2000
    from tqdm import tqdm

    with transaction.atomic(), tqdm(total=size, unit="memory", desc=f"seeding {size:,}") as progress:
        for first in range(0, size, batch):
            rows = []
            for n in range(first, min(size, first + batch)):
                user, project, visibility = plan[n]
                kind, content = corpus[n]
                created = start + step * n
                retired = n in superseded_by
                rows.append(
                    Memory(
                        id=ids[n],
                        content=content,
                        content_fingerprint=content_fingerprint(content),
                        kind=kind,
                        owner=users[user],
                        project=projects[project] if project is not None else None,
                        visibility=visibility,
                        embedding=vectors[n].tolist(),
                        embedding_model=model_name,
                        state=State.SUPERSEDED if retired else State.LIVE,
                        # A later row: the foreign key is checked at commit (deferred).
                        superseded_by_id=ids[superseded_by[n]] if retired else None,
                        invalidated_at=start + step * superseded_by[n] if retired else None,
                        loop_status=LoopStatus.OPEN if kind in LOOP_KINDS else None,
                        created_at=created,
                        updated_at=created,
                    )
                )
            Memory.objects.bulk_create(rows)
            progress.update(len(rows))
    with transaction.atomic():
        Link.objects.bulk_create(
            (
                Link(
                    id=new_link_id(),
                    src_id=ids[newer],
                    dst_id=ids[older],
                    type=LinkType.SUPERSEDES,
                    origin=LinkOrigin.DECLARED,
                    created_by=users[plan[newer][0]],
                    created_at=start + step * newer,
                )
                for older, newer in superseded_by.items()
            ),
            batch_size=5000,
        )
        events = [
            MemoryEvent(
                memory_id=ids[n], action=EventAction.CREATED, actor=users[plan[n][0]], created_at=start + step * n
            )
            for n in range(size)
        ] + [
            MemoryEvent(
                memory_id=ids[older],
                action=EventAction.SUPERSEDED,
                actor=users[plan[newer][0]],
                data={"by": ids[newer], "origin": LinkOrigin.DECLARED},
                created_at=start + step * newer,
            )
            for older, newer in superseded_by.items()
        ]
        MemoryEvent.objects.bulk_create(events, batch_size=5000)
    print(f"building {len(indexes)} indexes…", flush=True)
    with connection.cursor() as cursor:
        cursor.execute("SET maintenance_work_mem = '2GB'")
        cursor.execute("SET max_parallel_maintenance_workers = 2")
        for _name, definition in tqdm(indexes, unit="index", desc="indexes"):
            cursor.execute(definition)
        Project.objects.create(slug=seed_marker(size), name=str(uuid.uuid4()))
        cursor.execute("VACUUM ANALYZE")
