"""Every request's work is bounded: pages, recall and similar_existing sizes, links per write,
and tokens are only ever compared as hashes, in constant time."""

from __future__ import annotations

import hmac
from typing import Any

from memories.api.pagination import FeedPagination
from memories.models import Memory
from tests.conftest import Persona
from tests.factories import make_memory

FEED = "/api/v1/memories/"


def test_a_page_never_holds_more_than_the_cap(alice: Persona, monkeypatch: Any) -> None:
    assert FeedPagination.max_page_size == 200
    monkeypatch.setattr(FeedPagination, "max_page_size", 3)
    for number in range(5):
        make_memory(alice.user, f"Fact {number} about the release train.")

    page = alice.client.get(FEED, {"limit": 100_000}).json()

    assert len(page["results"]) == 3
    assert page["next"] is not None


def test_similar_existing_is_capped_at_ten(alice: Persona) -> None:
    for number in range(12):
        make_memory(alice.user, f"The build agent number {number} runs on the second rack.")

    answer = alice.client.post(FEED, {"content": "Build agents run on rack two."}, format="json").json()

    assert len(answer["similar_existing"]) == 10


def test_more_than_fifty_declared_links_are_refused_whole(alice: Persona) -> None:
    links = [{"type": "supersedes", "dst": f"mem_{number:026d}"} for number in range(51)]

    response = alice.client.post(FEED, {"content": "One fact replacing many.", "links": links}, format="json")

    assert response.status_code == 400
    assert response.json()["error"]["fields"]["links"] == ["Ensure this field has no more than 50 elements."]
    assert not Memory.objects.exists()


def test_recall_answers_at_most_fifty(alice: Persona) -> None:
    response = alice.client.post("/api/v1/recall/", {"query": "anything", "limit": 51}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid"


def test_a_wrong_token_with_a_real_prefix_is_compared_as_a_hash_in_constant_time(
    alice: Persona, anonymous: Any, monkeypatch: Any
) -> None:
    compared: list[tuple[str, str]] = []
    compare_digest = hmac.compare_digest

    def spy(left: str, right: str) -> bool:
        compared.append((left, right))
        return compare_digest(left, right)

    monkeypatch.setattr("memories.platform.tokens.hmac.compare_digest", spy)
    forged = alice.token[:-4] + "AAAA"
    anonymous.credentials(HTTP_AUTHORIZATION=f"Bearer {forged}")

    assert anonymous.get(FEED).status_code == 401
    assert len(compared) == 1
    presented, stored = compared[0]
    assert stored == alice.credential.token_hash
    assert len(presented) == len(stored) == 64
    assert alice.token not in {presented, stored}
