"""Finding the predecessor and the current version: similar_existing and recall on update chains.

For a set of update chains — an earlier statement, the later one that updates it, and a question
about the fact — in a haystack of other statements of the same user:

1. the haystack (earlier statements included) is stored for one user;
2. each later statement is written **without a declaration**, through ``memory_remember`` as the
   API does, and the rank of its predecessor in the answer's ``similar_existing`` is read
   (hit@1, hit@3, hit@10); the same write is ranked by the vector alone too (the ranking before
   it was fused with full-text matching);
3. ``recall`` is asked the question with both versions live: is the later one ranked above the
   earlier one?
4. each later statement is written again declaring ``supersedes`` of its predecessor (absorbed,
   as the hint says to do), and ``recall`` is asked again: the current version at rank 1, in the
   top 5, and with ``include_superseded`` the old version still there, marked superseded.

Three sets: two of the project's own, on which the ranking was tuned — chains drawn from the
generated whole store (evaluation.store: short notes, each cued update against its
slot's first statement, with a question written from the slot) and generated chat histories
(evaluation.chat_histories: long, chatty turns) — and LongMemEval's knowledge-update
chains (the external test set: real chat turns, never used to tune anything). Everything runs
in a throwaway test database.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.contrib.auth.models import User
from django.db import connection

from memories.choices import LinkType, State, Visibility
from memories.embedding import embed_sentences, get_embedder
from memories.models import Memory
from memories.recall import recall
from memories.search import fused_ranking
from memories.services import LinkSpec, memory_remember, memory_sentences_store
from memories.text import content_fingerprint
from memories.visibility import visible_memories

USERNAME = "retrieval-eval"
BATCH = 256


@dataclass(frozen=True)
class Chain:
    predecessor: str
    update: str
    question: str


@dataclass(frozen=True)
class RetrievalSet:
    name: str
    haystack: tuple[str, ...]  # stored first; every chain's predecessor is among them
    chains: tuple[Chain, ...]


def external_set(path: Path) -> RetrievalSet:
    """LongMemEval's chains: the latest earlier evidence turn and the update, 30 other turns of
    each question's history as haystack (one chain per distinct update, see the data's README)."""
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    haystack: dict[str, None] = {}
    chains: dict[str, Chain] = {}
    for row in rows:
        for text in [*row["distractors"], *row["old"]]:
            haystack[text] = None
        chains.setdefault(row["new"], Chain(row["old"][-1], row["new"], row["question"]))
    return RetrievalSet("LongMemEval knowledge updates (external)", tuple(haystack), tuple(chains.values()))


def store_set(seed: int | None = None, size: int = 2400) -> RetrievalSet:
    """Chains from the generated whole store: each slot's first statement, and the first cued
    update of that slot, asked about as "What is <subject>'s <attribute>?"."""
    from evaluation.store import BASE, CUED_UPDATE, DEFAULT_SEED, generate_store, possessive

    store = generate_store(size, DEFAULT_SEED if seed is None else seed)
    first: dict[tuple[str, str], str] = {}
    haystack: list[str] = []
    chains: list[Chain] = []
    seen: set[tuple[str, str]] = set()
    for write in store.writes:
        if write.category == BASE:
            first.setdefault(write.slot, write.content)
            haystack.append(write.content)
        elif write.category == CUED_UPDATE and write.slot in first and write.slot not in seen:
            seen.add(write.slot)
            question = f"What is {possessive(write.subject)} {write.attribute}?"
            chains.append(Chain(first[write.slot], write.content, question[0].upper() + question[1:]))
    return RetrievalSet("generated store, cued updates (own)", tuple(dict.fromkeys(haystack)), tuple(chains))


def chat_set() -> RetrievalSet:
    """The project's own long, chatty chains (evaluation.chat_histories): one user's chat
    turns over months, each fact stated in passing and updated later in other words."""
    from evaluation.chat_histories import chat_histories

    haystack, chains = chat_histories()
    return RetrievalSet(
        "generated chat histories (own)",
        tuple(dict.fromkeys(haystack)),
        tuple(Chain(chain.predecessor, chain.update, chain.question) for chain in chains),
    )


def _rank(ids: list[str], wanted: str) -> int | None:
    return ids.index(wanted) + 1 if wanted in ids else None


def _share(values: list[bool]) -> float:
    return round(sum(values) / len(values), 4) if values else 0.0


def _hits(ranks: list[int | None]) -> dict[str, float]:
    return {f"hit@{k}": _share([r is not None and r <= k for r in ranks]) for k in (1, 3, 10)}


def evaluate_set(data: RetrievalSet, progress: Callable[[str], object] = lambda line: None) -> dict[str, Any]:
    """Run the protocol of the module docstring on ``data`` in the current (throwaway) database."""
    user = User.objects.create(username=USERNAME)
    embedder = get_embedder()
    ids: dict[str, str] = {}
    for start in range(0, len(data.haystack), BATCH):
        texts = list(data.haystack[start : start + BATCH])
        vectors = embedder.embed(texts)
        rows = [
            Memory(
                content=text,
                content_fingerprint=content_fingerprint(text),
                owner=user,
                visibility=Visibility.PRIVATE,
                embedding=vector,
                embedding_model=embedder.name,
            )
            for text, vector in zip(texts, vectors, strict=True)
        ]
        Memory.objects.bulk_create(rows)
        memory_sentences_store(
            vectors_by_memory={row.pk: found for row, found in zip(rows, embed_sentences(texts), strict=True) if found}
        )
        ids.update({row.content: row.pk for row in rows})
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memories_memory")
    progress(f"{data.name}: {len(data.haystack)} stored, {len(data.chains)} updates")

    fused_ranks: list[int | None] = []
    vector_ranks: list[int | None] = []
    written: list[str] = []
    for chain in data.chains:
        result = memory_remember(user=user, credential=None, content=chain.update, kind="fact")
        written.append(result.memory.pk)
        listed = [item.memory.pk for item in result.similar_existing or []]
        fused_ranks.append(_rank(listed, ids[chain.predecessor]))
        own = visible_memories(user).filter(owner=user, state=State.LIVE).exclude(pk=result.memory.pk)
        by_vector = fused_ranking([own], list(result.memory.embedding), None, 10, weight=0.0)
        vector_ranks.append(_rank([r.pk for r in by_vector], ids[chain.predecessor]))

    later_first: list[bool] = []
    for chain, new_id in zip(data.chains, written, strict=True):
        found = [hit.memory.pk for hit in recall(user=user, query=chain.question, limit=50)]
        new_rank, old_rank = _rank(found, new_id), _rank(found, ids[chain.predecessor])
        later_first.append(new_rank is not None and (old_rank is None or new_rank < old_rank))

    for chain in data.chains:
        memory_remember(
            user=user,
            credential=None,
            content=chain.update,
            kind="fact",
            links=[LinkSpec(type=LinkType.SUPERSEDES, dst=ids[chain.predecessor])],
        )
    current_ranks: list[int | None] = []
    history_marked: list[bool] = []
    for chain, new_id in zip(data.chains, written, strict=True):
        found = [hit.memory.pk for hit in recall(user=user, query=chain.question, limit=10)]
        current_ranks.append(_rank(found, new_id))
        with_history = recall(user=user, query=chain.question, limit=50, include_superseded=True)
        old = next((hit.memory for hit in with_history if hit.memory.pk == ids[chain.predecessor]), None)
        history_marked.append(old is not None and old.state == State.SUPERSEDED and old.superseded_by_id == new_id)
    return {
        "name": data.name,
        "stored": len(data.haystack),
        "updates": len(data.chains),
        "similar_existing": _hits(fused_ranks),
        "similar_existing_vector_only": _hits(vector_ranks),
        "recall_both_live_later_first": _share(later_first),
        "recall_current_at_1": _share([r == 1 for r in current_ranks]),
        "recall_current_in_5": _share([r is not None and r <= 5 for r in current_ranks]),
        "recall_history_marked": _share(history_marked),
    }


def run_retrieval(external: Path | None, progress: Callable[[str], object] = lambda line: None) -> dict[str, Any]:
    """Each set in a fresh test database of its own."""
    sets = [store_set(), chat_set()]
    if external is not None and external.exists():
        sets.append(external_set(external))
    return {"sets": [_in_test_database(data, progress) for data in sets]}


def _in_test_database(data: RetrievalSet, progress: Callable[[str], object]) -> dict[str, Any]:
    """``evaluate_set`` against a new, migrated database that is dropped afterwards."""
    original = connection.settings_dict["NAME"]
    # Its own name, so that an evaluation never meets a test run's database.
    connection.settings_dict.setdefault("TEST", {})["NAME"] = f"{original}_eval_retrieval"
    connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False, keepdb=False)
    try:
        return evaluate_set(data, progress)
    finally:
        connection.creation.destroy_test_db(original, verbosity=0)
