"""Strict bodies (SPEC R-V5): every JSON endpoint, through either door, refuses a key it does not
define and a value of the wrong JSON type with 400 ``invalid`` naming the key, and changes
nothing. The REST routes and the MCP tools are read from the URL conf and the tool registry, so
an endpoint added later without a case here fails the completeness tests."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from rest_framework.test import APIClient

from memories.agent import contract
from memories.mcp.server import Caller, list_tools, run_tool
from memories.mcp.tools import IDEMPOTENCY_KEY, TOOLS
from memories.models import Memory
from tests.conftest import Persona
from tests.factories import make_memory
from tests.memories.endpoints import REST_CASES, WRITE_METHODS, Objects, api_write_routes, everything, fill

# -- REST ---------------------------------------------------------------------------------------


def test_every_api_route_with_a_body_has_a_case_here(db: None) -> None:
    assert api_write_routes() == set(REST_CASES)


def _assert_refused(response: Any, key: str) -> dict[str, Any]:
    assert response.status_code == 400, response.content
    error: dict[str, Any] = response.json()["error"]
    assert error["code"] == "invalid"
    assert key in error["fields"]
    return error


@pytest.mark.parametrize("route", sorted(REST_CASES))
def test_an_unknown_field_is_refused_and_nothing_changes(route: str, dave: Persona, objects: Objects) -> None:
    path, body, _wrong = REST_CASES[route]
    before = everything()

    response = dave.client.post(fill(path, objects), {**fill(body, objects), "projcet": "acme"}, format="json")

    error = _assert_refused(response, "projcet")
    assert error["fields"] == {"projcet": ["Unknown field."]}
    assert everything() == before


@pytest.mark.parametrize("route", sorted(REST_CASES))
def test_a_value_of_the_wrong_json_type_is_refused_and_nothing_changes(
    route: str, dave: Persona, objects: Objects
) -> None:
    path, body, wrong = REST_CASES[route]
    (key,) = wrong
    before = everything()

    response = dave.client.post(fill(path, objects), {**fill(body, objects), **wrong}, format="json")

    error = _assert_refused(response, key)
    assert list(error["fields"]) == [key]
    assert everything() == before


@pytest.mark.parametrize("route", sorted(REST_CASES))
def test_the_cases_bodies_are_accepted_as_they_are(route: str, dave: Persona, objects: Objects) -> None:
    """So that each refusal above is the injected key's doing, not the body's."""
    path, body, _wrong = REST_CASES[route]

    response = dave.client.post(fill(path, objects), fill(body, objects), format="json")

    assert response.status_code in (200, 201), response.content


def test_a_misspelt_project_no_longer_stores_a_private_memory(alice: Persona) -> None:
    before = everything()

    response = alice.client.post(
        "/api/v1/memories/", {"content": "Staging runs on db-4.", "projcet": "acme"}, format="json"
    )

    assert response.status_code == 400
    assert response.json()["error"] == {
        "code": "invalid",
        "message": "The request is invalid; see fields.",
        "fields": {"projcet": ["Unknown field."]},
    }
    assert everything() == before


def test_a_supersedes_key_is_refused_with_the_way_to_declare_one(alice: Persona) -> None:
    target = make_memory(alice.user, "The office is on floor 3.")

    response = alice.client.post(
        "/api/v1/memories/", {"content": "The office is on floor 5.", "supersedes": [target.pk]}, format="json"
    )

    assert response.status_code == 400
    assert response.json()["error"]["fields"] == {
        "supersedes": ['Unknown field. Declare a replacement with links=[{"type": "supersedes", "dst": "<id>"}].']
    }
    assert Memory.objects.get(pk=target.pk).state == "live"


@pytest.mark.parametrize(
    ("path", "body", "key"),
    [
        ("/api/v1/recall/", {"query": "deploy", "top_k": 3}, "top_k"),
        ("/api/v1/context/", {"query": "deploy", "max_token": 300}, "max_token"),
    ],
)
def test_a_misspelt_read_argument_is_refused_not_ignored(
    alice: Persona, path: str, body: dict[str, Any], key: str
) -> None:
    response = alice.client.post(path, body, format="json")

    assert response.status_code == 400
    assert response.json()["error"]["fields"] == {key: ["Unknown field."]}


@pytest.mark.parametrize(
    ("path", "body", "key", "message"),
    [
        ("/api/v1/memories/", {"content": 123}, "content", "Not a valid string."),
        ("/api/v1/memories/", {"content": "x", "links": {}}, "links", 'Expected a list of items but got type "dict".'),
        ("/api/v1/memories/", {"content": "x", "session": 42}, "session", "Not a valid string."),
        ("/api/v1/memories/", {"content": "x", "kind": 1}, "kind", '"1" is not a valid choice.'),
        ("/api/v1/memories/", {"content": "x", "metadata": []}, "metadata", "metadata must be a JSON object."),
        ("/api/v1/recall/", {"query": "deploy", "limit": "5"}, "limit", "A valid integer is required."),
        ("/api/v1/recall/", {"query": "deploy", "limit": True}, "limit", "A valid integer is required."),
        ("/api/v1/recall/", {"query": "deploy", "limit": 5.5}, "limit", "A valid integer is required."),
        ("/api/v1/recall/", {"query": "deploy", "include_superseded": "yes"}, "include_superseded", None),
        ("/api/v1/recall/", {"query": "deploy", "include_expired": 1}, "include_expired", None),
        ("/api/v1/recall/", {"query": 5}, "query", "Not a valid string."),
        ("/api/v1/memories/batch/", {"items": [{"content": "x"}], "atomic": 1}, "atomic", None),
    ],
)
def test_wrong_json_types_are_refused(
    alice: Persona, path: str, body: dict[str, Any], key: str, message: str | None
) -> None:
    before = everything()

    response = alice.client.post(path, body, format="json")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid"
    assert list(response.json()["error"]["fields"]) == [key]
    if message is not None:
        assert response.json()["error"]["fields"][key] == [message]
    else:
        assert response.json()["error"]["fields"][key] == ["Must be a valid boolean."]
    assert everything() == before


def test_an_integer_written_with_a_zero_fraction_is_an_integer(alice: Persona) -> None:
    # JSON Schema's integer: a number with no fraction, however it is spelt.
    response = alice.client.post("/api/v1/recall/", {"query": "deploy", "limit": 5.0}, format="json")

    assert response.status_code == 200


@pytest.mark.parametrize("atomic", [False, True])
def test_an_unknown_field_in_one_batch_item_refuses_the_whole_batch(alice: Persona, atomic: bool) -> None:
    # An unknown key means the client speaks another contract than the server's: nothing of the
    # batch is written, as over MCP. (A bad value fails its own item, as it would alone.)
    items = [{"content": "Prod runs on db-9."}, {"content": "Staging runs on db-4.", "projcet": "acme"}]
    before = everything()

    response = alice.client.post("/api/v1/memories/batch/", {"items": items, "atomic": atomic}, format="json")

    assert response.status_code == 400
    assert response.json()["error"] == {
        "code": "invalid",
        "message": "The request is invalid; see fields.",
        "fields": {"items[1].projcet": ["Unknown field."]},
    }
    assert everything() == before


def test_a_value_of_the_wrong_type_in_one_batch_item_fails_that_item_alone(alice: Persona) -> None:
    items = [{"content": 123}, {"content": "Prod runs on db-9."}]

    response = alice.client.post("/api/v1/memories/batch/", {"items": items}, format="json")

    assert response.status_code == 200
    first, second = response.json()["results"]
    assert first == {
        "status": 400,
        "error": {
            "code": "invalid",
            "message": "The request is invalid; see fields.",
            "fields": {"content": ["Not a valid string."]},
        },
    }
    assert second["status"] == 201
    assert list(Memory.objects.filter(owner=alice.user).values_list("content", flat=True)) == ["Prod runs on db-9."]


def test_a_link_item_with_an_unknown_key_is_refused(alice: Persona) -> None:
    target = make_memory(alice.user, "The office is on floor 3.")
    links = [{"type": "supersedes", "dst": target.pk, "reason": "moved"}]
    before = everything()

    response = alice.client.post(
        "/api/v1/memories/", {"content": "The office is on floor 5.", "links": links}, format="json"
    )

    assert response.status_code == 400
    assert response.json()["error"]["fields"] == {"links": {"0": {"reason": ["Unknown field."]}}}
    assert everything() == before


@pytest.mark.parametrize(
    "path", ["/api/v1/memories/?stat=forgotten", "/api/v1/events/?projects=acme", "/api/v1/conflicts/?state=pending"]
)
def test_the_lists_refuse_a_query_parameter_they_do_not_take(alice: Persona, path: str) -> None:
    response = alice.client.get(path)

    assert response.status_code == 400
    name = path.split("?")[1].split("=", maxsplit=1)[0]
    assert response.json()["error"]["fields"] == {name: ["Unknown field."]}


@pytest.mark.parametrize("path", ["/api/v1/memories/", "/api/v1/events/", "/api/v1/conflicts/"])
def test_the_lists_still_take_their_strings_and_page_parameters(alice: Persona, path: str) -> None:
    make_memory(alice.user, "The deploy window is Monday 10:00 UTC.")
    make_memory(alice.user, "Deploys need a green build on main.")

    first = alice.client.get(f"{path}?limit=1")

    assert first.status_code == 200, first.content
    if first.json()["next"]:
        assert alice.client.get(first.json()["next"]).status_code == 200
    assert alice.client.get(f"{path}?limit=1&cursor=").status_code == 200


# -- MCP ----------------------------------------------------------------------------------------

# Per tool: arguments it would accept, and a value of the wrong JSON type (None: a tool without
# arguments, for which there is nothing to mistype).
MCP_CASES: dict[str, tuple[dict[str, Any], dict[str, Any] | None]] = {
    "remember": ({"content": "Staging runs on db-4.", "project": "acme"}, {"content": 123}),
    "remember_batch": ({"items": [{"content": "Staging runs on db-4."}]}, {"atomic": 1}),
    "recall": ({"query": "deploy window"}, {"limit": "5"}),
    "get_context": ({"query": "deploy window"}, {"max_tokens": "300"}),
    "forget": ({"memory_id": "{live}"}, {"reason": 5}),
    "restore_memory": ({"memory_id": "{forgotten}"}, {"reason": ["back"]}),
    "link": ({"src": "{live}", "dst": "{other}", "type": "relates_to"}, {"type": 1}),
    "memory_history": ({"memory_id": "{live}"}, {"memory_id": 5}),
    "memory_get": ({"memory_id": "{live}"}, {"memory_id": ["{live}"]}),
    "memory_feed": ({}, {"limit": "5"}),
    "events": ({}, {"limit": "5"}),
    "whoami": ({}, None),
}


def _call(persona: Persona, tool: str, arguments: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
    result = run_tool(TOOLS[tool], Caller(user=persona.user, credential=persona.credential), arguments)
    assert result.structured_content is not None
    return bool(result.is_error), result.structured_content


def test_every_mcp_tool_has_a_case_here() -> None:
    assert set(TOOLS) == set(MCP_CASES)
    assert [name for name, (_, wrong) in MCP_CASES.items() if wrong is None] == [
        name for name, tool in TOOLS.items() if not tool.arguments.fields
    ]


@pytest.mark.parametrize("tool", sorted(MCP_CASES))
def test_an_unknown_argument_is_refused_by_every_tool(tool: str, dave: Persona, objects: Objects) -> None:
    arguments, _wrong = MCP_CASES[tool]
    before = everything()

    failed, body = _call(dave, tool, {**fill(arguments, objects), "projcet": "acme"})

    assert failed
    assert body["error"]["code"] == "invalid"
    assert body["error"]["fields"] == {"projcet": ["Unknown field."]}
    assert everything() == before


@pytest.mark.parametrize("tool", sorted(name for name, (_, wrong) in MCP_CASES.items() if wrong is not None))
def test_a_wrong_json_type_is_refused_by_every_tool(tool: str, dave: Persona, objects: Objects) -> None:
    arguments, wrong = MCP_CASES[tool]
    assert wrong is not None
    (key,) = wrong
    before = everything()

    failed, body = _call(dave, tool, {**fill(arguments, objects), **fill(wrong, objects)})

    assert failed
    assert body["error"]["code"] == "invalid"
    assert list(body["error"]["fields"]) == [key]
    assert everything() == before


@pytest.mark.parametrize("tool", sorted(MCP_CASES))
def test_the_tools_cases_are_accepted_as_they_are(tool: str, dave: Persona, objects: Objects) -> None:
    arguments, _wrong = MCP_CASES[tool]

    failed, body = _call(dave, tool, fill(arguments, objects))

    assert not failed, body


def test_an_unknown_argument_in_a_batch_item_refuses_the_whole_call_over_mcp_too(alice: Persona) -> None:
    items = [{"content": "Prod runs on db-9."}, {"content": "Staging runs on db-4.", "projcet": "acme"}]
    before = everything()

    failed, body = _call(alice, "remember_batch", {"items": items})

    assert failed
    assert body["error"]["fields"] == {"items[1].projcet": ["Unknown field."]}
    assert everything() == before


# -- the published schemas ----------------------------------------------------------------------


def test_the_mcp_input_schemas_are_the_contracts(db: None) -> None:
    listed = asyncio.run(list_tools(None, None))  # type: ignore[arg-type]
    schemas = {tool.name: tool.input_schema for tool in listed.tools}

    assert schemas == {name: tool.arguments.schema() for name, tool in TOOLS.items()}
    assert schemas["remember"] == contract.REMEMBER.extend(IDEMPOTENCY_KEY).schema()
    assert schemas["recall"] == contract.RECALL.schema()
    assert schemas["get_context"] == contract.CONTEXT.schema()
    assert schemas["link"] == contract.LINK.schema()
    for schema in schemas.values():
        assert schema["additionalProperties"] is False
    remember = schemas["remember"]
    assert set(remember["properties"]) == {*contract.REMEMBER.fields, "idempotency_key"}
    assert remember["required"] == ["content"]
    assert remember["properties"]["content"] == {
        "type": "string",
        "minLength": 1,
        "maxLength": contract.MAX_CONTENT_LENGTH,
        "description": "The statement to remember, 1 to 8,000 characters (trimmed).",
    }
    assert remember["properties"]["project"]["type"] == ["string", "null"]
    assert remember["properties"]["on_stale"]["enum"] == ["skip", "reject", "follow"]
    assert remember["properties"]["on_stale"]["default"] == "skip"
    assert remember["properties"]["on_stale"]["description"].startswith(
        "What to do when a supersedes target was already replaced by another write (a stale version)"
    )
    link = remember["properties"]["links"]
    assert (link["type"], link["maxItems"], link["items"]["additionalProperties"]) == ("array", 50, False)
    assert schemas["remember_batch"]["properties"]["items"]["items"] == contract.REMEMBER.schema()
    assert schemas["remember_batch"]["properties"]["items"]["minItems"] == 1


def test_the_openapi_remember_body_is_the_contracts(db: None) -> None:
    document = APIClient().get("/api/schema/?format=json").json()
    components = document["components"]["schemas"]
    operation = document["paths"]["/api/v1/memories/"]["post"]["requestBody"]
    body = components[operation["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]]

    assert operation["required"] is True
    assert body["type"] == "object"
    assert body["additionalProperties"] is False
    assert body["required"] == ["content"]
    assert list(body["properties"]) == list(contract.REMEMBER.fields)
    properties = body["properties"]
    assert (properties["content"]["type"], properties["content"]["maxLength"]) == ("string", 8000)
    assert (properties["project"]["type"], properties["project"]["nullable"]) == ("string", True)
    assert properties["metadata"]["type"] == "object"
    assert properties["links"]["type"] == "array"
    assert properties["links"]["items"]["additionalProperties"] is False
    assert properties["links"]["items"]["required"] == ["type", "dst"]
    assert properties["valid_from"]["format"] == "date-time"
    kind = components[properties["kind"]["allOf"][0]["$ref"].rsplit("/", 1)[1]]
    assert kind["enum"] == list(contract.KINDS)
    on_stale = components[properties["on_stale"]["allOf"][0]["$ref"].rsplit("/", 1)[1]]
    assert on_stale["enum"] == ["skip", "reject", "follow"]
    assert properties["on_stale"]["description"] == contract.ON_STALE_DESCRIPTION


def test_every_openapi_request_body_forbids_unknown_keys(db: None) -> None:
    document = APIClient().get("/api/schema/?format=json").json()
    components = document["components"]["schemas"]
    bodies = [
        operation["requestBody"]["content"]["application/json"]["schema"]
        for item in document["paths"].values()
        for method, operation in item.items()
        if method in WRITE_METHODS and "requestBody" in operation
    ]

    assert len(bodies) == len(REST_CASES)
    for schema in bodies:
        resolved = components[schema["$ref"].rsplit("/", 1)[1]]
        assert resolved["additionalProperties"] is False
