"""similar_existing and hint (SPEC R-N1 to R-N4)."""

from __future__ import annotations

import random
from datetime import timedelta

import numpy as np
from django.utils import timezone

from memories.choices import State
from memories.models import Memory
from memories.selectors import similar_existing
from memories.text import content_fingerprint
from tests.factories import ProjectFactory, make_memory
from tests.helpers import backdate, remember, supersedes


def test_the_first_memory_gets_an_empty_list_and_no_hint(alice):
    body = remember(alice, "The first thing alice tells us").json()

    assert body["similar_existing"] == []
    assert "hint" not in body


def test_the_nearest_memories_are_ranked_by_distance_with_the_fields_of_r_n3(alice, acme):
    old = make_memory(alice.user, "The deploy window is Monday 10:00 UTC.", project=acme)
    backdate(old, timezone.now() - timedelta(days=23))
    make_memory(alice.user, "I like my coffee black.")
    make_memory(alice.user, "Deploys need two approvals in the Acme repo.", project=acme)

    body = remember(alice, "Deploys now happen on Friday 14:00 UTC.", project="acme", session="another").json()

    listed = body["similar_existing"]
    assert listed[0]["id"] == old.id  # older and from another session: still first
    assert len(listed) == 3
    distances = [entry["distance"] for entry in listed]
    assert distances == sorted(distances)
    first = listed[0]
    assert set(first) == {"id", "kind", "project", "distance", "age", "age_seconds", "created_at", "preview"}
    assert first["kind"] == "fact"
    assert first["project"] == "acme"
    assert first["age"] == "3 weeks"
    assert 23 * 86400 <= first["age_seconds"] < 23 * 86400 + 60
    assert first["preview"] == "The deploy window is Monday 10:00 UTC."
    assert old.id in body["hint"]
    assert '"links": [{"type": "supersedes", "dst": "' + old.id + '"}]' in body["hint"]


def test_distances_are_the_exact_cosine_distances(alice):
    others = [make_memory(alice.user, text) for text in ("Paris is in France", "The sky is blue", "Tea or coffee")]

    body = remember(alice, "Berlin is in Germany").json()

    new = Memory.objects.get(pk=body["memory"]["id"])
    expected = sorted((1 - float(np.dot(np.array(new.embedding), np.array(m.embedding))), m.id) for m in others)
    assert [entry["id"] for entry in body["similar_existing"]] == [memory_id for _, memory_id in expected]
    for entry, (distance, _) in zip(body["similar_existing"], expected, strict=True):
        assert abs(entry["distance"] - distance) < 1e-5


def test_no_floor_an_unrelated_memory_is_still_shown(alice):
    unrelated = make_memory(alice.user, "My cat is called Miso")

    body = remember(alice, "Quarterly revenue grew 12%").json()

    assert [entry["id"] for entry in body["similar_existing"]] == [unrelated.id]


def test_capped_at_ten(alice):
    for n in range(12):
        make_memory(alice.user, f"Service number {n} runs on port {8000 + n}")

    body = remember(alice, "Service number 99 runs on port 9999").json()

    assert len(body["similar_existing"]) == 10


def test_only_own_live_memories_from_personal_scope_and_the_project_written_into(alice, bob, carol, acme):
    personal = make_memory(alice.user, "Deploys: I always run the smoke tests first")
    in_acme = make_memory(alice.user, "Acme deploys on Mondays", project=acme)
    elsewhere_project = ProjectFactory.create(slug="initech")
    from memories.services import membership_set

    membership_set(project=elsewhere_project, user=alice.user, role="member")
    make_memory(alice.user, "Initech deploys on Mondays", project=elsewhere_project)
    make_memory(bob.user, "Acme deploys on Mondays, says bob", project=acme)
    make_memory(carol.user, "Globex deploys on Mondays")
    retired = make_memory(alice.user, "Acme deploys on Sundays", project=acme)
    remember(alice, "Acme deploys on Saturdays", project="acme", links=supersedes(retired.id))

    body = remember(alice, "Acme deploys on Tuesdays now", project="acme").json()

    listed = {entry["id"] for entry in body["similar_existing"]}
    saturday = Memory.objects.get(content="Acme deploys on Saturdays").id
    assert listed == {personal.id, in_acme.id, saturday}
    assert body["memory"]["id"] not in listed


def test_a_personal_write_sees_only_the_personal_scope(alice, acme):
    personal = make_memory(alice.user, "I deploy on Mondays")
    make_memory(alice.user, "Acme deploys on Mondays", project=acme)

    body = remember(alice, "I deploy on Tuesdays now").json()

    assert [entry["id"] for entry in body["similar_existing"]] == [personal.id]


def test_an_absorbed_write_lists_neighbours_but_not_the_absorbing_memory(alice):
    neighbour = make_memory(alice.user, "The staging DB is db-2")
    first = remember(alice, "The staging DB is db-3").json()["memory"]

    body = remember(alice, "the staging db is DB-3").json()

    assert body["absorbed"] is True
    assert [entry["id"] for entry in body["similar_existing"]] == [neighbour.id]
    assert first["id"] not in body["hint"]


def test_the_list_is_the_exact_top_ten_among_hundreds(alice, acme):
    rng = random.Random(7)
    dims = 384
    rows = []
    for n in range(600):
        vector = np.array([rng.gauss(0, 1) for _ in range(dims)])
        vector /= np.linalg.norm(vector)
        rows.append(
            Memory(
                content=f"synthetic {n}",
                content_fingerprint=content_fingerprint(f"synthetic {n}"),
                owner=alice.user,
                project=acme if n % 3 else None,
                visibility="project" if n % 3 else "private",
                embedding=vector.tolist(),
                state=State.LIVE,
            )
        )
    Memory.objects.bulk_create(rows)
    query = np.array([rng.gauss(0, 1) for _ in range(dims)])
    query /= np.linalg.norm(query)

    found = similar_existing(user=alice.user, embedding=query.tolist(), project=acme, exclude_ids=[])

    exact = sorted(rows, key=lambda m: 1 - float(np.dot(query, np.array(m.embedding))))[:10]
    assert [item.memory.pk for item in found] == [m.pk for m in exact]
