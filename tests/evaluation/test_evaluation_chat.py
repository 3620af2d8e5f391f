"""The whole-store run on chat text (evaluation/chat_store.py, chat_run.py, queue_shape.py):
the stores keep their invariants, and the scoring reads a hand-built outcome exactly. One small run
goes end to end through gunicorn and a real worker; the full runs are ``./zm eval --chat-only``
(many minutes, not a unit test)."""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from pathlib import Path

import pytest

from evaluation.chat_histories import chat_histories, chat_history
from evaluation.chat_restated import RESTATED, restated_chains
from evaluation.chat_run import format_chat_report, rescore_chat, run_chat_store, score_chat
from evaluation.chat_store import (
    CHAIN_TURN,
    CHAIN_VS_OTHER,
    CHAIN_VS_OWN_NEAR,
    DIFFERENT_CHAINS,
    DISTRACTOR,
    MIN_GAP,
    NEAR,
    REAL_UPDATE,
    RESTATEMENT,
    UNRELATED_TURNS,
    ChatStore,
    ChatWrite,
    longmemeval_store,
    may_retire,
    near_exact,
    own_chat_store,
    pair_class,
)
from evaluation.harness import ApiRun, ConflictRow, Posted, StoreAfterRun
from evaluation.queue_shape import conflict_groups, queue_shape
from evaluation.store import normalized

# -- the stores -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def own() -> ChatStore:
    return own_chat_store()


def test_the_labelled_history_is_the_history_the_retrieval_eval_reads():
    history = chat_history(7)
    haystack, chains = chat_histories(7)
    assert list(history.haystack) == haystack
    assert list(history.chains) == chains
    assert len(history.near) == 96
    assert set(history.near) <= set(haystack)
    assert {chain.predecessor for chain in chains}.isdisjoint(history.near)


def test_the_own_store_is_deterministic_and_each_seed_its_own(own):
    assert own_chat_store() == own
    other = own_chat_store(seed=11)
    assert other.writes != own.writes
    assert {write.content for write in other.writes} != {write.content for write in own.writes}


def test_the_own_store_is_thousands_of_turns_of_two_users_with_their_chains(own):
    summary = own.summary()
    assert own.owners == ("chat-user-1", "chat-user-2")
    # Per user: 80 chains updated in other words and 36 restated in the same words.
    assert summary["chains"] == 2 * (80 + len(RESTATED))
    assert summary["chain_turns"] == 2 * summary["chains"]
    assert summary["near_turns"] == 192
    assert summary["writes"] == summary["chain_turns"] + summary["near_turns"] + summary["distractors"]
    assert summary["writes"] > 4000
    assert [write.index for write in own.writes] == list(range(len(own.writes)))
    # The users write side by side, not one after the other.
    assert {write.owner for write in own.writes[:10]} == set(own.owners)
    assert {write.owner for write in own.writes[-10:]} == set(own.owners)


def test_every_predecessor_comes_before_its_update_at_a_distance(own):
    turns: dict[str, list[ChatWrite]] = {}
    for write in own.writes:
        if write.role == CHAIN_TURN:
            turns.setdefault(write.chain or "", []).append(write)
    assert len(turns) == 2 * (80 + len(RESTATED))
    by_owner = {owner: [write.index for write in own.writes if write.owner == owner] for owner in own.owners}
    for chain, (predecessor, update) in turns.items():
        assert (predecessor.step, update.step) == (0, 1), chain
        assert predecessor.owner == update.owner
        assert chain.startswith(predecessor.owner + "/")
        # At least MIN_GAP of the same user's turns between them.
        positions = by_owner[predecessor.owner]
        assert positions.index(update.index) - positions.index(predecessor.index) > MIN_GAP
    assert sorted(own.updates) == sorted((first.index, second.index) for first, second in turns.values())


def test_no_turn_of_a_user_would_be_absorbed_by_the_dedup_cascade(own):
    texts = Counter((write.owner, normalized(write.content)) for write in own.writes)
    assert texts.most_common(1)[0][1] == 1
    # The chains' cores repeat across the users' histories: only owners keep them apart.
    first, second = (
        {normalized(write.content) for write in own.writes if write.owner == owner} for owner in own.owners
    )
    assert len(first) + len(second) == len(own.writes)


