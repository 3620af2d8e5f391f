"""Request and response examples for the OpenAPI document (taken from a real run)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample

from memories.agent.results import similar_hint

MEMORY: dict[str, Any] = {
    "id": "mem_01M8WC8KGHKSTCR9Z3DAT1SG2G",
    "content": "Deploy window is Friday 14:00 UTC (moved from Monday).",
    "kind": "fact",
    "owner": "alice",
    "project": "acme",
    "visibility": "project",
    "provenance": "authoritative",
    "session": "conv-42",
    "metadata": {},
    "state": "live",
    "superseded_by": None,
    "invalidated_at": None,
    "loop_status": None,
    "closed_by": None,
    "closed_at": None,
    "created_at": "2026-12-02T21:58:38.865700Z",
    "updated_at": "2026-12-02T21:58:38.865714Z",
}
OLD_MEMORY: dict[str, Any] = MEMORY | {
    "id": "mem_01M8WC8KC92BBYZ6FN548DD54C",
    "content": "Deploy window is Monday 10:00 UTC.",
    "session": None,
    "state": "superseded",
    "superseded_by": MEMORY["id"],
    "invalidated_at": "2026-12-02T21:58:38.986405Z",
    "created_at": "2026-12-02T21:58:38.729447Z",
    "updated_at": "2026-12-02T21:58:38.986405Z",
}
LINK: dict[str, Any] = {
    "id": "lnk_01M8WC8KPZ9S1Y5T8W0E3D6QNB",
    "src": MEMORY["id"],
    "dst": OLD_MEMORY["id"],
    "type": "supersedes",
    "origin": "declared",
    "reverted": False,
    "created_at": "2026-12-02T21:58:38.986405Z",
}


def response(name: str, value: Any, status: str = "200") -> OpenApiExample:
    return OpenApiExample(name, value=value, response_only=True, status_codes=[status])


MEMORY_RESPONSE = response("A memory", MEMORY)
REMEMBER_RESPONSE = response(
    "Created, with the nearest existing memory",
    {
        "memory": MEMORY,
        "absorbed": False,
        "superseded": [],
        "skipped": [],
        "similar_existing": [
            {
                "id": OLD_MEMORY["id"],
                "kind": "fact",
                "project": "acme",
                "distance": 0.054909,
                "score": 1.179162,
                "age": "3 weeks",
                "age_seconds": 1814400,
                "created_at": OLD_MEMORY["created_at"],
                "preview": OLD_MEMORY["content"],
            }
        ],
        "hint": similar_hint(OLD_MEMORY["id"]),
    },
    status="201",
)
SUPERSEDE_RESPONSE = response(
    "Absorbed repeat that declares the supersede",
    {"memory": MEMORY, "absorbed": True, "superseded": [OLD_MEMORY["id"]], "skipped": []},
)
RECALL_RESPONSE = response("Results", {"results": [{"memory": MEMORY, "distance": 0.312, "score": 0.0410}]})
FEED_RESPONSE = response("A page", {"results": [MEMORY], "next": None})
HISTORY_RESPONSE = response(
    "A two-version chain", {"head": MEMORY["id"], "versions": [OLD_MEMORY, MEMORY], "edges": [LINK]}
)
LINK_RESPONSE = response("Created", LINK | {"type": "relates_to", "origin": "link"}, status="201")
FORGOTTEN_RESPONSE = response(
    "Forgotten",
    MEMORY | {"state": "forgotten", "invalidated_at": "2026-12-03T09:00:00Z", "updated_at": "2026-12-03T09:00:00Z"},
)
