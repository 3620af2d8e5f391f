"""The score: one definition of how much a memory resembles a text, in Python and as SQL.

    score = similarity + weight · lexical + DISTINCT_WEIGHT · distinct

(memories.search's docstring says what each side is.) ``score`` computes it and ``score_sql``
renders the same formula, with the same constants, as an SQL expression: the ranking's
statement, recall, and the hygiene sweep all go through these two, so the formula and its
weights live here alone.
"""

from __future__ import annotations

# How much the lexical side counts (./zm eval's update chains, tuned on the project's own sets):
# for a statement against statements, a little — on short notes the embedding is sharp, and on
# long chat turns rare words led to look-alike turns as often as to the predecessor — and for a
# question against statements more: questions name the rare words of the fact they ask about.
TEXT_WEIGHT = 0.1
QUESTION_TEXT_WEIGHT = 0.25
# The vector side's list: long enough that its last similarity bounds every row left out.
FIRST_K = 30
# The sentence side: how many nearest memories of each query vector it weighs, and how much a
# memory standing above the mean of those counts (./zm eval's update chains, own sets).
DISTINCT_TOP = 3
DISTINCT_WEIGHT = 20.0


def score(*, similarity: float, lexical: float, distinct: float, weight: float) -> float:
    """A memory's score from its three sides (``similarity``: 1 - the cosine distance) and the
    lexical side's ``weight`` for this text (``weight_for``)."""
    return similarity + weight * lexical + DISTINCT_WEIGHT * distinct


def score_sql(*, similarity: str, lexical: str, distinct: str) -> str:
    """``score`` as an SQL expression over the given SQL expressions of its sides, with one
    parameter (%s): the lexical side's weight, which differs by text. The constant weights are
    written in from this module (a float8 literal of Python's own repr, the same double), so a
    change of them here changes the SQL too."""
    return f"{similarity} + %s * {lexical} + {float(DISTINCT_WEIGHT)!r}::float8 * {distinct}"


# When the first entry of a write's similar_existing is plausibly the fact the write updates, so
# the hint names it (SPEC R-N4; the list itself has no floor): the vectors alone say it is nearly
# the same statement, or it is still near and its score shows it standing well above the other
# nearest memories (the sentence side: at DISTINCT_WEIGHT 20 and a similarity of 0.5 to 0.7, a
# score of 3.5 is about 0.14 above the mean of the nearest three). In a store of one or two
# memories there is little to stand out from; the distance test still names a near restatement.
# Measured by bench/hint.py on hand-labelled short agent notes (bench/data/hint_pairs.jsonl: 180
# stored facts, 180 rewrites of them, 220 writes that replace nothing, most of them look-alikes of
# the same subject or the same attribute), chosen on one half and checked on the other, held-out
# half: in the labelled store alone, 87% of rewrites named (all rightly) and 18% of unrelated
# writes; among 2,000 generated notes, 81% (99% rightly) and 14%; no new-topic write named.
# Distance alone names fewer rewrites for as many unrelated writes (0.35: 77%, 15-18%); a higher
# score bar names fewer of both (4.0: 84% and 79%, 15% and 11%), a lower one more (3.0: 90% and
# 83%, 23% and 16%).
LIKELY_PREDECESSOR_DISTANCE = 0.30
LIKELY_PREDECESSOR_FAR_DISTANCE = 0.50
LIKELY_PREDECESSOR_SCORE = 3.5


def likely_predecessor(*, distance: float, score: float) -> bool:
    """Whether a similar_existing entry this near, scoring this, is plausibly an older version
    of what was just written."""
    return distance <= LIKELY_PREDECESSOR_DISTANCE or (
        distance <= LIKELY_PREDECESSOR_FAR_DISTANCE and score >= LIKELY_PREDECESSOR_SCORE
    )