def test_near_turns_name_a_chain_of_their_own_user(own):
    chains = {write.chain for write in own.writes if write.role == CHAIN_TURN}
    near = [write for write in own.writes if write.role == NEAR]
    assert near
    assert all(write.chain in chains and (write.chain or "").startswith(write.owner + "/") for write in near)
    assert all(write.chain is None for write in own.writes if write.role == DISTRACTOR)


def test_a_small_own_store_keeps_the_invariants():
    small = own_chat_store(users=2, chains_per_user=3, others_per_user=14)
    assert len(small.writes) == 40
    assert len(small.updates) == 6
    assert all(first < second for first, second in small.updates)
    assert small == own_chat_store(users=2, chains_per_user=3, others_per_user=14)


def test_a_file_in_longmemevals_shape_becomes_one_users_store_old_before_new(tmp_path):
    """The loader on a small file of the external set's shape, written here, so it runs wherever
    the suite runs (the set itself is not in the repository; the test below reads it when named)."""
    rows = [
        {
            "qid": "q1",
            "old": ["I live in Oslo."],
            "new": "I moved to Bergen.",
            "distractors": [f"Chat {i}." for i in range(6)],
        },
        # Asked of the same evidence: the same chain, its evidence placed once.
        {"qid": "q1b", "old": ["I live in Oslo."], "new": "I moved to Bergen.", "distractors": ["Chat 0.", "Other 1."]},
        {
            "qid": "q2",
            "old": ["My car is red.", "My car is blue."],
            "new": "My car is green.",
            "distractors": ["Other 2."],
        },
    ]
    ku = tmp_path / "ku.jsonl"
    ku.write_text("".join(json.dumps(row) + "\n" for row in rows))
    store = longmemeval_store(ku)
    assert store == longmemeval_store(ku)
    assert store.owners == ("lme-user",)
    roles = Counter(write.role for write in store.writes)
    # Each text once: "Chat 0." repeated by q1b is written once.
    assert roles == Counter({DISTRACTOR: 8, CHAIN_TURN: 5})
    chains: dict[str, list[ChatWrite]] = {}
    for write in store.writes:
        if write.role == CHAIN_TURN:
            chains.setdefault(write.chain or "", []).append(write)
    assert {chain: [write.content for write in turns] for chain, turns in chains.items()} == {
        "q1": ["I live in Oslo.", "I moved to Bergen."],
        "q2": ["My car is red.", "My car is blue.", "My car is green."],
    }
    distractors = [write.content for write in store.writes if write.role == DISTRACTOR]
    assert distractors == [*(f"Chat {i}." for i in range(6)), "Other 1.", "Other 2."]  # the file's order


# The external set comes in as ./zm eval takes it (docs/hygiene.md): named by ZEROMEMORY_EVAL_EXTERNAL.
LONGMEMEVAL = Path(os.environ.get("ZEROMEMORY_EVAL_EXTERNAL") or "/nonexistent")


@pytest.mark.skipif(not LONGMEMEVAL.is_file(), reason="ZEROMEMORY_EVAL_EXTERNAL names no LongMemEval ku.jsonl")
def test_the_longmemeval_store_writes_each_text_once_old_before_new():
    store = longmemeval_store(LONGMEMEVAL)
    assert store == longmemeval_store(LONGMEMEVAL)
    summary = store.summary()
    assert store.owners == ("lme-user",)
    assert summary["writes"] == 2238
    assert summary["chains"] == 68
    assert summary["distractors"] == 2100
    assert summary["chain_turns"] == 138
    assert len({normalized(write.content) for write in store.writes}) == 2238
    steps: dict[str, list[ChatWrite]] = {}
    for write in store.writes:
        if write.role == CHAIN_TURN:
            steps.setdefault(write.chain or "", []).append(write)
    # Written in order: each chain's versions, oldest first.
    assert all([write.step for write in turns] == list(range(len(turns))) for turns in steps.values())
    assert Counter(len(turns) for turns in steps.values()) == Counter({2: 66, 3: 2})
    # The distractors keep the file's order (hygiene judges a pair by which came first).
    rows = [json.loads(line) for line in LONGMEMEVAL.read_text().splitlines() if line.strip()]
    in_file = [text for row in rows for text in row["distractors"]]
    assert [write.content for write in store.writes if write.role == DISTRACTOR] == in_file


