"""Features of a statement pair for the local judge.

Two sets. ``lexical`` is the first model's: embedding similarity, lexical overlap and cue words
(kept as the baseline ``./zm eval`` compares against). ``aligned`` adds what the
word-by-word alignment of review.judges.structure reads: whether the subject, the attribute and
the value are the same, how many words changed on each side of the predicate, the update cue and
the loop outcome in the newer statement, a denial — the token-alignment features the lexical set
lacked, which is why it learned its own templates instead of the rules."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from memories.text import normalize_for_dedup
from review.judges import structure as st

_TOKEN = re.compile(r"[a-z0-9]+(?:[.:/-][a-z0-9]+)*")
_NUMBER = re.compile(r"^\d+(?:[.:/-]\d+)*[a-z]*$|^v\d")
TEMPORAL_CUES = frozenset(
    [
        "now",
        "moved",
        "no",
        "longer",
        "changed",
        "change",
        "instead",
        "switched",
        "replaced",
        "replace",
        "updated",
        "update",
        "anymore",
        "from",
        "going",
        "forward",
        "henceforth",
        "previously",
        "was",
        "were",
        "new",
        "renamed",
        "migrated",
        "postponed",
        "rescheduled",
        "delayed",
        "bumped",
        "raised",
        "lowered",
        "increased",
        "decreased",
        "starting",
        "effective",
        "since",
    ]
)
CONTRADICTION_CUES = frozenset(
    ["actually", "wrong", "incorrect", "not", "contrary", "mistaken", "false", "disagree", "despite", "but"]
)
NEGATIONS = frozenset(
    [
        "not",
        "no",
        "never",
        "none",
        "nobody",
        "nothing",
        "neither",
        "nor",
        "without",
        "cannot",
        "don't",
        "doesn't",
        "isn't",
        "aren't",
        "won't",
    ]
)
STOPWORDS = frozenset(
    [
        "the",
        "a",
        "an",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "to",
        "of",
        "in",
        "on",
        "at",
        "for",
        "and",
        "or",
        "with",
        "by",
        "from",
        "as",
        "it",
        "its",
        "this",
        "that",
        "our",
        "we",
        "i",
        "you",
        "they",
        "he",
        "she",
        "their",
        "his",
        "her",
        "my",
        "your",
        "us",
        "will",
        "should",
        "would",
        "can",
        "could",
        "has",
        "have",
        "had",
        "do",
        "does",
        "did",
    ]
)
FEATURE_NAMES = [
    "cosine",
    "jaccard",
    "same_normalized",
    "numbers_both",
    "numbers_differ",
    "numbers_same",
    "cue_b",
    "cue_a",
    "negation_mismatch",
    "contradiction_cue_b",
    "length_ratio",
    "diff_words_a",
    "diff_words_b",
    "diff_numeric_share",
    "subject_overlap",
    "kinds_equal",
    "cosine_x_numbers_differ",
    "cosine_x_diff_words",
    "cosine_sq",
]


def tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower().replace("\u2019", "'"))


def _is_number(token: str) -> bool:
    return bool(_NUMBER.match(token))


@dataclass(frozen=True)
class TextProfile:
    """What pair_features needs of one statement, computed once per text (see ``profile``)."""

    token_count: int
    words: frozenset[str]
    numbers: frozenset[str]
    # Words that may count as changed between two statements (no stopword, no temporal cue).
    distinctive: frozenset[str]
    leading_content: frozenset[str]  # the first three non-stopword tokens
    normalized: str
    temporal_cue: bool
    negation: bool
    contradiction_cue: bool


@lru_cache(maxsize=65536)
def profile(text: str) -> TextProfile:
    """The statement's profile; cached, since a sweep compares each statement with several."""
    toks = tokens(text)
    words = frozenset(toks)
    return TextProfile(
        token_count=len(toks),
        words=words,
        numbers=frozenset(t for t in words if _is_number(t)),
        distinctive=frozenset(t for t in words if t not in STOPWORDS and t not in TEMPORAL_CUES),
        leading_content=frozenset([t for t in toks if t not in STOPWORDS][:3]),
        normalized=normalize_for_dedup(text),
        temporal_cue=bool(words & TEMPORAL_CUES),
        negation=bool(words & NEGATIONS),
        contradiction_cue=bool(words & CONTRADICTION_CUES),
    )


