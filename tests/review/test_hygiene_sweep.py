"""The batched backlog sweep (review.sweep, ``manage.py hygiene``) decides what running
hygiene_check memory by memory decides, on the same store."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.db import transaction
from django.db.models import Exists, OuterRef, Q

from memories import services
from memories.models import Link, Memory, MemoryEvent, MemorySentence
from memories.services.remember import LinkSpec
from review import judges, sweep
from review.judges import JudgeError, Pair, Verdict
from review.models import Conflict, Judgment
from review.pipeline import hygiene_check
from tests.factories import ProjectFactory, issue_token, make_memory

RELATIONS = ["duplicate", "supersedes", "complementary", "contradicts", "unrelated"]

# Topics written in several scopes: restatements, changed values, contradictions, neighbours.
TOPICS = [
    [
        "The deploy window is Monday 10:00 UTC.",
        "Deploys happen on Mondays at 10:00 UTC.",
        "The deploy window moved to Monday 11:00 UTC.",
        "We never deploy on Mondays.",
    ],
    [
        "The standup starts at 09:30 every weekday.",
        "Daily standup is at 09:30.",
        "The standup now starts at 09:45.",
    ],
    [
        "The free tier allows 100 requests per minute.",
        "The pro tier allows 1000 requests per minute.",
        "The free tier rate limit is now 120 requests per minute.",
        "Free tier customers get 100 requests each minute.",
    ],
    [
        "Billing runs on Postgres 15.",
        "The billing service was migrated to Postgres 16.",
        "Billing does not use Postgres.",
    ],
    [
        "The VPN gateway is gw1.example.com.",
        "Use gw2.example.com as the VPN gateway from now on.",
    ],
    # Plain slots, stated alike: what the screen keeps for a judge (review.judges.guard.may_act).
    [
        "The on-call engineer this week is Dana.",
        "The on-call engineer this week is Omar.",
        "The on-call engineer this week is now Lee.",
    ],
    [
        "The staging database password rotates every 30 days.",
        "The staging database password rotates every 45 days.",
        "The staging database password now rotates every 60 days.",
    ],
]


class HashedJudge:
    """A deterministic judge with every kind of verdict, many of them confident enough to retire."""

    name = "hashed"

    def __init__(self) -> None:
        self.calls: list[Pair] = []

    def judge(self, pair: Pair) -> Verdict:
        self.calls.append(pair)
        digest = hashlib.sha256(f"{pair.a}\x1f{pair.b}".encode()).digest()
        confidence = round(0.5 + 0.5 * digest[1] / 255, 4)
        return Verdict(RELATIONS[digest[0] % len(RELATIONS)], confidence, f"hashed {digest[2]}")


@pytest.fixture
def hashed_judge(monkeypatch) -> HashedJudge:
    judge = HashedJudge()
    monkeypatch.setattr(judges, "_judge", judge)
    return judge


@pytest.fixture
def local_judge(monkeypatch) -> None:
    monkeypatch.setattr(judges, "_judge", judges.build_judge())


@pytest.fixture
def store(alice, bob, acme) -> dict[str, Any]:
    """About sixty memories: two owners, personal and project scopes, some from a watcher."""
    globex = ProjectFactory.create(slug="globex", name="Globex")
    services.membership_set(actor=None, via="tests", project=globex, user=alice.user, role="member")
    watcher, _ = issue_token(alice.user, provisional=True, label="watcher")
    written = []
    for owner, project in [(alice, None), (alice, acme), (bob, acme), (bob, None), (alice, globex)]:
        for t, topic in enumerate(TOPICS):
            for i, content in enumerate(topic):
                credential = watcher if owner is alice and (t + i) % 3 == 2 else owner.credential
                kind = "decision" if i == 1 and t % 2 else "fact"
                written.append(make_memory(owner.user, content, credential=credential, project=project, kind=kind))
    return {"memories": written, "globex": globex}


def snapshot() -> dict[str, list[Any]]:
    """Everything the sweep may change."""
    return {
        "judgments": sorted(
            Judgment.objects.values_list(
                "older_id", "newer_id", "relation", "confidence", "rationale", "judge", "outcome"
            )
        ),
        "conflicts": sorted(
            Conflict.objects.values_list(
                "older_id", "newer_id", "judgment__older_id", "judgment__newer_id", "relation", "confidence", "status"
            )
        ),
        "same_credential": sorted(Conflict.objects.values_list("older_id", "newer_id", "same_credential")),
        "memories": sorted(Memory.objects.values_list("pk", "state", "superseded_by_id", "loop_status")),
        "links": sorted(Link.objects.values_list("src_id", "dst_id", "type", "origin", "reverted")),
        "events": sorted(MemoryEvent.objects.values_list("memory_id", "action", "reason")),
    }


class _Undo(Exception):
    pass


def outcome_of(run: Callable[[], object]) -> dict[str, list[Any]]:
    """What ``run`` does to the store, which is then rolled back."""
    seen: dict[str, list[Any]] = {}
    try:
        with transaction.atomic():
            run()
            seen = snapshot()
            raise _Undo
    except _Undo:
        pass
    return seen


def backlog_ids() -> list[str]:
    judged = Judgment.objects.filter(Q(older=OuterRef("pk")) | Q(newer=OuterRef("pk")))
    backlog = Memory.objects.filter(state="live").exclude(Exists(judged))
    return list(backlog.order_by("created_at", "pk").values_list("pk", flat=True))


def one_by_one() -> None:
    """The sweep as it was: hygiene_check on each memory of the backlog in turn."""
    for memory_id in backlog_ids():
        hygiene_check(memory_id)


def batched(batch_size: int = 500) -> Callable[[], None]:
    def run() -> None:
        call_command("hygiene", batch_size=batch_size, stdout=StringIO(), stderr=StringIO())

    return run


def assert_same(batched_run: Callable[[], object]) -> dict[str, list[Any]]:
    expected = outcome_of(one_by_one)
    actual = outcome_of(batched_run)
    assert actual == expected
    return actual


def test_the_batched_sweep_decides_what_hygiene_check_decides(store, hashed_judge):
    outcome = assert_same(batched())

    # The store exercises every path: retirements, conflicts and judgments that change nothing.
    outcomes = {row[6] for row in outcome["judgments"]}
    assert outcomes == {"auto_resolved", "queued", "no_action"}
    assert len(outcome["judgments"]) > 40


def test_the_same_with_the_shipped_judge(store, local_judge):
    outcome = assert_same(batched())

    assert {row[5] for row in outcome["judgments"]} == {judges.get_judge().name}
    assert len(outcome["judgments"]) > 40


@pytest.mark.parametrize(
    ("setting", "value"),
    [
        ("NEIGHBOURS_KEPT", 1),  # every memory needs its whole row of distances
        ("EXACT_SLACK", 1.0),  # every candidate list comes from PostgreSQL
        ("BLOCK_CELLS", 1),  # one matrix row at a time
    ],
)
def test_the_same_on_every_path_of_the_batched_sweep(store, hashed_judge, monkeypatch, setting, value):
    monkeypatch.setattr(sweep, setting, value)

    assert_same(batched(batch_size=3))


CHATTY = [
    "Hi again, hope all is well! I lead a team of 4 engineers in my new role. Could you suggest a team outing?",
    "Hi again, hope all is well! Can you recommend a pasta recipe with fresh basil? Thanks so much for the help.",
    "Thanks for all the ideas so far. By the way, I now lead a team of five engineers. Any good hiking spots?",
    "Quick question for you today. What's a good book on negotiation? I really liked the last one you suggested to me.",
]


@pytest.fixture
def chatty_store(store, alice, acme) -> dict[str, Any]:
    """The store plus long turns of several sentences, in a personal and a project scope: the
    sweep then ranks through PostgreSQL's sentence side, row by row."""
    for project in (None, acme):
        for content in CHATTY:
            make_memory(alice.user, content, project=project)
    assert MemorySentence.objects.count() == 2 * 3 * len(CHATTY)  # three sentences each
    return store


