"""The feed is memories'; the conflicts are review's (issue 35, ARCHITECTURE.md: memories knows
nothing of conflicts). Review's events reach the feed through a seam memories owns, the SQL
function ``zeromemory_feed_append()`` (migration 0033) and the type and subject-key registries,
so memories' code and schema never name them again."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.db import connection

import memories
from memories.agent.results import feed_event_body
from memories.choices import FeedEventType, MemoryFeedEventType
from memories.models import FeedEvent
from review.feed import CONFLICT_OPENED, CONFLICT_RESOLVED
from review.judges import Verdict
from review.models import Conflict
from review.pipeline import apply_verdict
from tests.factories import make_memory

MEMORIES = Path(memories.__file__).parent
# What names review's conflicts: the column memories used to keep for them, review's event type
# constants and their values as string literals (the MCP tools' prose may tell an agent of them).
NAMES_CONFLICTS = re.compile(r"\bconflict_id|\bCONFLICT_(OPENED|RESOLVED)\b|[\"']conflict\.(opened|resolved)[\"']")
# Migrations up to this one are history (0016 created the column, 0033 renamed it).
SEAM_MIGRATION = 33


def _memories_code() -> list[Path]:
    paths = []
    for path in sorted(MEMORIES.rglob("*.py")):
        if "migrations" in path.parts:
            number = re.match(r"(\d{4})_", path.name)
            if number is None or int(number.group(1)) <= SEAM_MIGRATION:
                continue
        paths.append(path)
    return paths


def test_memories_code_and_later_migrations_never_name_reviews_conflicts():
    scanned = _memories_code()
    assert MEMORIES / "choices.py" in scanned
    assert MEMORIES / "agent" / "results.py" in scanned
    offenders = [
        f"{path.relative_to(MEMORIES)}:{text[: match.start()].count(chr(10)) + 1}: {match.group(0)}"
        for path in scanned
        for text in [path.read_text()]
        for match in NAMES_CONFLICTS.finditer(text)
    ]
    assert offenders == []


def test_the_guard_catches_a_conflict_named_in_memories():
    # The guard's pattern would catch each of the ways memories named conflicts before the seam.
    for line in (
        "conflict_id = models.BigIntegerField()",
        "Q(conflict_id__isnull=True)",
        '"conflict": event.conflict_id,',
        '    CONFLICT_OPENED = "conflict.opened"',
        "type='conflict.resolved'",
    ):
        assert NAMES_CONFLICTS.search(line), line


def test_the_feed_types_are_memories_own_then_reviews_in_the_apis_order():
    assert FeedEventType.values == [*MemoryFeedEventType.values, CONFLICT_OPENED, CONFLICT_RESOLVED]
    assert FeedEventType.labels[-2:] == ["Conflict Opened", "Conflict Resolved"]
    assert FeedEventType["CONFLICT_RESOLVED"].value == "conflict.resolved"


@pytest.mark.django_db(transaction=True)
def test_reviews_trigger_writes_the_feed_only_through_memories_seam(alice, bob, acme):
    with connection.cursor() as cursor:
        cursor.execute("SELECT prosrc FROM pg_proc WHERE proname = 'zeromemory_feed_from_conflict'")
        (source,) = cursor.fetchone()
    assert "zeromemory_feed_append(" in source
    assert "memories_feedevent" not in source

    older = make_memory(alice.user, "The standup is at nine.", project=acme)
    newer = make_memory(bob.user, "The standup moved to ten.", project=acme)
    # Another owner's memory and a middling confidence: queued for people, not applied.
    apply_verdict(older_id=older.pk, newer_id=newer.pk, judge_name="test", verdict=Verdict("supersedes", 0.6, "moved"))
    conflict = Conflict.objects.get(older=older, newer=newer)
    event = FeedEvent.objects.get(type=CONFLICT_OPENED)
    # The row sorts with the memories' own events of its transaction order and is the conflict's.
    memory_event = FeedEvent.objects.filter(memory=newer, type="memory.created").get()
    assert (event.subject_id, event.memory_id, event.other_memory_id, event.project_id) == (
        conflict.pk,
        newer.pk,
        older.pk,
        acme.pk,
    )
    assert (event.epoch, event.txid) > (memory_event.epoch, memory_event.txid)
    body = feed_event_body(event)
    assert list(body) == ["id", "type", "created_at", "project", "memory", "conflict", "data"]
    assert body["conflict"] == conflict.pk
    assert feed_event_body(memory_event)["conflict"] is None
    assert list(feed_event_body(memory_event)) == list(body)
