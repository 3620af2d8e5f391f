"""R-S9: a failure at any step after validation leaves nothing of the write behind."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import DatabaseError

from memories.embedding import EmbeddingError
from memories.models import Link, Memory, MemoryEvent
from memories.services import remember as remember_module
from tests.factories import make_memory
from tests.helpers import remember, store_snapshot, supersedes


def _fail_after(real: Any) -> Any:
    """The real step runs (its rows are written), then the step fails."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        real(*args, **kwargs)
        raise DatabaseError("injected failure")

    return wrapper


@pytest.fixture
def story(alice):
    target = make_memory(alice.user, "The nightly backup runs at 02:00", kind="task")
    context = make_memory(alice.user, "Backups go to the s3 bucket acme-backups")
    return target, context


STEPS = {
    "insert": (Memory, "save"),
    "retirement": (remember_module, "retire_all_by_successor"),
    "supersedes link": (Link.objects, "bulk_create"),
    "created event": (MemoryEvent, "save"),
    "supersede events": (MemoryEvent.objects, "bulk_create"),
    "other link": (remember_module, "link_record"),
    "similar_existing": (remember_module, "similar_existing"),
}


@pytest.mark.parametrize("step", list(STEPS))
def test_a_failing_step_rolls_back_everything(alice, story, monkeypatch, step):
    target, context = story
    owner, name = STEPS[step]
    monkeypatch.setattr(owner, name, _fail_after(getattr(owner, name)))
    before = store_snapshot()
    links = [*supersedes(target.id), {"type": "relates_to", "dst": context.id}]
    content = "The nightly backup now runs at 03:00"

    response = remember(alice, content, links=links) if step != "similar_existing" else remember(alice, content)

    assert response.status_code == 503
    assert response.json()["error"]["code"] == "database_unavailable"
    assert store_snapshot() == before
    target.refresh_from_db()
    assert (target.state, target.loop_status) == ("live", "open")


def test_an_embedding_failure_stores_nothing(alice, story, monkeypatch):
    def broken(texts):
        raise EmbeddingError("model crashed")

    monkeypatch.setattr(remember_module, "embed_one", lambda text: broken([text]))
    before = store_snapshot()

    response = remember(alice, "Anything at all", links=supersedes(story[0].id))

    assert response.status_code == 503
    assert response.json()["error"]["code"] == "embedding_failed"
    assert store_snapshot() == before
