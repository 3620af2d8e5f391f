"""memory_get's compiled read (memories.compiled) answers exactly what the queryset it
was compiled from answers: for every persona and every way a memory is (or is not) in view, the
same rows with the same fields and related objects; from several threads at once; compiled once."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth.models import Group
from guardian.shortcuts import assign_perm

from memories import selectors, services
from memories.choices import Provenance, State, Visibility
from memories.errors import NotFound
from memories.models import Memory
from memories.visibility import Action, permits_id, visible_memories
from tests.factories import make_memory

FIELDS = [field.attname for field in Memory._meta.concrete_fields if field.attname not in selectors.HEAVY_COLUMNS]


def _story(alice, bob, carol, acme) -> list[Memory]:
    memories = [
        make_memory(alice.user, "Acme ships on Tuesdays", project=acme),
        make_memory(alice.user, "I think the Acme launch will slip", project=acme, visibility=Visibility.PRIVATE),
        make_memory(alice.user, "My dentist appointment is on the 4th"),
        make_memory(bob.user, "Bob keeps the release checklist in the wiki", project=acme),
        make_memory(carol.user, "Carol's own note about her garden"),
        make_memory(bob.user, "Bob's private note shared with carol's group"),
    ]
    assign_perm("memories.view_memory", carol.user, memories[2])
    reviewers = Group.objects.create(name="reviewers")
    carol.user.groups.add(reviewers)
    assign_perm("memories.view_memory", reviewers, memories[5])
    services.project_set_policy(actor=None, via="tests", project=acme, review_provisional=True)
    watcher, _ = services.credential_issue(
        actor=None, via="cli", user=alice.user, label="watcher", provenance=Provenance.PROVISIONAL
    )
    pending = make_memory(alice.user, "Alice said the report is due on the 14th.", project=acme, credential=watcher)
    assert pending.state == State.PENDING
    retired = make_memory(bob.user, "The wiki moved to docs.acme.test", project=acme)
    services.memory_forget(user=bob.user, credential=None, memory_id=retired.pk)
    return [*memories, pending, retired]


def _seen(user, memory_id: str) -> tuple | None:
    try:
        memory = selectors.memory_get(user=user, memory_id=memory_id)
    except NotFound:
        return None
    return (*[getattr(memory, name) for name in FIELDS], memory.owner.username, memory.project and memory.project.slug)


def _by_queryset(user, memory_id: str) -> tuple | None:
    found = list(selectors._memory_by_id(user, memory_id))
    if not found:
        return None
    memory = found[0]
    return (*[getattr(memory, name) for name in FIELDS], memory.owner.username, memory.project and memory.project.slug)


@pytest.mark.django_db
def test_the_compiled_read_answers_what_the_queryset_answers_for_every_persona(alice, bob, carol, dave, acme):
    memories = _story(alice, bob, carol, acme)
    missing = "mem_01J00000000000000000000000"

    answers = {
        (persona.username, memory_id): (_seen(persona.user, memory_id), _by_queryset(persona.user, memory_id))
        for persona in (alice, bob, carol, dave)
        for memory_id in [*(memory.pk for memory in memories), missing]
    }

    assert all(compiled == built for compiled, built in answers.values())
    # It is the rule, not an open door: each persona sees some and not others.
    seen = {key for key, (compiled, _) in answers.items() if compiled is not None}
    assert ("carol", memories[2].pk) in seen  # a grant to her
    assert ("carol", memories[5].pk) in seen  # a grant to her group
    assert ("bob", memories[1].pk) not in seen  # alice's private note
    assert ("bob", memories[6].pk) not in seen  # alice's pending write
    assert ("dave", memories[6].pk) in seen  # the maintainer sees it
    assert ("carol", memories[0].pk) not in seen  # another project's
    assert ("alice", memories[7].pk) in seen  # bob's forgotten project memory: retired, still readable
    assert {shape for shape, _alias in selectors._MEMORY_BY_ID._compiled} == {"view"}  # one shape, compiled once


@pytest.mark.django_db
def test_the_compiled_permission_answers_what_the_rule_answers_for_every_action(alice, bob, carol, dave, acme):
    memories = _story(alice, bob, carol, acme)

    answers = {
        (persona.username, memory.pk, action): (
            permits_id(persona.user, action, memory.pk),
            visible_memories(persona.user, action).filter(pk=memory.pk).exists(),
        )
        for persona in (alice, bob, carol, dave)
        for memory in memories
        for action in Action
    }

    assert all(compiled == built for compiled, built in answers.values())
    assert answers[("dave", memories[3].pk, Action.RETIRE)][0] is True  # a maintainer retires bob's
    assert answers[("bob", memories[0].pk, Action.RETIRE)][0] is False  # a member sees alice's, no more
    assert answers[("bob", memories[0].pk, Action.VIEW)][0] is True


@pytest.mark.django_db(transaction=True)
def test_threads_read_through_one_compiled_read_each_on_its_own_connection(alice, bob, acme):
    memory = make_memory(alice.user, "Acme ships on Tuesdays", project=acme)
    private = make_memory(alice.user, "My locker code is in the drawer", visibility=Visibility.PRIVATE)
    answers: list[tuple[object, ...]] = []
    failures: list[BaseException] = []

    def read(persona) -> None:
        try:
            for _ in range(20):
                public = _seen(persona.user, memory.pk)
                hidden = _seen(persona.user, private.pk)
                answers.append((persona.username, public and public[0], hidden and hidden[0]))
        except BaseException as exc:  # noqa: BLE001 - reported below, with the thread's persona
            failures.append(exc)
        finally:
            from django.db import connection

            connection.close()

    threads = [threading.Thread(target=read, args=(persona,)) for persona in (alice, bob, alice, bob)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert failures == []
    assert sorted(set(answers)) == [("alice", memory.pk, private.pk), ("bob", memory.pk, None)]
    assert len(answers) == 80


def _prepared_reads_of_memories() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE '%%\"memories_memory\"%%'")
        return int(cursor.fetchone()[0])


def test_on_a_direct_connection_the_compiled_read_is_a_prepared_statement(alice, acme):
    from django.db import connection

    from memories.compiled import can_prepare

    memory = make_memory(alice.user, "Acme ships on Tuesdays", project=acme)
    connection.ensure_connection()
    assert can_prepare(connection)
    assert selectors.memory_get(user=alice.user, memory_id=memory.pk).pk == memory.pk
    prepared = _prepared_reads_of_memories()
    assert prepared >= 1
    for _ in range(3):
        assert selectors.memory_get(user=alice.user, memory_id=memory.pk).pk == memory.pk
    # Prepared once, then reused: no new statement in the session however many runs follow.
    assert _prepared_reads_of_memories() == prepared


def test_where_statements_carry_settings_nothing_is_prepared(alice, acme, settings):
    """Behind a transaction pooler (STATEMENT_SETTINGS on the connection) and inside a
    statement_settings block, statements go with a simple-protocol prefix: never prepared, and
    the compiled read still answers."""
    from django.db import connection

    from memories.compiled import can_prepare
    from memories.statement_settings import statement_settings

    memory = make_memory(alice.user, "Acme ships on Tuesdays", project=acme)
    connection.ensure_connection()
    before = _prepared_reads_of_memories()
    with statement_settings({"jit": "off"}):
        assert not can_prepare(connection)
        assert selectors.memory_get(user=alice.user, memory_id=memory.pk).pk == memory.pk
    connection.settings_dict["STATEMENT_SETTINGS"] = {"jit": "off"}
    try:
        assert not can_prepare(connection)
        assert selectors.memory_get(user=alice.user, memory_id=memory.pk).pk == memory.pk
    finally:
        del connection.settings_dict["STATEMENT_SETTINGS"]
    assert _prepared_reads_of_memories() == before


def test_a_logged_compiled_read_is_logged_with_its_sql(alice, acme):
    """Where statements are logged (DEBUG, CaptureQueriesContext) the compiled read runs as
    Django's own cursor runs it, so the log holds its SQL (a prepared one would log None)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    memory = make_memory(alice.user, "Acme ships on Tuesdays", project=acme)
    with CaptureQueriesContext(connection) as captured:
        assert selectors.memory_get(user=alice.user, memory_id=memory.pk).pk == memory.pk
    assert [entry["sql"] is not None and memory.pk in entry["sql"] for entry in captured.captured_queries] == [True]
