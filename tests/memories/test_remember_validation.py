"""remember's refusals and their order (SPEC R-V1 to R-V4, R-S10): nothing stored on any."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from memories.choices import Visibility
from tests.factories import issue_token, make_memory
from tests.helpers import remember, store_snapshot, supersedes


@pytest.fixture
def watcher(alice):
    """alice's background watcher: a provisional credential."""
    _, token = issue_token(alice.user, provisional=True, label="watcher")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


@pytest.mark.parametrize(
    "links",
    [
        [{"type": "replaces", "dst": "mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2T"}],
        [{"type": "supersedes", "dst": "mem_123"}],
        [{"type": "supersedes", "dst": "01JD8Z6Q4X2V7Y9K3M5N8P0R2T"}],
        [{"type": "supersedes"}],
        [{"dst": "mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2T"}],
        "supersedes",
        [{"type": "relates_to", "dst": "mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2T"}] * 51,
    ],
)
def test_malformed_links_are_a_400_field_error(alice, links):
    before = store_snapshot()

    response = remember(alice, "New fact", links=links)

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid"
    assert "links" in response.json()["error"]["fields"]
    assert store_snapshot() == before


def test_more_than_ten_distinct_supersedes_is_refused(alice):
    targets = [make_memory(alice.user, f"Old fact number {n}") for n in range(11)]
    before = store_snapshot()

    response = remember(alice, "One fact to replace them all", links=supersedes(*(t.id for t in targets)))

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "too_many_supersedes"
    assert store_snapshot() == before


def test_repeats_of_one_target_count_once(alice):
    targets = [make_memory(alice.user, f"Old fact number {n}") for n in range(10)]
    links = supersedes(*(t.id for t in targets)) + supersedes(targets[0].id, targets[0].id)

    response = remember(alice, "One fact to replace ten", links=links)

    assert response.status_code == 201
    assert response.json()["superseded"] == [t.id for t in targets]


def test_a_provisional_credential_may_not_declare_supersedes(alice, watcher):
    target = make_memory(alice.user, "The office is on floor 3")
    before = store_snapshot()

    refused = watcher.post(
        "/api/v1/memories/", {"content": "The office is on floor 5", "links": supersedes(target.id)}, format="json"
    )

    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "provisional_cannot_supersede"
    assert store_snapshot() == before
    accepted = watcher.post("/api/v1/memories/", {"content": "The office is on floor 5"}, format="json")
    assert accepted.status_code == 201
    assert accepted.json()["memory"]["provenance"] == "provisional"


def test_order_validation_before_provenance(alice, watcher):
    targets = [make_memory(alice.user, f"Old fact number {n}") for n in range(11)]

    invalid = watcher.post("/api/v1/memories/", {"content": "", "links": supersedes(targets[0].id)}, format="json")
    too_many = watcher.post(
        "/api/v1/memories/", {"content": "x", "links": supersedes(*(t.id for t in targets))}, format="json"
    )

    assert (invalid.status_code, invalid.json()["error"]["code"]) == (400, "invalid")
    assert (too_many.status_code, too_many.json()["error"]["code"]) == (400, "too_many_supersedes")


def test_order_provenance_before_project(alice, watcher):
    target = make_memory(alice.user, "Old fact")

    response = watcher.post(
        "/api/v1/memories/",
        {"content": "New fact", "project": "no-such-project", "links": supersedes(target.id)},
        format="json",
    )

    assert (response.status_code, response.json()["error"]["code"]) == (403, "provisional_cannot_supersede")


def test_order_project_before_targets(alice, carol):
    carols_secret = make_memory(carol.user, "carol's private note")
    before = store_snapshot()

    response = remember(alice, "New fact", project="globex", links=supersedes(carols_secret.id))

    assert (response.status_code, response.json()["error"]["code"]) == (404, "project_not_found")
    assert store_snapshot() == before


def test_visibility_project_on_a_personal_memory_is_refused(alice):
    response = remember(alice, "Personal thing", visibility=Visibility.PROJECT)

    assert response.status_code == 400
    assert "visibility" in response.json()["error"]["fields"]


@pytest.mark.parametrize("metadata", [{"note": "a\u0000b"}, {"a\u0000": 1}, {"deep": [{"x": ["\u0000"]}]}])
def test_metadata_with_a_nul_character_is_a_400_field_error(alice, metadata):
    # PostgreSQL's jsonb cannot store \u0000: the insert failed, and the write answered 503.
    before = store_snapshot()

    response = remember(alice, "The standup is at 09:30.", metadata=metadata)

    assert response.status_code == 400
    assert list(response.json()["error"]["fields"]) == ["metadata"]
    assert store_snapshot() == before


# 700: deep enough that walking it recursively exhausted the stack (a 500), and below the depth
# where Python's own JSON parser runs out of recursion, which moves with the depth of the
# middleware stack above it (the probes and metrics middleware took 900 past it): there the
# parser answers 400 malformed_request (memories/api/parsers.py).
@pytest.mark.parametrize("depth", [65, 700])
def test_metadata_nested_too_deeply_is_a_400_field_error(alice, depth):
    before = store_snapshot()
    nested = f"{'[' * depth}1{']' * depth}"
    body = f'{{"content": "The standup is at 09:30.", "metadata": {{"a": {nested}}}}}'

    response = alice.client.post("/api/v1/memories/", body, content_type="application/json")

    assert response.status_code == 400
    assert "nested deeper than 64 levels" in response.json()["error"]["fields"]["metadata"][0]
    assert store_snapshot() == before


def test_metadata_nested_64_levels_is_stored(alice):
    nested: dict[str, object] = {"a": 1}
    for _ in range(62):
        nested = {"a": nested}

    assert remember(alice, "The standup is at 09:30.", metadata=nested).status_code == 201


def test_json_nested_past_the_parsers_recursion_is_a_400_not_a_500(alice):
    before = store_snapshot()
    nested = f"{'[' * 5000}1{']' * 5000}"
    body = f'{{"content": "The standup is at 09:30.", "metadata": {{"a": {nested}}}}}'

    response = alice.client.post("/api/v1/memories/", body, content_type="application/json")

    assert response.status_code == 400
    assert "nested too deeply" in response.json()["error"]["message"]
    assert store_snapshot() == before
