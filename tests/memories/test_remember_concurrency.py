"""R-S8: concurrent writes on real, separate database connections."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from memories.choices import LinkType, State
from memories.models import Link, Memory
from memories.services import LinkSpec, memory_remember
from tests.factories import make_memory

pytestmark = pytest.mark.django_db(transaction=True)


def run_together(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run each call in its own thread (own connection), released at the same instant."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def worker(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[index] = call()
        except Exception as exc:  # noqa: BLE001 - reported to the test, which fails on it
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return results


def _write(persona, content: str, *targets: str, on_stale: str = "skip") -> Callable[[], Any]:
    links = [LinkSpec(type=LinkType.SUPERSEDES, dst=target) for target in targets]
    return lambda: memory_remember(
        user=persona.user, credential=persona.credential, content=content, kind="fact", links=links, on_stale=on_stale
    )


def test_eight_writers_superseding_one_target_exactly_one_retires_it(alice):
    target = make_memory(alice.user, "The on-call phone number is 555-0100")

    results = run_together(
        [_write(alice, f"The on-call phone number is 555-01{n:02d}", target.id) for n in range(1, 9)]
    )

    assert not [r for r in results if isinstance(r, Exception)], results
    winners = [r for r in results if r.superseded == [target.id]]
    # Each loser named a version the winner had just replaced: told which one is current (R-S8).
    losers = [
        r for r in results if r.skipped == [{"dst": target.id, "reason": "dead", "current": winners[0].memory.pk}]
    ]
    assert (len(winners), len(losers)) == (1, 7)
    target.refresh_from_db()
    assert target.state == State.SUPERSEDED
    assert target.superseded_by_id == winners[0].memory.pk
    assert Memory.objects.filter(state=State.LIVE).count() == 8  # every writer stored its memory
    assert list(Link.objects.filter(dst=target).values_list("src_id", flat=True)) == [winners[0].memory.pk]


def test_writers_naming_the_same_targets_in_opposite_orders_do_not_deadlock(alice):
    for round_number in range(5):
        first = make_memory(alice.user, f"Round {round_number}: the primary region is us-east-1")
        second = make_memory(alice.user, f"Round {round_number}: the backup region is us-west-2")

        results = run_together(
            [
                _write(alice, f"Round {round_number}: regions are eu-west-1 and eu-central-1", first.id, second.id),
                _write(alice, f"Round {round_number}: regions are ap-south-1 and ap-east-1", second.id, first.id),
            ]
        )

        assert not [r for r in results if isinstance(r, Exception)], results
        retired = sorted(pk for r in results for pk in r.superseded)
        dead = sorted(s["dst"] for r in results for s in r.skipped)
        assert retired == sorted([first.id, second.id])  # each target retired exactly once
        assert sorted(retired + dead) == sorted([first.id, second.id] * 2)


def test_identical_concurrent_writes_store_one_memory(alice):
    results = run_together([_write(alice, "The release is tagged v2.4.1") for _ in range(4)])

    assert not [r for r in results if isinstance(r, Exception)], results
    assert sorted(r.absorbed for r in results) == [False, True, True, True]
    assert len({r.memory.pk for r in results}) == 1
    assert Memory.objects.count() == 1


def test_concurrent_replays_of_one_idempotency_key_run_the_write_once(alice):
    from rest_framework.test import APIClient

    def post() -> Any:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {alice.token}")
        response = client.post(
            "/api/v1/memories/", {"content": "Exactly once"}, format="json", HTTP_IDEMPOTENCY_KEY="same-key"
        )
        return response.status_code, response.json()

    results = run_together([post for _ in range(4)])

    statuses = sorted(status for status, _ in results)
    assert set(statuses) <= {201, 409}
    assert statuses.count(201) >= 1
    created = {body["memory"]["id"] for status, body in results if status == 201}
    assert len(created) == 1  # a replay that got in after the first finished sees its answer
    assert Memory.objects.count() == 1