def pair_features(
    a: str, b: str, embedding_a: list[float], embedding_b: list[float], kind_a: str = "fact", kind_b: str = "fact"
) -> np.ndarray:
    pa, pb = profile(a), profile(b)
    sa, sb = pa.words, pb.words
    na, nb = pa.numbers, pb.numbers
    cosine = float(np.dot(np.asarray(embedding_a), np.asarray(embedding_b)))
    jaccard = len(sa & sb) / max(1, len(sa | sb))
    only_a = pa.distinctive - sb
    only_b = pb.distinctive - sa
    changed_numbers = len(only_a & na) + len(only_b & nb)
    changed = len(only_a) + len(only_b)
    words_a = len(only_a) - len(only_a & na)
    words_b = len(only_b) - len(only_b & nb)
    numbers_differ = float(bool(na) and bool(nb) and na != nb)
    diff_words = min(words_a, words_b) / 4.0
    features = [
        cosine,
        jaccard,
        float(pa.normalized == pb.normalized),
        float(bool(na) and bool(nb)),
        numbers_differ,
        float(bool(na) and na == nb),
        float(pb.temporal_cue),
        float(pa.temporal_cue),
        float(pa.negation != pb.negation),
        float(pb.contradiction_cue),
        min(pa.token_count, pb.token_count) / max(1, pa.token_count, pb.token_count),
        min(words_a, 6) / 6.0,
        min(words_b, 6) / 6.0,
        (changed_numbers / changed) if changed else 0.0,
        len(pa.leading_content & pb.leading_content) / 3.0,
        float(kind_a == kind_b),
        cosine * numbers_differ,
        cosine * diff_words,
        cosine * cosine,
    ]
    return np.asarray(features, dtype=np.float64)


_SUBJECTS = (st.SAME, st.DIFFERENT, st.UNCERTAIN, st.UNRELATED)
_ATTRIBUTES = (st.SAME, st.DIFFERENT, st.UNCERTAIN)
_VALUES = (st.SAME, "changed", "added", "removed", st.NEGATED, st.UNCERTAIN)
ALIGNED_FEATURE_NAMES = [
    *(name for name in FEATURE_NAMES if name not in ("cue_a", "cue_b")),
    *(f"subject_{v}" for v in _SUBJECTS),
    *(f"attribute_{v}" for v in _ATTRIBUTES),
    *(f"value_{v}" for v in _VALUES),
    "update_cue",
    "loop_outcome",
    "loop_older",
    "negation_flip",
    "content_overlap",
    "subject_changes",
    "subject_insertions",
    "value_changes",
    "value_insertions",
    "names_changed",
    "cue_x_value_changed",
    "cue_x_value_same",
]
FEATURE_SETS = {"lexical": FEATURE_NAMES, "aligned": ALIGNED_FEATURE_NAMES}
_KEPT = [i for i, name in enumerate(FEATURE_NAMES) if name not in ("cue_a", "cue_b")]


def aligned_features(
    a: str, b: str, embedding_a: list[float], embedding_b: list[float], kind_a: str = "fact", kind_b: str = "fact"
) -> np.ndarray:
    lexical = pair_features(a, b, embedding_a, embedding_b, kind_a, kind_b)[_KEPT]
    s = st.analyse(a, b, kind_a, kind_b)
    changed = s.value in ("changed", st.NEGATED)
    extra = [
        *(float(s.subject == v) for v in _SUBJECTS),
        *(float(s.attribute == v) for v in _ATTRIBUTES),
        *(float(s.value == v) for v in _VALUES),
        float(s.update_cue),
        float(s.loop_outcome),
        float(s.loop_older),
        float(s.negation_flip),
        s.overlap,
        min(s.subject_changes, 4) / 4.0,
        min(s.subject_insertions, 4) / 4.0,
        min(s.value_changes, 4) / 4.0,
        min(s.value_insertions, 4) / 4.0,
        min(s.names_changed, 4) / 4.0,
        float(s.update_cue and changed),
        float(s.update_cue and s.value == st.SAME),
    ]
    return np.concatenate([lexical, np.asarray(extra, dtype=np.float64)])


FEATURE_FUNCTIONS = {"lexical": pair_features, "aligned": aligned_features}
