"""One decision per disputed slot (issue 31 part 3): pending conflicts that dispute the same
memories, or the same subject and attribute as the structure reads it, are one group — in the
selector, in GET /api/v1/conflicts/, and in the one decision that settles a group at once."""

from __future__ import annotations

from io import StringIO
from urllib.parse import parse_qs, urlsplit

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from rest_framework.test import APIClient

from memories.agent.results import memory_body
from memories.integrity import find_breaches
from memories.models import Link, Memory, MemoryEvent
from memories.services import credential_issue, memory_forget, memory_restore
from review import services
from review.judges import Verdict
from review.judges.slots import slot_key
from review.models import Conflict
from review.pipeline import apply_verdict
from review.selectors import conflict_group_of, conflict_groups
from tests.factories import make_memory
from tests.helpers import assert_documented, store_snapshot

CONFLICTS = "/api/v1/conflicts/"
PER_CONFLICT_FIELDS = {
    "id",
    "status",
    "relation",
    "confidence",
    "rationale",
    "resolution",
    "same_credential",
    "stale_version",
    "opened_at",
    "resolved_at",
    "older",
    "newer",
}


def queue(older: Memory, newer: Memory, confidence: float = 0.6) -> Conflict:
    """The pair queued by the pipeline's own verdict step, as a judge's doubt queues it."""
    judgment = apply_verdict(
        older_id=older.pk,
        newer_id=newer.pk,
        judge_name="test",
        verdict=Verdict("contradicts", confidence, "two values"),
    )
    assert judgment is not None
    assert judgment.outcome == "queued"
    return Conflict.objects.get(judgment=judgment)


def body(memory_id: str) -> dict:
    return memory_body(Memory.objects.select_related("owner", "project").get(pk=memory_id))


def group_resolve(persona, conflict_id, payload):
    return persona.client.post(f"{CONFLICTS}{conflict_id}/group/resolve/", payload, format="json")


# -- the slot key ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("older", "newer", "key"),
    [
        ("Priya lives in Oslo.", "Priya lives in Bergen now.", "priya|live"),
        ("Priya lives in Oslo.", "Priya moved to Bergen.", "priya|live"),  # the change verb names no attribute
        ("Priya prefers tea.", "Priya likes coffee.", "priya|like"),  # synonyms: one attribute
        ("Acme's standup is at 09:30", "Acme's standup moved to 09:45", "acme standup|be"),
        ("The billing service deploys on Fridays", "The billing service deploys on Mondays", "bill|deploy"),
        ("My sister lives in Oslo", "My sister lives in Rome", "my sister|live"),
        ("Olive weighs 9 kg", "Olive weighs 23 kg", "olive weigh kg|"),  # no predicate: all but the amount
        # No slot the structure can single out: another subject, another attribute, a subject
        # with no word of its own, a subject that points elsewhere.
        ("The billing service deploys on Fridays", "The search service deploys on Fridays", ""),
        ("Priya lives in Oslo", "Priya works in Oslo", ""),
        ("I love sushi", "I love pizza", ""),
        ("I love dish 5.", "I love dish 7.", ""),  # a predicate, no subject of its own: no amounts-only key
        ("Her sister lives in Oslo", "Her sister lives in Rome", ""),
        ("The best way to reach Chloe is a phone call.", "The best way to reach Chloe is Signal.", ""),
    ],
)
def test_the_slot_key_names_the_subject_and_attribute_both_statements_state(older, newer, key):
    assert slot_key(older, newer) == key


def test_the_pipeline_records_the_slot_on_the_conflict_it_opens(alice, acme):
    older = make_memory(alice.user, "Priya lives in Oslo.", project=acme)
    newer = make_memory(alice.user, "Priya lives in Bergen.", project=acme)

    assert queue(older, newer).slot == "priya|live"


def test_the_sweep_records_the_slot_on_the_conflicts_it_opens(alice, acme, scripted_judge):
    scripted_judge.verdict = Verdict("contradicts", 0.6, "two cities")
    make_memory(alice.user, "Priya lives in Oslo.", project=acme)
    make_memory(alice.user, "Priya lives in Bergen.", project=acme)
    make_memory(alice.user, "The standup is at 09:30.", project=acme)  # no city: judged, no slot of Priya's
    assert not Conflict.objects.exists()  # the write's own check never ran here (no commit)

    call_command("hygiene", stdout=StringIO(), stderr=StringIO())

    slots = sorted(Conflict.objects.values_list("slot", flat=True))
    assert "priya|live" in slots
    assert all(slot in ("priya|live", "") for slot in slots)