# -- the ground truth of a pair -------------------------------------------------------------------


def _write(index: int, role: str, content: str, chain: str | None = None, step: int = 0, owner: str = "u1"):
    return ChatWrite(index, owner, content, role, chain, step)


def test_near_exact_leaves_out_the_generators_openers_lead_ins_and_sign_offs():
    # The one retirement the final own-chat run counted wrongful (issue 31): one question with
    # one background, a lead-in and a sign-off dropped and a generic follow-up added.
    background = "Femi runs the residents' association and is always looking for help."
    assert near_exact(
        f"{background} Right, so how would I start a little free library outside our building? Cheers!",
        f"{background} How would I start a little free library outside our building? Where would you start?",
    )
    # Left out whole words only, and a changed value is still a change.
    assert near_exact("Thanks! I also, like most people, hate queues.", "I also, like most people, hate queues.")
    assert not near_exact("I also like queues. Cheers!", "I so like queues.")
    assert not near_exact(
        "Right, so I drink about 4 coffees a day. Thanks!", "Anyway, I drink about 2 coffees a day. Cheers!"
    )


def test_near_exact_is_one_statement_twice_not_two_requests_that_open_alike():
    assert near_exact("I moved to York!", "i moved to york")
    assert near_exact(
        "I'm trying to get a sense of my spending habits for the past month. Can you help me track my expenses?",
        "I'm trying to get a sense of my spending over the past month. Can you help me track my expenses?",
    )
    assert not near_exact(
        "I'm trying to declutter my apartment and sell some collectibles that no longer bring me joy.",
        "I'm trying to declutter my apartment and was wondering if you could help me research some prices.",
    )
    assert not near_exact("My dentist appointment is on Monday at 10.", "My dentist appointment is on Monday at 11.")
    # The same request with a greeting or a sign-off added or dropped.
    assert near_exact(
        "Is it a bad idea to switch companies after less than two years?",
        "Round two! Is it a bad idea to switch companies after less than two years?",
    )
    assert near_exact(
        "So, here's the thing. How do I stop my embroidery fabric from puckering?",
        "How do I stop my embroidery fabric from puckering?",
    )
    # …but not a short turn inside a longer one that says more, nor a wrapper longer than 8 words.
    assert not near_exact("I moved to York.", "I moved to York. My sister lives in Leeds now and so does her husband.")
    assert not near_exact(
        "How do I stop my embroidery fabric from puckering?",
        "Sam's away for work this week, so it's just me and the animals. How do I stop my embroidery fabric "
        "from puckering?",
    )


def test_pair_classes_and_what_may_retire():
    before = _write(0, CHAIN_TURN, "We live in Leeds, by the way, can you suggest a walk?", "c1", 0)
    after = _write(5, CHAIN_TURN, "We moved to York last month; any good walks near there?", "c1", 1)
    other_chain = _write(3, CHAIN_TURN, "My sister has just started learning the cello.", "c2", 0)
    own_near = _write(2, NEAR, "What are the best parks in Leeds for a picnic?", "c1")
    distractor = _write(1, DISTRACTOR, "How long should I boil an egg for a runny yolk?")
    again = _write(4, DISTRACTOR, "How long should I boil an egg for a runny yolk")
    assert pair_class(before, after) == REAL_UPDATE
    assert pair_class(distractor, again) == RESTATEMENT
    assert pair_class(before, other_chain) == DIFFERENT_CHAINS
    assert pair_class(own_near, after) == CHAIN_VS_OWN_NEAR
    assert pair_class(distractor, after) == CHAIN_VS_OTHER
    assert pair_class(distractor, own_near) == UNRELATED_TURNS
    assert may_retire(before, after)
    assert not may_retire(after, before)  # an older version never retires a newer one
    assert may_retire(distractor, again)
    assert not may_retire(own_near, after)
    assert not may_retire(before, _write(6, CHAIN_TURN, after.content, "c1", 1, owner="u2"))


