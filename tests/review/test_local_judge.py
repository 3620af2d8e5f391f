"""The shipped local judge: real embeddings, real weights, honest confidence."""

from __future__ import annotations

import json

import pytest

from review.judges import Pair
from review.judges.local import RELATIONS, WEIGHTS_FILE, LocalJudge
from review.judges.training import load_examples


@pytest.fixture(scope="module")
def judge() -> LocalJudge:
    return LocalJudge()


def test_verdicts_have_a_known_relation_a_probability_and_a_rationale(judge):
    verdict = judge.judge(Pair(a="The standup is at 09:30.", b="The standup moved to 09:45."))

    assert verdict.relation in RELATIONS
    assert 0.2 <= verdict.confidence <= 1.0
    assert verdict.relation in verdict.rationale


def test_clear_cases(judge):
    unrelated = judge.judge(Pair(a="The deploy window is Monday 10:00 UTC.", b="My cat is called Miso."))
    paraphrase = judge.judge(Pair(a="Ana owns the billing service.", b="The billing service is owned by Ana."))

    assert unrelated.relation == "unrelated"
    assert paraphrase.relation in {"duplicate", "supersedes"}


def test_two_tiers_with_different_limits_are_never_retired(judge):
    verdict = judge.judge(
        Pair(
            a="The free tier rate limit is 100 requests per minute.",
            b="The enterprise tier rate limit is 5000 requests per minute.",
        )
    )

    assert not (verdict.relation in {"duplicate", "supersedes"} and verdict.confidence >= 0.9)


def test_the_shipped_weights_were_trained_on_the_committed_pairs_and_retire_no_complementary_fact():
    weights = json.loads(WEIGHTS_FILE.read_text())
    examples = load_examples()
    held_out = weights["held_out"]

    assert weights["trained_on"] + weights["calibrated_on"] == sum(e.split == "train" for e in examples)
    assert held_out["pairs"] == sum(e.split == "test" for e in examples)
    assert held_out["complementary_wrongly_retired"] == 0
    assert held_out["expected_calibration_error"] < 0.15


def test_the_training_data_is_varied_and_split(judge):
    examples = load_examples()
    relations = {e.relation for e in examples}

    assert relations == set(RELATIONS)
    assert len(examples) >= 500
    assert {e.split for e in examples} == {"train", "test"}
    assert len({(e.a, e.b) for e in examples}) == len(examples)
