"""Features of a statement pair for the local judge: embedding similarity, lexical overlap,
and the cues that separate an update from a distinguishable neighbour (which values
changed, whether the changed words name another entity, temporal and negation words)."""

from __future__ import annotations

import re

import numpy as np

from memories.text import normalize_for_dedup

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


def pair_features(
    a: str, b: str, embedding_a: list[float], embedding_b: list[float], kind_a: str = "fact", kind_b: str = "fact"
) -> np.ndarray:
    ta, tb = tokens(a), tokens(b)
    sa, sb = set(ta), set(tb)
    cosine = float(np.dot(np.asarray(embedding_a), np.asarray(embedding_b)))
    jaccard = len(sa & sb) / max(1, len(sa | sb))
    na, nb = {t for t in sa if _is_number(t)}, {t for t in sb if _is_number(t)}
    only_a = [t for t in sa - sb if t not in STOPWORDS and t not in TEMPORAL_CUES]
    only_b = [t for t in sb - sa if t not in STOPWORDS and t not in TEMPORAL_CUES]
    changed = only_a + only_b
    words_a = [t for t in only_a if not _is_number(t)]
    words_b = [t for t in only_b if not _is_number(t)]
    content_a = [t for t in ta if t not in STOPWORDS][:3]
    content_b = [t for t in tb if t not in STOPWORDS][:3]
    numbers_differ = float(bool(na) and bool(nb) and na != nb)
    diff_words = min(len(words_a), len(words_b)) / 4.0
    features = [
        cosine,
        jaccard,
        float(normalize_for_dedup(a) == normalize_for_dedup(b)),
        float(bool(na) and bool(nb)),
        numbers_differ,
        float(bool(na) and na == nb),
        float(bool(sb & TEMPORAL_CUES)),
        float(bool(sa & TEMPORAL_CUES)),
        float(bool(sa & NEGATIONS) != bool(sb & NEGATIONS)),
        float(bool(sb & CONTRADICTION_CUES)),
        min(len(ta), len(tb)) / max(1, len(ta), len(tb)),
        min(len(words_a), 6) / 6.0,
        min(len(words_b), 6) / 6.0,
        (sum(_is_number(t) for t in changed) / len(changed)) if changed else 0.0,
        len(set(content_a) & set(content_b)) / 3.0,
        float(kind_a == kind_b),
        cosine * numbers_differ,
        cosine * diff_words,
        cosine * cosine,
    ]
    return np.asarray(features, dtype=np.float64)
