"""R-S8 with R-S11/R-S12: eight writers or more racing to replace one fact, under each on_stale
mode, on real separate connections, several rounds each. Whatever the mode, no version is
silently forked: one line (follow, reject), or every fork in the queue (skip)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from memories.choices import State
from memories.errors import StaleTarget
from memories.models import Link, Memory
from review.models import Conflict
from tests.factories import make_memory
from tests.memories.test_remember_concurrency import _write, run_together

pytestmark = pytest.mark.django_db(transaction=True)

WRITERS = 8
ROUNDS = 3


def chain_of(start: str) -> list[str]:
    """The versions from ``start`` forward through superseded_by."""
    line = [start]
    while (nxt := Memory.objects.filter(pk=line[-1]).values_list("superseded_by_id", flat=True).get()) is not None:
        line.append(nxt)
    return line


def integrity_holds() -> bool:
    try:
        call_command("check_integrity", stdout=io.StringIO(), stderr=io.StringIO())
    except SystemExit as exit_:
        return exit_.code == 0
    return True


@pytest.mark.parametrize("stale_first", [False, True], ids=["live-target", "stale-target"])
def test_followers_racing_leave_one_line_and_one_live_head(alice, stale_first):
    for round_number in range(ROUNDS):
        target = make_memory(alice.user, f"Round {round_number}: the on-call rota starts Monday")
        if stale_first:  # everyone names a version that is already stale
            _write(alice, f"Round {round_number}: the rota starts Tuesday", target.id)()

        results = run_together(
            [
                _write(alice, f"Round {round_number}: the rota starts on day {n}", target.id, on_stale="follow")
                for n in range(WRITERS)
            ]
        )

        assert not [r for r in results if isinstance(r, Exception)], results
        line = chain_of(target.id)
        assert len(line) == WRITERS + 1 + stale_first  # every write is one version of one line
        live = Memory.objects.filter(pk__in=line, state=State.LIVE)
        assert list(live.values_list("pk", flat=True)) == [line[-1]]
        # Each writer replaced exactly the version before it, and said whether it followed.
        for result in results:
            assert len(result.superseded) == 1
            assert Memory.objects.get(pk=result.superseded[0]).superseded_by_id == result.memory.pk
            assert result.skipped == []
            direct = result.superseded == [target.id]
            assert result.followed == ([] if direct else [{"dst": target.id, "current": result.superseded[0]}])
        assert Link.objects.filter(dst_id__in=line, type="supersedes").count() == len(line) - 1
    assert not Conflict.objects.exists()
    assert integrity_holds()


def test_rejecters_racing_exactly_one_stores_the_rest_change_nothing(alice):
    for round_number in range(ROUNDS):
        target = make_memory(alice.user, f"Round {round_number}: the release train leaves at 09:00")
        before = Memory.objects.count()

        results = run_together(
            [
                _write(alice, f"Round {round_number}: the train leaves at 1{n}:00", target.id, on_stale="reject")
                for n in range(WRITERS)
            ]
        )

        stored = [r for r in results if not isinstance(r, Exception)]
        refused = [r for r in results if isinstance(r, StaleTarget)]
        assert (len(stored), len(refused)) == (1, WRITERS - 1), results
        assert stored[0].superseded == [target.id]
        assert all(error.current == [{"dst": target.id, "current": stored[0].memory.pk}] for error in refused)
        assert Memory.objects.count() == before + 1
        assert chain_of(target.id) == [target.id, stored[0].memory.pk]
    assert integrity_holds()


def test_skippers_racing_fork_and_every_fork_is_in_the_queue(alice):
    for round_number in range(ROUNDS):
        target = make_memory(alice.user, f"Round {round_number}: the backup runs at 02:00")

        results = run_together(
            [_write(alice, f"Round {round_number}: the backup runs at 0{n}:30", target.id) for n in range(WRITERS)]
        )

        assert not [r for r in results if isinstance(r, Exception)], results
        winner = next(r for r in results if r.superseded == [target.id])
        losers = [r for r in results if r is not winner]
        assert all(r.skipped == [{"dst": target.id, "reason": "dead", "current": winner.memory.pk}] for r in losers)
        # One pending conflict per fork, in the write's own transaction: none silent.
        pending = Conflict.objects.filter(status="pending", stale_version=target)
        assert sorted(pending.values_list("older_id", "newer_id")) == sorted(
            (winner.memory.pk, r.memory.pk) for r in losers
        )
    assert integrity_holds()


def test_followers_and_direct_writers_in_opposite_orders_do_not_deadlock(alice):
    """One writer follows a stale id to its head; another names the head and the stale id."""
    for round_number in range(ROUNDS * 2):
        stale = make_memory(alice.user, f"Round {round_number}: the region is us-east-1")
        head = _write(alice, f"Round {round_number}: the region is us-east-2", stale.id)().memory.pk

        results = run_together(
            [
                _write(alice, f"Round {round_number}: region eu-west-1", stale.id, on_stale="follow"),
                _write(alice, f"Round {round_number}: region eu-west-2", head, stale.id, on_stale="follow"),
                _write(alice, f"Round {round_number}: region eu-west-3", stale.id, head, on_stale="follow"),
            ]
        )

        assert not [r for r in results if isinstance(r, Exception)], results
        line = chain_of(stale.id)
        assert len(line) == 5
        assert Memory.objects.filter(pk__in=line, state=State.LIVE).count() == 1
    assert integrity_holds()


def test_followers_racing_writers_of_the_head_itself_stay_one_line_or_queue_the_fork(alice):
    """Followers name the stale version; the others name its current version directly. A
    follower must lock the head it acts on with its targets: read unlocked, a direct writer
    retires it between the read and the follower's update."""
    for round_number in range(ROUNDS * 2):
        stale = make_memory(alice.user, f"Round {round_number}: the cache is redis-1")
        head = _write(alice, f"Round {round_number}: the cache is redis-2", stale.id)().memory.pk

        results = run_together(
            [
                _write(alice, f"Round {round_number}: cache follower {n}", stale.id, on_stale="follow")
                if n % 2
                else _write(alice, f"Round {round_number}: cache writer {n}", head)
                for n in range(WRITERS)
            ]
        )

        assert not [r for r in results if isinstance(r, Exception)], results
        line = chain_of(stale.id)
        # Every write is a version of the one line, or a fork of it that waits in the queue.
        forked = {r.memory.pk for r in results} - set(line)
        pending = Conflict.objects.filter(status="pending", newer_id__in=forked)
        assert pending.count() == len(forked)
        assert Memory.objects.filter(pk__in=line, state=State.LIVE).count() == 1
    assert integrity_holds()
