"""POST /api/v1/context/ and the MCP tool get_context: recall packed into a token budget, open
loops apart, each fact's last version in a "was" line, never over the budget."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from memories.embedding.tokens import count_tokens
from tests.factories import make_memory
from tests.helpers import remember, store_snapshot, supersedes

CONTEXT = "/api/v1/context/"


def context(persona, query, **options):
    return persona.client.post(CONTEXT, {"query": query, **options}, format="json")


def test_the_block_lists_current_facts_with_what_they_replaced_and_open_loops_apart(alice, acme):
    old = make_memory(alice.user, "The staging database runs on db-1.", project=acme)
    new = remember(alice, "The staging database now runs on db-2.", project="acme", links=supersedes(old.id))
    new_id = new.json()["memory"]["id"]
    task = make_memory(alice.user, "Migrate the staging database backups to db-2.", project=acme, kind="task")
    make_memory(alice.user, "Alice prefers sencha tea.")

    response = context(alice, "Which database does staging use?", project="acme", max_tokens=200)

    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"text", "tokens", "token_counter", "items", "left_out"}
    today = timezone.now().date().isoformat()
    lines = body["text"].split("\n")
    assert lines[0] == "Current facts, most relevant first:"
    assert lines[1] == f"- (fact, acme, {today}) The staging database now runs on db-2."
    assert lines[2] == f"  was: The staging database runs on db-1. (until {today})"
    assert "Open loops:" in lines
    assert f"- (task, acme, {today}) Migrate the staging database backups to db-2." in lines
    assert lines.index("Open loops:") > lines.index(f"- (fact, {today}) Alice prefers sencha tea.")
    assert "db-1" not in body["text"].replace(lines[2], "")  # the old version only as a "was" line
    items = {item["id"]: item for item in body["items"]}
    assert items[new_id]["section"] == "facts"
    assert items[new_id]["was"]["id"] == old.id
    assert items[task.id]["section"] == "open_loops"
    assert items[task.id]["was"] is None
    assert old.id not in items
    assert body["tokens"] == count_tokens([body["text"]])[0] <= 200
    assert body["left_out"] == 0


@pytest.mark.parametrize("budget", [16, 40, 75, 120, 400])
def test_the_block_never_exceeds_the_budget_and_fills_it_best_first(alice, budget):
    for n in range(30):
        make_memory(alice.user, f"Service number {n} of the billing platform deploys from branch release-{n}.")

    body = context(alice, "Which branch does the billing platform deploy from?", max_tokens=budget).json()

    assert body["tokens"] == count_tokens([body["text"]])[0]
    assert body["tokens"] <= budget
    assert (
        sum(item["tokens"] for item in body["items"])
        + (count_tokens(["Current facts, most relevant first:"])[0] if body["items"] else 0)
        == body["tokens"]
    )
    # The pack considers recall's best budget / 12 (10 to 50): the most that could fit.
    considered = min(30, max(10, -(-budget // 12)))
    assert body["left_out"] == considered - len(body["items"])
    scores = [item["score"] for item in body["items"]]
    assert scores == sorted(scores, reverse=True)
    if budget >= 40:
        # Filled usefully: no recalled memory left out would still have fitted.
        assert body["tokens"] + min(item["tokens"] for item in body["items"]) > budget


def test_a_memory_too_long_for_the_budget_is_passed_over_for_shorter_ones(alice):
    steps = " ".join(f"step {n} checks the ledger" for n in range(40))
    long_one = make_memory(alice.user, f"The billing deploy procedure: {steps}.")
    short = make_memory(alice.user, "Billing deploys on Tuesdays.")
    query = "Which steps of the billing deploy procedure check the ledger?"
    ranked = alice.client.post("/api/v1/recall/", {"query": query}, format="json").json()["results"]
    assert [hit["memory"]["id"] for hit in ranked] == [long_one.id, short.id]  # the long one is first

    body = context(alice, query, max_tokens=40).json()

    assert [item["id"] for item in body["items"]] == [short.id]
    assert body["left_out"] == 1
    assert "ledger" not in body["text"]


def test_nothing_matched_is_an_empty_block(carol):
    body = context(carol, "anything at all").json()

    assert body == {"text": "", "tokens": 0, "token_counter": body["token_counter"], "items": [], "left_out": 0}
    assert "tokenizer" in body["token_counter"]


def test_visibility_the_same_as_recall_and_old_versions_only_when_visible(alice, bob, carol, acme):
    private_old = make_memory(alice.user, "Acme's VPN host is vpn1.acme.io.")
    shared_new = remember(
        alice, "Acme's VPN host is vpn2.acme.io.", project="acme", links=supersedes(private_old.id)
    ).json()["memory"]["id"]
    secret = make_memory(alice.user, "Alice's own VPN password hint is the cat's name.")

    alice_body = context(alice, "What is Acme's VPN host?").json()
    bob_body = context(bob, "What is Acme's VPN host?", project="acme").json()
    carol_body = context(carol, "What is Acme's VPN host?").json()

    alice_items = {item["id"]: item for item in alice_body["items"]}
    assert alice_items[shared_new]["was"]["id"] == private_old.id
    assert secret.id in alice_items
    bob_items = {item["id"]: item for item in bob_body["items"]}
    # bob sees the project's fact but not alice's private old version it replaced.
    assert set(bob_items) == {shared_new}
    assert bob_items[shared_new]["was"] is None
    assert "vpn1" not in bob_body["text"]
    assert carol_body["items"] == []


def test_as_of_answers_as_the_store_stood_then(alice):
    old = make_memory(alice.user, "The on-call phone is +1 555 0100.")
    before = timezone.now()
    remember(alice, "The on-call phone is +1 555 0199.", links=supersedes(old.id))

    then = context(alice, "What is the on-call phone?", as_of=before.isoformat()).json()
    now = context(alice, "What is the on-call phone?").json()

    assert [item["id"] for item in then["items"]] == [old.id]
    assert then["items"][0]["was"] is None
    assert now["items"][0]["was"]["id"] == old.id


def test_kinds_narrow_the_block(alice):
    make_memory(alice.user, "We decided to ship the billing rewrite in Go.", kind="decision")
    make_memory(alice.user, "The billing rewrite is in Go.")

    body = context(alice, "billing rewrite language", kinds=["decision"]).json()

    assert [item["kind"] for item in body["items"]] == ["decision"]


@pytest.mark.parametrize(
    ("arguments", "field"),
    [
        ({"max_tokens": 15}, "max_tokens"),
        ({"max_tokens": 8193}, "max_tokens"),
        ({"max_tokens": "lots"}, "max_tokens"),
        ({"kinds": ["gossip"]}, "kinds"),
        ({"query": ""}, "query"),
    ],
)
def test_bad_arguments_answer_400_and_change_nothing(alice, arguments, field):
    make_memory(alice.user, "The deploy window is Friday.")
    before = store_snapshot()

    response = alice.client.post(CONTEXT, {"query": "deploy window", **arguments}, format="json")

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid"
    assert field in response.json()["error"]["fields"]
    assert store_snapshot() == before


def test_a_project_the_caller_is_not_in_answers_404(carol, acme):
    response = context(carol, "deploy window", project="acme")

    assert response.status_code == 404


def test_anonymous_is_refused(anonymous):
    assert anonymous.post(CONTEXT, {"query": "x"}, format="json").status_code == 401


def test_the_token_count_is_the_real_tokenizers(db):
    # A check against the tokenizer file itself, not against our own wrapper.
    from tokenizers import Tokenizer

    from memories.embedding.base import packaged_model_path

    reference = Tokenizer.from_file(str(packaged_model_path() / "tokenizer.json"))
    reference.no_truncation()
    text = "Deploys happen on Tuesdays; the ledger-service's p95 is 42ms. " * 40
    assert count_tokens([text]) == [len(reference.encode(text, add_special_tokens=False).ids)]
    assert count_tokens([text])[0] > 256  # not cut at the model's window


def test_old_versions_retired_long_ago_still_say_when(alice):
    old = make_memory(alice.user, "The office wifi is ZM-Guest.")
    remember(alice, "The office wifi is ZM-Staff.", links=supersedes(old.id))
    from memories.models import Memory

    Memory.objects.filter(pk=old.pk).update(invalidated_at=timezone.now() - timedelta(days=40))
    day = (timezone.now() - timedelta(days=40)).date().isoformat()

    body = context(alice, "What is the office wifi?").json()

    assert f"  was: The office wifi is ZM-Guest. (until {day})" in body["text"].split("\n")