def test_the_same_when_memories_have_several_sentences(chatty_store, hashed_judge):
    assert_same(batched(batch_size=5))


def test_the_same_with_other_limits(store, hashed_judge, settings):
    settings.HYGIENE_MAX_CANDIDATES = 2
    settings.HYGIENE_SCREEN_CANDIDATES = 6
    settings.HYGIENE_AUTO_RESOLVE_THRESHOLD = 0.7

    assert_same(batched(batch_size=7))


def test_ties_are_broken_by_id_as_postgresql_does(alice, hashed_judge, settings, monkeypatch):
    """Equal embeddings and equal text matches: equal scores, which the database orders by id."""
    settings.HYGIENE_MAX_CANDIDATES = 2
    memories = [make_memory(alice.user, f"The release train leaves on Tuesday at {10 + n}:00.") for n in range(6)]
    shared = memories[0].embedding
    Memory.objects.filter(pk__in=[m.pk for m in memories[:4]]).update(embedding=shared)
    asked = []
    ask_postgres = sweep.ScopeSweep._ask_postgres

    def counted(self: sweep.ScopeSweep, row: int, columns: list[int]) -> list[int]:
        asked.append(row)
        return ask_postgres(self, row, columns)

    monkeypatch.setattr(sweep.ScopeSweep, "_ask_postgres", counted)

    outcome = assert_same(batched())

    assert outcome["judgments"]
    assert asked  # the ties were left to PostgreSQL


