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
SIMILAR_EXISTING = [
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
]
REMEMBER_RESPONSE = response(
    "Created, with the nearest existing memory",
    {
        "memory": MEMORY,
        "absorbed": False,
        "superseded": [],
        "skipped": [],
        "similar_existing": SIMILAR_EXISTING,
        "hint": similar_hint(SIMILAR_EXISTING),
    },
    status="201",
)
SUPERSEDE_RESPONSE = response(
    "Absorbed repeat that declares the supersede",
    {"memory": MEMORY, "absorbed": True, "superseded": [OLD_MEMORY["id"]], "skipped": []},
)
RECALL_RESPONSE = response("Results", {"results": [{"memory": MEMORY, "distance": 0.312, "score": 0.0410}]})
# From a real run (tests' personas, the packaged model): a fact that replaced another, a
# decision, and an open question listed apart.
CONTEXT_TEXT = "\n".join(
    [
        "Current facts, most relevant first:",
        "- (fact, acme, 2026-12-04) Deploy window is Friday 14:00 UTC (moved from Monday).",
        "  was: Deploy window is Monday 10:00 UTC. (until 2026-12-04)",
        "- (decision, acme, 2026-12-04) Freeze deploys during the Black Friday week.",
        "",
        "Open loops:",
        "- (open-question, acme, 2026-12-04) Who approves an emergency deploy outside the window?",
    ]
)
CONTEXT_RESPONSE = response(
    "A block with a 'was' line and an open loop",
    {
        "text": CONTEXT_TEXT,
        "tokens": 107,
        "token_counter": "sentence-transformers/all-MiniLM-L6-v2 tokenizer, without special tokens",
        "items": [
            {
                "id": "mem_01M91JMZXT9KKN409J8BVW66ZP",
                "kind": "fact",
                "project": "acme",
                "section": "facts",
                "score": 5.71069,
                "tokens": 48,
                "created_at": "2026-12-04T22:26:28.410862Z",
                "was": {"id": "mem_01M91JMZ8YGB1ATMFY9ZXW5RHJ", "until": "2026-12-04T22:26:28.434872Z"},
            },
            {
                "id": "mem_01M91JMZZ2RRF47Z9RS6PEKTG6",
                "kind": "decision",
                "project": "acme",
                "section": "facts",
                "score": 0.568674,
                "tokens": 23,
                "created_at": "2026-12-04T22:26:28.450220Z",
                "was": None,
            },
            {
                "id": "mem_01M91JMZZJWEQSAQQK8FARA8R6",
                "kind": "open-question",
                "project": "acme",
                "section": "open_loops",
                "score": 0.688005,
                "tokens": 26,
                "created_at": "2026-12-04T22:26:28.466920Z",
                "was": None,
            },
        ],
        "left_out": 0,
    },
)
BATCH_RESPONSE = response(
    "One stored, one refused",
    {
        "results": [
            {
                "status": 201,
                "memory": MEMORY,
                "absorbed": False,
                "superseded": [],
                "skipped": [],
                "similar_existing": [],
            },
            {
                "status": 404,
                "error": {"code": "project_not_found", "message": "Project 'globex' not found."},
            },
        ]
    },
)
WHOAMI_RESPONSE = response(
    "A token narrowed to one project, read-only, for 30 days",
    {
        "user": "alice",
        "credential": {
            "label": "ci-bot",
            "prefix": "jhXzrY59",
            "provenance": "authoritative",
            "created_at": "2026-12-04T22:47:44.582179Z",
            "expires_at": "2027-01-03T22:47:44.577613Z",
        },
        "scope": {"projects": ["acme"], "read_only": True},
        "projects": [{"slug": "acme", "name": "Acme", "role": "maintainer"}],
        "rate_limit": {"per_minute": 1200, "remaining": 1199},
    },
)
FEED_RESPONSE = response("A page", {"results": [MEMORY], "next": None})
HISTORY_RESPONSE = response(
    "A two-version chain", {"head": MEMORY["id"], "versions": [OLD_MEMORY, MEMORY], "edges": [LINK]}
)
LINK_RESPONSE = response("Created", LINK | {"type": "relates_to", "origin": "link"}, status="201")
FORGOTTEN_RESPONSE = response(
    "Forgotten",
    MEMORY | {"state": "forgotten", "invalidated_at": "2026-12-03T09:00:00Z", "updated_at": "2026-12-03T09:00:00Z"},
)

EVENTS_RESPONSE = response(
    "A page",
    {
        "results": [
            {
                "id": "evt_41",
                "type": "memory.created",
                "created_at": "2026-12-05T09:14:03.112Z",
                "project": "acme",
                "memory": "mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2T",
                "conflict": None,
                "data": {},
            },
        ],
        "next": "https://zeromemory.example/api/v1/events/?cursor=MTIzNC40MQ",
        "has_more": False,
    },
)
