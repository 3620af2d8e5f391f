"""Training, calibration and evaluation of the local judge (``manage.py train_judge``)."""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from review.judges.features import FEATURE_NAMES, pair_features
from review.judges.local import RELATIONS, softmax

DATA_FILE = Path(__file__).with_name("data") / "pairs.jsonl"
RETIRING = {"duplicate", "supersedes"}


@dataclass
class Example:
    id: str
    a: str
    b: str
    relation: str
    kind_a: str
    kind_b: str
    split: str


def load_examples(path: Path = DATA_FILE) -> list[Example]:
    examples = []
    for line in path.read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            examples.append(
                Example(
                    id=row["id"],
                    a=row["a"],
                    b=row["b"],
                    relation=row["relation"],
                    kind_a=row.get("kind_a", "fact"),
                    kind_b=row.get("kind_b", "fact"),
                    split=row["split"],
                )
            )
    return examples


def featurize(examples: Sequence[Example], embed: Callable[[list[str]], list[list[float]]]) -> np.ndarray:
    texts = sorted({text for e in examples for text in (e.a, e.b)})
    vectors = dict(zip(texts, embed(texts), strict=True))
    return np.vstack([pair_features(e.a, e.b, vectors[e.a], vectors[e.b], e.kind_a, e.kind_b) for e in examples])


def _fit(
    x: np.ndarray, y: np.ndarray, l2: float = 1e-3, steps: int = 4000, rate: float = 0.5
) -> tuple[np.ndarray, np.ndarray]:
    classes = len(RELATIONS)
    coef = np.zeros((classes, x.shape[1]))
    intercept = np.zeros(classes)
    onehot = np.eye(classes)[y]
    for _ in range(steps):
        probabilities = softmax(x @ coef.T + intercept)
        error = (probabilities - onehot) / len(x)
        coef -= rate * (error.T @ x + l2 * coef)
        intercept -= rate * error.sum(axis=0)
    return coef, intercept


def _nll(logits: np.ndarray, y: np.ndarray, temperature: float) -> float:
    probabilities = softmax(logits / temperature)
    return float(-np.mean(np.log(probabilities[np.arange(len(y)), y] + 1e-12)))


def _holdout(example_id: str) -> bool:
    """A stable fifth of the training pairs calibrates the temperature."""
    return int(hashlib.sha256(example_id.encode()).hexdigest(), 16) % 5 == 0


def train(examples: Sequence[Example], features: np.ndarray) -> dict[str, Any]:
    labels = np.array([RELATIONS.index(e.relation) for e in examples])
    train_rows = [i for i, e in enumerate(examples) if e.split == "train" and not _holdout(e.id)]
    calibration_rows = [i for i, e in enumerate(examples) if e.split == "train" and _holdout(e.id)]
    mean = features[train_rows].mean(axis=0)
    scale = features[train_rows].std(axis=0) + 1e-6
    standardized = (features - mean) / scale
    coef, intercept = _fit(standardized[train_rows], labels[train_rows])
    calibration_logits = standardized[calibration_rows] @ coef.T + intercept
    grid = np.round(np.arange(0.3, 5.01, 0.05), 2)
    temperature = float(min(grid, key=lambda t: _nll(calibration_logits, labels[calibration_rows], float(t))))
    digest = hashlib.sha256(json.dumps([coef.tolist(), intercept.tolist()]).encode()).hexdigest()[:10]
    return {
        "version": digest,
        "features": FEATURE_NAMES,
        "relations": RELATIONS,
        "mean": mean.tolist(),
        "scale": scale.tolist(),
        "coef": coef.tolist(),
        "intercept": intercept.tolist(),
        "temperature": temperature,
        "trained_on": len(train_rows),
        "calibrated_on": len(calibration_rows),
    }


def evaluate(examples: Sequence[Example], probabilities: np.ndarray, threshold: float) -> dict[str, Any]:
    """Held-out metrics: per-relation precision/recall, and what auto-resolution would do."""
    truth = [e.relation for e in examples]
    predicted = [RELATIONS[i] for i in probabilities.argmax(axis=1)]
    confidence = probabilities.max(axis=1)
    per_relation = {}
    for relation in RELATIONS:
        tp = sum(p == relation and t == relation for p, t in zip(predicted, truth, strict=True))
        predicted_count = predicted.count(relation)
        actual_count = truth.count(relation)
        per_relation[relation] = {
            "precision": tp / predicted_count if predicted_count else 0.0,
            "recall": tp / actual_count if actual_count else 0.0,
            "support": actual_count,
        }
    auto = [i for i in range(len(examples)) if predicted[i] in RETIRING and confidence[i] >= threshold]
    wrongly_retired = [examples[i].id for i in auto if truth[i] not in RETIRING]
    bins = np.linspace(0, 1, 11)
    calibration_error = 0.0
    for low, high in itertools.pairwise(bins):
        members = [i for i in range(len(examples)) if low < confidence[i] <= high]
        if members:
            accuracy = np.mean([predicted[i] == truth[i] for i in members])
            calibration_error += len(members) / len(examples) * abs(accuracy - np.mean(confidence[members]))
    return {
        "pairs": len(examples),
        "accuracy": float(np.mean([p == t for p, t in zip(predicted, truth, strict=True)])),
        "per_relation": per_relation,
        "threshold": threshold,
        "auto_resolved_share": len(auto) / len(examples),
        "auto_resolved_correct": sum(truth[i] in RETIRING for i in auto),
        "complementary_wrongly_retired": sum(truth[i] == "complementary" for i in auto),
        "wrongly_retired_ids": wrongly_retired,
        "expected_calibration_error": float(calibration_error),
    }