def test_pairs_the_judge_keeps_failing_on_are_skipped_and_left_for_later(store, hashed_judge, monkeypatch, settings):
    monkeypatch.setattr("review.pipeline.time.sleep", lambda seconds: None)
    judge = hashed_judge.judge

    def flaky(pair: Pair) -> Verdict:
        if "Postgres 16" in pair.a + pair.b:
            hashed_judge.calls.append(pair)
            raise JudgeError("always fails on this one")
        return judge(pair)

    monkeypatch.setattr(hashed_judge, "judge", flaky)

    outcome = assert_same(batched())

    failing = [call for call in hashed_judge.calls if "Postgres 16" in call.a + call.b]
    assert failing
    assert len(failing) % settings.HYGIENE_JUDGE_ATTEMPTS == 0  # every attempt made, then skipped
    judged = {pk for row in outcome["judgments"] for pk in row[:2]}
    never = Memory.objects.filter(content="The billing service was migrated to Postgres 16.")
    assert never.count() == 5
    assert not judged & set(never.values_list("pk", flat=True))
    assert len(outcome["judgments"]) > 40


def test_a_scope_with_a_small_backlog_goes_memory_by_memory(store, hashed_judge, monkeypatch):
    monkeypatch.setattr(sweep, "PER_MEMORY_RATIO", 0)  # every backlog counts as small
    scope_sweeps: list[list[str]] = []

    def run(self: sweep.ScopeSweep, memory_ids: list[str]) -> int:
        scope_sweeps.append(memory_ids)
        return 0

    monkeypatch.setattr(sweep.ScopeSweep, "run", run)

    assert_same(batched())
    assert scope_sweeps == []


def test_rerunning_the_sweep_adds_nothing(store, hashed_judge):
    out = StringIO()
    call_command("hygiene", stdout=out, stderr=StringIO())
    first = snapshot()
    calls = len(hashed_judge.calls)

    call_command("hygiene", stdout=out, stderr=StringIO())

    assert snapshot() == first
    assert len(hashed_judge.calls) == calls
    assert f"{len(first['judgments'])} new judgments" in out.getvalue().splitlines()[0]
    assert out.getvalue().splitlines()[1].endswith("; 0 new judgments.")


def scope_order(memory_ids: list[str]) -> list[str]:
    """``memory_ids`` in the order the batched sweep takes them: scope by scope."""
    scope = dict(Memory.objects.filter(pk__in=memory_ids).values_list("pk", "owner_id"))
    project = dict(Memory.objects.filter(pk__in=memory_ids).values_list("pk", "project_id"))
    scopes: dict[tuple[int, int | None], list[str]] = {}
    for memory_id in memory_ids:
        scopes.setdefault((scope[memory_id], project[memory_id]), []).append(memory_id)
    return [memory_id for ids in scopes.values() for memory_id in ids]


def test_an_interrupted_sweep_picks_up_where_it_stopped(store, hashed_judge):
    """Interrupted after 30 memories, the sweep has written what hygiene_check on those 30 would
    have; run again, it finishes as the one-by-one sweep interrupted there and run again does."""

    def one_by_one_for_30() -> None:
        for memory_id in scope_order(backlog_ids())[:30]:
            hygiene_check(memory_id)

    def batched_for_30() -> None:
        swept = 0

        def progress(count: int) -> None:
            nonlocal swept
            swept += count
            if swept == 30:
                raise KeyboardInterrupt

        rows = Memory.objects.filter(pk__in=backlog_ids()).order_by("created_at", "pk")
        with pytest.raises(KeyboardInterrupt):
            sweep.sweep(list(rows.values_list("pk", "owner_id", "project_id")), batch_size=7, progress=progress)

    interrupted = outcome_of(one_by_one_for_30)
    assert interrupted["judgments"]
    assert outcome_of(batched_for_30) == interrupted

    def batched_for_30_then_again() -> None:
        batched_for_30()
        batched()()

    def one_by_one_for_30_then_again() -> None:
        one_by_one_for_30()
        one_by_one()

    assert outcome_of(batched_for_30_then_again) == outcome_of(one_by_one_for_30_then_again)