# -- scoring a hand-built outcome -----------------------------------------------------------------


def _conflict(number: int, older: int, newer: int, relation: str = "contradicts", **extra) -> ConflictRow:
    fields = {"status": "pending", "owner": 1, "project": None, "slot": "", **extra}
    return ConflictRow(number, f"m{older}", f"m{newer}", relation, 0.6, **fields)


def _hand_built() -> tuple[ChatStore, Posted, StoreAfterRun]:
    writes = (
        _write(0, CHAIN_TURN, "We live in Leeds, by the way, can you suggest a walk?", "c1", 0),
        _write(1, DISTRACTOR, "How long should I boil an egg for a runny yolk?"),
        _write(2, NEAR, "What are the best parks in Leeds for a picnic?", "c1"),
        _write(3, DISTRACTOR, "Can you explain how compound interest works?"),
        _write(4, CHAIN_TURN, "We moved to York last month; any good walks near there?", "c1", 1),
        _write(5, DISTRACTOR, "How long should I boil an egg for a runny yolk"),
        _write(6, CHAIN_TURN, "I've just started learning the cello, any practice tips?", "c2", 0),
        _write(7, CHAIN_TURN, "I gave up the cello and switched to the viola.", "c2", 1),
        _write(8, DISTRACTOR, "What should I pack for a weekend in Galway?"),
        _write(9, DISTRACTOR, "Is it worth repainting a bathroom ceiling myself?"),
        _write(10, DISTRACTOR, "Which houseplants cope with a dark hallway?"),
        _write(11, CHAIN_TURN, "Our cat Miso is on a diet of 50 grams a day.", "c3", 0),
        _write(12, CHAIN_TURN, "The vet says Miso can have 60 grams a day now.", "c3", 1),
    )
    store = ChatStore("hand-built", "tests", writes, ((0, 4), (6, 7), (11, 12)))
    posted = Posted(memory_of={index: f"m{index}" for index in range(13)}, created=set(range(13)))
    conflicts = [
        _conflict(1, 2, 4),  # the update against a near turn of its subject
        _conflict(2, 6, 7, "supersedes"),  # the real update of c2, queued
        _conflict(3, 2, 8),  # shares m2 with conflict 1: one group
        _conflict(4, 3, 8, "duplicate"),  # m8 is the newer side of two pending conflicts (R-H9)
        _conflict(5, 9, 10, slot="hallway:paint"),
        _conflict(6, 1, 11, slot="hallway:paint"),  # no shared memory, the same slot: one group with 5
        _conflict(7, 5, 12, slot="hallway:paint", owner=2),  # the same slot of another owner: its own group
        _conflict(8, 6, 9, status="dismissed"),  # settled: in no figure
    ]
    outcome = StoreAfterRun(
        state={f"m{index}": "live" for index in range(13)}
        | {"m0": "superseded", "m1": "superseded", "m3": "superseded"},
        superseded_by={"m0": "m4", "m1": "m5", "m3": "m6"},
        judgments={
            ("m0", "m4"): ("supersedes", 0.95, "auto_resolved"),
            ("m1", "m5"): ("duplicate", 0.97, "auto_resolved"),
            ("m3", "m6"): ("supersedes", 0.93, "auto_resolved"),
            ("m6", "m7"): ("supersedes", 0.7, "queued"),
            ("m11", "m12"): ("complementary", 0.8, "no_action"),
        },
        conflicts=conflicts,
        tasks=Counter({"SUCCESSFUL": 13}),
        link_origins=Counter({"hygiene": 3}),
        worker_span=None,
        worker_busy=0.0,
        slot_column=True,
    )
    return store, posted, outcome


