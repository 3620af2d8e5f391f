"""manage.py check_integrity: every invariant of SPEC §8, each breach named with its ids."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection

from memories.models import Link, Memory, MemoryEvent
from tests.factories import make_memory
from tests.helpers import remember, supersedes


def check(*args: str) -> tuple[int, str]:
    out = StringIO()
    try:
        call_command("check_integrity", *args, stdout=out, stderr=StringIO())
    except SystemExit as exit_info:
        return int(exit_info.code or 0), out.getvalue()
    return 0, out.getvalue()


def bypass(sql: str, params: list) -> None:
    """Damage the store the way only a bug or a manual edit could (triggers off)."""
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute(sql, params)
        cursor.execute("SET LOCAL session_replication_role = DEFAULT")


@pytest.fixture
def chain(alice):
    old = make_memory(alice.user, "The API limit is 10/s", kind="task")
    new = remember(alice, "The API limit is 20/s", links=supersedes(old.id)).json()["memory"]["id"]
    return old, new


def test_a_sound_store_passes(chain):
    assert check() == (0, "All lifecycle invariants hold.\n")


def test_a_superseded_memory_without_its_link_is_a_breach_that_fix_repairs(chain):
    old, new = chain
    bypass("DELETE FROM memories_link", [])

    code, out = check()
    fixed_code, fixed_out = check("--fix")

    assert code == 1
    assert f"BREACH superseded_without_link: {old.pk}, {new}" in out
    assert fixed_code == 0
    assert "fixed superseded_without_link" in fixed_out
    assert Link.objects.get().origin == "moderator"
    assert MemoryEvent.objects.filter(memory=old, reason="check_integrity --fix").exists()


def test_cycles_loops_and_missing_events_are_reported(chain, alice):
    old, new = chain
    bypass(
        "UPDATE memories_memory SET state = 'superseded', superseded_by_id = %s, invalidated_at = now() WHERE id = %s",
        [old.pk, new],
    )
    lonely = make_memory(alice.user, "No birth certificate")
    bypass("DELETE FROM memories_feedevent WHERE memory_id = %s", [lonely.pk])
    bypass("DELETE FROM memories_memoryevent WHERE memory_id = %s", [lonely.pk])
    bypass("UPDATE memories_memory SET closed_by_id = NULL WHERE id = %s", [old.pk])

    code, out = check("--fix")

    assert code == 1
    assert "BREACH supersede_cycle:" in out
    assert old.pk in out
    assert f"BREACH loop_closed_without_successor: {old.pk}" in out
    assert f"BREACH no_creation_event: {lonely.pk}" in out


def test_a_missing_trigger_is_a_breach(chain):
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # no deferred checks pending on the table
        cursor.execute("ALTER TABLE memories_memoryevent DISABLE TRIGGER memoryevent_append_only")

    code, out = check()

    assert code == 1
    assert "trigger_missing" in out
    assert "memoryevent_append_only" in out
    assert Memory.objects.count() == 2


def test_a_disabled_feed_trigger_is_a_breach(chain):
    """Lifecycle entries written while it is off would never reach the feed or a webhook."""
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("ALTER TABLE memories_memoryevent DISABLE TRIGGER memory_event_feed")

    code, out = check()

    assert code == 1
    assert "BREACH trigger_missing: -: the trigger memory_event_feed is missing or disabled" in out
