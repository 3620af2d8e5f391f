"""What grouping the pending queue costs (issue 31 part 3): GET /api/v1/conflicts/ as groups.

    python bench/conflict_groups.py [--sizes 1000,5000,20000] [--repeat 7]

For each size, a fresh bench database holds that many pending conflicts of one owner in one
project: slots of three values each (two conflicts per slot, a chain of pairs, as the pipeline
opens them one new memory at a time) and a fifth of conflicts with no slot, joined only through
shared memories. It times, as that owner (so the visibility rule's joins are in the query):

* ``conflict_groups`` — the selector, one query over every pending conflict plus the grouping;
* the first page of ``GET /api/v1/conflicts/`` (50 groups) — what a moderator's tool reads;
* the first page as one item per conflict, as the pending listing answered before groups (the
  cursor page of ``conflict_list``, serialized and rendered) — the "before".

It prints the median and p95 of ``--repeat`` runs per figure, and the queries each took.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from common import clustered_vectors, setup_django


def build(size: int) -> tuple[object, int]:
    """``size`` pending conflicts; the owner, and how many groups they form."""
    from django.contrib.auth.models import User
    from django.db import transaction
    from django.utils import timezone

    from memories.choices import State
    from memories.ids import new_memory_id
    from memories.models import Memory, Project
    from memories.services import membership_set
    from memories.text import content_fingerprint
    from review.judges.slots import slot_key
    from review.models import Conflict, Relation

    owner = User.objects.create(username="moderator")
    project = Project.objects.create(slug="team", name="Team")
    membership_set(actor=None, via="bench", project=project, user=owner, role="maintainer")
    rng = random.Random(31)
    contents: list[str] = []
    pairs: list[tuple[int, int]] = []
    slotted = size * 4 // 5
    for person in range(slotted // 2):  # three values, two conflicts
        first = len(contents)
        contents += [f"Person{person} lives in City{rng.randrange(10_000)}x{n}." for n in range(3)]
        pairs += [(first, first + 1), (first + 1, first + 2)]
    while len(pairs) < size:  # no slot: chains of two conflicts through a shared memory
        first = len(contents)
        contents += [f"I love dish {rng.randrange(10_000)} number {n}." for n in range(3)]
        pairs += [(first, first + 1), (first + 1, first + 2)][: size - len(pairs)]
    now = timezone.now()
    ids = [new_memory_id() for _ in contents]
    vectors = clustered_vectors(len(contents), seed=31)
    with transaction.atomic():
        Memory.objects.bulk_create(
            (
                Memory(
                    id=ids[n],
                    content=text,
                    content_fingerprint=content_fingerprint(text),
                    kind="fact",
                    owner=owner,
                    project=project,
                    embedding=next(vectors),
                    embedding_model="bench",
                    state=State.LIVE,
                    created_at=now,
                    updated_at=now,
                )
                for n, text in enumerate(contents)
            ),
            batch_size=2000,
        )
        Conflict.objects.bulk_create(
            (
                Conflict(
                    older_id=ids[a],
                    newer_id=ids[b],
                    relation=Relation.CONTRADICTS,
                    confidence=0.6,
                    slot=slot_key(contents[a], contents[b]),
                    opened_at=now,
                )
                for a, b in pairs
            ),
            batch_size=2000,
        )
    from django.db import connection

    from review.selectors import conflict_groups

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # as autovacuum would after a bulk load: plans for the real row counts
    return owner, len(conflict_groups(user=owner))


def timed(call: Callable[[], None], repeat: int) -> tuple[float, float, int]:
    """(median ms, p95 ms, queries of one run)."""
    from django.db import connection

    # Counted by a wrapper: a request's start resets Django's own query log.
    executed: list[str] = []

    def count(execute: Callable[..., object], sql: str, *rest: object) -> object:
        executed.append(sql)
        return execute(sql, *rest)

    with connection.execute_wrapper(count):
        call()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, round(0.95 * (len(times) - 1)))], len(executed)


def measure(size: int, repeat: int) -> None:
    setup_django(fresh=True, database="zm_bench_groups")
    from django.conf import settings
    from django.contrib.auth.models import User
    from rest_framework.renderers import JSONRenderer
    from rest_framework.request import Request
    from rest_framework.test import APIClient, APIRequestFactory

    from review.api.serializers import ConflictSerializer
    from review.api.views import ConflictPagination
    from review.models import ConflictStatus
    from review.selectors import conflict_groups, conflict_list, visible_stale_versions

    settings.ALLOWED_HOSTS = ["*"]
    owner, groups = build(size)
    assert isinstance(owner, User)
    client = APIClient()
    client.force_authenticate(owner)

    def page() -> None:
        response = client.get("/api/v1/conflicts/")
        assert response.status_code == 200, response.content[:300]

    def selector() -> None:
        conflict_groups(user=owner)

    factory = APIRequestFactory()

    def before() -> None:
        # The pending listing as it answered before groups, on the same queue: the cursor page of
        # conflict_list, serialized and rendered (the request stack aside, a few ms).
        request = Request(factory.get("/api/v1/conflicts/"))
        paginator = ConflictPagination()
        page = paginator.paginate_queryset(conflict_list(user=owner, status=ConflictStatus.PENDING), request)
        assert page is not None
        context = {"visible_stale": visible_stale_versions(owner, page)}
        JSONRenderer().render(
            {"results": ConflictSerializer(page, many=True, context=context).data, "next": paginator.get_next_link()}
        )

    for name, call in (
        ("conflict_groups (the selector)", selector),
        ("GET /conflicts/ first page, groups", page),
        ("before: first page, per conflict", before),
    ):
        p50, p95, queries = timed(call, repeat)
        print(f"{size:>8,} {groups:>7,}  {name:<34} {p50:>8.1f} {p95:>8.1f} {queries:>8}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,5000,20000")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    print(f"{'pending':>8} {'groups':>7}  {'figure':<34} {'p50 ms':>8} {'p95 ms':>8} {'queries':>8}")
    for size in (int(s) for s in args.sizes.split(",")):
        measure(size, args.repeat)


if __name__ == "__main__":
    main()
