"""Stale versions (SPEC R-S5, R-S11, R-S12, R-D3): a writer that names a version another write
already replaced learns which one is current, and chooses what happens — never a silent fork."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from memories.choices import Role
from memories.models import Link, Memory, MemoryEvent
from memories.services import membership_set
from review.models import Conflict
from tests.factories import make_memory
from tests.helpers import remember, store_snapshot, supersedes


@pytest.fixture
def chain(alice, acme):
    """Monday → Wednesday: the Monday fact is a stale version, Wednesday is current."""
    monday = make_memory(alice.user, "The deploy window is Monday 10:00.", project=acme)
    response = remember(alice, "The deploy window is Wednesday 10:00.", project="acme", links=supersedes(monday.id))
    assert response.status_code == 201
    return monday, response.json()["memory"]["id"]


def live_ids() -> set[str]:
    return set(Memory.objects.filter(state="live").values_list("pk", flat=True))


def integrity() -> tuple[int, str]:
    out = io.StringIO()
    try:
        call_command("check_integrity", stdout=out, stderr=io.StringIO())
    except SystemExit as exit_:
        return int(exit_.code or 0), out.getvalue()
    return 0, out.getvalue()


def test_skip_is_the_default_and_names_the_current_version_and_opens_one_conflict(alice, chain):
    monday, wednesday = chain

    response = remember(alice, "The deploy window is Friday 16:00.", project="acme", links=supersedes(monday.id))

    assert response.status_code == 201
    body = response.json()
    friday = body["memory"]["id"]
    assert body["superseded"] == []
    assert body["skipped"] == [{"dst": monday.id, "reason": "dead", "current": wednesday}]
    assert "followed" not in body
    # Nothing was replaced: the writer gets the same help as an undeclared write (R-N…).
    assert [item["id"] for item in body["similar_existing"]][:1] == [wednesday]
    assert live_ids() == {wednesday, friday}
    # R-S12: the fork is on record and in the queue, opened by the write itself (no judge).
    conflict = Conflict.objects.get()
    assert (conflict.older_id, conflict.newer_id, conflict.status) == (wednesday, friday, "pending")
    assert (conflict.relation, conflict.confidence, conflict.stale_version_id) == ("contradicts", 1.0, monday.id)
    assert conflict.rationale == (
        f"Both writers replaced the same version (stale_version): {friday} was written naming it after "
        f"{wednesday} had already replaced it. Two live versions of one fact now stand; keep one line: "
        "the newer supersedes the older, or the older stands."
    )
    assert conflict.judgment is None
    forked = MemoryEvent.objects.get(memory_id=friday, action="forked")
    assert forked.data == {"stale": monday.id, "current": wednesday}
    assert integrity()[0] == 0


def test_reject_stores_nothing_and_answers_409_with_the_current_version(alice, chain):
    monday, wednesday = chain
    before = store_snapshot()

    response = remember(
        alice, "The deploy window is Friday 16:00.", project="acme", links=supersedes(monday.id), on_stale="reject"
    )

    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "stale_target"
    assert error["current"] == [{"dst": monday.id, "current": wednesday}]
    assert store_snapshot() == before
    assert not Conflict.objects.exists()

    # Compare-and-set: reread, then name the current version.
    again = remember(
        alice, "The deploy window is Friday 16:00.", project="acme", links=supersedes(wednesday), on_stale="reject"
    )
    assert again.status_code == 201
    assert again.json()["superseded"] == [wednesday]
    assert live_ids() == {again.json()["memory"]["id"]}


def test_follow_supersedes_the_current_version_and_keeps_one_line(alice, chain):
    monday, wednesday = chain

    response = remember(
        alice, "The deploy window is Friday 16:00.", project="acme", links=supersedes(monday.id), on_stale="follow"
    )

    assert response.status_code == 201
    body = response.json()
    friday = body["memory"]["id"]
    assert body["superseded"] == [wednesday]
    assert body["followed"] == [{"dst": monday.id, "current": wednesday}]
    assert body["skipped"] == []
    assert "similar_existing" not in body
    assert live_ids() == {friday}
    assert Link.objects.filter(src_id=friday, dst_id=wednesday, type="supersedes", origin="declared").exists()
    assert not Link.objects.filter(src_id=friday, dst_id=monday.id).exists()
    history = alice.client.get(f"/api/v1/memories/{monday.id}/history/").json()
    assert history["head"] == friday
    assert [v["id"] for v in history["versions"]] == [monday.id, wednesday, friday]
    assert not Conflict.objects.exists()


def test_follow_applies_the_retire_right_to_the_head(alice, bob, acme):
    """bob may retire his own version, but the head is alice's: 403 as R-S6, nothing stored."""
    old = make_memory(bob.user, "The staging host is db-1.", project=acme)
    replaced = remember(bob, "The staging host is db-2 now.", project="acme", links=supersedes(old.id))
    head = replaced.json()["memory"]["id"]
    # The head passes to alice through a maintainer's moderated supersede of bob's version.
    membership_set(actor=None, via="tests", project=acme, user=alice.user, role=Role.MAINTAINER)
    takeover = remember(alice, "The staging host is db-3.", project="acme", links=supersedes(head))
    assert takeover.json()["superseded"] == [head]
    alice_head = takeover.json()["memory"]["id"]
    membership_set(actor=None, via="tests", project=acme, user=alice.user, role=Role.MEMBER)
    before = store_snapshot()

    response = remember(bob, "The staging host is db-4.", project="acme", links=supersedes(old.id), on_stale="follow")

    assert response.status_code == 403
    assert response.json()["error"]["code"] == "supersede_target_forbidden"
    assert alice_head not in response.content.decode()  # names only what the caller sent
    assert store_snapshot() == before


