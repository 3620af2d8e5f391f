"""./zm eval's update chains (evaluation/retrieval.py) on a small set, so the figures it
prints stay what they say."""

from __future__ import annotations

from evaluation.retrieval import Chain, RetrievalSet, evaluate_set, store_set

CHAINS = (
    Chain("Priya lives in Oslo.", "Priya moved to Bergen last month.", "Where does Priya live?"),
    Chain("The standup is at 09:30.", "The standup now starts at 09:45.", "When is the standup?"),
    Chain(
        "I have added 17 postcards to my collection since I started again.",
        "I just counted: 25 postcards added since I picked the hobby back up.",
        "How many postcards have I added since I started collecting again?",
    ),
)
HAYSTACK = (
    "My cat is called Miso.",
    "The billing service deploys on Fridays.",
    "Can you suggest a recipe for a weeknight pasta?",
    "Zoe lives in Lisbon.",
    *(chain.predecessor for chain in CHAINS),
)


def test_the_protocol_finds_predecessors_and_keeps_history(db):
    result = evaluate_set(RetrievalSet("tiny", HAYSTACK, CHAINS))

    assert result["updates"] == 3
    assert result["similar_existing"]["hit@10"] == 1.0  # a store of seven: every predecessor listed
    assert result["recall_history_marked"] == 1.0  # the declared supersede retired each, marked
    assert 0.0 <= result["recall_current_at_1"] <= result["recall_current_in_5"] <= 1.0


def test_the_store_set_asks_about_each_slot_once():
    data = store_set(size=600)

    assert data.chains
    assert len({chain.question for chain in data.chains}) == len(data.chains)
    assert all(chain.predecessor in data.haystack for chain in data.chains)
    assert all(chain.update not in data.haystack for chain in data.chains)
