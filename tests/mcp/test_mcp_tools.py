"""Every MCP tool, called with the SDK's client against a live uvicorn serving the project."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from memories.choices import State
from memories.mcp.tools import TOOLS
from memories.models import Link, Memory, MemoryEvent
from memories.services import feed_epoch_advance
from tests.conftest import Persona
from tests.factories import issue_token
from tests.helpers import store_snapshot
from tests.mcp.conftest import Agent, agent_for

pytestmark = pytest.mark.django_db(transaction=True)

AGENT_TOOLS = {
    "remember",
    "remember_batch",
    "recall",
    "get_context",
    "forget",
    "restore_memory",
    "link",
    "memory_history",
    "whoami",
}


def test_the_tools_teach_recall_first_and_the_supersede_syntax(asgi_server: str, alice: Persona) -> None:
    tools = {tool.name: tool for tool in agent_for(asgi_server, alice).tools()}

    assert set(tools) >= AGENT_TOOLS
    assert set(tools) - AGENT_TOOLS == {"memory_get", "memory_feed", "events"}
    remember = tools["remember"]
    assert remember.description is not None
    assert "Recall first" in remember.description
    assert '"links": [{"type": "supersedes", "dst": "mem_' in remember.description
    assert "similar_existing" in remember.description
    assert remember.input_schema["required"] == ["content"]
    link_item = remember.input_schema["properties"]["links"]["items"]
    assert link_item["required"] == ["type", "dst"]
    assert "supersedes" in link_item["properties"]["type"]["enum"]
    for name in ("forget", "restore_memory", "memory_history"):
        assert tools[name].input_schema["required"] == ["memory_id"]
    assert tools["link"].input_schema["required"] == ["src", "dst", "type"]
    read_only = {name for name, tool in tools.items() if tool.annotations and tool.annotations.read_only_hint}
    assert read_only == {"recall", "get_context", "memory_history", "memory_get", "memory_feed", "whoami", "events"}


def test_remember_answers_what_the_rest_api_answers(asgi_server: str, alice: Persona, mode: str) -> None:
    agent = agent_for(asgi_server, alice, mode)
    body = agent.ok("remember", {"content": "Staging runs on db-2.", "project": "acme", "session": "s1"})

    memory = Memory.objects.get(pk=body["memory"]["id"])
    assert (memory.content, memory.owner, memory.project_id is not None) == ("Staging runs on db-2.", alice.user, True)
    assert body["absorbed"] is False
    assert body["similar_existing"] == []
    assert "hint" not in body
    rest = alice.client.post("/api/v1/memories/", {"content": "Prod runs on db-9.", "project": "acme"}, format="json")
    assert set(body) | {"hint"} == set(rest.json())  # the REST write had a neighbour, hence its hint
    assert set(body["memory"]) == set(rest.json()["memory"])

    again = agent.ok("remember", {"content": "staging runs on DB-2", "project": "acme", "session": "s1"})
    assert (again["absorbed"], again["memory"]["id"]) == (True, memory.pk)
    assert Memory.objects.filter(owner=alice.user).count() == 2


def test_a_declared_supersede_retires_the_old_version_in_the_same_call(
    asgi_server: str, alice: Persona, mode: str
) -> None:
    agent = agent_for(asgi_server, alice, mode)
    old = agent.ok("remember", {"content": "Deploy window is Monday 10:00 UTC.", "project": "acme"})["memory"]

    body = agent.ok(
        "remember",
        {
            "content": "Deploy window is Friday 14:00 UTC.",
            "project": "acme",
            "links": [{"type": "supersedes", "dst": old["id"]}, {"type": "supersedes", "dst": old["id"]}],
        },
    )

    new_id = body["memory"]["id"]
    assert body["superseded"] == [old["id"]]
    assert body["skipped"] == []
    assert "similar_existing" not in body
    retired = Memory.objects.get(pk=old["id"])
    assert (retired.state, retired.superseded_by_id) == (State.SUPERSEDED, new_id)
    assert Link.objects.filter(src_id=new_id, dst_id=old["id"], type="supersedes", origin="declared").count() == 1

    history = agent.ok("memory_history", {"memory_id": old["id"]})
    assert history["head"] == new_id
    assert [version["id"] for version in history["versions"]] == [old["id"], new_id]
    assert [(edge["src"], edge["dst"], edge["origin"]) for edge in history["edges"]] == [
        (new_id, old["id"], "declared")
    ]
    assert history == alice.client.get(f"/api/v1/memories/{old['id']}/history/").json()


def test_similar_existing_follow_up_declares_the_supersede(asgi_server: str, alice: Persona) -> None:
    agent = agent_for(asgi_server, alice)
    first = agent.ok("remember", {"content": "The deploy window is Monday 10:00.", "project": "acme"})["memory"]
    agent.ok("remember", {"content": "Lunch is served at noon in the atrium.", "project": "acme"})

    second = agent.ok("remember", {"content": "The deploy window is Monday 11:00.", "project": "acme"})

    nearest = second["similar_existing"][0]
    assert nearest["id"] == first["id"]
    assert set(nearest) == {"id", "kind", "project", "distance", "score", "age", "age_seconds", "created_at", "preview"}
    assert f'"links": [{{"type": "supersedes", "dst": "{first["id"]}"}}]' in second["hint"]

    follow_up = agent.ok(
        "remember",
        {
            "content": "The deploy window is Monday 11:00.",
            "project": "acme",
            "links": [{"type": "supersedes", "dst": nearest["id"]}],
        },
    )
    assert follow_up["absorbed"] is True
    assert follow_up["memory"]["id"] == second["memory"]["id"]
    assert follow_up["superseded"] == [first["id"]]
    assert Memory.objects.get(pk=first["id"]).superseded_by_id == second["memory"]["id"]


def test_a_provisional_token_cannot_declare_a_supersede_and_nothing_is_written(
    asgi_server: str, alice: Persona, mode: str
) -> None:
    target = agent_for(asgi_server, alice).ok("remember", {"content": "Office is on floor 3.", "project": "acme"})
    _credential, provisional_token = issue_token(alice.user, label="scratch", provisional=True)
    provisional = Agent(asgi_server, provisional_token, mode=mode)
    before = store_snapshot()

    error = provisional.error(
        "remember",
        {
            "content": "Office is on floor 4.",
            "project": "acme",
            "links": [{"type": "supersedes", "dst": target["memory"]["id"]}],
        },
    )

    assert error["code"] == "provisional_cannot_supersede"
    assert store_snapshot() == before
    accepted = provisional.ok("remember", {"content": "Office might move to floor 4.", "project": "acme"})
    assert accepted["memory"]["provenance"] == "provisional"


def test_superseding_someone_elses_private_memory_is_refused_whole(
    asgi_server: str, alice: Persona, carol: Persona
) -> None:
    private = agent_for(asgi_server, alice).ok("remember", {"content": "My locker code is 4711."})["memory"]
    before = store_snapshot()

    error = agent_for(asgi_server, carol).error(
        "remember", {"content": "Locker code is 0000.", "links": [{"type": "supersedes", "dst": private["id"]}]}
    )

    assert error["code"] == "supersede_target_forbidden"
    assert "4711" not in error["message"]
    assert store_snapshot() == before


def test_validation_errors_carry_the_same_codes_and_fields(asgi_server: str, alice: Persona, carol: Persona) -> None:
    agent = agent_for(asgi_server, alice)
    before = store_snapshot()

    assert agent.error("remember", {"content": "   "})["fields"] == {"content": ["This field may not be blank."]}
    assert agent.error("remember", {"content": "x", "kind": "rumour"})["code"] == "invalid"
    too_many = [{"type": "supersedes", "dst": f"mem_01JD8Z6Q4X2V7Y9K3M5N8P0R{n:02d}"} for n in range(11)]
    assert agent.error("remember", {"content": "x", "links": too_many})["code"] == "too_many_supersedes"
    assert agent.error("remember", {"content": "x", "project": "globex"})["code"] == "project_not_found"
    assert agent.error("recall", {"query": "deploy", "limit": 51})["fields"] == {
        "limit": ["Ensure this value is less than or equal to 50."]
    }
    misspelt = agent.error("remember", {"content": "x", "supersedes": ["mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2T"]})
    assert misspelt["code"] == "invalid"
    assert "links=" in misspelt["fields"]["supersedes"][0]
    assert agent.error("memory_get", {"memory_id": "not-an-id"})["code"] == "not_found"
    assert agent.error("no_such_tool", {})["code"] == "unknown_tool"
    assert store_snapshot() == before


def test_strict_arguments_over_the_wire_and_the_listed_schemas_are_the_contracts(
    asgi_server: str, alice: Persona
) -> None:
    agent = agent_for(asgi_server, alice)
    before = store_snapshot()

    assert agent.error("remember", {"content": "Staging runs on db-4.", "projcet": "acme"})["fields"] == {
        "projcet": ["Unknown field."]
    }
    assert agent.error("remember", {"content": 123})["fields"] == {"content": ["Not a valid string."]}
    assert agent.error("recall", {"query": "deploy", "top_k": 3})["fields"] == {"top_k": ["Unknown field."]}
    assert agent.error("recall", {"query": "deploy", "limit": "5"})["fields"] == {
        "limit": ["A valid integer is required."]
    }
    assert agent.error("get_context", {"query": "deploy", "max_token": 300})["fields"] == {
        "max_token": ["Unknown field."]
    }
    assert store_snapshot() == before
    listed = {tool.name: tool.input_schema for tool in agent.tools()}
    assert listed == {name: tool.arguments.schema() for name, tool in TOOLS.items()}


def test_recall_finds_what_was_remembered(asgi_server: str, alice: Persona, bob: Persona, carol: Persona) -> None:
    agent = agent_for(asgi_server, alice)
    wanted = agent.ok("remember", {"content": "The staging database is db-3.", "project": "acme"})["memory"]
    agent.ok("remember", {"content": "Alice prefers tea over coffee.", "kind": "preference"})

    results = agent.ok("recall", {"query": "Which database does staging use?", "project": "acme", "limit": 2})[
        "results"
    ]

    assert results[0]["memory"]["id"] == wanted["id"]
    assert set(results[0]) == {"memory", "distance", "score"}
    assert [hit["memory"]["id"] for hit in agent_for(asgi_server, bob).ok("recall", {"query": "tea"})["results"]] == [
        wanted["id"]
    ]
    assert agent_for(asgi_server, carol).ok("recall", {"query": "staging database"})["results"] == []


def test_get_context_answers_what_the_rest_api_answers(
    asgi_server: str, alice: Persona, bob: Persona, carol: Persona
) -> None:
    agent = agent_for(asgi_server, alice)
    old = agent.ok("remember", {"content": "The staging database is db-3.", "project": "acme"})["memory"]
    links = [{"type": "supersedes", "dst": old["id"]}]
    new = agent.ok("remember", {"content": "The staging database is db-4.", "project": "acme", "links": links})
    agent.ok("remember", {"content": "Move the staging backups to db-4.", "project": "acme", "kind": "task"})
    arguments = {"query": "Which database does staging use?", "project": "acme", "max_tokens": 100}

    body = agent.ok("get_context", arguments)

    assert body == alice.client.post("/api/v1/context/", arguments, format="json").json()
    assert body["items"][0]["id"] == new["memory"]["id"]
    assert body["items"][0]["was"]["id"] == old["id"]
    assert "  was: The staging database is db-3. (until " in body["text"]
    assert [item["section"] for item in body["items"]] == ["facts", "open_loops"]
    assert body["tokens"] <= 100
    assert agent_for(asgi_server, bob).ok("get_context", arguments)["items"] == body["items"]
    assert agent_for(asgi_server, carol).error("get_context", arguments)["code"] == "project_not_found"
    before = store_snapshot()
    assert agent.error("get_context", {"query": "staging", "max_tokens": 15})["fields"] == {
        "max_tokens": ["Ensure this value is greater than or equal to 16."]
    }
    assert store_snapshot() == before


def test_remember_batch_answers_what_the_rest_api_answers(asgi_server: str, alice: Persona, carol: Persona) -> None:
    agent = agent_for(asgi_server, alice)
    old = agent.ok("remember", {"content": "The deploy window is Monday.", "project": "acme"})["memory"]
    items = [
        {
            "content": "The deploy window is Friday.",
            "project": "acme",
            "links": [{"type": "supersedes", "dst": old["id"]}],
        },
        {"content": "Globex pays net 30.", "project": "globex"},
        {"content": "Rotate the audit keys.", "kind": "task"},
    ]

    results = agent.ok("remember_batch", {"items": items, "idempotency_key": "b-1"})["results"]

    assert [result["status"] for result in results] == [201, 404, 201]
    assert results[0]["superseded"] == [old["id"]]
    assert results[1]["error"]["code"] == "project_not_found"
    replay = alice.client.post("/api/v1/memories/batch/", {"items": items}, format="json", HTTP_IDEMPOTENCY_KEY="b-1")
    assert replay.json() == {"results": results}  # one key, either door
    before = store_snapshot()
    refused = agent.error("remember_batch", {"items": items[1:], "atomic": True})
    assert refused["code"] == "project_not_found"
    assert refused["fields"] == {"items[0]": ["Project 'globex' not found."]}
    misspelt = agent.error("remember_batch", {"items": [{"content": "x"}, {"content": "y", "supersedes": ["mem_x"]}]})
    assert misspelt["code"] == "invalid"
    assert list(misspelt["fields"]) == ["items[1].supersedes"]
    assert "links=" in misspelt["fields"]["items[1].supersedes"][0]
    assert store_snapshot() == before


def test_a_scoped_token_is_narrowed_the_same_over_mcp(asgi_server: str, alice: Persona) -> None:
    from memories.models import Project
    from memories.services import credential_issue

    personal = agent_for(asgi_server, alice).ok("remember", {"content": "Alice's own ledger note."})["memory"]
    _, token = credential_issue(
        actor=None,
        via="tests",
        user=alice.user,
        label="reader",
        provenance="authoritative",
        projects=[Project.objects.get(slug="acme")],
        read_only=True,
    )
    reader = Agent(asgi_server, token)
    before = store_snapshot()

    who = reader.ok("whoami")

    assert who["credential"]["label"] == "reader"
    assert who["scope"] == {"projects": ["acme"], "read_only": True}
    assert who["user"] == "alice"
    assert reader.error("remember", {"content": "A note.", "project": "acme"})["code"] == "read_only_token"
    assert reader.error("memory_get", {"memory_id": personal["id"]})["code"] == "not_found"
    rest = APIClient()
    rest.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    assert who == rest.get("/api/v1/whoami/").json() | {"rate_limit": who["rate_limit"]}
    assert store_snapshot() == before


def test_valid_time_over_mcp_as_over_rest(asgi_server: str, alice: Persona) -> None:
    agent = agent_for(asgi_server, alice)
    ended = agent.ok(
        "remember",
        {
            "content": "The VPN host was vpn1.",
            "valid_from": "2025-01-01T00:00:00Z",
            "valid_until": "2025-06-01T00:00:00Z",
        },
    )["memory"]
    assert ended["valid_until"] == "2025-06-01T00:00:00Z"
    now = agent.ok("recall", {"query": "VPN host"})["results"]
    then = agent.ok("recall", {"query": "VPN host", "valid_at": "2025-03-01T00:00:00Z"})
    assert now == []
    assert [hit["memory"]["id"] for hit in then["results"]] == [ended["id"]]
    assert (
        then
        == alice.client.post(
            "/api/v1/recall/", {"query": "VPN host", "valid_at": "2025-03-01T00:00:00Z"}, format="json"
        ).json()
    )
    assert agent.ok("get_context", {"query": "VPN host", "include_expired": True})["items"][0]["id"] == ended["id"]


def test_forget_and_restore_follow_the_rest_rules(
    asgi_server: str, alice: Persona, bob: Persona, carol: Persona, mode: str
) -> None:
    agent = agent_for(asgi_server, alice, mode)
    memory = agent.ok("remember", {"content": "Standup is at 9:30.", "project": "acme"})["memory"]
    before = store_snapshot()

    assert agent_for(asgi_server, bob).error("forget", {"memory_id": memory["id"]})["code"] == "forbidden"
    assert agent_for(asgi_server, carol).error("forget", {"memory_id": memory["id"]})["code"] == "not_found"
    assert store_snapshot() == before

    forgotten = agent.ok("forget", {"memory_id": memory["id"], "reason": "Standup was dropped."})
    assert (forgotten["id"], forgotten["state"]) == (memory["id"], "forgotten")
    assert agent.ok("forget", {"memory_id": memory["id"]})["state"] == "forgotten"
    restored = agent.ok("restore_memory", {"id": memory["id"]})
    assert (restored["state"], restored["invalidated_at"]) == ("live", None)
    actions = list(MemoryEvent.objects.filter(memory_id=memory["id"]).order_by("id").values_list("action", flat=True))
    assert actions == ["created", "forgotten", "restored"]


def test_link_creates_a_graph_edge_once(asgi_server: str, alice: Persona, carol: Persona) -> None:
    agent = agent_for(asgi_server, alice)
    src = agent.ok("remember", {"content": "The API gateway is Envoy.", "project": "acme"})["memory"]["id"]
    dst = agent.ok("remember", {"content": "Envoy config lives in infra/envoy.", "project": "acme"})["memory"]["id"]

    link = agent.ok("link", {"src": src, "dst": dst, "type": "relates_to"})
    again = agent.ok("link", {"src": src, "dst": dst, "type": "relates_to"})

    assert (link["src"], link["dst"], link["type"], link["origin"], link["reverted"]) == (
        src,
        dst,
        "relates_to",
        "link",
        False,
    )
    assert again["id"] == link["id"]
    assert Link.objects.filter(src_id=src, dst_id=dst).count() == 1
    graph_only = agent.ok("link", {"src": src, "dst": dst, "type": "supersedes"})
    assert graph_only["origin"] == "link"
    assert Memory.objects.get(pk=dst).state == State.LIVE
    assert agent.error("link", {"src": src, "dst": src, "type": "relates_to"})["code"] == "invalid"
    assert agent_for(asgi_server, carol).error("link", {"src": src, "dst": dst, "type": "relates_to"})["code"] in {
        "not_found",
        "link_target_not_found",
    }


def test_get_and_feed_page_through_what_the_caller_may_see(asgi_server: str, alice: Persona, carol: Persona) -> None:
    agent = agent_for(asgi_server, alice)
    ids = [
        agent.ok("remember", {"content": f"Runbook step {n}: check the {n}th dashboard.", "project": "acme"})["memory"][
            "id"
        ]
        for n in range(3)
    ]

    first = agent.ok("memory_feed", {"limit": 2})
    second = agent.ok("memory_feed", {"limit": 2, "cursor": first["next"]})

    assert [m["id"] for m in first["results"]] == [ids[2], ids[1]]
    assert [m["id"] for m in second["results"]] == [ids[0]]
    assert second["next"] is None
    assert agent.ok("memory_get", {"memory_id": ids[0]}) == alice.client.get(f"/api/v1/memories/{ids[0]}/").json()
    assert agent_for(asgi_server, carol).ok("memory_feed", {})["results"] == []
    assert agent_for(asgi_server, carol).error("memory_get", {"memory_id": ids[0]})["code"] == "not_found"


def test_idempotency_key_replays_the_first_answer(asgi_server: str, alice: Persona) -> None:
    agent = agent_for(asgi_server, alice)
    arguments: dict[str, Any] = {"content": "Backups run at 02:00.", "session": "a", "idempotency_key": "k-1"}

    first = agent.ok("remember", arguments)
    replay = agent.ok("remember", arguments)

    assert replay == first
    assert Memory.objects.filter(owner=alice.user).count() == 1
    assert agent.error("remember", {**arguments, "content": "Backups run at 03:00."})["code"] == (
        "idempotency_key_reused"
    )


def test_events_answer_what_the_rest_feed_answers(asgi_server: str, alice: Persona, carol: Persona) -> None:
    agent = agent_for(asgi_server, alice)
    written = agent.ok("remember", {"content": "The wiki moved to Confluence.", "project": "acme"})["memory"]["id"]
    agent.ok("forget", {"memory_id": written, "reason": "wrong tool"})

    page = agent.ok("events", {"project": "acme"})
    rest = alice.client.get("/api/v1/events/", {"project": "acme"}).json()
    assert page["results"] == rest["results"]
    assert [(event["type"], event["memory"]) for event in page["results"]] == [
        ("memory.created", written),
        ("memory.forgotten", written),
    ]
    assert agent.ok("events", {"cursor": page["next"]})["results"] == []
    assert agent.ok("events", {"type": "memory.forgotten"})["results"] == page["results"][1:]
    refused = agent.error("events", {"type": "memory.deleted"})
    assert refused["code"] == "invalid"
    assert agent_for(asgi_server, carol).ok("events", {})["results"] == []


def test_a_cursor_from_before_a_restore_answers_feed_epoch_changed_over_mcp_as_over_rest(
    asgi_server: str, alice: Persona
) -> None:
    """After a restore (./zm restore moves the feed's epoch, memories.services.feed_epoch) a saved
    cursor is refused with what to do, on both doors; the feed read afresh gives the restored
    events first, the new ones after, and its new cursor reads on."""
    agent = agent_for(asgi_server, alice)
    first = agent.ok("remember", {"content": "The wiki moved to Confluence.", "project": "acme"})["memory"]["id"]
    saved = agent.ok("events", {})["next"]
    rest_saved = alice.client.get("/api/v1/events/").json()["next"].split("cursor=")[1]

    epoch = feed_epoch_advance(reason="tests: a restore").epoch
    later = agent.ok("remember", {"content": "The wiki moved back to the old server.", "project": "acme"})
    refused = agent.error("events", {"cursor": saved})
    answer = alice.client.get("/api/v1/events/", {"cursor": rest_saved})

    assert refused["code"] == "feed_epoch_changed"
    assert refused["epoch"] == epoch
    assert "read the feed without a cursor" in refused["message"]
    assert answer.status_code == 410
    assert answer.json()["error"] == refused
    fresh = agent.ok("events", {})
    assert [event["memory"] for event in fresh["results"]] == [first, later["memory"]["id"]]
    assert agent.ok("events", {"cursor": fresh["next"]})["results"] == []


def test_stale_versions_over_mcp_as_over_rest(asgi_server: str, alice: Persona) -> None:
    """R-S11 through the remember and remember_batch tools, whose descriptions teach it."""
    agent = agent_for(asgi_server, alice)
    tools = {tool.name: tool for tool in agent.tools()}
    assert tools["remember"].description is not None
    assert '"follow"' in tools["remember"].description
    assert "stale_target" in tools["remember"].description
    assert tools["remember"].input_schema["properties"]["on_stale"]["enum"] == ["skip", "reject", "follow"]
    v1 = agent.ok("remember", {"content": "The queue runs on rabbit-1.", "project": "acme"})["memory"]["id"]
    v2 = agent.ok(
        "remember",
        {"content": "The queue runs on rabbit-2.", "project": "acme", "links": [{"type": "supersedes", "dst": v1}]},
    )["memory"]["id"]
    stale = {"content": "The queue runs on rabbit-3.", "project": "acme", "links": [{"type": "supersedes", "dst": v1}]}
    before = store_snapshot()

    refused = agent.error("remember", {**stale, "on_stale": "reject"})

    assert (refused["code"], refused["current"]) == ("stale_target", [{"dst": v1, "current": v2}])
    assert store_snapshot() == before
    followed = agent.ok("remember_batch", {"items": [{**stale, "on_stale": "follow"}]})["results"][0]
    assert (followed["status"], followed["superseded"]) == (201, [v2])
    assert followed["followed"] == [{"dst": v1, "current": v2}]
    v3 = followed["memory"]["id"]
    skipped = agent.ok("remember", {**stale, "content": "The queue runs on rabbit-4."})
    assert skipped["skipped"] == [{"dst": v1, "reason": "dead", "current": v3}]
    assert "similar_existing" in skipped
    assert agent.ok("memory_history", {"memory_id": v1})["head"] == v3  # the fork is not in the chain


def test_the_metadata_filter_reads_the_same_over_mcp(asgi_server: str, alice: Persona) -> None:
    agent = agent_for(asgi_server, alice)
    infra = agent.ok(
        "remember", {"content": "The deploy window is Friday.", "project": "acme", "metadata": {"team": "infra"}}
    )["memory"]
    agent.ok("remember", {"content": "The deploy window is Monday.", "project": "acme", "metadata": {"team": "web"}})

    recalled = agent.ok("recall", {"query": "deploy window", "metadata": {"team": "infra"}})["results"]
    fed = agent.ok("memory_feed", {"metadata": {"team": "infra"}})["results"]
    packed = agent.ok("get_context", {"query": "deploy window", "metadata": {"team": "infra"}})["items"]
    refused = agent.error("recall", {"query": "deploy window", "metadata": "infra"})

    assert [hit["memory"]["id"] for hit in recalled] == [infra["id"]]
    assert [memory["id"] for memory in fed] == [infra["id"]]
    assert [item["id"] for item in packed] == [infra["id"]]
    assert refused["fields"] == {"metadata": ['Expected a JSON object but got type "str".']}
