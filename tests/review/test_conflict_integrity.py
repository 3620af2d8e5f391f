"""A conflict is settled only by one of the four moderator actions, and the review tables hold
only the values their choices name: the service refuses anything else whoever calls it, and
the database refuses it even from code that skips the service."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from memories.errors import ValidationFailed
from review import services
from review.judges import Verdict
from review.models import Conflict, Judgment
from review.pipeline import apply_verdict
from tests.factories import make_memory
from tests.helpers import store_snapshot


@pytest.fixture
def conflict(alice, acme) -> Conflict:
    older = make_memory(alice.user, "The standup is at 09:30 in the Lisbon room.", project=acme)
    newer = make_memory(alice.user, "The standup is at 09:45 in the Lisbon room.", project=acme)
    apply_verdict(
        older_id=older.pk, newer_id=newer.pk, judge_name="test", verdict=Verdict("supersedes", 0.7, "time changed")
    )
    return Conflict.objects.get()


def _conflict_row(conflict: Conflict) -> tuple:
    return Conflict.objects.filter(pk=conflict.pk).values_list("status", "resolution", "resolved_at", "resolved_by")[0]


# "declared" and "retired" are resolutions the system records itself, never a moderator's choice.
@pytest.mark.parametrize("action", ["delete_both", "", "declared", "retired", "NEWER_SUPERSEDES", None])
def test_the_service_refuses_an_action_that_is_not_one_of_the_four_and_changes_nothing(alice, conflict, action):
    before, row = store_snapshot(), _conflict_row(conflict)

    with pytest.raises(ValidationFailed) as refused:
        services.conflict_resolve(user=alice.user, conflict_id=conflict.pk, action=action)

    assert refused.value.message == (
        f"Unknown action {action!r}: choose newer_supersedes, older_stands, keep_both or dismiss."
    )
    assert refused.value.fields == {"action": ["must be newer_supersedes, older_stands, keep_both or dismiss"]}
    assert store_snapshot() == before
    assert _conflict_row(conflict) == row == ("pending", "", None, None)


def _refused(update) -> bool:
    try:
        with transaction.atomic():
            update()
    except IntegrityError:
        return True
    return False


def test_the_database_refuses_values_outside_the_choices(conflict):
    conflicts = Conflict.objects.filter(pk=conflict.pk)
    judgments = Judgment.objects.filter(pk=conflict.judgment_id)
    settled = {"resolved_at": timezone.now()}

    assert _refused(lambda: conflicts.update(relation="rumour"))
    assert _refused(lambda: conflicts.update(status="closed", resolution="dismiss", **settled))
    assert _refused(lambda: conflicts.update(status="resolved", resolution="delete_both", **settled))
    assert _refused(lambda: judgments.update(relation="rumour"))
    assert _refused(lambda: judgments.update(outcome="shrugged"))
    assert _conflict_row(conflict) == ("pending", "", None, None)
    # Each value the choices name is accepted.
    assert not _refused(lambda: conflicts.update(status="resolved", resolution="retired", **settled))
    assert not _refused(lambda: conflicts.update(relation="contradicts"))
    assert not _refused(lambda: judgments.update(relation="unrelated", outcome="no_action"))