# -- the groups ----------------------------------------------------------------------------


@pytest.fixture
def root(db) -> User:
    return User.objects.create_superuser("root")


def test_conflicts_sharing_a_memory_are_one_group_with_its_live_values_newest_first(alice, acme):
    sushi = make_memory(alice.user, "I love sushi.", project=acme)
    pizza = make_memory(alice.user, "I love pizza.", project=acme)
    ramen = make_memory(alice.user, "I love ramen.", project=acme)
    first, second = queue(sushi, pizza), queue(pizza, ramen)
    assert (first.slot, second.slot) == ("", "")  # joined by pizza alone

    [group] = conflict_groups(user=alice.user)

    assert group.conflicts == (first.pk, second.pk)
    assert group.lead == first.pk  # the earliest opened
    assert group.values == (ramen.pk, pizza.pk, sushi.pk)
    memory_forget(user=alice.user, credential=None, memory_id=pizza.pk)
    [group] = conflict_groups(user=alice.user)
    assert (group.values, group.memories) == ((ramen.pk, sushi.pk), (ramen.pk, pizza.pk, sushi.pk))


def test_conflicts_of_one_slot_are_one_group_without_a_shared_memory(alice, acme):
    oslo = make_memory(alice.user, "Priya lives in Oslo.", project=acme)
    bergen = make_memory(alice.user, "Priya lives in Bergen.", project=acme)
    lisbon = make_memory(alice.user, "Priya lives in Lisbon.", project=acme)
    porto = make_memory(alice.user, "Priya lives in Porto.", project=acme)
    first, second = queue(oslo, bergen), queue(lisbon, porto)
    other = queue(
        make_memory(alice.user, "The standup is at 09:30.", project=acme),
        make_memory(alice.user, "The standup is at 10:00.", project=acme),
    )

    groups = conflict_groups(user=alice.user)

    assert [(g.lead, g.conflicts, g.values) for g in groups] == [
        (other.pk, (other.pk,), (other.newer_id, other.older_id)),
        (first.pk, (first.pk, second.pk), (porto.pk, lisbon.pk, bergen.pk, oslo.pk)),
    ]


def test_another_owner_or_another_scope_is_never_joined_by_the_slot(root, alice, bob, acme):
    in_acme = queue(
        make_memory(alice.user, "Priya lives in Oslo.", project=acme),
        make_memory(alice.user, "Priya lives in Bergen.", project=acme),
    )
    personal = queue(  # alice's own scope, no project
        make_memory(alice.user, "Priya lives in Lisbon."), make_memory(alice.user, "Priya lives in Porto.")
    )
    bobs = queue(  # the same words, another owner in the same project
        make_memory(bob.user, "Priya lives in Oslo.", project=acme),
        make_memory(bob.user, "Priya lives in Rome.", project=acme),
    )
    assert in_acme.slot == personal.slot == bobs.slot == "priya|live"

    groups = conflict_groups(user=root)

    assert sorted(g.conflicts for g in groups) == [(in_acme.pk,), (personal.pk,), (bobs.pk,)]
    group = conflict_group_of(user=root, conflict_id=personal.pk)
    assert group is not None
    assert group.conflicts == (personal.pk,)
    # What alice may not moderate is no part of her queue, nor joins it.
    assert sorted(g.conflicts for g in conflict_groups(user=alice.user)) == [(in_acme.pk,), (personal.pk,)]
    assert conflict_group_of(user=alice.user, conflict_id=bobs.pk) is None


def test_grouping_reads_the_queue_in_one_query(alice, acme, django_assert_num_queries):
    for n in range(3):
        queue(
            make_memory(alice.user, f"Room {n} opens at 09:00.", project=acme),
            make_memory(alice.user, f"Room {n} opens at 10:00.", project=acme),
        )
    with django_assert_num_queries(1):
        assert len(conflict_groups(user=alice.user)) == 3


# -- the API: list ---------------------------------------------------------------------------


