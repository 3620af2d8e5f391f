"""Valid time (issue 20, part 4): optional valid_from / valid_until on a memory, world time
apart from the lifecycle. A memory whose validity has ended stays live and readable; recall,
context and similar_existing leave it out unless include_expired, and valid_at asks for what
held at a moment."""

from __future__ import annotations

import json
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from memories.models import Memory
from tests.helpers import remember, store_snapshot, supersedes

NOW = timezone.now().replace(microsecond=0)
LAST_YEAR = NOW - timedelta(days=365)
LAST_MONTH = NOW - timedelta(days=30)
NEXT_MONTH = NOW + timedelta(days=30)


def iso(moment) -> str:
    return moment.isoformat().replace("+00:00", "Z")


def recall_ids(persona, query, **options) -> list[str]:
    body = persona.client.post("/api/v1/recall/", {"query": query, "limit": 50, **options}, format="json").json()
    return [hit["memory"]["id"] for hit in body["results"]]


@pytest.fixture
def office(alice, acme):
    """The office moved: the old address held until last month (and stays live), the new one since."""
    old = remember(
        alice,
        "The Acme office is at 1 Harbour Street.",
        project="acme",
        valid_from=iso(LAST_YEAR),
        valid_until=iso(LAST_MONTH),
    ).json()["memory"]
    new = remember(alice, "The Acme office is at 9 Station Road.", project="acme", valid_from=iso(LAST_MONTH)).json()[
        "memory"
    ]
    future = remember(
        alice, "The Acme office will be at 4 Mill Lane.", project="acme", valid_from=iso(NEXT_MONTH)
    ).json()["memory"]
    return {"old": old, "new": new, "future": future}


def test_a_memory_carries_its_valid_time_and_an_ended_one_stays_live_and_readable(alice, office):
    assert office["old"]["valid_from"] == iso(LAST_YEAR)
    assert office["old"]["valid_until"] == iso(LAST_MONTH)
    assert office["new"]["valid_until"] is None

    detail = alice.client.get(f"/api/v1/memories/{office['old']['id']}/").json()
    feed = alice.client.get("/api/v1/memories/", {"project": "acme"}).json()["results"]

    assert detail["state"] == "live"
    assert detail["valid_until"] == iso(LAST_MONTH)
    assert office["old"]["id"] in {memory["id"] for memory in feed}


def test_recall_leaves_out_what_no_longer_holds_unless_asked(alice, office):
    query = "Where is the Acme office?"

    assert set(recall_ids(alice, query)) == {office["new"]["id"], office["future"]["id"]}
    assert set(recall_ids(alice, query, include_expired=True)) == {memory["id"] for memory in office.values()}
    assert set(recall_ids(alice, query, valid_at=iso(NOW - timedelta(days=100)))) == {office["old"]["id"]}
    assert set(recall_ids(alice, query, valid_at=iso(NOW + timedelta(days=60)))) == {
        office["new"]["id"],
        office["future"]["id"],
    }


def test_context_leaves_it_out_too(alice, office):
    body = alice.client.post("/api/v1/context/", {"query": "Where is the Acme office?"}, format="json").json()
    expired = alice.client.post(
        "/api/v1/context/", {"query": "Where is the Acme office?", "include_expired": True}, format="json"
    ).json()

    assert office["old"]["id"] not in {item["id"] for item in body["items"]}
    assert "Harbour" not in body["text"]
    assert office["old"]["id"] in {item["id"] for item in expired["items"]}


def test_similar_existing_leaves_out_what_no_longer_holds(alice, office):
    body = remember(alice, "The Acme office is at 12 Quay Street.", project="acme").json()

    listed = {entry["id"] for entry in body["similar_existing"]}
    assert office["new"]["id"] in listed
    assert office["old"]["id"] not in listed


def test_a_declared_supersede_may_carry_valid_from_and_history_shows_both_times(alice, acme):
    old = remember(alice, "Support hours are 9 to 5.", project="acme").json()["memory"]
    new = remember(
        alice, "Support hours are 8 to 6.", project="acme", links=supersedes(old["id"]), valid_from=iso(LAST_MONTH)
    ).json()

    history = alice.client.get(f"/api/v1/memories/{new['memory']['id']}/history/").json()

    assert new["superseded"] == [old["id"]]
    versions = {version["id"]: version for version in history["versions"]}
    assert versions[new["memory"]["id"]]["valid_from"] == iso(LAST_MONTH)
    assert versions[new["memory"]["id"]]["created_at"] is not None
    assert versions[old["id"]]["invalidated_at"] is not None
    assert versions[old["id"]]["valid_until"] is None  # retirement is not world time


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"valid_from": iso(NOW), "valid_until": iso(NOW)}, "valid_until"),
        ({"valid_from": iso(NOW), "valid_until": iso(LAST_MONTH)}, "valid_until"),
        ({"valid_until": "next tuesday"}, "valid_until"),
    ],
)
def test_a_bad_valid_time_answers_400_and_stores_nothing(alice, fields, field):
    before = store_snapshot()

    response = remember(alice, "The canteen opens at noon.", **fields)

    assert response.status_code == 400
    assert field in response.json()["error"]["fields"]
    assert store_snapshot() == before


def test_bad_valid_at_answers_400(alice):
    response = alice.client.post("/api/v1/recall/", {"query": "office", "valid_at": "soon"}, format="json")

    assert response.status_code == 400
    assert "valid_at" in response.json()["error"]["fields"]


def test_visibility_is_unchanged_by_valid_time(alice, bob, carol, office):
    query = "Where is the Acme office?"

    assert office["old"]["id"] in recall_ids(bob, query, include_expired=True, project="acme")
    assert office["old"]["id"] not in recall_ids(bob, query, project="acme")
    assert recall_ids(carol, query, include_expired=True) == []
    assert carol.client.get(f"/api/v1/memories/{office['old']['id']}/").status_code == 404


def test_export_and_import_keep_valid_time_and_refuse_it_reversed(alice, office, tmp_path, capsys):
    out = StringIO()
    call_command("export_memories", stdout=out)
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    exported = {row["id"]: row for row in rows if row["type"] == "memory"}
    assert exported[office["old"]["id"]]["valid_until"] == iso(LAST_MONTH)

    reversed_row = exported[office["new"]["id"]] | {
        "id": "mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2T",
        "content": "The Acme office is nowhere.",
        "valid_from": iso(NOW),
        "valid_until": iso(LAST_MONTH),
    }
    kept_row = exported[office["old"]["id"]] | {"id": "mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2V", "content": "Old office, again."}
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps(reversed_row) + "\n" + json.dumps(kept_row) + "\n")
    with pytest.raises(SystemExit) as exit_info:
        call_command("import_memories", str(path), stdout=StringIO())

    assert exit_info.value.code == 1
    assert "line 1: 'valid_until' must be after 'valid_from'" in capsys.readouterr().err
    assert not Memory.objects.filter(pk="mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2T").exists()
    imported = Memory.objects.get(pk="mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2V")
    assert (imported.valid_from, imported.valid_until) == (LAST_YEAR, LAST_MONTH)
