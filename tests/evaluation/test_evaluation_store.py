"""The whole-store evaluation's synthetic store (evaluation/store.py): deterministic, big
and varied enough, and its ground truth consistent with itself. The end-to-end run through the
API and a worker is bench/hygiene_store.py (minutes, not a unit test)."""

from __future__ import annotations

from collections import Counter
from itertools import pairwise

import pytest

from evaluation.store import (
    ADDED_DETAIL,
    CATEGORIES,
    CUED_UPDATE,
    DIFFERENT_ATTRIBUTE,
    DIFFERENT_SUBJECT,
    FILLER,
    LOOP_OUTCOME,
    PAIR_DUPLICATE,
    PARAPHRASE,
    QUESTION,
    TASK,
    UNCUED_CHANGE,
    Store,
    generate_store,
    may_retire,
    normalized,
    pair_class,
)
from evaluation.whole_store import _diverse


@pytest.fixture(scope="module")
def store() -> Store:
    return generate_store()


def test_the_store_is_deterministic_for_a_seed_and_differs_across_seeds(store):
    assert generate_store() == store
    assert generate_store(seed=7).writes != store.writes


def test_the_store_is_one_agents_life_about_many_subjects(store):
    assert len(store.writes) == 2400
    assert len(store.subjects) >= 60
    assert {write.category for write in store.writes} == set(CATEGORIES)
    assert any(write.project is None for write in store.writes)
    assert any(write.project == store.project for write in store.writes)
    # The base layer comes first; later writes interleave every other kind.
    first_later = next(write.index for write in store.writes if write.category != "base")
    assert all(write.category == "base" for write in store.writes[:first_later])


def test_no_write_is_a_verbatim_repeat_the_dedup_cascade_would_absorb(store):
    texts = Counter(normalized(write.content) for write in store.writes)
    assert texts.most_common(1)[0][1] == 1


def test_subjects_share_attributes_and_values(store):
    shared = Counter((write.attribute, write.value) for write in store.writes if write.category == "base")
    assert shared.most_common(1)[0][1] >= 5


def test_a_subject_stays_in_one_scope_so_hygiene_can_compare_its_memories(store):
    scopes: dict[str, set[str | None]] = {}
    for write in store.writes:
        if write.category != FILLER:
            scopes.setdefault(write.subject, set()).add(write.project)
    assert all(len(projects) == 1 for projects in scopes.values())


def test_every_ideal_retirement_is_legitimate_and_of_the_same_slot(store):
    for write in store.writes:
        for index in write.retires:
            older = store.writes[index]
            assert older.index < write.index
            assert older.slot == write.slot
            assert may_retire(older, write), (older.content, write.content)
        if write.retires:
            assert write.category in {CUED_UPDATE, LOOP_OUTCOME, PARAPHRASE}


def test_the_recorded_class_of_each_composed_pair(store):
    classes = {write.category: Counter[str]() for write in store.writes}
    for write in store.writes:
        if write.related is not None:
            assert write.related_class == pair_class(store.writes[write.related], write)
            classes[write.category][write.related_class or ""] += 1
    assert set(classes["other_subject"]) == {DIFFERENT_SUBJECT}
    assert set(classes["other_attribute"]) == {DIFFERENT_ATTRIBUTE}
    assert set(classes[CUED_UPDATE]) == {CUED_UPDATE}
    assert set(classes[UNCUED_CHANGE]) == {UNCUED_CHANGE}
    assert set(classes[LOOP_OUTCOME]) == {LOOP_OUTCOME}
    assert classes[PARAPHRASE][PAIR_DUPLICATE] > 0.9 * sum(classes[PARAPHRASE].values())
    assert set(classes[ADDED_DETAIL]) == {ADDED_DETAIL}


def test_loops_open_before_their_outcomes_and_some_stay_open(store):
    outcomes = [write for write in store.writes if write.category == LOOP_OUTCOME]
    opened = [write for write in store.writes if write.category in {TASK, QUESTION}]
    assert {store.writes[write.retires[0]].kind for write in outcomes} == {"task", "open-question"}
    assert len(outcomes) < len(opened)


def test_only_a_successor_with_evidence_or_the_same_value_may_retire(store):
    by_slot: dict[tuple[str, str], list[int]] = {}
    for write in store.writes:
        by_slot.setdefault(write.slot, []).append(write.index)
    checked = 0
    for indexes in by_slot.values():
        for older_index, newer_index in pairwise(indexes):
            older, newer = store.writes[older_index], store.writes[newer_index]
            if may_retire(older, newer):
                assert newer.evidence or older.value == newer.value
                checked += 1
            assert not may_retire(newer, older)
    assert checked > 500


def test_examples_are_taken_from_every_class_in_turn():
    store = generate_store(size=200, seed=3)
    writes = store.writes
    items = [(writes[0], writes[1], "a")] * 5 + [(writes[2], writes[3], "b")] * 2
    chosen = _diverse(items, 4, lambda older, newer, cls: {"class": cls})
    assert [item["class"] for item in chosen] == ["a", "b", "a", "b"]