def test_judged_and_declared_pairs_are_skipped(alice, scripted_judge):
    scripted_judge.verdict = Verdict("contradicts", 0.6, "unsure")
    a = make_memory(alice.user, "The build agent is ci-1.")
    b = make_memory(alice.user, "The build agent is ci-2.")
    c = make_memory(alice.user, "The build agent is ci-3.")
    d = make_memory(alice.user, "The build agent is ci-4.", links=[LinkSpec(type="supersedes", dst=c.pk)])
    services.memory_restore(user=alice.user, credential=None, memory_id=c.pk)  # both live, link reverted
    Judgment.objects.create(
        older=a, newer=b, relation="unrelated", confidence=0.9, judge="earlier", outcome="no_action"
    )

    outcome = assert_same(batched())

    judged = {tuple(row[:2]) for row in outcome["judgments"]}
    assert (a.pk, b.pk) in judged  # the earlier judgment, untouched
    assert (c.pk, d.pk) not in judged
    assert len(judged) == 6 - 1  # every other pair of the four, once
    assert all({call.a, call.b} != {a.content, b.content} for call in scripted_judge.calls)


def test_a_retired_memory_is_not_judged_again(alice, scripted_judge, settings):
    settings.HYGIENE_MAX_CANDIDATES = 1
    first = make_memory(alice.user, "The office wifi password rotates monthly.")
    make_memory(alice.user, "Our office wifi password rotates monthly.")
    make_memory(alice.user, "The office's wifi password rotates monthly.")
    scripted_judge.verdict = Verdict("duplicate", 0.97, "same")

    outcome = assert_same(batched())

    # first's turn retires first in favour of its nearest neighbour; the second memory's turn
    # retires it in favour of the third; the third finds no live neighbour left to judge.
    judged = [tuple(row[:2]) for row in outcome["judgments"]]
    assert len(judged) == 2
    assert sum(first.pk in pair for pair in judged) == 1
    assert [row[1] for row in outcome["memories"]].count("superseded") == 2
    assert len(scripted_judge.calls) == 2 * 2  # each run (one by one, batched) judged two pairs


def test_scopes_never_mix(store, hashed_judge):
    call_command("hygiene", stdout=StringIO(), stderr=StringIO())

    scope = {m.pk: (m.owner_id, m.project_id) for m in Memory.objects.all()}
    pairs = Judgment.objects.values_list("older_id", "newer_id")
    assert pairs
    assert all(scope[older] == scope[newer] for older, newer in pairs)
    # Every scope had its own pairs judged.
    assert {scope[older] for older, _ in pairs} == set(scope.values())


def test_the_sweep_can_be_limited_to_an_owner_and_project(store, hashed_judge, alice):
    call_command("hygiene", "--owner", "alice", "--project", "acme", stdout=StringIO(), stderr=StringIO())

    owners_and_projects = set(Judgment.objects.values_list("older__owner__username", "older__project__slug"))
    assert owners_and_projects == {("alice", "acme")}


def test_a_batch_a_concurrent_writer_got_into_is_written_pair_by_pair(store, monkeypatch):
    """A pair already waiting in the queue (opened elsewhere) is never queued twice (R-H9): both
    paths record its judgment without opening another conflict, and the memory's one conflict is
    that pending one."""
    first, second = store["memories"][0], store["memories"][2]  # one slot, a new value
    Conflict.objects.create(older=first, newer=second, relation="contradicts", confidence=0.5)

    class FavouringJudge:
        """Unsure of every pair, least unsure of (first, second): that is the pair first queues."""

        name = "favouring"

        def judge(self, pair: Pair) -> Verdict:
            favoured = {pair.a, pair.b} == {first.content, second.content}
            return Verdict("contradicts", 0.8 if favoured else 0.6, "unsure")

    monkeypatch.setattr(judges, "_judge", FavouringJudge())

    outcome = assert_same(batched())

    outcomes = {tuple(row[:2]): row[6] for row in outcome["judgments"]}
    assert outcomes[(first.pk, second.pk)] == "no_action"
    assert [row[:2] for row in outcome["conflicts"]].count((first.pk, second.pk)) == 1
    assert not any(outcomes[pair] == "queued" for pair in outcomes if first.pk in pair)
    assert len(outcome["conflicts"]) == list(outcomes.values()).count("queued") + 1
