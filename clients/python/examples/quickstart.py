"""The Python client's tour (docs/clients/python.md).

Run it against a server with ZEROMEMORY_URL (e.g. http://127.0.0.1:8000) and
ZEROMEMORY_TOKEN set: python clients/python/examples/quickstart.py
"""

from zeromemory_client import Client, StaleTarget

with Client() as zm:  # ZEROMEMORY_URL and ZEROMEMORY_TOKEN
    print("I am", zm.whoami().user)

    old = zm.remember("The deploy window is Monday 10:00 UTC.", kind="fact")
    print("stored", old.memory.id, "- similar:", [entry.preview for entry in old.similar_existing or []])

    # A declared supersede: the new version retires the old one in the same write.
    new = zm.remember("The deploy window is Friday 14:00 UTC.", kind="fact", supersedes=[old.memory.id])
    print("replaced", new.superseded)

    for version in zm.history(new.memory.id).versions:
        print(f"  {version.state:<10} {version.content}")

    for hit in zm.recall("When is the deploy window?", limit=3):
        print(f"recall {hit.score:.3f} {hit.memory.content}")

    # A writer that read the old version before it was replaced, and wants to know.
    try:
        zm.remember("The deploy window is Thursday 09:00 UTC.", supersedes=[old.memory.id], on_stale="reject")
    except StaleTarget as stale:
        print("stale: the current version is", stale.current[0]["current"])

    print(zm.context("deploy window", max_tokens=120).text)
