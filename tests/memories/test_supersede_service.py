"""memory_supersede: the public retirement hygiene and the conflict queue call (SPEC R-H3, R-A3)."""

from __future__ import annotations

import logging

import pytest
from django.db import transaction

from memories import services
from memories.errors import Forbidden, NotFound, ValidationFailed
from memories.models import Link, Memory, MemoryEvent
from memories.services import NotLive, Supersession
from tests.factories import make_memory
from tests.helpers import store_snapshot


@pytest.fixture
def pair(alice, acme) -> tuple[Memory, Memory]:
    older = make_memory(alice.user, "Renew the acme.dev certificate", project=acme, kind="task")
    newer = make_memory(alice.user, "The acme.dev certificate was renewed", project=acme)
    return older, newer


def test_the_older_is_retired_with_its_edge_and_event_in_one_step(alice, pair, django_capture_on_commit_callbacks):
    older, newer = pair

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        link = services.memory_supersede(
            actor=None, target_id=older.pk, successor_id=newer.pk, origin="hygiene", reason="hygiene: supersedes (0.97)"
        )

    older.refresh_from_db()
    assert (older.state, older.superseded_by_id, older.loop_status, older.closed_by_id) == (
        "superseded",
        newer.pk,
        "closed",
        newer.pk,
    )
    assert (link.src_id, link.dst_id, link.type, link.origin, link.created_by_id) == (
        newer.pk,
        older.pk,
        "supersedes",
        "hygiene",
        None,
    )
    event = MemoryEvent.objects.filter(memory=older).latest("id")
    assert (event.action, event.actor_id, event.reason) == ("superseded", None, "hygiene: supersedes (0.97)")
    assert event.data["link"] == link.pk
    assert event.data["loop_closed"] is True
    assert len(callbacks) == 1  # the side effect waits for the commit


def test_the_side_effect_is_dropped_with_a_rolled_back_caller(alice, pair, django_capture_on_commit_callbacks, caplog):
    older, newer = pair

    def supersede_then_fail() -> None:
        with transaction.atomic():
            services.memory_supersede(actor=None, target_id=older.pk, successor_id=newer.pk, origin="hygiene")
            raise RuntimeError("the caller's next step failed")

    with (
        caplog.at_level(logging.INFO, logger="memories.services.supersede"),
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
    ):
        supersede_then_fail()

    assert callbacks == []
    assert "superseded by" not in caplog.text
    assert Memory.objects.get(pk=older.pk).state == "live"


@pytest.mark.parametrize(
    ("who", "refusal"),
    [("bob", Forbidden), ("carol", NotFound)],  # bob sees both but may retire neither; carol sees neither
)
def test_an_actor_without_the_right_to_retire_changes_nothing(alice, bob, carol, pair, who, refusal):
    older, newer = pair
    actor = {"bob": bob, "carol": carol}[who].user
    before = store_snapshot()

    with pytest.raises(refusal):
        services.memory_supersede(actor=actor, target_id=older.pk, successor_id=newer.pk, origin="moderator")

    assert store_snapshot() == before


def test_a_maintainer_may_supersede_in_the_project(alice, dave, pair):
    older, newer = pair

    link = services.memory_supersede(actor=dave.user, target_id=older.pk, successor_id=newer.pk, origin="moderator")

    assert link.created_by_id == dave.user.pk
    assert Memory.objects.get(pk=older.pk).superseded_by_id == newer.pk


@pytest.mark.parametrize("retired", ["older", "newer"])
def test_the_expected_state_is_checked_under_the_lock(alice, pair, retired):
    older, newer = pair
    gone = {"older": older, "newer": newer}[retired]
    services.memory_forget(user=alice.user, credential=None, memory_id=gone.pk)
    before = store_snapshot()

    with pytest.raises(NotLive) as refused:
        services.memory_supersede(actor=None, target_id=older.pk, successor_id=newer.pk, origin="hygiene")

    assert refused.value.memory_id == gone.pk
    assert refused.value.code == "not_live"
    assert store_snapshot() == before


def test_many_supersessions_apply_all_or_none(alice, pair):
    older, newer = pair
    third = make_memory(alice.user, "Certificates renew automatically now")
    before = store_snapshot()

    # The second pair names the memory the first just retired: the whole call is undone.
    with pytest.raises(NotLive):
        services.memory_supersede_many(
            actor=None,
            supersessions=[Supersession(older.pk, newer.pk), Supersession(older.pk, third.pk)],
            origin="hygiene",
        )

    assert store_snapshot() == before
    assert not Link.objects.filter(type="supersedes").exists()


def test_a_memory_cannot_supersede_itself(alice, pair):
    with pytest.raises(ValidationFailed):
        services.memory_supersede(actor=None, target_id=pair[0].pk, successor_id=pair[0].pk, origin="hygiene")


def test_forget_can_require_other_memories_to_stand(alice, pair):
    """A moderator's "older stands" forgets the newer only while both are live."""
    older, newer = pair
    services.memory_forget(user=alice.user, credential=None, memory_id=older.pk)
    before = store_snapshot()

    with pytest.raises(NotLive) as refused:
        services.memory_forget(user=alice.user, credential=None, memory_id=newer.pk, require_live=[older.pk, newer.pk])

    assert refused.value.memory_id == older.pk
    assert store_snapshot() == before