@pytest.fixture
def priya(alice, acme):
    """Two conflicts about Priya's city (one slot), the second opened later."""
    oslo = make_memory(alice.user, "Priya lives in Oslo.", project=acme)
    bergen = make_memory(alice.user, "Priya lives in Bergen.", project=acme)
    lisbon = make_memory(alice.user, "Priya lives in Lisbon.", project=acme)
    first, second = queue(oslo, bergen), queue(bergen, lisbon)
    return {"oslo": oslo, "bergen": bergen, "lisbon": lisbon, "first": first, "second": second}


def test_the_pending_queue_shows_a_group_as_one_item_with_every_live_value(alice, priya):
    response = alice.client.get(CONFLICTS)

    [item] = response.json()["results"]
    assert set(item) == PER_CONFLICT_FIELDS | {"group"}
    first = priya["first"]
    assert (item["id"], item["older"], item["newer"]) == (first.pk, body(first.older_id), body(first.newer_id))
    assert (item["status"], item["relation"], item["resolution"]) == ("pending", "contradicts", "")
    assert item["group"] == {
        "conflicts": [first.pk, priya["second"].pk],
        "values": [body(priya["lisbon"].pk), body(priya["bergen"].pk), body(priya["oslo"].pk)],
    }
    assert response.json()["next"] is None
    assert_documented(response, "GET", CONFLICTS)


def test_resolved_and_dismissed_listings_stay_per_conflict(alice, priya):
    services.conflict_resolve(user=alice.user, conflict_id=priya["first"].pk, action="keep_both")
    services.conflict_resolve(user=alice.user, conflict_id=priya["second"].pk, action="keep_both")

    response = alice.client.get(f"{CONFLICTS}?status=resolved")

    items = response.json()["results"]
    assert [item["id"] for item in items] == [priya["second"].pk, priya["first"].pk]
    assert all(set(item) == PER_CONFLICT_FIELDS for item in items)
    assert alice.client.get(CONFLICTS).json()["results"] == []
    assert_documented(response, "GET", CONFLICTS)


def test_groups_page_stably_while_conflicts_join_them(alice, acme):
    conflicts = [
        queue(
            make_memory(alice.user, f"Room {n} opens at 09:00.", project=acme),
            make_memory(alice.user, f"Room {n} opens at 10:00.", project=acme),
        )
        for n in range(5)
    ]
    newest_first = [c.pk for c in reversed(conflicts)]

    first = alice.client.get(f"{CONFLICTS}?limit=2").json()
    # Meanwhile a conflict joins the group on the next page (through its newer memory) and a
    # new group opens: neither repeats nor skips a group that was there.
    joining = queue(
        Memory.objects.get(pk=conflicts[2].newer_id), make_memory(alice.user, "Room 2 opens at 11:00.", project=acme)
    )
    fresh = queue(
        make_memory(alice.user, "The kitchen opens at 07:00.", project=acme),
        make_memory(alice.user, "The kitchen opens at 08:00.", project=acme),
    )
    second = alice.client.get(first["next"]).json()
    third = alice.client.get(second["next"]).json()

    assert [item["id"] for item in first["results"]] == newest_first[:2]
    assert [item["id"] for item in second["results"]] == newest_first[2:4]
    assert [item["id"] for item in third["results"]] == newest_first[4:]
    assert third["next"] is None
    assert second["results"][0]["group"]["conflicts"] == [conflicts[2].pk, joining.pk]
    assert [item["id"] for item in alice.client.get(CONFLICTS).json()["results"]] == [fresh.pk, *newest_first]


def test_a_cursor_that_is_not_one_of_ours_answers_404(alice, priya):
    services.conflict_resolve(user=alice.user, conflict_id=priya["first"].pk, action="dismiss")
    services.conflict_resolve(user=alice.user, conflict_id=priya["second"].pk, action="dismiss")
    dismissed_page = alice.client.get(f"{CONFLICTS}?status=dismissed&limit=1").json()["next"]
    cursor = parse_qs(urlsplit(dismissed_page).query)["cursor"][0]  # another listing's cursor

    assert alice.client.get(CONFLICTS, {"cursor": ""}).json()["results"] == []  # empty: from the top
    for bad in (cursor, "garbage", "cD1ub3R8YQ=="):
        response = alice.client.get(CONFLICTS, {"cursor": bad})
        assert (response.status_code, response.json()["error"]["code"]) == (404, "not_found"), bad


# -- the API: one decision --------------------------------------------------------------------


