"""Whole stores of chat turns, with ground truth, for the whole-store run (``chat_run``).

Two sources, each a :class:`ChatStore` of labelled writes in the order they are posted:

* :func:`own_chat_store` -- the project's own generated chat histories
  (``evaluation.chat_histories``), one history per user: every user is a different seed
  and a different owner (token), because the chains' hand-written cores repeat across seeds and
  only a memory of the same owner is ever compared. A user's turns are the history's distractors
  (the "near" turns among them, labelled) in the history's own shuffled order, with each chain's
  predecessor and, ``gap`` turns later, its update placed in it; the users' streams are then
  interleaved as several agents would write at once.
* :func:`longmemeval_store` -- the external LongMemEval knowledge-update set
  (its ``ku.jsonl``, handed in by the caller: an external TEST set, nothing is tuned on it), all written by
  one user, question by question in the file's order: each question's distractors in the file's
  order, its chain's ``old`` turns (oldest first) and then its ``new`` turn interleaved among
  them, each text once (four questions share their evidence pairwise).

Every write is labelled: a chain turn (its chain and its ``step``: 0 for the first statement, a
later step for each later version) or a distractor, or a near turn (the chain whose subject it
shares). The ground truth of a pair is :func:`pair_class`; a retirement is legitimate when
:func:`may_retire` holds: a later turn of the same chain, or an exact or near-exact restatement.

Deterministic for given arguments; standard library only.
"""

from __future__ import annotations

import difflib
import json
import random
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from evaluation.chat_histories import DEFAULT_SEED as HISTORY_SEED
from evaluation.chat_histories import chat_history, wrapper_pattern
from evaluation.chat_restated import restated_chains
from evaluation.store import normalized

# -- labels ----------------------------------------------------------------------------------------

CHAIN_TURN = "chain"  # a statement of a chain's fact: its first version or a later one
DISTRACTOR = "distractor"  # another turn of the user's history
NEAR = "near"  # a turn on the same narrow subject as a chain that does not state its fact
ROLES = (CHAIN_TURN, DISTRACTOR, NEAR)

# -- pair classes (the ground truth of an older/newer pair of one owner) ---------------------------

REAL_UPDATE = "real_update"  # two versions of one chain's fact, the later one newer
RESTATEMENT = "restatement"  # the same text, or nearly (see near_exact)
CHAIN_VS_OWN_NEAR = "chain_vs_own_near"  # a chain turn and a near turn of that chain's subject
CHAIN_VS_OTHER = "chain_vs_other"  # a chain turn and a distractor, or a near turn of another chain
DIFFERENT_CHAINS = "different_chains"  # turns of two chains: two facts
UNRELATED_TURNS = "unrelated_turns"  # neither is a chain turn
PAIR_CLASSES = (REAL_UPDATE, RESTATEMENT, CHAIN_VS_OWN_NEAR, CHAIN_VS_OTHER, DIFFERENT_CHAINS, UNRELATED_TURNS)
# The pairs a queue entry or a retirement may name (the "real update or restatement").
REAL_PAIRS = frozenset({REAL_UPDATE, RESTATEMENT})

# Two turns are one statement when their words match this closely (difflib's ratio on the
# normalised words). Two different requests that open alike ("I'm trying to declutter my
# apartment and was wondering if…" / "…and sell some collectibles…") stay well below it.
NEAR_EXACT_RATIO = 0.9
# …or when one turn is the other with a greeting or a sign-off around it ("Round two! Is it a bad
# idea to switch companies…?" / "Is it a bad idea to switch companies…?"): the shorter one, of at
# least MIN_REPEATED_WORDS words, stands whole inside the longer, which adds at most
# WRAPPER_WORDS words and no more words than the shorter has.
MIN_REPEATED_WORDS = 6
WRAPPER_WORDS = 8

# The own store's defaults: two users, each update 100 to 1,000 turns after its predecessor (5% to
# half of a user's 2,000-turn history).
DEFAULT_USERS = 2
MIN_GAP = 100
MAX_GAP = 1000
LONGMEMEVAL_SEED = 31
LONGMEMEVAL_USER = "lme-user"


@dataclass(frozen=True)
class ChatWrite:
    """One chat turn as an agent stores it, with its ground truth."""

    index: int  # position in the store's writing order
    owner: str  # username of the writer (one token per owner)
    content: str
    role: str  # CHAIN_TURN, DISTRACTOR or NEAR
    chain: str | None = None  # the chain of a chain turn, or the chain whose subject a near turn shares
    step: int = 0  # a chain turn's version: 0 the first statement, higher a later one

    @property
    def label(self) -> str:
        if self.role == CHAIN_TURN:
            return f"{self.chain} step {self.step}"
        if self.role == NEAR:
            return f"near {self.chain}"
        return DISTRACTOR


