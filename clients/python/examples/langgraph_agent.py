"""A LangGraph agent whose store is zeromemory (docs/clients/langgraph.md).

Run it against a server with ZEROMEMORY_URL (e.g. http://127.0.0.1:8000) and
ZEROMEMORY_TOKEN set: python clients/python/examples/langgraph_agent.py
"""

from typing import TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.store.base import BaseStore
from zeromemory_client import Client
from zeromemory_client.langgraph import ZeromemoryStore


class Turn(TypedDict, total=False):
    user: str
    message: str
    known: str


def remember_preference(state: Turn, *, store: BaseStore) -> Turn:
    namespace = ("users", state["user"])
    known = store.get(namespace, "preference")
    store.put(namespace, "preference", {"text": state["message"]})
    return {"known": known.value["text"] if known else "nothing yet"}


builder = StateGraph(Turn)
builder.add_node("remember_preference", remember_preference)
builder.add_edge(START, "remember_preference")
builder.add_edge("remember_preference", END)
store = ZeromemoryStore(index=["text"])  # ZEROMEMORY_URL and ZEROMEMORY_TOKEN; the token's personal scope
graph = builder.compile(store=store)

for message in ["I like my coffee black.", "Oat milk in my coffee now.", "Tea only, please."]:
    turn = graph.invoke({"user": "sam", "message": message})
    print(f"knew: {turn['known']!r} -> now: {message!r}")

# Every put of the key was a declared supersede: the key keeps its version chain.
item = store.get(("users", "sam"), "preference")
print("store.get:", item.value if item else None)
with Client() as zm:
    live = next(iter(zm.feed(metadata={"langgraph": {"namespace": "users.sam", "key": "preference"}})))
    for version in zm.history(live.id).versions:
        print(f"  {version.state:<10} {version.metadata['langgraph']['value']['text']}")