def test_the_scoring_of_a_hand_built_outcome():
    result = score_chat(*_hand_built())
    assert result["retirements"] == 3
    assert result["retirements_by_class"] == {REAL_UPDATE: 1, RESTATEMENT: 1, CHAIN_VS_OTHER: 1}
    assert result["wrongful_retirements"] == 1
    assert result["wrongful_by_class"] == {CHAIN_VS_OTHER: 1}
    [wrongful] = result["wrongful_examples"]
    assert (wrongful["older_write"], wrongful["newer_write"]) == (3, 6)
    assert (wrongful["older_label"], wrongful["newer_label"]) == ("distractor", "c2 step 0")
    assert wrongful["older"] == "Can you explain how compound interest works?"
    assert (wrongful["relation"], wrongful["confidence"]) == ("supersedes", 0.93)

    assert result["counts"]["pending_conflicts"] == 7
    assert result["pending_conflicts_per_100_writes"] == round(100 * 7 / 13, 2)
    assert result["conflicts_naming_real_pair"] == 1
    assert result["conflicts_naming_real_pair_share"] == round(1 / 7, 4)
    assert result["conflicts_by_class"] == {
        REAL_UPDATE: 1,
        CHAIN_VS_OWN_NEAR: 1,
        CHAIN_VS_OTHER: 2,
        UNRELATED_TURNS: 3,
    }
    assert result["conflicts_by_class_and_relation"] == {
        REAL_UPDATE: {"supersedes": 1},
        CHAIN_VS_OWN_NEAR: {"contradicts": 1},
        CHAIN_VS_OTHER: {"contradicts": 2},
        UNRELATED_TURNS: {"contradicts": 2, "duplicate": 1},
    }

    assert result["queue_shape"] == {
        "pending_conflicts": 7,
        "groups": 4,  # {1, 3, 4}, {2}, {5, 6}, {7}
        "groups_per_100_writes": round(100 * 4 / 13, 2),
        "largest_group": 3,
        "group_sizes": {"1": 2, "2": 1, "3": 1},
        "grouped_by_slot": True,
        "memories_newer_in_several": 1,  # m8
        "memories_in_several": 2,  # m2 and m8
    }
    assert result["real_updates"] == 3
    assert result["real_updates_auto_resolved"] == 1
    assert result["real_updates_queued"] == 1
    assert result["real_update_outcomes"] == {
        "retired by its update": 1,
        "queued": 1,
        "judged complementary (no_action)": 1,
    }
    report = format_chat_report({**result, "drained": True, "timings": {}, "run": {"judge": "x", "kind": "fact"}})
    assert "| wrongful retirements" in report
    assert "older #3 (distractor): Can you explain how compound interest works?" in report


def test_a_kept_outcome_scores_again_as_it_did(tmp_path):
    store, posted, outcome = _hand_built()
    run = ApiRun(posted, outcome, True, {"total_seconds": 12.5}, {"judge": "local", "kind": "fact"})
    run.save(tmp_path / "own.outcome.json")
    again = rescore_chat(store, tmp_path / "own.outcome.json")
    assert again == {**score_chat(store, posted, outcome), "drained": True, "timings": run.timings, "run": run.run}


def test_groups_join_through_shared_memories_transitively_and_through_slots_of_one_owner_and_scope():
    conflicts = [
        _conflict(10, 1, 2),
        _conflict(11, 3, 4),
        _conflict(12, 2, 3),  # bridges 10 and 11
        _conflict(13, 5, 6, slot="miso:food"),
        _conflict(14, 7, 8, slot="miso:food", project=4),  # another scope: apart
        _conflict(15, 9, 10, slot="miso:food"),
        _conflict(16, 11, 12),
    ]
    assert conflict_groups(conflicts) == [[10, 11, 12], [13, 15], [14], [16]]
    # Without slot keys (the column absent), only shared memories join.
    plain = [
        ConflictRow(c.id, c.older, c.newer, c.relation, c.confidence, c.status, c.owner, c.project) for c in conflicts
    ]
    assert conflict_groups(plain) == [[10, 11, 12], [13], [14], [15], [16]]
    shape = queue_shape(plain, writes=50, slot_column=False)
    assert (shape["groups"], shape["groups_per_100_writes"], shape["grouped_by_slot"]) == (5, 10.0, False)
    assert (shape["memories_newer_in_several"], shape["memories_in_several"]) == (0, 2)