@dataclass(frozen=True)
class ChatStore:
    name: str
    source: str
    writes: tuple[ChatWrite, ...]
    # Every chain's (predecessor, update) write indexes: its last earlier version and its latest one.
    updates: tuple[tuple[int, int], ...]

    @property
    def owners(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(write.owner for write in self.writes))

    def summary(self) -> dict[str, object]:
        roles = Counter(write.role for write in self.writes)
        return {
            "name": self.name,
            "source": self.source,
            "writes": len(self.writes),
            "owners": len(self.owners),
            "chains": len(self.updates),
            "chain_turns": roles[CHAIN_TURN],
            "distractors": roles[DISTRACTOR],
            "near_turns": roles[NEAR],
            "update_distance_median": _median([newer - older for older, newer in self.updates]),
        }


def _median(values: list[int]) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    middle = len(ordered) // 2
    return float(ordered[middle]) if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


_WRAPPERS = wrapper_pattern()


def near_exact(older: str, newer: str) -> bool:
    """One statement written twice: equal after the dedup cascade's normalisation, nearly equal
    word for word, or the same turn with a short greeting or sign-off added or dropped. The
    chat generator's own openers, lead-ins and sign-offs are left out of both first: "Right, so
    how would I start…? Cheers!" and "How would I start…?" ask one question."""
    a, b = normalized(_WRAPPERS.sub(" ", older)).split(), normalized(_WRAPPERS.sub(" ", newer)).split()
    if a == b:
        return True
    shorter, longer = sorted((a, b), key=len)
    extra = len(longer) - len(shorter)
    if (
        len(shorter) >= MIN_REPEATED_WORDS
        and extra <= min(WRAPPER_WORDS, len(shorter))
        and f" {' '.join(shorter)} " in f" {' '.join(longer)} "
    ):
        return True
    if 2 * len(shorter) < NEAR_EXACT_RATIO * (len(a) + len(b)):
        return False  # the ratio cannot reach the bar: no need to align the words
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio() >= NEAR_EXACT_RATIO


def pair_class(older: ChatWrite, newer: ChatWrite) -> str:
    """The ground-truth class of a pair of one owner's turns (``older`` written first)."""
    older_chain = older.chain if older.role == CHAIN_TURN else None
    newer_chain = newer.chain if newer.role == CHAIN_TURN else None
    if older_chain is not None and older_chain == newer_chain:
        return REAL_UPDATE
    if near_exact(older.content, newer.content):
        return RESTATEMENT
    if older_chain is not None and newer_chain is not None:
        return DIFFERENT_CHAINS
    if older_chain is None and newer_chain is None:
        return UNRELATED_TURNS
    chain_turn, other = (older, newer) if older_chain is not None else (newer, older)
    if other.role == NEAR and other.chain == chain_turn.chain:
        return CHAIN_VS_OWN_NEAR
    return CHAIN_VS_OTHER


def may_retire(older: ChatWrite, newer: ChatWrite) -> bool:
    """Whether ``newer`` may retire ``older``: a later version of the same chain's fact, or a
    restatement of it."""
    if older.owner != newer.owner:
        return False
    cls = pair_class(older, newer)
    if cls == REAL_UPDATE:
        return older.step < newer.step
    return cls == RESTATEMENT


# -- the project's own chat histories ------------------------------------------------------------


def own_chat_store(
    *,
    users: int = DEFAULT_USERS,
    seed: int = HISTORY_SEED,
    min_gap: int = MIN_GAP,
    max_gap: int = MAX_GAP,
    chains_per_user: int | None = None,
    others_per_user: int | None = None,
) -> ChatStore:
    """``users`` users, user ``k`` the history of ``seed + k`` (about 2,230 turns each: 80 chains
    updated in other words, 36 restated in the same words with a new value, 96 near turns,
    about 1,900 distractors), interleaved into one writing order.

    ``chains_per_user`` / ``others_per_user`` keep only the first chains of each history (and the
    near turns of those) and the first other turns in its order: a small store for tests."""
    if users < 1:
        raise ValueError("a chat store needs at least one user")
    streams = [
        _user_stream(seed + number, f"chat-user-{number + 1}", (min_gap, max_gap), chains_per_user, others_per_user)
        for number in range(users)
    ]
    return _interleaved(
        f"own chat histories ({users} user{'s' if users > 1 else ''})",
        f"evaluation.chat_histories and chat_restated, seeds {seed}..{seed + users - 1}",
        streams,
    )


@dataclass(frozen=True)
class _Turn:
    owner: str
    content: str
    role: str
    chain: str | None = None
    step: int = 0


