"""Chat turns for the long-text benchmark (bench/longtext.py), and their vectors, cached.

The turns come from the project's own chat generator (evaluation.chat_histories): one
imaginary user's history per seed, of which the 2,000 distractor turns are taken (median 34
words, about 4 sentence vectors a turn (memories.text.sentences), up to 16). Its 80 update
chains are left out: they state the same 80 facts in every seed, and a store of 50 copies of
each would not be one user's history. Seeds 1, 2, ... make the store (50 of them for 100,000
turns: the topics, templates and slot vocabularies are the same in every seed, so a store of
many seeds is one user talking about the same few dozen subjects for years, as a chat history
is); seed 0 makes the held-out turns that are written and asked during the run, never stored
beforehand. The evaluation's own seed (20261204) is not used.

Vectors are computed once by the server's own embedder and cached under DATA_DIR/bench/: every
turn's whole-text vector, and one vector per distinct sentence (sentences repeat across turns:
openers, asides and closers are drawn from shared pools, so 100,000 turns have far fewer distinct
sentences than sentence rows). A smaller store reuses the largest cache computed so far.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from common import ROOT, embed_texts  # noqa: F401 - sets up sys.path and settings

CACHE_VERSION = "v1"
HELD_OUT_SEED = 0


def _turns_of(seed: int) -> list[str]:
    """The seed's distractor turns: its chains' turns state the same 80 facts in every seed."""
    from evaluation.chat_histories import chat_histories

    haystack, chains = chat_histories(seed)
    predecessors = {chain.predecessor for chain in chains}
    return [turn for turn in haystack if turn not in predecessors]


def chat_turns(count: int) -> list[str]:
    """The first ``count`` distinct turns of seeds 1, 2, ... (deterministic)."""
    seen: dict[str, None] = {}
    seed = 1
    while len(seen) < count:
        for turn in _turns_of(seed):
            seen.setdefault(turn, None)
        seed += 1
    return list(seen)[:count]


def held_out_turns(count: int, stored: set[str] | None = None) -> list[str]:
    """Turns of seed 0 that are not in the store: what the run writes and asks."""
    turns = [turn for turn in _turns_of(HELD_OUT_SEED) if stored is None or turn not in stored]
    if len(turns) < count:
        raise SystemExit(f"only {len(turns)} held-out turns, {count} wanted")
    return turns[:count]


@dataclass(frozen=True)
class ChatVectors:
    """``whole[n]``: turn n's vector; its sentence vectors are ``sentences[offsets[n]:offsets[n + 1]]``."""

    whole: Any  # numpy float32 (count, dimensions)
    sentences: Any  # numpy float32 (rows, dimensions)
    offsets: Any  # numpy int64 (count + 1,)

    def of(self, n: int) -> Any:
        return self.sentences[self.offsets[n] : self.offsets[n + 1]]


def _digest(turns: list[str]) -> str:
    return hashlib.sha256("\n\x00".join(turns).encode()).hexdigest()[:16]


def chat_vectors(turns: list[str], cache_dir: Path) -> ChatVectors:
    """Vectors of ``turns`` (a prefix of ``chat_turns``), from the cache or embedded and cached."""
    import numpy as np

    from memories.embedding import get_embedder
    from memories.text import sentences

    embedder = get_embedder()
    slug = hashlib.sha256(embedder.name.encode()).hexdigest()[:10]
    cache_dir.mkdir(parents=True, exist_ok=True)
    count = len(turns)
    for existing in sorted(cache_dir.glob(f"chat-{CACHE_VERSION}-{slug}-*.npz")):
        size = int(existing.stem.rsplit("-", 1)[1])
        if size < count:
            continue
        cached = np.load(existing)
        # The cache holds the first ``size`` turns; ours are its first ``count`` if the generator
        # has not changed since.
        if str(cached["digest"]) != _digest(turns if size == count else chat_turns(size)):
            continue
        offsets = cached["offsets"][: count + 1]
        return ChatVectors(cached["whole"][:count], cached["sentences"][: offsets[-1]], offsets)

    split = [sentences(turn) for turn in turns]
    distinct = list(dict.fromkeys(sentence for found in split for sentence in found))

    whole = embed_texts(turns, f"embedding {count:,} chat turns")
    by_sentence = embed_texts(distinct, f"embedding their {len(distinct):,} distinct sentences")
    index = {sentence: n for n, sentence in enumerate(distinct)}
    rows = [index[sentence] for found in split for sentence in found]
    offsets = np.zeros(count + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([len(found) for found in split])
    sentence_rows = by_sentence[rows] if rows else np.zeros((0, embedder.dimensions), dtype=np.float32)
    path = cache_dir / f"chat-{CACHE_VERSION}-{slug}-{count}.npz"
    temporary = path.with_suffix(".tmp.npz")
    np.savez(temporary, whole=whole, sentences=sentence_rows, offsets=offsets, digest=np.array(_digest(turns)))
    temporary.replace(path)
    return ChatVectors(whole, sentence_rows, offsets)


if __name__ == "__main__":
    import sys

    from common import setup_django

    setup_django(fresh=False, database="zm_bench_scratch")
    from django.conf import settings

    wanted = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    vectors = chat_vectors(chat_turns(wanted), Path(settings.DATA_DIR) / "bench")
    print(f"{len(vectors.whole):,} turns, {len(vectors.sentences):,} sentence rows")
