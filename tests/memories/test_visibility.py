"""The visibility rule of SPEC §2, as a persona matrix over every kind of memory."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from guardian.shortcuts import assign_perm

from memories.choices import Visibility
from memories.models import Memory
from memories.visibility import can_retire, visible_memories
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


def test_only_the_owner_and_project_maintainers_may_retire(alice, bob, carol, dave, memories_of_alice):
    project_memory = memories_of_alice["project"]
    personal = memories_of_alice["personal"]

    assert [can_retire(p.user, project_memory) for p in (alice, bob, carol, dave)] == [True, False, False, True]
    assert [can_retire(p.user, personal) for p in (alice, bob, carol, dave)] == [True, False, False, False]
