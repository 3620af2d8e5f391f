"""The visibility rule of SPEC §2, as a persona matrix over every kind of memory and every action."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser, Group, User
from guardian.shortcuts import assign_perm

from memories import services
from memories.choices import Visibility
from memories.errors import Forbidden, NotFound
from memories.models import Link, Memory, MemoryEvent
from memories.visibility import Action, permits, unrestricted_memories, visibility_condition, visible_memories
from tests.factories import make_memory

# Who sees alice's memories: (alice, bob: same project, carol: outsider, dave: maintainer)
MATRIX = {
    "project": {"alice": True, "bob": True, "carol": False, "dave": True},
    "project-private": {"alice": True, "bob": False, "carol": False, "dave": False},
    "personal": {"alice": True, "bob": False, "carol": False, "dave": False},
}


@pytest.fixture
def memories_of_alice(alice, acme) -> dict[str, Memory]:
    return {
        "project": make_memory(alice.user, "Acme ships on Tuesdays", project=acme),
        "project-private": make_memory(
            alice.user, "I think the Acme launch will slip", project=acme, visibility=Visibility.PRIVATE
        ),
        "personal": make_memory(alice.user, "My dentist appointment is on the 4th"),
    }


@pytest.mark.parametrize("case", list(MATRIX))
def test_persona_matrix_through_the_api(alice, bob, carol, dave, memories_of_alice, case):
    memory = memories_of_alice[case]
    personas = {"alice": alice, "bob": bob, "carol": carol, "dave": dave}

    for name, persona in personas.items():
        response = persona.client.get(f"/api/v1/memories/{memory.id}/")
        expected = 200 if MATRIX[case][name] else 404
        assert response.status_code == expected, (case, name)
        assert (memory in visible_memories(persona.user)) is MATRIX[case][name], (case, name)


def test_a_guardian_grant_shares_one_memory_with_a_user(alice, carol, memories_of_alice):
    personal = memories_of_alice["personal"]

    assign_perm("memories.view_memory", carol.user, personal)

    assert carol.client.get(f"/api/v1/memories/{personal.id}/").status_code == 200
    assert set(visible_memories(carol.user)) == {personal}


def test_a_guardian_grant_to_a_group_shares_with_its_members(alice, carol, memories_of_alice):
    private = memories_of_alice["project-private"]
    reviewers = Group.objects.create(name="reviewers")
    carol.user.groups.add(reviewers)

    assign_perm("memories.view_memory", reviewers, private)

    assert carol.client.get(f"/api/v1/memories/{private.id}/").status_code == 200


def test_a_global_permission_does_not_stand_in_for_a_grant(alice, carol, memories_of_alice):
    assign_perm("memories.view_memory", carol.user)  # global, not per object

    assert carol.client.get(f"/api/v1/memories/{memories_of_alice['personal'].id}/").status_code == 404
    assert not visible_memories(carol.user).exists()


# Who may retire (and so moderate) alice's memories: the owner, and a maintainer of the project
# who can see the memory — never a maintainer of what is private to alice.
RETIRE_MATRIX = {
    "project": {"alice": True, "bob": False, "carol": False, "dave": True},
    "project-private": {"alice": True, "bob": False, "carol": False, "dave": False},
    "personal": {"alice": True, "bob": False, "carol": False, "dave": False},
}
EXPECTED = {Action.VIEW: MATRIX, Action.RETIRE: RETIRE_MATRIX, Action.MODERATE: RETIRE_MATRIX}


@pytest.mark.parametrize("action", list(Action))
def test_one_rule_answers_every_action_for_every_persona(alice, bob, carol, dave, memories_of_alice, action):
    personas = {"alice": alice, "bob": bob, "carol": carol, "dave": dave}

    for case, memory in memories_of_alice.items():
        for name, persona in personas.items():
            expected = EXPECTED[action][case][name]
            assert (memory in visible_memories(persona.user, action)) is expected, (action, case, name)
            assert permits(persona.user, action, memory) is expected, (action, case, name)


def test_a_grant_lets_one_see_a_memory_never_retire_it(alice, carol, memories_of_alice):
    personal = memories_of_alice["personal"]

    assign_perm("memories.view_memory", carol.user, personal)

    assert permits(carol.user, Action.VIEW, personal)
    assert not permits(carol.user, Action.RETIRE, personal)
    assert not permits(carol.user, Action.MODERATE, personal)


def test_a_superuser_may_do_everything_and_no_one_else_is_anonymous(alice, memories_of_alice):
    root = User.objects.create_superuser("root", "root@example.com", "pw")

    for action in Action:
        assert set(visible_memories(root, action)) == set(memories_of_alice.values())
        assert not visible_memories(AnonymousUser(), action).exists()


def test_an_unknown_action_is_refused_rather_than_read_as_any_other(alice):
    with pytest.raises(ValueError, match="delete"):
        visibility_condition(alice.user, "delete")  # type: ignore[arg-type]


def test_reading_around_the_rule_must_say_why(memories_of_alice):
    with pytest.raises(ValueError, match="reason"):
        unrestricted_memories(reason=" ")
    assert unrestricted_memories(reason="the test reads every memory").count() == 3


def _everything() -> list[object]:
    return [
        sorted(Memory.objects.values_list("pk", "state", "superseded_by_id", "invalidated_at")),
        sorted(Link.objects.values_list("pk", "reverted")),
        MemoryEvent.objects.count(),
    ]


@pytest.mark.parametrize(
    ("who", "case", "refusal"),
    [
        ("bob", "project", Forbidden),  # sees it, may not retire it
        ("dave", "project-private", NotFound),  # maintainer, but it is private to alice
        ("carol", "project", NotFound),
        ("bob", "personal", NotFound),
    ],
)
def test_a_refused_retirement_changes_nothing(alice, bob, carol, dave, memories_of_alice, who, case, refusal):
    persona = {"bob": bob, "carol": carol, "dave": dave}[who]
    memory = memories_of_alice[case]
    own = make_memory(persona.user, f"A note of {who}'s own")
    before = _everything()

    with pytest.raises(refusal):
        services.memory_forget(user=persona.user, credential=None, memory_id=memory.pk)
    with pytest.raises(refusal):
        services.link_create(user=persona.user, src_id=memory.pk, dst_id=own.pk, type="relates_to")

    assert _everything() == before


def test_the_parts_of_what_a_user_sees_add_up_to_the_rule_for_every_persona(alice, bob, carol, dave, acme):
    """visible_parts splits what visible_memories gives by the ways a memory is in view; an exact
    scan over the parts (recall's vector side) must read exactly the rule's rows, for owners,
    members, maintainers, grants to a user and to a group, and a pending write."""
    from memories.choices import Provenance, State
    from memories.services import credential_issue
    from memories.visibility import visible_parts

    make_memory(alice.user, "Acme ships on Tuesdays", project=acme)
    make_memory(alice.user, "I think the Acme launch will slip", project=acme, visibility=Visibility.PRIVATE)
    personal = make_memory(alice.user, "My dentist appointment is on the 4th")
    make_memory(bob.user, "Bob keeps the release checklist in the wiki", project=acme)
    make_memory(carol.user, "Carol's own note about her garden")
    shared = make_memory(bob.user, "Bob's private note shared with carol's group")
    assign_perm("memories.view_memory", carol.user, personal)
    reviewers = Group.objects.create(name="reviewers")
    carol.user.groups.add(reviewers)
    assign_perm("memories.view_memory", reviewers, shared)
    services.project_set_policy(actor=None, via="tests", project=acme, review_provisional=True)
    watcher, _ = credential_issue(
        actor=None, via="cli", user=alice.user, label="watcher", provenance=Provenance.PROVISIONAL
    )
    pending = make_memory(alice.user, "Alice said the report is due on the 14th.", project=acme, credential=watcher)
    assert pending.state == State.PENDING

    for persona in (alice, bob, carol, dave):
        visible = visible_memories(persona.user)
        parts = visible_parts(persona.user, visible)
        assert len(parts) in (3, 4), persona.user.username  # owned, member projects (if any), the two grants
        union = [pk for part in parts for pk in part.values_list("pk", flat=True)]
        assert set(union) == set(visible.values_list("pk", flat=True)), persona.user.username
        # Narrowed further (recall's state and kind filters), the parts still add up.
        live = visible.filter(state=State.LIVE, kind="fact")
        live_union = {pk for part in visible_parts(persona.user, live) for pk in part.values_list("pk", flat=True)}
        assert live_union == set(live.values_list("pk", flat=True)), persona.user.username
    # bob does not see alice's pending write; dave, the maintainer, does; and carol the grants.

    def seen_by(persona: object) -> set[str]:
        user = persona.user  # type: ignore[attr-defined]
        return {pk for part in visible_parts(user, visible_memories(user)) for pk in part.values_list("pk", flat=True)}

    assert pending.pk not in seen_by(bob)
    assert pending.pk in seen_by(dave)
    assert {personal.pk, shared.pk} <= seen_by(carol)


def test_an_exact_scan_of_what_a_user_sees_reads_it_by_index_not_the_whole_table(alice, bob, acme):
    """At a million memories the OR-ed rule alone made recall's exact scan read the whole table
    (830 ms for a user who sees 1,303 rows, bench/scale.py); by its parts each way of seeing is
    read from its index. With sequential scans priced out, the plan shows whether any part still
    has no other way than reading the whole table or a whole index (the single OR-ed scan has
    none: it fails here)."""
    import numpy as np
    from django.db import connection, transaction

    from memories.models import Project
    from memories.search import exact_nearest
    from memories.text import content_fingerprint
    from memories.visibility import visible_parts

    make_memory(alice.user, "Acme ships on Tuesdays", project=acme)
    make_memory(bob.user, "Bob keeps the release checklist in the wiki", project=acme)
    # A store where alice sees a small share: other owners' rows, personal and in other projects.
    rng = np.random.default_rng(7)
    others = [User.objects.create(username=f"other{n}") for n in range(20)]
    projects = [Project.objects.create(slug=f"other-{n}", name=f"Other {n}") for n in range(20)]
    rows = []
    for n in range(6000):
        vector = rng.normal(size=384)
        content = f"someone else's note {n}"
        rows.append(
            Memory(
                content=content,
                content_fingerprint=content_fingerprint(content),
                owner=others[n % 20],
                project=projects[n % 20] if n % 3 else None,
                visibility="project" if n % 3 else "private",
                kind="fact",
                embedding=(vector / np.linalg.norm(vector)).tolist(),
            )
        )
    Memory.objects.bulk_create(rows, batch_size=2000)
    sent: list[tuple[str, Any]] = []

    def capture(execute, sql, params, many, context):
        sent.append((sql, params))
        return execute(sql, params, many, context)

    visible = visible_memories(alice.user)
    with connection.execute_wrapper(capture):
        found = exact_nearest(visible_parts(alice.user, visible), [1.0] * 384, 10)
    assert len(found) == 2
    sql, params = sent[-1]
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("ANALYZE memories_memory, memories_membership")  # the statistics a live store has
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(f"EXPLAIN (FORMAT JSON) {sql}", params)
        plan = cursor.fetchone()[0]
    plan = json.loads(plan) if isinstance(plan, str) else plan
    scans = [node for node in _plan_nodes(plan[0]["Plan"]) if node.get("Relation Name") == "memories_memory"]
    assert scans
    # Each read of the table is bounded by an index condition (a bitmap heap scan's comes from
    # its bitmap index scans, below): none walks the whole table or a whole index.
    for node in scans:
        assert node["Node Type"] in {"Index Scan", "Index Only Scan", "Bitmap Heap Scan"}, node["Node Type"]
        if node["Node Type"] != "Bitmap Heap Scan":
            assert node.get("Index Cond"), {key: node.get(key) for key in ("Index Name", "Index Cond", "Relation Name")}
    for node in _plan_nodes(plan[0]["Plan"]):
        if node["Node Type"] == "Bitmap Index Scan":
            assert node.get("Index Cond"), {key: node.get(key) for key in ("Index Name", "Index Cond", "Relation Name")}


def _plan_nodes(node: dict) -> list[dict]:
    found = [node]
    for child in node.get("Plans", []):
        found += _plan_nodes(child)
    return found
