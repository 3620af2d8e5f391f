"""GET /api/v1/events/: what changed among the memories and conflicts the caller may see, in an
order that misses nothing (memories.selectors.feed_events_page)."""

from __future__ import annotations

import base64
import threading
from typing import Any

import pytest
from django.db import connection, transaction

from memories import services
from memories.choices import LinkType, Visibility
from memories.models import FeedEvent, Memory, MemoryEvent
from review.judges import Verdict
from review.pipeline import apply_verdict
from review.services import conflict_resolve
from tests.conftest import Persona
from tests.factories import make_memory

pytestmark = pytest.mark.django_db(transaction=True)

EVENTS = "/api/v1/events/"


def _events(persona: Persona, **params: Any) -> dict[str, Any]:
    answer = persona.client.get(EVENTS, params)
    assert answer.status_code == 200, answer.content
    return answer.json()


def _seen(persona: Persona, **params: Any) -> list[tuple[str, str]]:
    return [(event["type"], event["memory"]) for event in _events(persona, **params)["results"]]


def test_a_write_a_supersede_a_forget_and_a_restore_are_announced_in_order(alice, bob, acme):
    old = make_memory(alice.user, "The staging database is db-3.", credential=alice.credential, project=acme)
    new = services.memory_remember(
        user=alice.user,
        credential=alice.credential,
        content="The staging database moved to db-7.",
        kind="fact",
        project_slug="acme",
        links=[services.LinkSpec(type=LinkType.SUPERSEDES, dst=old.pk)],
    ).memory
    services.memory_forget(user=alice.user, credential=alice.credential, memory_id=new.pk, reason="wrong host")
    services.memory_restore(user=alice.user, credential=alice.credential, memory_id=new.pk)

    page = _events(bob)

    assert [(event["type"], event["memory"]) for event in page["results"]] == [
        ("memory.created", old.pk),
        ("memory.created", new.pk),
        ("memory.superseded", old.pk),
        ("memory.forgotten", new.pk),
        ("memory.restored", new.pk),
    ]
    superseded = page["results"][2]
    assert superseded["project"] == "acme"
    assert superseded["conflict"] is None
    assert superseded["data"]["successor"] == new.pk
    assert superseded["data"]["origin"] == "declared"
    assert page["results"][3]["data"]["reason"] == "wrong host"
    assert all(event["id"].startswith("evt_") for event in page["results"])
    assert page["has_more"] is False
    # Every lifecycle entry of those kinds has exactly one event, written with it.
    assert (
        FeedEvent.objects.count()
        == MemoryEvent.objects.filter(action__in=["created", "superseded", "forgotten", "restored"]).count()
    )


def test_only_what_the_caller_may_see(alice, bob, carol, acme):
    shared = make_memory(alice.user, "The office wifi changes monthly.", credential=alice.credential, project=acme)
    private = make_memory(
        alice.user,
        "I am interviewing at another company next week.",
        credential=alice.credential,
        project=acme,
        visibility=Visibility.PRIVATE,
    )
    personal = make_memory(alice.user, "My dentist appointment is on Tuesday.", credential=alice.credential)

    assert _seen(alice) == [("memory.created", memory.pk) for memory in (shared, private, personal)]
    assert _seen(bob) == [("memory.created", shared.pk)]
    assert _seen(carol) == []
    assert _seen(carol, project="globex") == []
    # A project the caller is not in answers as one that does not exist.
    answer = carol.client.get(EVENTS, {"project": "acme"})
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "project_not_found"


def test_filters_by_project_type_and_time(alice, acme):
    first = make_memory(alice.user, "Lunch on Fridays is at noon.", credential=alice.credential, project=acme)
    personal = make_memory(alice.user, "Buy a new bike helmet.", credential=alice.credential)
    services.memory_forget(user=alice.user, credential=alice.credential, memory_id=first.pk)
    forgotten_at = FeedEvent.objects.get(type="memory.forgotten").created_at

    assert _seen(alice, project="acme") == [("memory.created", first.pk), ("memory.forgotten", first.pk)]
    assert _seen(alice, type="memory.forgotten") == [("memory.forgotten", first.pk)]
    assert _seen(alice, type="memory.created,memory.forgotten") == [
        ("memory.created", first.pk),
        ("memory.created", personal.pk),
        ("memory.forgotten", first.pk),
    ]
    assert _seen(alice, since=forgotten_at.isoformat()) == [("memory.forgotten", first.pk)]

    wrong = alice.client.get(EVENTS, {"type": "memory.deleted"})
    assert wrong.status_code == 400
    assert wrong.json()["error"]["code"] == "invalid"
    assert "type" in wrong.json()["error"]["fields"]
    assert alice.client.get(EVENTS, {"cursor": "not-a-cursor"}).status_code == 404