def test_a_forgotten_target_is_dead_under_every_mode_with_no_current(alice, acme):
    for mode in ("skip", "reject", "follow"):
        gone = make_memory(alice.user, f"A retired fact ({mode}).", project=acme)
        alice.client.post(f"/api/v1/memories/{gone.id}/forget/", {}, format="json")

        response = remember(
            alice, f"Its replacement ({mode}).", project="acme", links=supersedes(gone.id), on_stale=mode
        )

        assert response.status_code == 201, response.content
        assert response.json()["skipped"] == [{"dst": gone.id, "reason": "dead", "current": None}]
    assert not Conflict.objects.exists()


def test_a_chain_with_no_live_head_is_skipped_under_follow(alice, chain):
    monday, wednesday = chain
    alice.client.post(f"/api/v1/memories/{wednesday}/forget/", {}, format="json")

    response = remember(
        alice, "The deploy window is Friday.", project="acme", links=supersedes(monday.id), on_stale="follow"
    )

    assert response.status_code == 201
    assert response.json()["skipped"] == [{"dst": monday.id, "reason": "dead", "current": None}]
    assert response.json()["superseded"] == []


def test_naming_the_stale_version_and_its_head_together_is_one_line(alice, chain):
    monday, wednesday = chain

    response = remember(alice, "The deploy window is Friday.", project="acme", links=supersedes(monday.id, wednesday))

    body = response.json()
    assert body["superseded"] == [wednesday]
    assert body["skipped"] == [{"dst": monday.id, "reason": "dead", "current": body["memory"]["id"]}]
    assert not Conflict.objects.exists()
    assert live_ids() == {body["memory"]["id"]}


def test_an_unknown_on_stale_value_is_refused(alice, chain):
    monday, _ = chain
    before = store_snapshot()

    response = remember(alice, "x", project="acme", links=supersedes(monday.id), on_stale="merge")

    assert response.status_code == 400
    assert response.json()["error"]["fields"] == {"on_stale": ['"merge" is not a valid choice.']}
    assert store_snapshot() == before


def test_batch_items_each_take_their_own_on_stale(alice, chain):
    monday, wednesday = chain
    items = [
        {"content": "Window A.", "project": "acme", "links": supersedes(monday.id), "on_stale": "reject"},
        {"content": "Window B.", "project": "acme", "links": supersedes(monday.id), "on_stale": "follow"},
    ]

    response = alice.client.post("/api/v1/memories/batch/", {"items": items}, format="json")

    results = response.json()["results"]
    assert results[0]["status"] == 409
    assert results[0]["error"]["current"] == [{"dst": monday.id, "current": wednesday}]
    assert results[1]["status"] == 201
    assert results[1]["followed"] == [{"dst": monday.id, "current": wednesday}]

    atomic = alice.client.post(
        "/api/v1/memories/batch/", {"items": [{**items[0], "content": "Window C."}], "atomic": True}, format="json"
    )
    assert atomic.status_code == 409
    assert atomic.json()["error"]["code"] == "stale_target"
    assert atomic.json()["error"]["current"] == [{"dst": monday.id, "current": results[1]["memory"]["id"]}]


def test_resolving_a_fork_keeps_one_line(alice, dave, chain):
    monday, wednesday = chain
    friday = remember(alice, "The deploy window is Friday.", project="acme", links=supersedes(monday.id)).json()
    conflict = Conflict.objects.get()
    queue = dave.client.get("/api/v1/conflicts/").json()["results"]
    assert [(c["id"], c["older"]["id"], c["newer"]["id"], c["stale_version"]) for c in queue] == [
        (conflict.pk, wednesday, friday["memory"]["id"], monday.id)
    ]

    response = dave.client.post(
        f"/api/v1/conflicts/{conflict.pk}/resolve/", {"action": "newer_supersedes"}, format="json"
    )

    assert response.status_code == 200, response.content
    assert live_ids() == {friday["memory"]["id"]}
    history = alice.client.get(f"/api/v1/memories/{monday.id}/history/").json()
    assert history["head"] == friday["memory"]["id"]
    assert [v["id"] for v in history["versions"]] == [monday.id, wednesday, friday["memory"]["id"]]
    assert integrity()[0] == 0


