"""The API's write endpoints, each with a body it accepts and the objects those bodies name:
shared by the strict-body (R-V5) and missing-slash (R-V6) tests."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.urls import URLPattern, URLResolver, get_resolver

from memories import services
from memories.models import Credential, Memory, Project
from review.models import Conflict, Relation
from tests.factories import issue_token, make_memory
from tests.helpers import store_snapshot

WRITE_METHODS = ("post", "put", "patch")

# Per route that takes a JSON body (by name): its path, a body it would accept from dave, and a
# value of the wrong JSON type for one of its keys. Placeholders name Objects' fields.
REST_CASES: dict[str, tuple[str, dict[str, Any], dict[str, Any]]] = {
    "memory-list": ("/api/v1/memories/", {"content": "Staging runs on db-4.", "project": "acme"}, {"content": 123}),
    "memory-batch": (
        "/api/v1/memories/batch/",
        {"items": [{"content": "Staging runs on db-4.", "project": "acme"}]},
        {"atomic": 1},
    ),
    "memory-forget": ("/api/v1/memories/{live}/forget/", {"reason": "moved"}, {"reason": 5}),
    "memory-restore": ("/api/v1/memories/{forgotten}/restore/", {"reason": "back"}, {"reason": ["back"]}),
    "memory-approve": ("/api/v1/memories/{pending}/approve/", {"reason": "checked"}, {"content": 7}),
    "memory-reject": ("/api/v1/memories/{pending}/reject/", {"reason": "wrong"}, {"reason": False}),
    "link-create": ("/api/v1/links/", {"src": "{live}", "dst": "{other}", "type": "relates_to"}, {"type": 1}),
    "recall": ("/api/v1/recall/", {"query": "deploy window"}, {"limit": "5"}),
    "context": ("/api/v1/context/", {"query": "deploy window"}, {"max_tokens": "300"}),
    "conflict-resolve": ("/api/v1/conflicts/{conflict}/resolve/", {"action": "keep_both"}, {"action": 1}),
    "conflict-group-resolve": ("/api/v1/conflicts/{conflict}/group/resolve/", {"action": "keep_all"}, {"action": 1}),
}


@dataclass
class Objects:
    live: str  # alice's, in acme: dave (its maintainer) may retire it
    other: str  # another live one of alice's, to link to
    forgotten: str
    pending: str  # a capture waiting for dave's review
    conflict: int


def make_objects(alice: User, alice_credential: Credential, acme: Project) -> Objects:
    live = make_memory(alice, "The deploy window is Monday 10:00 UTC.", project=acme)
    other = make_memory(alice, "Deploys need a green build on main.", project=acme)
    forgotten = make_memory(alice, "The office plants are watered on Fridays.", project=acme)
    services.memory_forget(user=alice, credential=alice_credential, memory_id=forgotten.pk, reason="")
    services.project_set_policy(actor=None, via="tests", project=acme, review_provisional=True)
    watcher, _ = issue_token(alice, provisional=True, label="watcher")
    pending = make_memory(alice, "Alice said the report is due on the 14th.", project=acme, credential=watcher)
    conflict = Conflict.objects.create(
        older=Memory.objects.get(pk=live.pk), newer=other, relation=Relation.CONTRADICTS, confidence=0.6, rationale="t"
    )
    return Objects(live.pk, other.pk, forgotten.pk, pending.pk, conflict.pk)


def everything() -> dict[str, Any]:
    """What a write could change, the review queue included."""
    return {**store_snapshot(), "conflicts": list(Conflict.objects.order_by("pk").values_list("pk", "status"))}


def fill(value: Any, objects: Objects) -> Any:
    """``value`` with each placeholder replaced by the id it names."""
    if isinstance(value, str):
        return value.format(**vars(objects))
    if isinstance(value, dict):
        return {key: fill(item, objects) for key, item in value.items()}
    if isinstance(value, list):
        return [fill(item, objects) for item in value]
    return value


def api_write_routes() -> set[str]:
    """The names of the API's routes whose views take a body (POST, PUT or PATCH)."""
    names: set[str] = set()

    def walk(patterns: list[Any], prefix: str) -> None:
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, route)
            elif isinstance(pattern, URLPattern) and route.startswith("api/"):
                view = getattr(pattern.callback, "view_class", None)
                if view is not None and any(hasattr(view, method) for method in WRITE_METHODS):
                    names.add(str(pattern.name))

    walk(get_resolver().url_patterns, "")
    return names
