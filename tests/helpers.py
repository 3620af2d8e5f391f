"""Small helpers for API stories."""

from __future__ import annotations

from typing import Any

from memories.models import IdempotencyRecord, Link, Memory, MemoryEvent

REMEMBER = "/api/v1/memories/"

# The memory object's fields as SPEC §3 lists them, in its order: written out here rather than
# imported from the app, so a change on either side shows.
SPEC_MEMORY_FIELDS = (
    "id",
    "content",
    "kind",
    "owner",
    "project",
    "visibility",
    "provenance",
    "session",
    "metadata",
    "state",
    "superseded_by",
    "invalidated_at",
    "loop_status",
    "closed_by",
    "closed_at",
    "created_at",
    "updated_at",
)


def remember(persona: Any, content: str, **fields: Any) -> Any:
    return persona.client.post(REMEMBER, {"content": content, **fields}, format="json")


def supersedes(*ids: str) -> list[dict[str, str]]:
    return [{"type": "supersedes", "dst": memory_id} for memory_id in ids]


def store_snapshot() -> dict[str, Any]:
    """Everything a write could change, to prove that a refused one changed nothing."""
    return {
        "memories": list(
            Memory.objects.order_by("pk").values_list(
                "pk", "state", "superseded_by_id", "invalidated_at", "loop_status", "closed_at", "updated_at"
            )
        ),
        "links": list(Link.objects.order_by("pk").values_list("pk", "reverted")),
        "events": MemoryEvent.objects.count(),
        "idempotency": IdempotencyRecord.objects.count(),
    }


def backdate(memory: Memory, when: Any) -> None:
    """Make ``memory`` look written at ``when``. Creation times are immutable (a trigger keeps
    them so); this bypasses triggers for one statement, as only a test may."""
    from django.db import connection, transaction

    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute("UPDATE memories_memory SET created_at = %s WHERE id = %s", [when, memory.pk])
        cursor.execute("SET LOCAL session_replication_role = DEFAULT")


def assert_documented(response: Any, method: str, path: str) -> None:
    """The answer is one the published OpenAPI document describes for ``method path`` (a
    template, e.g. ``/api/v1/memories/{memory_id}/``): its status, and its body's shape."""
    import requests
    import schemathesis
    from rest_framework.test import APIClient

    document = APIClient().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    answer = schemathesis.Response(
        status_code=response.status_code,
        headers={name: [str(value)] for name, value in response.headers.items()},
        content=response.content,
        request=requests.Request(method, f"http://testserver{path}").prepare(),
        elapsed=0.0,
        verify=True,
    )
    schemathesis.openapi.from_dict(document)[path][method].validate_response(answer)