def test_a_fork_conflict_moves_on_with_the_head(alice, chain):
    """A third writer replaces the head the fork was opened against: the conflict now names the
    chain's live versions, so the invariant keeps holding."""
    monday, wednesday = chain
    friday = remember(alice, "The deploy window is Friday.", project="acme", links=supersedes(monday.id)).json()
    saturday = remember(alice, "The deploy window is Saturday.", project="acme", links=supersedes(wednesday)).json()

    pending = Conflict.objects.filter(status="pending")
    assert list(pending.values_list("older_id", "newer_id", "stale_version_id")) == [
        (saturday["memory"]["id"], friday["memory"]["id"], monday.id)
    ]
    assert Conflict.objects.get(older_id=wednesday).resolution == "retired"
    assert integrity()[0] == 0


def test_check_integrity_reports_a_fork_no_conflict_names_and_the_sweep_opens_one(alice, chain):
    monday, wednesday = chain
    friday = remember(alice, "The deploy window is Friday.", project="acme", links=supersedes(monday.id)).json()
    Conflict.objects.all().delete()  # as a store from before R-S12, or a lost conflict

    status, out = integrity()
    assert status == 1
    assert f"BREACH unsettled_fork: {wednesday}, {friday['memory']['id']}, {monday.id}" in out

    sweep = io.StringIO()
    call_command("hygiene", stdout=sweep, stderr=io.StringIO())
    assert (
        f"fork of {monday.id}: opened a conflict between {wednesday} and {friday['memory']['id']}" in sweep.getvalue()
    )
    assert Conflict.objects.filter(status="pending", stale_version_id=monday.id).count() == 1
    assert integrity()[0] == 0
    call_command("hygiene", stdout=io.StringIO(), stderr=io.StringIO())
    assert Conflict.objects.count() == 1  # never twice


def test_check_integrity_catches_a_fork_made_behind_the_apis_back(alice, acme):
    """Two retiring links into one version, written with the ORM, past every service."""
    old = make_memory(alice.user, "The VPN endpoint is vpn-1.", project=acme)
    first = remember(alice, "The VPN endpoint is vpn-2.", project="acme", links=supersedes(old.id)).json()
    rogue = make_memory(alice.user, "The VPN endpoint is vpn-3.", project=acme)
    assert integrity()[0] == 0
    Link.objects.create(src=rogue, dst=old, type="supersedes", origin="declared")

    status, out = integrity()

    assert status == 1
    assert f"BREACH unsettled_fork: {first['memory']['id']}, {rogue.id}, {old.id}" in out


def test_restating_a_retired_version_says_so(alice, chain):
    monday, wednesday = chain

    response = remember(alice, "the deploy window is  MONDAY 10:00", project="acme")

    assert response.status_code == 201  # stored as usual: it may be a real revert
    body = response.json()
    assert body["absorbed"] is False
    assert body["matches_retired"] == [{"id": monday.id, "state": "superseded", "current": wednesday}]
    # Another scope is another fact: no match there.
    personal = remember(alice, "The deploy window is Monday 10:00.")
    assert "matches_retired" not in personal.json()
    fresh = remember(alice, "Something never said before.", project="acme")
    assert "matches_retired" not in fresh.json()


def test_the_queue_names_a_stale_version_only_to_whom_may_see_it(alice, dave, carol, acme):
    older = make_memory(alice.user, "The lab opens at 08:00.", project=acme)
    newer = make_memory(alice.user, "The lab opens at 09:00.", project=acme)
    hidden = make_memory(carol.user, "carol's own note")
    Conflict.objects.create(
        older=older, newer=newer, relation="contradicts", confidence=1.0, rationale="-", stale_version=hidden
    )

    queue = dave.client.get("/api/v1/conflicts/").json()["results"]

    assert [(c["older"]["id"], c["stale_version"]) for c in queue] == [(older.id, None)]
    assert hidden.id not in dave.client.get("/api/v1/conflicts/").content.decode()


def test_a_fork_kept_as_two_facts_is_settled_and_never_reopened(alice, dave, chain):
    monday, _wednesday = chain
    remember(alice, "The deploy window is Friday.", project="acme", links=supersedes(monday.id))
    conflict = Conflict.objects.get()

    response = dave.client.post(f"/api/v1/conflicts/{conflict.pk}/resolve/", {"action": "keep_both"}, format="json")

    assert response.status_code == 200
    assert integrity()[0] == 0
    call_command("hygiene", stdout=io.StringIO(), stderr=io.StringIO())
    assert list(Conflict.objects.filter(stale_version=monday).values_list("status", flat=True)) == ["resolved"]
