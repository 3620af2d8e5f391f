"""Two moderators deciding one conflict group at once, on real, separate database connections:
one decision applies whole, the other is refused (409 or 404) and applies nothing."""

from __future__ import annotations

import pytest

from memories.agent.errors import error_status
from memories.errors import DomainError
from memories.integrity import find_breaches
from memories.models import Link, Memory
from review import services
from review.judges import Verdict
from review.models import Conflict
from review.pipeline import apply_verdict
from review.selectors import ConflictGroup
from tests.factories import make_memory
from tests.memories.test_remember_concurrency import run_together

pytestmark = pytest.mark.django_db(transaction=True)
ROUNDS = 4


@pytest.fixture(autouse=True)
def _no_background_hygiene(settings) -> None:
    """The conflicts are opened by the test itself; the writes' own checks stay out of it."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}


def _group(persona, acme, round_: int) -> tuple[list[Memory], list[Conflict]]:
    """Three values of one slot, two conflicts between them."""
    values = [make_memory(persona.user, f"Room {round_} opens at {hour}:00.", project=acme) for hour in (8, 9, 10)]
    conflicts = []
    for older, newer in ((values[0], values[1]), (values[1], values[2])):
        verdict = Verdict("contradicts", 0.6, "two times")
        judgment = apply_verdict(older_id=older.pk, newer_id=newer.pk, judge_name="test", verdict=verdict)
        assert judgment is not None
        conflicts.append(Conflict.objects.get(judgment=judgment))
    return values, conflicts


def _outcome(results: list[object]) -> tuple[int, list[int]]:
    """(how many decisions applied, the HTTP statuses of those refused)."""
    unexpected = [r for r in results if not isinstance(r, ConflictGroup | DomainError)]
    assert unexpected == [], unexpected
    return sum(isinstance(r, ConflictGroup) for r in results), sorted(
        error_status(r) for r in results if isinstance(r, DomainError)
    )


def _state(values: list[Memory], conflicts: list[Conflict]) -> tuple[dict[str, str], set[tuple[str, str, int]]]:
    memories = dict(Memory.objects.filter(pk__in=[v.pk for v in values]).values_list("pk", "state"))
    settled = set(
        Conflict.objects.filter(pk__in=[c.pk for c in conflicts]).values_list("status", "resolution", "resolved_by")
    )
    return memories, settled


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_two_moderators_choosing_different_values_of_one_group_at_once(alice, dave, acme, round_):
    values, conflicts = _group(alice, acme, round_)
    expected = [c.pk for c in conflicts]

    results = run_together(
        [
            lambda: services.conflict_group_resolve(
                user=alice.user, conflict_id=conflicts[0].pk, action="stands", memory_id=values[0].pk, expected=expected
            ),
            lambda: services.conflict_group_resolve(
                user=dave.user, conflict_id=conflicts[1].pk, action="stands", memory_id=values[2].pk, expected=expected
            ),
        ]
    )

    applied, refused = _outcome(results)
    assert (applied, refused) == (1, [409])
    winner, standing = (alice, values[0]) if isinstance(results[0], ConflictGroup) else (dave, values[2])
    memories, settled = _state(values, conflicts)
    # The winner's decision, whole: its value alone live, every other superseded by it, once.
    assert memories == {v.pk: "live" if v.pk == standing.pk else "superseded" for v in values}
    assert set(Memory.objects.filter(pk__in=[v.pk for v in values]).values_list("superseded_by", flat=True)) == {
        None,
        standing.pk,
    }
    assert Link.objects.filter(src=standing, type="supersedes", origin="moderator").count() == 2
    assert settled == {("resolved", "group_stands", winner.user.pk)}
    assert list(find_breaches()) == []


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_a_group_decision_and_a_pair_decision_on_one_of_its_conflicts_at_once(alice, dave, acme, round_):
    values, conflicts = _group(alice, acme, round_)

    results = run_together(
        [
            lambda: services.conflict_group_resolve(
                user=alice.user, conflict_id=conflicts[0].pk, action="dismiss", expected=[c.pk for c in conflicts]
            ),
            lambda: services.conflict_resolve(user=dave.user, conflict_id=conflicts[1].pk, action="newer_supersedes"),
        ]
    )

    memories, settled = _state(values, conflicts)
    if isinstance(results[0], ConflictGroup):  # the group decision first: the pair was settled by it
        assert isinstance(results[1], DomainError)
        assert error_status(results[1]) == 409
        assert memories == {v.pk: "live" for v in values}
        assert settled == {("dismissed", "dismiss", alice.user.pk)}
    else:  # the pair first: the group she decided on is not the group any more
        assert isinstance(results[0], DomainError)
        assert (error_status(results[0]), results[0].code) == (409, "group_changed")
        assert isinstance(results[1], Conflict)
        assert memories == {values[0].pk: "live", values[1].pk: "superseded", values[2].pk: "live"}
        rows = dict(Conflict.objects.filter(pk__in=[c.pk for c in conflicts]).values_list("pk", "status"))
        assert rows == {conflicts[0].pk: "pending", conflicts[1].pk: "resolved"}
    assert list(find_breaches()) == []


@pytest.mark.parametrize("round_", range(ROUNDS))
def test_two_pair_decisions_on_conflicts_sharing_a_memory_at_once_never_deadlock(alice, dave, acme, round_):
    values, conflicts = _group(alice, acme, round_)

    results = run_together(
        [
            lambda: services.conflict_resolve(user=alice.user, conflict_id=conflicts[0].pk, action="newer_supersedes"),
            lambda: services.conflict_resolve(user=dave.user, conflict_id=conflicts[1].pk, action="newer_supersedes"),
        ]
    )

    # Whichever went first, the other either applies after it or is refused whole (409).
    assert all(isinstance(r, Conflict) or (isinstance(r, DomainError) and error_status(r) == 409) for r in results), (
        results
    )
    assert isinstance(results[1], Conflict)  # 9:00 by 10:00 never depends on the other decision
    memories, _ = _state(values, conflicts)
    assert memories[values[2].pk] == "live"
    assert memories[values[1].pk] == "superseded"
    assert list(find_breaches()) == []
