"""Queue only what the structure can read (issue 31): a pair is retired or queued only on positive
evidence that both statements state one slot of one subject, and a new memory opens at most one
conflict whichever path finds it (R-H7, R-H9)."""

from __future__ import annotations

import functools

import pytest
from django.db import connection

from memories.models import Memory
from review import judges
from review.judges import Pair, Verdict
from review.judges.guard import guarded_judge, may_act
from review.judges.structure import analyse, sentences, states_something
from review.models import Conflict, Judgment
from review.pipeline import apply_verdict, hygiene_check
from review.sweep import sweep
from tests.factories import make_memory
from tests.memories.test_remember_concurrency import run_together


@pytest.mark.parametrize(
    "sentence",
    [
        "How do I stop my embroidery fabric from puckering?",
        "how do i stop the bathroom mirror steaming up every single time",
        "Can you suggest a circular walk of about 20 km with a pub near the end",
        "I was wondering if you could help me sort my postcards.",
        "I'm trying to declutter my apartment and was wondering if you know a good charity shop.",
        "I'm looking for some new BBQ sauce recipes to try out.",
        "I've been searching for a decent second-hand road bike for weeks.",
        "I'm trying to come up with new content ideas for my pottery blog.",
        "I need some recommendations for a quiet campsite in Wales.",
        "Any tips for a beginner?",
        "Please draft a polite reply to my landlord.",
    ],
)
def test_a_question_or_request_states_nothing(sentence):
    assert states_something(sentence) is False


@pytest.mark.parametrize(
    "sentence",
    [
        "The deploy window is Monday 10:00 UTC.",
        "I've added 17 new postcards to my collection since I started again.",
        "My long runs are 14 km at the moment.",
        "By the way, our broadband is BT on the 67 Mbps package.",
        "Priya has moved to another department.",
    ],
)
def test_a_statement_states_something(sentence):
    assert states_something(sentence) is True


def test_a_list_item_number_opens_its_sentence():
    assert sentences("Two things. 1. Define a binary semaphore. 2. List its uses.") == [
        "Two things.",
        "1. Define a binary semaphore.",
        "2. List its uses.",
    ]


# (older, newer, may act): pairs of chat turns as an agent stores them.
CHAT_PAIRS = [
    # Two requests that open alike are two requests.
    (
        "I'm trying to declutter my apartment and was wondering if you could suggest a system for my books.",
        "I'm trying to declutter my apartment and sell some collectibles online. Which site takes the smallest cut?",
        False,
    ),
    # One question asked twice in different turns: no value of any slot in either.
    (
        "Quick one. How do I stop my knees aching in downward dog? Thanks!",
        "My yoga class is on Thursdays now. How do I stop my knees aching in downward dog?",
        False,
    ),
    # An aside that two long turns share, reworded by a common word: a guess, not evidence.
    (
        "Work has been manic. Cheap paperbacks preferred, my book budget is small. "
        "Can you recommend a novel set in Lisbon?",
        "The train is late again. Cheap paperbacks preferred, my book budget is tiny. "
        "What should I read after Middlemarch?",
        False,
    ),
    # A numbered list whose items share only a number.
    (
        "Two questions for the exam. 1. Define a binary semaphore. 2. Discuss its advantages.",
        "Survey codes: 1. Not at all concerned. 2. Not very concerned. 3. Somewhat concerned.",
        False,
    ),
    # The fact restated in a long turn with a typed value changed: one slot, evidence enough to queue.
    (
        "I didn't know there were so many collector forums. By the way, I've added 17 new postcards to my "
        "collection since I started collecting again. Could you help me list them?",
        "I'm excited to host the collectors' evening. I've added 25 new postcards to my collection since I "
        "started collecting again. Any display ideas?",
        True,
    ),
    # A plain short fact with a new value.
    ("The standup starts at 09:30.", "The standup starts at 09:45.", True),
    # The same words, give or take one: a restatement, whatever it says.
    ("Hi. How do joint accounts work for couples?", "How do joint accounts work for couples?", True),
]


@pytest.mark.parametrize(("older", "newer", "acts"), CHAT_PAIRS)
def test_only_positive_evidence_of_one_slot_may_act(older, newer, acts):
    structure = analyse(older, newer)

    assert may_act(structure) is acts


