"""zeromemory_client.langgraph.ZeromemoryStore in LangGraph itself (the pinned PyPI package):
an agent's graph writing and reading through it against the running server, and the behaviours
LangGraph's own InMemoryStore guarantees, run on both stores side by side."""

from __future__ import annotations

import asyncio
from typing import Any, TypedDict

import pytest
from langgraph.graph import END, START, StateGraph
from langgraph.store.base import BaseStore
from langgraph.store.memory import InMemoryStore
from zeromemory_client import Client
from zeromemory_client.langgraph import ZeromemoryStore

from memories.models import Memory

pytestmark = pytest.mark.django_db(transaction=True)


class Turn(TypedDict, total=False):
    user: str
    message: str
    known: str


def remember_preference(state: Turn, *, store: BaseStore) -> Turn:
    """The agent's node: reads what it knows about the user, then keeps the newest preference."""
    namespace = ("users", state["user"])
    known = store.get(namespace, "preference")
    store.put(namespace, "preference", {"text": state["message"]})
    return {"known": known.value["text"] if known else ""}


def agent(store: BaseStore) -> Any:
    builder = StateGraph(Turn)
    builder.add_node("remember_preference", remember_preference)
    builder.add_edge(START, "remember_preference")
    builder.add_edge("remember_preference", END)
    return builder.compile(store=store)


def test_a_graphs_store_keeps_a_version_chain_behind_one_key(server, alice):
    store = ZeromemoryStore(server, alice.token, project="acme", index=["text"])
    graph = agent(store)

    first = graph.invoke({"user": "u1", "message": "I like my coffee black."})
    second = graph.invoke({"user": "u1", "message": "I take my coffee with oat milk now."})
    third = graph.invoke({"user": "u1", "message": "Tea only, please."})
    item = store.get(("users", "u1"), "preference")
    live = Memory.objects.get(state="live", metadata__langgraph__key="preference")
    with Client(server, alice.token) as zm:
        chain = zm.history(live.pk)

    assert [first["known"], second["known"], third["known"]] == [
        "",
        "I like my coffee black.",
        "I take my coffee with oat milk now.",
    ]
    assert item is not None
    assert item.value == {"text": "Tea only, please."}
    assert chain.head == live.pk
    assert [version.metadata["langgraph"]["value"]["text"] for version in chain.versions] == [
        "I like my coffee black.",
        "I take my coffee with oat milk now.",
        "Tea only, please.",
    ]
    assert [version.state for version in chain.versions] == ["superseded", "superseded", "live"]
    assert {(edge.type, edge.origin) for edge in chain.edges} == {("supersedes", "declared")}
    assert item.created_at < item.updated_at  # created when first put, updated by the last version


def both(server: str, token: str) -> list[BaseStore]:
    return [InMemoryStore(), ZeromemoryStore(server, token, project="acme")]


def test_get_after_put_overwrite_and_delete_as_langgraphs_own_store(server, alice):
    answers = []
    for store in both(server, alice.token):
        store.put(("docs",), "a", {"text": "first", "n": 1})
        got = store.get(("docs",), "a")
        store.put(("docs",), "a", {"text": "second", "n": 2})
        overwritten = store.get(("docs",), "a")
        store.put(("docs",), "a", {"text": "second", "n": 2})  # the same value again
        again = store.get(("docs",), "a")
        store.put(("docs",), "a", {"text": "second", "n": 3})  # the same text, another value
        changed = store.get(("docs",), "a")
        store.delete(("docs",), "a")
        answers.append(
            (
                got.value if got else None,
                overwritten.value if overwritten else None,
                again.value if again else None,
                changed.value if changed else None,
                store.get(("docs",), "a"),
                store.get(("docs",), "missing"),
                store.get(("elsewhere",), "a"),
            )
        )

    assert answers[1] == answers[0]
    assert answers[0] == (
        {"text": "first", "n": 1},
        {"text": "second", "n": 2},
        {"text": "second", "n": 2},
        {"text": "second", "n": 3},
        None,
        None,
        None,
    )
    # The deleted key is forgotten, not erased: its versions stay (reversibly) in the store. The
    # repeated value was absorbed; the same text with another value is a version of its own.
    versions = Memory.objects.filter(metadata__langgraph__key="a").order_by("created_at")
    assert [(m.state, m.content) for m in versions] == [
        ("superseded", "first"),
        ("superseded", "second"),
        ("forgotten", 'second\n{"n": 3, "text": "second"}'),
    ]


