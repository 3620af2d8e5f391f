"""The default judge: a small calibrated model the project trains itself.

A multinomial logistic regression over review.judges.features (the ``aligned`` set: embedding
similarity, lexical overlap and the word-by-word alignment of the pair), trained on every
labelled source in evaluation/data/ by ``./zm train``, with its temperature fitted
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
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from review.judges import cross_encoder
from review.judges.base import Pair, Verdict
from review.judges.cross_encoder import CrossEncoder, pair_texts
from review.judges.features import FEATURE_FUNCTIONS, FEATURE_SETS
from review.judges.guard import structural_resolution
from review.judges.structure import NEGATED, UNCERTAIN, Structure, analyse

WEIGHTS_FILE = Path(__file__).with_name("local_judge.json")
RELATIONS = ["duplicate", "supersedes", "complementary", "contradicts", "unrelated"]


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max(axis=-1, keepdims=True)
    exp = np.exp(shifted)
    return np.asarray(exp / exp.sum(axis=-1, keepdims=True))


def cross_checked(
    structure: Structure, relation: str, probability: float, rule: dict[str, Any] | None
) -> Verdict | None:
    """The cross-checked supersede: the cross-encoder reads ``supersedes`` with at least the
    rule's probability, and the structure shows one plausible slot, update evidence and a new
    value. Its confidence is the rule's measured precision out of source (``./zm train``)."""
    if (
        rule
        and relation == "supersedes"
        and probability >= float(rule["min_probability"])
        and structure.plausible_slot
        and structure.evidence
        and (structure.value in ("changed", NEGATED, UNCERTAIN) or structure.loop_outcome)
    ):
        return Verdict(
            "supersedes",
            float(rule["precision"]),
            f"the structure shows one slot reworded with update evidence ({structure.detail}): cross-checked.",
            checked=True,
        )
    return None


class LocalJudge:
    name = "local"

    def __init__(self, weights: dict[str, Any] | None = None, *, use_cross_encoder: bool = True) -> None:
        if weights is None:
            weights = json.loads(WEIGHTS_FILE.read_text())
        self.feature_set = weights.get("feature_set", "lexical")
        self.feature_names = FEATURE_SETS.get(self.feature_set, [])
        if weights["features"] != self.feature_names or weights["relations"] != RELATIONS:
            raise ValueError("local_judge.json was trained on other features; run ./zm train")
        self.features = FEATURE_FUNCTIONS[self.feature_set]
        self.mean = np.asarray(weights["mean"])
        self.scale = np.asarray(weights["scale"])
        self.coef = np.asarray(weights["coef"])
        self.intercept = np.asarray(weights["intercept"])
        self.temperature = float(weights["temperature"])
        self.name = f"local/{weights.get('version', 'unversioned')}"
        # A cross-encoder, where one is installed (./zm train --cross-encoder writes it; none
        # ships: see docs/hygiene.md), answers what the structure leaves open; otherwise the
        # linear model does.
        self.reader: CrossEncoder | None = None
        if use_cross_encoder and cross_encoder.available():
            self.reader = cross_encoder.shipped()
            self.name = f"local/{self.reader.meta.get('version', 'unversioned')}"

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        standardized = (features - self.mean) / self.scale
        return softmax((standardized @ self.coef.T + self.intercept) / self.temperature)

    def judge(self, pair: Pair) -> Verdict:
        structure = analyse(pair.a, pair.b, pair.kind_a, pair.kind_b)
        ruled = structural_resolution(structure)
        if ruled is not None:
            return ruled
        if self.reader is not None:
            return self._read(pair, structure)
        embedding_a, embedding_b = pair.embedding_a, pair.embedding_b
        if embedding_a is None or embedding_b is None:
            from memories.embedding import get_embedder

            embedding_a, embedding_b = get_embedder().embed([pair.a, pair.b])
        features = self.features(pair.a, pair.b, embedding_a, embedding_b, pair.kind_a, pair.kind_b)
        probabilities = self.probabilities(features)
        best = int(np.argmax(probabilities))
        return Verdict(
            relation=RELATIONS[best],
            confidence=round(float(probabilities[best]), 4),
            rationale=self._rationale(features, best, probabilities),
        )

    def _read(self, pair: Pair, structure: Structure) -> Verdict:
        """The cross-encoder's reading; a supersede it reads, on a slot the structure finds
        plausible with update evidence and a new value, is the cross-checked ruling."""
        if self.reader is None:
            raise RuntimeError("the cross-encoder's weights are not loaded")
        probabilities = self.reader.probabilities([pair_texts(pair.a, pair.b, pair.kind_a, pair.kind_b)])[0]
        best = int(np.argmax(probabilities))
        relation, confidence = RELATIONS[best], float(probabilities[best])
        runner_up = int(np.argsort(probabilities)[-2])
        read = f"{relation} ({confidence:.0%}) over {RELATIONS[runner_up]} ({probabilities[runner_up]:.0%})"
        checked = cross_checked(structure, relation, confidence, self.reader.meta.get("checked_supersede"))
        if checked is not None:
            return replace(checked, rationale=f"The model reads {read}; {checked.rationale}")
        return Verdict(relation=relation, confidence=round(confidence, 4), rationale=f"The model reads {read}.")

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
