"""The one workload every side of ``./zm bench --peers`` runs, built from bench/corpus.py.

Standard library only: the peers' runner (bench/peer_run.py) imports it inside the peers'
own virtualenv, where none of the project's packages are installed.

Every text is distinct, from the stored facts and from each other, so that no side absorbs a
repeat (ours), refuses one (unforget's unique content) or answers from a cache (unforget's
recall and embedding caches), and the same indexes of the stored facts are replaced, and
others deleted, on each side: a fact is replaced or deleted, never both, and never twice.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from corpus import note, notes, question

# bench/seed.py's corpus seed: the stored facts are the first distinct notes of that corpus.
CORPUS_SEED = 20261203
WORKLOAD_SEED = 20261204
FACTS = 2000
OPERATIONS = 200
WARMUP = 20


@dataclass(frozen=True)
class Workload:
    facts: list[tuple[str, str]]  # (kind, content), stored before anything is timed
    writes: list[tuple[str, str]]  # (kind, content), one new memory each
    replaces: list[tuple[int, str, str]]  # (index of the stored fact, kind, new content)
    searches: list[str]
    forgets: list[int]  # index of the stored fact deleted (forgotten), none of them replaced
    warm_writes: list[tuple[str, str]]
    warm_replaces: list[tuple[int, str, str]]
    warm_searches: list[str]
    warm_forgets: list[int]


def _distinct(draw: Callable[[], str], count: int, seen: set[str], what: str) -> list[str]:
    picked: list[str] = []
    for _ in range(count * 200):
        if len(picked) == count:
            return picked
        text = draw()
        if text not in seen:
            seen.add(text)
            picked.append(text)
    if len(picked) == count:
        return picked
    raise ValueError(f"the corpus gives only {len(picked)} distinct {what}, {count} were asked for")


def workload(facts: int = FACTS, operations: int = OPERATIONS, warmup: int = WARMUP) -> Workload:
    stored: list[tuple[str, str]] = []
    seen: set[str] = set()
    stream = iter(notes(CORPUS_SEED, facts * 2))
    for kind, content in stream:
        if content not in seen:
            seen.add(content)
            stored.append((kind, content))
            if len(stored) == facts:
                break
    else:
        raise ValueError(f"the corpus gives fewer than {facts} distinct notes")

    rng = random.Random(WORKLOAD_SEED)
    kinds: dict[str, str] = {}

    def draw_note() -> str:
        kind, content = note(rng)
        kinds.setdefault(content, kind)
        return content

    new_texts = _distinct(draw_note, 2 * (operations + warmup), seen, "notes")
    questions = _distinct(lambda: question(rng), operations + warmup, set(), "questions")
    targets = rng.sample(range(facts), operations + warmup)
    writes = [(kinds[text], text) for text in new_texts[: operations + warmup]]
    replaces = [
        (target, kinds[text], text) for target, text in zip(targets, new_texts[operations + warmup :], strict=True)
    ]
    # Drawn after everything above, so that adding the deletes changed none of the earlier draws.
    replaced = set(targets)
    untouched = [n for n in range(facts) if n not in replaced]
    if len(untouched) < operations + warmup:
        raise ValueError(f"{facts} facts leave {len(untouched)} to delete, {operations + warmup} were asked for")
    forgets = rng.sample(untouched, operations + warmup)
    return Workload(
        facts=stored,
        writes=writes[warmup:],
        replaces=replaces[warmup:],
        searches=questions[warmup:],
        forgets=forgets[warmup:],
        warm_writes=writes[:warmup],
        warm_replaces=replaces[:warmup],
        warm_searches=questions[:warmup],
        warm_forgets=forgets[:warmup],
    )