def _user_stream(
    seed: int, owner: str, gaps: tuple[int, int], chains_kept: int | None, others_kept: int | None
) -> list[_Turn]:
    """One user's turns in writing order: the distractors as the history shuffled them, each
    chain's predecessor at a random place and its update ``gaps[0]`` to ``gaps[1]`` turns later."""
    history = chat_history(seed)
    chains = history.chains[:chains_kept] if chains_kept is not None else history.chains
    if chains_kept is None:
        # The second kind of chat update: the fact restated in its own words with a new value
        # (evaluation.chat_restated), after the histories' updates in other words.
        chains = (*chains, *restated_chains(seed))
    predecessors = {chain.predecessor for chain in history.chains}
    texts_seen: set[str] = set()
    for chain in chains:
        texts_seen.update((normalized(chain.predecessor), normalized(chain.update)))
    others: list[_Turn] = []
    for text in history.haystack:
        key = normalized(text)
        chain_index = history.near.get(text)
        # A turn that normalises like an earlier one would be absorbed (SPEC R-D1), not stored.
        if text in predecessors or key in texts_seen or (chain_index is not None and chain_index >= len(chains)):
            continue
        texts_seen.add(key)
        if chain_index is None:
            others.append(_Turn(owner, text, DISTRACTOR))
        else:
            others.append(_Turn(owner, text, NEAR, _chain_id(owner, chain_index)))
    if others_kept is not None:
        others = others[:others_kept]
    # A small store (tests) keeps the gaps within its length: up to half of it.
    max_gap = max(1, min(gaps[1], len(others) // 2))
    min_gap = min(gaps[0], max_gap)
    rng = random.Random(f"chat-store:{seed}")
    keyed: list[tuple[tuple[int, int, int], _Turn]] = [((place, 0, 0), turn) for place, turn in enumerate(others)]
    for index, chain in enumerate(chains):
        gap = rng.randint(min_gap, max_gap)
        start = rng.randrange(0, max(1, len(others) - gap))
        chain_id = _chain_id(owner, index)
        keyed.append(((start, 1, index), _Turn(owner, chain.predecessor, CHAIN_TURN, chain_id, 0)))
        keyed.append(((start + gap, 2, index), _Turn(owner, chain.update, CHAIN_TURN, chain_id, 1)))
    keyed.sort(key=lambda item: item[0])
    return [turn for _key, turn in keyed]


def _chain_id(owner: str, index: int) -> str:
    return f"{owner}/chain-{index + 1:02d}"


def _interleaved(name: str, source: str, streams: list[list[_Turn]]) -> ChatStore:
    """The streams merged as writers progressing at the same pace: each stream's ``i``-th turn at
    the fraction ``(i + 0.5) / len`` of the run, ties in stream order."""
    keyed = sorted(
        ((position + 0.5) / len(stream), number, position)
        for number, stream in enumerate(streams)
        for position in range(len(stream))
    )
    writes: list[ChatWrite] = []
    for index, (_fraction, number, position) in enumerate(keyed):
        turn = streams[number][position]
        writes.append(ChatWrite(index, turn.owner, turn.content, turn.role, turn.chain, turn.step))
    return ChatStore(name, source, tuple(writes), _update_pairs(writes))


def _update_pairs(writes: list[ChatWrite]) -> tuple[tuple[int, int], ...]:
    """Each chain's (last earlier version, latest version) — the pair its update names."""
    versions: dict[str, list[ChatWrite]] = {}
    for write in writes:
        if write.role == CHAIN_TURN and write.chain is not None:
            versions.setdefault(write.chain, []).append(write)
    pairs = []
    for turns in versions.values():
        ordered = sorted(turns, key=lambda write: write.step)
        if len(ordered) >= 2:
            pairs.append((ordered[-2].index, ordered[-1].index))
    return tuple(sorted(pairs, key=lambda pair: pair[1]))


# -- LongMemEval (external: run it, never tune on it) --------------------------------------------


def longmemeval_store(path: Path, *, seed: int = LONGMEMEVAL_SEED) -> ChatStore:
    """LongMemEval's knowledge-update chains among their distractors, all one user's, each text
    once. Question by question in the file's order, each question's distractors in the file's
    order with its evidence interleaved: the block cut into as many equal parts as the chain has
    versions, version ``j`` at a random place in part ``j`` (so ``old`` comes before ``new``,
    oldest first, a few to a few dozen writes apart). The file's order is kept because the hygiene
    pipeline judges a pair by which of the two came first."""
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    rng = random.Random(seed)
    placed: list[_Turn] = []
    texts_seen: set[str] = set()
    chain_of_evidence: dict[tuple[str, ...], str] = {}
    for row in rows:
        evidence = (*row["old"], row["new"])
        # Questions asked of the same evidence (the initial and the current value) are one chain.
        chain = chain_of_evidence.setdefault(evidence, row["qid"])
        block = [_Turn(LONGMEMEVAL_USER, text, DISTRACTOR) for text in row["distractors"]]
        if chain == row["qid"]:
            length = len(block) + len(evidence)
            bounds = [round(part * length / len(evidence)) for part in range(len(evidence) + 1)]
            places = [rng.randrange(bounds[step], bounds[step + 1]) for step in range(len(evidence))]
            for step, (text, at) in enumerate(zip(evidence, places, strict=True)):
                block.insert(at, _Turn(LONGMEMEVAL_USER, text, CHAIN_TURN, chain, step))
        for turn in block:
            key = normalized(turn.content)
            if key not in texts_seen:
                texts_seen.add(key)
                placed.append(turn)
    writes = [
        ChatWrite(index, turn.owner, turn.content, turn.role, turn.chain, turn.step)
        for index, turn in enumerate(placed)
    ]
    return ChatStore(
        "LongMemEval knowledge updates (external)",
        f"{path.parent.name}/{path.name} in the file's order, evidence placed with seed {seed}",
        tuple(writes),
        _update_pairs(writes),
    )
