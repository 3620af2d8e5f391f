"""The metadata filter (JSON containment) of recall, the context pack and the feed: what the
LangGraph store (clients/python) finds a key's live version by. One meaning everywhere: every
key given, with the same value; nested objects alike; arrays by their elements."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from memories.models import Memory
from tests.factories import make_memory


def _feed(persona, metadata: object) -> Any:
    return persona.client.get(f"/api/v1/memories/?metadata={quote(json.dumps(metadata))}")


def test_the_feed_keeps_only_memories_whose_metadata_contains_the_filter(alice, bob, acme):
    wanted = make_memory(
        alice.user, "Deploys go out on Fridays.", project=acme, metadata={"lg": {"ns": "a.b", "key": "k1"}}
    )
    make_memory(alice.user, "Deploys go out on Mondays.", project=acme, metadata={"lg": {"ns": "a.b", "key": "k2"}})
    make_memory(alice.user, "Nothing to do with it.", project=acme, metadata={})
    nested = make_memory(alice.user, "Tagged twice.", project=acme, metadata={"lg": {"prefixes": ["a", "a.b"]}})

    assert [m["id"] for m in _feed(alice, {"lg": {"key": "k1"}}).json()["results"]] == [wanted.id]
    assert [m["id"] for m in _feed(alice, {"lg": {"prefixes": ["a.b"]}}).json()["results"]] == [nested.id]
    assert len(_feed(alice, {"lg": {}}).json()["results"]) == 3
    # The filter narrows what you may see; it never widens it: bob sees alice's project memories.
    assert [m["id"] for m in _feed(bob, {"lg": {"key": "k1"}}).json()["results"]] == [wanted.id]


def test_recall_and_context_keep_only_matching_memories(alice, acme):
    make_memory(alice.user, "The deploy window is Friday 14:00 UTC.", project=acme, metadata={"team": "infra"})
    other = make_memory(alice.user, "The deploy window is Monday 10:00 UTC.", project=acme, metadata={"team": "web"})

    recalled = alice.client.post(
        "/api/v1/recall/", {"query": "When is the deploy window?", "metadata": {"team": "web"}}, format="json"
    )
    packed = alice.client.post(
        "/api/v1/context/", {"query": "When is the deploy window?", "metadata": {"team": "web"}}, format="json"
    )

    assert recalled.status_code == 200
    assert [hit["memory"]["id"] for hit in recalled.json()["results"]] == [other.id]
    assert [item["id"] for item in packed.json()["items"]] == [other.id]


def test_a_filter_that_is_not_a_json_object_answers_400_and_reads_nothing(alice, acme):
    make_memory(alice.user, "A note.", project=acme, metadata={"team": "infra"})
    before = Memory.objects.count()

    as_text = alice.client.get("/api/v1/memories/?metadata=team")
    as_list = _feed(alice, ["team"])
    in_recall = alice.client.post("/api/v1/recall/", {"query": "note", "metadata": "infra"}, format="json")

    assert [as_text.status_code, as_list.status_code, in_recall.status_code] == [400, 400, 400]
    assert as_text.json()["error"]["fields"] == {"metadata": ['Value must be a JSON object, e.g. {"team": "infra"}.']}
    assert as_list.json()["error"]["fields"] == {"metadata": ['Expected a JSON object but got type "list".']}
    assert in_recall.json()["error"]["fields"] == {"metadata": ['Expected a JSON object but got type "str".']}
    assert Memory.objects.count() == before


def test_a_filter_postgresql_cannot_compare_answers_400_not_503(alice, acme):
    """The fuzzer's find: a NUL in a key or a value of the filter, which jsonb cannot hold."""
    with_nul = {"lab\u0000el": {"": "x"}}

    recalled = alice.client.post("/api/v1/recall/", {"query": "note", "metadata": with_nul}, format="json")
    fed = _feed(alice, {"label": "a\u0000b"})

    assert [recalled.status_code, fed.status_code] == [400, 400]
    assert recalled.json()["error"]["fields"] == {"metadata": ["metadata cannot contain the NUL character (\\u0000)."]}
    assert fed.json()["error"]["fields"] == {"metadata": ["metadata cannot contain the NUL character (\\u0000)."]}


def test_a_lone_surrogate_in_metadata_answers_400_and_stores_nothing(alice, acme):
    """JSON's "\\udc00" alone has no UTF-8 form: the driver failed with a 500, in a write's
    metadata and in the filter alike."""
    before = Memory.objects.count()
    lone = '{"a": "\\udc00"}'

    stored = alice.client.post(
        "/api/v1/memories/", f'{{"content": "A note.", "metadata": {lone}}}', content_type="application/json"
    )
    recalled = alice.client.post(
        "/api/v1/recall/", f'{{"query": "note", "metadata": {lone}}}', content_type="application/json"
    )
    fed = alice.client.get(f"/api/v1/memories/?metadata={quote(lone)}")

    assert [stored.status_code, recalled.status_code, fed.status_code] == [400, 400, 400]
    message = ["metadata: Surrogate characters are not allowed: U+DC00."]
    assert stored.json()["error"]["fields"] == {"metadata": message}
    assert recalled.json()["error"]["fields"] == {"metadata": message}
    assert Memory.objects.count() == before
