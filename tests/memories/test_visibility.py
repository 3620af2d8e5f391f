"""The visibility rule of SPEC §2, as a persona matrix over every kind of memory and every action."""

from __future__ import annotations

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