# -- end to end, small ----------------------------------------------------------------------------


@pytest.mark.slow
def test_a_small_chat_store_through_the_api_and_a_real_worker(settings):
    store = own_chat_store(users=2, chains_per_user=3, others_per_user=14)
    result = run_chat_store(store, onnx_cache=Path(settings.DATA_DIR) / "onnx", progress=False)
    counts = result["counts"]
    assert result["drained"] is True
    assert (counts["writes"], counts["created"], counts["absorbed"]) == (40, 40, 0)
    assert counts["tasks"].get("FAILED", 0) == 0
    assert sum(counts["tasks"].values()) >= 40
    assert result["run"]["writers"] == 2
    assert result["run"]["log_errors"] == {"gunicorn": 0, "db_worker": 0}
    assert result["real_updates"] == 6
    assert counts["pending_conflicts"] == sum(result["conflicts_by_class"].values())
    assert result["queue_shape"]["pending_conflicts"] == counts["pending_conflicts"]
    assert result["retirements"] == counts["superseded"]
    assert counts["judgments"] == counts["auto_resolved"] + counts["queued"] + counts["no_action"]


def test_eval_prints_the_whole_store_runs_side_by_side():
    from evaluation.commands.eval_hygiene import render_store_summary

    chat = {**score_chat(*_hand_built()), "timings": {"total_seconds": 61.4}}
    facts = {
        "counts": {"writes": 2400, "superseded": 448, "pending_conflicts": 816},
        "wrongful_retirements": 0,
        "pending_conflicts_per_100_writes": 34.0,
        "conflicts_same_slot_share": 0.9412,
        "queue_shape": {**chat["queue_shape"], "groups": 300, "groups_per_100_writes": 12.5},
        "timings": {"total_seconds": 250.0},
    }
    table = render_store_summary({"store": facts, "chat_stores": {"own": chat}}).splitlines()
    assert "| figure | short facts | own chat |" in table
    assert "| wrongful retirements (of all retirements) | 0 of 448 | 1 of 3 |" in table
    assert "| pending conflicts (per 100 writes) | 816 (34.0) | 7 (53.85) |" in table
    assert "| conflicts naming a real update or restatement | - | 1 (14.3%) |" in table
    assert "| conflicts about one subject and attribute (short facts) | 94.1% | - |" in table
    assert "| conflict groups: decisions (per 100 writes) | 300 (12.5) | 4 (30.77) |" in table
    assert "| memories newer in >1 pending conflict / in >1 at all | 1 / 2 | 1 / 2 |" in table
    assert "| real updates resolved / queued | - | 1 / 1 of 3 |" in table
    assert "| run time | 250s | 61s |" in table


def test_a_users_background_sentences_never_change_their_values():
    """One user's life stays true: a template's filling repeats word for word, so two turns never
    state two values of a background fact (only the chains change a fact)."""
    from evaluation.chat_histories import _TOPICS, _Writer

    writer = _Writer(random.Random(5))
    topic = next(t for t in _TOPICS if t.contexts)
    filled = {template: {writer._fill(template, topic) for _ in range(20)} for template in topic.contexts}
    assert all(len(fills) == 1 for fills in filled.values())


def test_restated_chains_state_the_fact_in_their_own_words_with_a_new_value():
    chains = restated_chains(3)
    assert len(chains) == len(RESTATED)
    for chain, (_topic, old, new, question) in zip(chains, RESTATED, strict=True):
        # A turn may be typed all in lower case (as some people do).
        assert old.lower().rstrip(".") in chain.predecessor.lower()
        assert new.lower().rstrip(".") in chain.update.lower()
        assert chain.question == question
    assert restated_chains(3) == chains
