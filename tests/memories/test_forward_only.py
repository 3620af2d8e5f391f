"""The database keeps the store forward-only, whatever code touches it."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.utils import InternalError
from django.utils import timezone

from memories.models import Link, Memory
from tests.factories import make_memory
from tests.helpers import remember, supersedes


def refused(statement, params=()) -> bool:
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement, params)
    except (IntegrityError, InternalError):
        return True
    return False


@pytest.fixture
def chain(alice):
    old = make_memory(alice.user, "The API limit is 10/s")
    new = remember(alice, "The API limit is 20/s", links=supersedes(old.id)).json()["memory"]["id"]
    other = make_memory(alice.user, "An unrelated fact")
    return old, Memory.objects.get(pk=new), other


def test_memories_and_links_are_never_deleted(chain):
    *_, other = chain

    assert refused("DELETE FROM memories_memory WHERE id = %s", [other.pk])
    assert refused("DELETE FROM memories_link")
    assert Memory.objects.filter(pk=other.pk).exists()
    assert Link.objects.count() == 1


def test_identity_content_and_owner_never_change(chain, bob):
    _, _, other = chain

    assert refused("UPDATE memories_memory SET content = 'rewritten' WHERE id = %s", [other.pk])
    assert refused("UPDATE memories_memory SET owner_id = %s WHERE id = %s", [bob.user.pk, other.pk])
    assert refused("UPDATE memories_memory SET created_at = now() - interval '1 day' WHERE id = %s", [other.pk])
    assert Memory.objects.get(pk=other.pk).content == "An unrelated fact"


def test_only_allowed_lifecycle_transitions(chain):
    old, new, other = chain
    now = timezone.now()

    # superseded -> forgotten skips restore; forgotten -> superseded revives a dead memory
    assert refused("UPDATE memories_memory SET state = 'forgotten', superseded_by_id = NULL WHERE id = %s", [old.pk])
    Memory.objects.filter(pk=other.pk).update(state="forgotten", invalidated_at=now)
    assert refused(
        "UPDATE memories_memory SET state = 'superseded', superseded_by_id = %s WHERE id = %s", [new.pk, other.pk]
    )


def test_a_successor_is_never_overwritten(chain):
    old, _, other = chain

    assert refused("UPDATE memories_memory SET superseded_by_id = %s WHERE id = %s", [other.pk, old.pk])
    assert Memory.objects.get(pk=old.pk).superseded_by_id != other.pk


def test_a_link_only_goes_from_active_to_reverted(chain):
    *_, other = chain
    link = Link.objects.get()

    assert refused("UPDATE memories_link SET dst_id = %s WHERE id = %s", [other.pk, link.pk])
    assert refused("UPDATE memories_link SET origin = 'link' WHERE id = %s", [link.pk])
    Link.objects.filter(pk=link.pk).update(reverted=True, reverted_at=timezone.now())
    assert refused("UPDATE memories_link SET reverted = false, reverted_at = NULL WHERE id = %s", [link.pk])


def test_the_services_still_work_within_the_rules(chain, alice):
    old, *_ = chain

    assert alice.client.post(f"/api/v1/memories/{old.pk}/restore/", {}, format="json").json()["state"] == "live"
    assert alice.client.post(f"/api/v1/memories/{old.pk}/forget/", {}, format="json").json()["state"] == "forgotten"
    assert alice.client.post(f"/api/v1/memories/{old.pk}/restore/", {}, format="json").json()["state"] == "live"
