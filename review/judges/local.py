"""The default judge: a small calibrated model the project trains itself.

A multinomial logistic regression over review.judges.features (the ``aligned`` set: embedding
similarity, lexical overlap and the word-by-word alignment of the pair), trained on every
labelled source in review/judges/data/ by ``manage.py train_judge``, with its temperature fitted
on out-of-source answers so that ``confidence`` means what it says on text it never saw. Runs on
the CPU in microseconds once the statements are embedded; needs no network and no model
download. The weights ship in local_judge.json beside this file. The server never asks it
alone: review.judges.guard reads the pair's structure first (SPEC R-H7, R-H8). Where that
structure is plain — the same subject and attribute, a new value with an update cue, or the same
value restated — the judge rules by it (guard.structural_resolution) with the confidence that
ruling earned on held-out sources; the model answers the rest.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from review.judges.base import Pair, Verdict
from review.judges.features import FEATURE_FUNCTIONS, FEATURE_SETS
from review.judges.guard import structural_resolution
from review.judges.structure import analyse

WEIGHTS_FILE = Path(__file__).with_name("local_judge.json")
RELATIONS = ["duplicate", "supersedes", "complementary", "contradicts", "unrelated"]


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max(axis=-1, keepdims=True)
    exp = np.exp(shifted)
    return np.asarray(exp / exp.sum(axis=-1, keepdims=True))


class LocalJudge:
    name = "local"

    def __init__(self, weights: dict[str, Any] | None = None) -> None:
        if weights is None:
            weights = json.loads(WEIGHTS_FILE.read_text())
        self.feature_set = weights.get("feature_set", "lexical")
        self.feature_names = FEATURE_SETS.get(self.feature_set, [])
        if weights["features"] != self.feature_names or weights["relations"] != RELATIONS:
            raise ValueError("local_judge.json was trained on other features; run manage.py train_judge")
        self.features = FEATURE_FUNCTIONS[self.feature_set]
        self.mean = np.asarray(weights["mean"])
        self.scale = np.asarray(weights["scale"])
        self.coef = np.asarray(weights["coef"])
        self.intercept = np.asarray(weights["intercept"])
        self.temperature = float(weights["temperature"])
        self.name = f"local/{weights.get('version', 'unversioned')}"

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        standardized = (features - self.mean) / self.scale
        return softmax((standardized @ self.coef.T + self.intercept) / self.temperature)

    def judge(self, pair: Pair) -> Verdict:
        ruled = structural_resolution(analyse(pair.a, pair.b, pair.kind_a, pair.kind_b))
        if ruled is not None:
            return ruled
        embedding_a, embedding_b = pair.embedding_a, pair.embedding_b
        if embedding_a is None or embedding_b is None:
            from memories.embeddings import get_embedder

            embedding_a, embedding_b = get_embedder().embed([pair.a, pair.b])
        features = self.features(pair.a, pair.b, embedding_a, embedding_b, pair.kind_a, pair.kind_b)
        probabilities = self.probabilities(features)
        best = int(np.argmax(probabilities))
        return Verdict(
            relation=RELATIONS[best],
            confidence=round(float(probabilities[best]), 4),
            rationale=self._rationale(features, best, probabilities),
        )

    def _rationale(self, features: np.ndarray, best: int, probabilities: np.ndarray) -> str:
        standardized = (features - self.mean) / self.scale
        contributions = standardized * self.coef[best]
        top = np.argsort(contributions)[::-1][:3]
        reasons = ", ".join(f"{self.feature_names[i]}={features[i]:.2f}" for i in top if contributions[i] > 0)
        runner_up = int(np.argsort(probabilities)[-2])
        return (
            f"{RELATIONS[best]} ({probabilities[best]:.0%}) over {RELATIONS[runner_up]} "
            f"({probabilities[runner_up]:.0%}); strongest signals: {reasons or 'none'}."
        )