class AlwaysSure:
    """A judge that is sure every pair is an update: whatever it says, the structure decides."""

    name = "always-sure"

    def judge(self, pair: Pair) -> Verdict:
        return Verdict("supersedes", 0.99, "sure")


@pytest.mark.parametrize(("older", "newer", "acts"), CHAT_PAIRS)
def test_a_pair_without_evidence_is_neither_retired_nor_queued(older, newer, acts):
    verdict = guarded_judge(AlwaysSure(), Pair(a=older, b=newer))

    if not acts:
        assert (verdict.resolvable, verdict.queueable) == (False, False)
    else:
        assert verdict.queueable is True


def test_chat_turns_without_evidence_change_nothing_through_the_pipeline(alice, monkeypatch):
    monkeypatch.setattr(judges, "_judge", AlwaysSure())
    written = [make_memory(alice.user, older) for older, _, acts in CHAT_PAIRS if not acts]
    written += [make_memory(alice.user, newer) for _, newer, acts in CHAT_PAIRS if not acts]

    for memory in written:
        hygiene_check(memory.pk)

    assert Memory.objects.filter(pk__in=[m.pk for m in written], state="live").count() == len(written)
    assert not Conflict.objects.exists()


class Unsure:
    """Unsure of every pair (a contradiction, too doubtful to retire): each memory queues its best."""

    name = "unsure"

    def judge(self, pair: Pair) -> Verdict:
        return Verdict("contradicts", 0.6, "two values")


SLOT = [
    "The on-call engineer this week is Dana.",
    "The on-call engineer this week is Omar.",
    "The on-call engineer this week is Lee.",
    "The on-call engineer this week is Ravi.",
]


def newer_counts() -> dict[str, int]:
    counts: dict[str, int] = {}
    for newer_id in Conflict.objects.filter(status="pending").values_list("newer_id", flat=True):
        counts[newer_id] = counts.get(newer_id, 0) + 1
    return counts


def test_a_lagging_worker_never_opens_two_conflicts_for_one_new_memory(alice, monkeypatch):
    """The worker behind the writes: the oldest memory's check meets every later one and queues
    a pair whose newer is a later memory; that memory's own check then finds its one conflict
    already open and queues nothing more (R-H9)."""
    monkeypatch.setattr(judges, "_judge", Unsure())
    memories = [make_memory(alice.user, content) for content in SLOT]

    for memory in memories:  # every check runs after every write
        hygiene_check(memory.pk)

    counts = newer_counts()
    assert counts
    assert set(counts.values()) == {1}
    # Every judged pair that could have queued but found its newer waiting is recorded, no action.
    assert Judgment.objects.filter(outcome="queued").count() == Conflict.objects.count()


def test_the_sweep_opens_one_conflict_per_new_memory_too(alice, monkeypatch):
    monkeypatch.setattr(judges, "_judge", Unsure())
    memories = [make_memory(alice.user, content) for content in SLOT]
    # One conflict already waits for the newest memory (opened by an earlier check).
    apply_verdict(
        older_id=memories[0].pk, newer_id=memories[3].pk, verdict=Unsure().judge(Pair(a="", b="")), judge_name="unsure"
    )

    sweep([(m.pk, alice.user.pk, None) for m in memories])

    counts = newer_counts()
    assert counts[memories[3].pk] == 1
    assert set(counts.values()) == {1}


def queue(older_id: str, newer_id: str, verdict: Verdict) -> Judgment | None:
    return apply_verdict(older_id=older_id, newer_id=newer_id, verdict=verdict, judge_name="race")


@pytest.mark.django_db(transaction=True)
def test_two_checks_racing_for_one_new_memory_open_one_conflict(django_user_model):
    owner = django_user_model.objects.create(username="racer")
    first, second, newer = (make_memory(owner, content) for content in SLOT[:3])
    verdict = Verdict("contradicts", 0.6, "two values")
    for _ in range(5):
        Conflict.objects.all().delete()
        Judgment.objects.all().delete()

        results = run_together([functools.partial(queue, older.pk, newer.pk, verdict) for older in (first, second)])

        assert not [r for r in results if isinstance(r, Exception)]
        assert Judgment.objects.count() == 2
        assert list(Conflict.objects.values_list("newer_id", flat=True)) == [newer.pk]
    connection.close()