def _seed(store: BaseStore) -> None:
    store.put(("a", "b"), "k1", {"text": "alpha", "kind": "x", "rank": 1})
    store.put(("a", "b"), "k2", {"text": "beta", "kind": "y", "rank": 2})
    store.put(("a", "c"), "k3", {"text": "gamma", "kind": "x", "rank": 3})
    store.put(("ab",), "k4", {"text": "delta", "kind": "x", "rank": 4})
    store.put(("z", "b"), "k5", {"text": "epsilon", "kind": "y", "rank": 5})


def _keys(items: list[Any]) -> set[str]:
    return {item.key for item in items}


def test_namespaces_prefixes_filters_limits_and_offsets_as_langgraphs_own_store(server, alice):
    answers = []
    for store in both(server, alice.token):
        _seed(store)
        page_one = store.search(("a",), limit=2)
        page_two = store.search(("a",), limit=2, offset=2)
        answers.append(
            {
                "prefix a": _keys(store.search(("a",))),
                "prefix a.b": _keys(store.search(("a", "b"))),
                "everything": _keys(store.search(())),
                "filter kind x": _keys(store.search((), filter={"kind": "x"})),
                "filter $gt": _keys(store.search((), filter={"rank": {"$gt": 2}})),
                "filter $ne under a": _keys(store.search(("a",), filter={"kind": {"$ne": "x"}})),
                "pages": (len(page_one), len(page_two), _keys(page_one) | _keys(page_two)),
                "limit 1": len(store.search((), limit=1)),
                "namespaces": store.list_namespaces(),
                "under a": store.list_namespaces(prefix=("a",)),
                "ending b": store.list_namespaces(suffix=("b",)),
                "wildcard": store.list_namespaces(prefix=("*", "b")),
                "depth 1": store.list_namespaces(max_depth=1),
                "offset": store.list_namespaces(limit=2, offset=1),
            }
        )

    assert answers[1] == answers[0]
    assert answers[0]["prefix a"] == {"k1", "k2", "k3"}
    assert answers[0]["namespaces"] == [("a", "b"), ("a", "c"), ("ab",), ("z", "b")]


def test_search_with_a_query_is_recall_within_the_namespace(server, alice):
    store = ZeromemoryStore(server, alice.token, project="acme", index=["text"])
    store.put(("kb",), "deploys", {"text": "Deploys go out on Fridays at 14:00 UTC."})
    store.put(("kb",), "lunch", {"text": "Lunch is served at noon in the atrium."})
    store.put(("other",), "deploys", {"text": "Deploys are frozen in December."})

    found = store.search(("kb",), query="When do we deploy?", limit=2)

    assert [item.key for item in found] == ["deploys", "lunch"]
    scores = [item.score for item in found]
    assert None not in scores
    assert sorted(scores, reverse=True) == scores  # type: ignore[type-var]


def test_the_async_interface_and_another_scope(server, alice):
    shared = ZeromemoryStore(server, alice.token, project="acme")
    personal = ZeromemoryStore(server, alice.token)

    async def story() -> tuple[Any, Any, list[Any]]:
        await shared.aput(("notes",), "n1", {"text": "in the project"})
        await personal.aput(("notes",), "n1", {"text": "mine alone"})
        return await shared.aget(("notes",), "n1"), await personal.aget(("notes",), "n1"), await shared.asearch(())

    in_project, mine, listed = asyncio.run(story())

    assert (in_project.value, mine.value) == ({"text": "in the project"}, {"text": "mine alone"})
    assert [item.value for item in listed] == [{"text": "in the project"}]
    assert Memory.objects.get(metadata__langgraph__scope="~personal").project is None