def test_this_one_stands_supersedes_every_other_live_value_by_it_in_one_decision(alice, priya):
    oslo, bergen, lisbon = priya["oslo"], priya["bergen"], priya["lisbon"]
    first, second = priya["first"], priya["second"]

    response = group_resolve(
        alice, second.pk, {"action": "stands", "memory": bergen.pk, "conflicts": [first.pk, second.pk]}
    )

    assert response.status_code == 200
    answer = response.json()
    assert [(c["id"], c["status"], c["resolution"]) for c in answer["conflicts"]] == [
        (first.pk, "resolved", "group_stands"),
        (second.pk, "resolved", "group_stands"),
    ]
    assert answer["values"] == [body(lisbon.pk), body(bergen.pk), body(oslo.pk)]
    states = dict(Memory.objects.filter(pk__in=[oslo.pk, bergen.pk, lisbon.pk]).values_list("pk", "state"))
    assert states == {oslo.pk: "superseded", bergen.pk: "live", lisbon.pk: "superseded"}
    for retired in (oslo, lisbon):
        assert Memory.objects.get(pk=retired.pk).superseded_by_id == bergen.pk
        link = Link.objects.get(src=bergen, dst=retired, type="supersedes")
        assert (link.origin, link.created_by, link.reverted) == ("moderator", alice.user, False)
        event = MemoryEvent.objects.filter(memory=retired, action="superseded").get()
        assert event.reason == f"conflict group of {first.pk} (2 conflicts): {bergen.pk} stands"
        assert event.actor == alice.user
    assert set(Conflict.objects.values_list("resolved_by", flat=True)) == {alice.user.pk}
    assert alice.client.get(CONFLICTS).json()["results"] == []
    integrity = StringIO()
    call_command("check_integrity", stdout=integrity)  # exits 1 on any breach
    assert integrity.getvalue() == "All lifecycle invariants hold.\n"
    assert_documented(response, "POST", f"{CONFLICTS}{{conflict_id}}/group/resolve/")

    # Reversible: a retired value comes back by a restore, its moderator link reverted.
    memory_restore(user=alice.user, credential=None, memory_id=lisbon.pk)
    assert Memory.objects.get(pk=lisbon.pk).state == "live"
    assert Link.objects.get(src=bergen, dst=lisbon, type="supersedes").reverted
    assert list(find_breaches()) == []


def test_keep_all_and_dismiss_settle_every_conflict_and_change_no_memory(alice, dave, priya):
    first, second = priya["first"], priya["second"]
    before = store_snapshot()

    kept = group_resolve(alice, first.pk, {"action": "keep_all"})

    assert kept.status_code == 200
    assert [(c["id"], c["status"], c["resolution"]) for c in kept.json()["conflicts"]] == [
        (first.pk, "resolved", "keep_both"),
        (second.pk, "resolved", "keep_both"),
    ]
    assert store_snapshot() == before

    third = queue(priya["oslo"], make_memory(alice.user, "Priya lives in Rome.", project=first.older.project))
    before = store_snapshot()
    dismissed = group_resolve(dave, third.pk, {"action": "dismiss", "conflicts": [third.pk]})
    assert [(c["id"], c["status"], c["resolution"]) for c in dismissed.json()["conflicts"]] == [
        (third.pk, "dismissed", "dismiss")
    ]
    assert store_snapshot() == before
    assert list(find_breaches()) == []


def _pending(*conflicts: Conflict) -> list[tuple]:
    return list(
        Conflict.objects.filter(pk__in=[c.pk for c in conflicts])
        .order_by("pk")
        .values_list("pk", "status", "resolution", "resolved_at", "resolved_by")
    )