def test_the_cursor_pages_through_and_a_poller_misses_nothing(alice, acme):
    written = [
        make_memory(alice.user, f"Fact number {n}: the {word} service runs on port {8000 + n}.", project=acme).pk
        for n, word in enumerate(["billing", "search", "mailer", "auth", "export"])
    ]
    seen: list[str] = []
    page = _events(alice, limit=2)
    while True:
        seen += [event["memory"] for event in page["results"]]
        if not page["has_more"]:
            break
        page = alice.client.get(page["next"]).json()
    assert seen == written

    # Nothing new: the same position comes back, to poll with.
    again = alice.client.get(page["next"]).json()
    assert again["results"] == []
    assert again["next"] == page["next"]
    later = make_memory(alice.user, "The search service moved to port 9200.", project=acme)
    assert [event["memory"] for event in alice.client.get(again["next"]).json()["results"]] == [later.pk]


def test_an_event_of_a_transaction_still_running_holds_back_the_later_ones_instead_of_being_skipped(alice, acme):
    """Ids are handed out before commit: a reader going by id alone would pass the event of a
    transaction that commits after a later one, and never see it."""
    started, release = threading.Event(), threading.Event()
    slow: dict[str, str] = {}

    def slow_write() -> None:
        try:
            with transaction.atomic():
                slow["id"] = make_memory(alice.user, "The slow write's memory.", project=acme).pk
                started.set()
                release.wait(30)
        finally:
            connection.close()

    writer = threading.Thread(target=slow_write)
    writer.start()
    try:
        assert started.wait(30)
        quick = make_memory(alice.user, "A quick write that commits first.", project=acme)
        held = _events(alice)
        assert held["results"] == []  # the quick one waits behind the running transaction
    finally:
        release.set()
        writer.join(30)
    page = _events(alice)
    assert [event["memory"] for event in page["results"]] == [slow["id"], quick.pk]


def test_a_write_that_rolls_back_announces_nothing(alice, acme):
    class Boom(Exception):
        pass

    def write_and_fail() -> None:
        with transaction.atomic():
            make_memory(alice.user, "Written and rolled back.", project=acme)
            raise Boom

    with pytest.raises(Boom):
        write_and_fail()
    assert not Memory.objects.exists()
    assert not FeedEvent.objects.exists()
    assert _seen(alice) == []


def test_the_feed_refuses_rewrites(alice, acme):
    make_memory(alice.user, "An event to try to rewrite.", project=acme)
    event = FeedEvent.objects.get()
    with pytest.raises(Exception, match="append-only"), transaction.atomic():
        FeedEvent.objects.filter(pk=event.pk).update(type="memory.forgotten")
    with pytest.raises(Exception, match="append-only"), transaction.atomic():
        FeedEvent.objects.filter(pk=event.pk).delete()
    assert FeedEvent.objects.get().type == "memory.created"


def test_conflicts_opened_and_resolved_are_announced_to_those_who_may_moderate_them(alice, bob, dave, acme):
    older = make_memory(alice.user, "The release train leaves every second Tuesday.", project=acme)
    newer = make_memory(bob.user, "Releases now ship every Thursday.", project=acme)
    apply_verdict(older_id=older.pk, newer_id=newer.pk, judge_name="test", verdict=Verdict("supersedes", 0.6, "time"))
    conflict_id = FeedEvent.objects.get(type="conflict.opened").subject_id
    assert conflict_id is not None
    conflict_resolve(user=dave.user, conflict_id=conflict_id, action="keep_both")

    conflict_events = [event for event in _events(dave)["results"] if event["conflict"] is not None]
    assert [(event["type"], event["memory"], event["conflict"]) for event in conflict_events] == [
        ("conflict.opened", newer.pk, conflict_id),
        ("conflict.resolved", newer.pk, conflict_id),
    ]
    assert conflict_events[0]["data"] | {"confidence": None} == {
        "conflict": conflict_id,
        "older": older.pk,
        "newer": newer.pk,
        "relation": "supersedes",
        "confidence": None,
    }
    assert conflict_events[1]["data"]["resolution"] == "keep_both"
    assert conflict_events[1]["data"]["status"] == "resolved"
    # bob sees both memories but may not moderate alice's: the queue does not show him the
    # conflict, and neither does the feed.
    assert [event["type"] for event in _events(bob)["results"]] == ["memory.created", "memory.created"]


def test_a_cursor_from_an_epoch_this_database_has_not_reached_reads_as_nothing_new(alice, bob, acme):
    """A replica that has not yet replayed a restore's new epoch: the cursor a reader got from an
    up-to-date server is kept, not refused (410 is for cursors of earlier epochs only)."""
    make_memory(alice.user, "The VPN gateway is vpn-2.", credential=alice.credential, project=acme)
    epoch = services.feed_epoch_advance(reason="tests: a restore").epoch
    make_memory(alice.user, "The VPN gateway moved to vpn-5.", credential=alice.credential, project=acme)
    current = _events(bob)["next"].split("cursor=")[1]
    ahead = base64.urlsafe_b64encode(f"{epoch + 1}.1.1".encode()).decode().rstrip("=")

    page = _events(bob, cursor=ahead)

    assert page["results"] == []
    assert page["next"].endswith(f"cursor={ahead}")
    assert base64.urlsafe_b64decode(current + "=" * (-len(current) % 4)).decode().startswith(f"{epoch}.")
