"""The database itself refuses states that break SPEC §8's invariants."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.utils import InternalError
from django.utils import timezone

from memories.choices import State
from memories.models import Link, Memory, MemoryEvent
from tests.factories import make_memory


def _refused(update) -> bool:
    try:
        with transaction.atomic():
            update()
    except (IntegrityError, InternalError):
        return True
    return False


@pytest.fixture
def pair(alice, acme) -> tuple[Memory, Memory]:
    return make_memory(alice.user, "Old fact", project=acme), make_memory(alice.user, "New fact", project=acme)


def test_lifecycle_states_must_be_consistent(pair):
    old, new = pair
    now = timezone.now()
    rows = Memory.objects.filter(pk=old.pk)

    assert _refused(lambda: rows.update(superseded_by=new))  # live with a successor
    assert _refused(lambda: rows.update(state=State.SUPERSEDED, invalidated_at=now))  # no successor
    assert _refused(lambda: rows.update(state=State.FORGOTTEN))  # no invalidated_at
    assert _refused(lambda: rows.update(state=State.FORGOTTEN, invalidated_at=now, superseded_by=new))
    assert _refused(lambda: rows.update(state=State.SUPERSEDED, invalidated_at=now, superseded_by=old))
    assert _refused(lambda: rows.update(state="deleted"))
    assert not _refused(lambda: rows.update(state=State.SUPERSEDED, invalidated_at=now, superseded_by=new))


def test_content_kind_scope_and_loops_are_checked(pair, alice):
    old, _ = pair
    rows = Memory.objects.filter(pk=old.pk)

    assert _refused(lambda: rows.update(content="   "))
    assert _refused(lambda: rows.update(content="x" * 8001))
    assert _refused(lambda: rows.update(kind="rumour"))
    assert _refused(lambda: rows.update(project=None))  # personal memories are private
    assert _refused(lambda: rows.update(loop_status="open"))  # a fact is no loop
    task = make_memory(alice.user, "Rotate keys", kind="task")
    assert _refused(lambda: Memory.objects.filter(pk=task.pk).update(loop_status=None))
    assert _refused(lambda: Memory.objects.filter(pk=task.pk).update(loop_status="closed"))  # no closed_at


def test_links_cannot_point_at_their_source_or_repeat(pair):
    old, new = pair

    assert _refused(lambda: Link.objects.create(src=old, dst=old, type="relates_to", origin="link"))
    Link.objects.create(src=new, dst=old, type="relates_to", origin="link")
    assert _refused(lambda: Link.objects.create(src=new, dst=old, type="relates_to", origin="link"))


def test_events_are_append_only(pair):
    event = MemoryEvent.objects.filter(memory=pair[0]).get()

    assert _refused(lambda: MemoryEvent.objects.filter(pk=event.pk).update(reason="rewritten"))
    assert _refused(lambda: MemoryEvent.objects.filter(pk=event.pk).delete())
    with connection.cursor() as cursor:
        assert _refused(lambda: cursor.execute("DELETE FROM memories_memoryevent"))
    assert MemoryEvent.objects.filter(pk=event.pk, reason="").exists()