def test_refused_group_decisions_change_nothing(alice, bob, priya):
    first, second = priya["first"], priya["second"]
    stranger = make_memory(alice.user, "Priya lives in Faro.", project=first.older.project)
    before, rows = store_snapshot(), _pending(first, second)
    url = f"{CONFLICTS}{{conflict_id}}/group/resolve/"

    def refused(persona, payload, conflict_id=first.pk):
        response = group_resolve(persona, conflict_id, payload)
        return response.status_code, response.json()["error"]

    assert refused(alice, {"action": "newer_supersedes"}) == (
        400,
        {
            "code": "invalid",
            "message": "The request is invalid; see fields.",
            "fields": {"action": ['"newer_supersedes" is not a valid choice.']},
        },
    )
    assert refused(alice, {"action": "keep_all", "moderator": "me"})[1]["fields"] == {"moderator": ["Unknown field."]}
    assert refused(alice, {"action": "stands"})[1]["fields"] == {"memory": ["This field is required with stands."]}
    assert refused(alice, {"action": "dismiss", "memory": priya["oslo"].pk})[1]["fields"] == {
        "memory": ["Only with stands."]
    }
    assert refused(alice, {"action": "stands", "memory": "bergen"})[1]["fields"] == {"memory": ["Not a memory id."]}
    assert refused(alice, {"action": "keep_all", "conflicts": ["1"]})[1]["fields"] == {
        "conflicts": {"0": ["A valid integer is required."]}
    }
    assert refused(alice, {"action": "stands", "memory": stranger.pk}) == (
        400,
        {
            "code": "invalid",
            "message": f"{stranger.pk} is not one of this group's memories.",
            "fields": {"memory": ["Must be one of the group's values."]},
        },
    )
    # Not hers to moderate, or no such conflict: 404 alike.
    assert refused(bob, {"action": "dismiss"})[0] == 404
    assert refused(alice, {"action": "dismiss"}, conflict_id=999999)[0] == 404
    # The group she saw is not the group now: 409 with the current group.
    status, error = refused(alice, {"action": "stands", "memory": priya["oslo"].pk, "conflicts": [first.pk]})
    assert (status, error) == (
        409,
        {
            "code": "group_changed",
            "message": f"Conflict {first.pk}'s group is not the one you decided on.",
            "group": {
                "conflicts": [first.pk, second.pk],
                "values": [body(priya["lisbon"].pk), body(priya["bergen"].pk), body(priya["oslo"].pk)],
            },
        },
    )
    assert_documented(group_resolve(alice, first.pk, {"action": "dismiss", "conflicts": [second.pk]}), "POST", url)
    assert store_snapshot() == before
    assert _pending(first, second) == rows
    assert all(row[1] == "pending" for row in rows)


def test_a_value_retired_meanwhile_cannot_stand_and_a_settled_group_cannot_be_settled_again(alice, priya):
    first, second = priya["first"], priya["second"]
    memory_forget(user=alice.user, credential=None, memory_id=priya["oslo"].pk)
    before, rows = store_snapshot(), _pending(first, second)

    gone = group_resolve(alice, first.pk, {"action": "stands", "memory": priya["oslo"].pk})

    assert (gone.status_code, gone.json()["error"]["code"]) == (409, "not_live")
    assert (store_snapshot(), _pending(first, second)) == (before, rows)
    assert group_resolve(alice, first.pk, {"action": "stands", "memory": priya["lisbon"].pk}).status_code == 200
    again = group_resolve(alice, second.pk, {"action": "keep_all"})
    assert (again.status_code, again.json()["error"]["code"]) == (409, "not_live")
    assert Memory.objects.get(pk=priya["bergen"].pk).state == "superseded"  # by lisbon, once


def test_the_per_conflict_actions_work_inside_a_group_and_split_it(alice, priya):
    first, second = priya["first"], priya["second"]

    response = alice.client.post(f"{CONFLICTS}{second.pk}/resolve/", {"action": "newer_supersedes"}, format="json")

    assert (response.status_code, response.json()["resolution"]) == (200, "newer_supersedes")
    [item] = alice.client.get(CONFLICTS).json()["results"]
    assert item["group"]["conflicts"] == [first.pk]
    assert [v["id"] for v in item["group"]["values"]] == [priya["oslo"].pk]  # bergen was retired by lisbon


def test_a_token_that_may_not_retire_decides_no_group_and_sees_none(alice, priya):
    """A read-only token may read alice's memories but retire none: the conflicts are not its to
    see or settle (404, as for a pair), and nothing changes."""
    _, token = credential_issue(
        actor=None, via="tests", user=alice.user, label="reader", provenance="authoritative", read_only=True
    )
    reader = APIClient()
    reader.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    before, rows = store_snapshot(), _pending(priya["first"], priya["second"])

    assert reader.get(CONFLICTS).json()["results"] == []
    refused = reader.post(
        f"{CONFLICTS}{priya['first'].pk}/group/resolve/",
        {"action": "stands", "memory": priya["oslo"].pk},
        format="json",
    )

    assert (refused.status_code, refused.json()["error"]["code"]) == (404, "not_found")
    assert (store_snapshot(), _pending(priya["first"], priya["second"])) == (before, rows)
