"""Training, calibration and evaluation of the local judge (``./zm train``).

The labelled pairs come from several **sources** (evaluation/data/*.jsonl, each written by its
own generator and author; LABELS.md is their common guide). A judge that only learned one
author's sentence templates looks good on pairs held out from the same templates and fails on
anyone else's, so every figure here is **out of source**: for each source, the model is trained
on all the others and scored on it. The temperature is fitted on those out-of-source answers,
so its confidence is calibrated for text it has not seen; the shipped model is then trained on
every source with that temperature.

Every prediction is scored as the server makes it: the structure guard (review.judges.guard)
first, the model only where the structure leaves the pair open, and auto-resolution only when
the guard allows it.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from review.judges.base import Verdict
from review.judges.features import FEATURE_FUNCTIONS, FEATURE_SETS
from review.judges.guard import reconcile, structural_resolution, structural_verdict
from review.judges.local import RELATIONS, softmax
from review.judges.structure import analyse

DATA_DIR = Path(__file__).with_name("data")
# The first model's pairs (data/legacy/) were labelled before R-H8 (a value change without a cue
# was a supersede there), so they are no training source: only *.jsonl directly in data/ are.
RETIRING = {"duplicate", "supersedes"}
DEFAULT_FEATURE_SET = "aligned"


@dataclass
class Example:
    id: str
    a: str
    b: str
    relation: str
    kind_a: str
    kind_b: str
    source: str
    frame: str = ""


def data_files() -> list[Path]:
    return sorted(DATA_DIR.glob("*.jsonl"))


def load_examples(paths: Sequence[Path] | None = None) -> list[Example]:
    examples = []
    for path in paths if paths is not None else data_files():
        for line in path.read_text().splitlines():
            if not line.strip():
                continue
            row = json.loads(line)
            examples.append(
                Example(
                    id=row["id"],
                    a=row["a"],
                    b=row["b"],
                    relation=row["relation"],
                    kind_a=row.get("kind_a", "fact"),
                    kind_b=row.get("kind_b", "fact"),
                    source=row.get("source", path.stem),
                    frame=row.get("frame", ""),
                )
            )
    return examples


Embed = Callable[[list[str]], list[list[float]]]


def embedding_cache() -> Path:
    from django.conf import settings

    return Path(settings.DATA_DIR) / "judge-embeddings.json"


def embedding_model_name() -> str:
    from memories.embedding import get_embedder

    embedder = get_embedder()
    return str(getattr(embedder, "name", type(embedder).__name__))


def embed_texts(
    examples: Sequence[Example], embed: Embed, cache: Path | None = None, model: str = ""
) -> dict[str, list[float]]:
    """Every statement's embedding; with ``cache``, kept in that file (keyed by ``model`` and the
    text) so a re-run embeds only what is new."""
    texts = sorted({text for e in examples for text in (e.a, e.b)})
    known: dict[str, list[float]] = {}
    if cache is not None and cache.exists():
        stored = json.loads(cache.read_text())
        if stored.get("model") == model:
            known = stored["vectors"]
    keys = {text: hashlib.sha256(text.encode()).hexdigest()[:24] for text in texts}
    missing = [text for text in texts if keys[text] not in known]
    for start in range(0, len(missing), 256):
        chunk = missing[start : start + 256]
        for text, vector in zip(chunk, embed(chunk), strict=True):
            known[keys[text]] = [round(float(x), 7) for x in vector]
    if cache is not None and missing:
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_text(json.dumps({"model": model, "vectors": known}))
    return {text: known[keys[text]] for text in texts}


def featurize(examples: Sequence[Example], vectors: dict[str, list[float]], feature_set: str) -> np.ndarray:
    function = FEATURE_FUNCTIONS[feature_set]
    return np.vstack([function(e.a, e.b, vectors[e.a], vectors[e.b], e.kind_a, e.kind_b) for e in examples])


def labels_of(examples: Sequence[Example]) -> np.ndarray:
    return np.array([RELATIONS.index(e.relation) for e in examples])


def _fit(
    x: np.ndarray, y: np.ndarray, l2: float = 1e-3, steps: int = 3000, rate: float = 0.5
) -> tuple[np.ndarray, np.ndarray]:
    """Multinomial logistic regression by gradient descent, classes weighted to balance."""
    classes = len(RELATIONS)
    coef = np.zeros((classes, x.shape[1]))
    intercept = np.zeros(classes)
    onehot = np.eye(classes)[y]
    counts = np.bincount(y, minlength=classes).astype(float)
    weight = (len(y) / (classes * np.maximum(counts, 1)))[y][:, None]
    for _ in range(steps):
        probabilities = softmax(x @ coef.T + intercept)
        error = weight * (probabilities - onehot) / len(x)
        coef -= rate * (error.T @ x + l2 * coef)
        intercept -= rate * error.sum(axis=0)
    return coef, intercept


@dataclass
class Model:
    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    intercept: np.ndarray

    def logits(self, features: np.ndarray) -> np.ndarray:
        return np.asarray(((features - self.mean) / self.scale) @ self.coef.T + self.intercept)


def fit_model(features: np.ndarray, labels: np.ndarray) -> Model:
    mean = features.mean(axis=0)
    scale = features.std(axis=0) + 1e-6
    coef, intercept = _fit((features - mean) / scale, labels)
    return Model(mean, scale, coef, intercept)


def out_of_source_logits(examples: Sequence[Example], features: np.ndarray, answered: np.ndarray) -> np.ndarray:
    """Each source's logits from a model trained on the other sources' ``answered`` pairs (the
    ones the model, not the structure, answers in the server)."""
    labels = labels_of(examples)
    sources = np.array([e.source for e in examples])
    logits = np.zeros((len(examples), len(RELATIONS)))
    for source in sorted(set(sources)):
        held = sources == source
        model = fit_model(features[~held & answered], labels[~held & answered])
        logits[held] = model.logits(features[held])
    return logits


def _nll(logits: np.ndarray, y: np.ndarray, temperature: float) -> float:
    probabilities = softmax(logits / temperature)
    return float(-np.mean(np.log(probabilities[np.arange(len(y)), y] + 1e-12)))


def fit_temperature(logits: np.ndarray, labels: np.ndarray) -> float:
    grid = np.round(np.arange(0.3, 5.01, 0.05), 2)
    return float(min(grid, key=lambda t: _nll(logits, labels, float(t))))


@dataclass(frozen=True)
class Prediction:
    relation: str
    confidence: float
    resolvable: bool
    structural: bool  # settled by the structure guard, the model not asked
    queueable: bool = True


def model_rows(examples: Sequence[Example]) -> np.ndarray:
    """The pairs the model answers: neither settled by the guard nor ruled by the structure."""
    rows = []
    for e in examples:
        structure = analyse(e.a, e.b, e.kind_a, e.kind_b)
        rows.append(structural_verdict(structure) is None and structural_resolution(structure) is None)
    return np.array(rows, dtype=bool)


def guarded_predictions(
    examples: Sequence[Example], probabilities: np.ndarray, checked_rule: dict[str, Any] | None = None
) -> list[Prediction]:
    """What the server would answer for each pair given the model's probabilities (and, for
    the cross-encoder, its cross-checked supersede rule)."""
    from review.judges.local import cross_checked

    out = []
    for example, p in zip(examples, probabilities, strict=True):
        structure = analyse(example.a, example.b, example.kind_a, example.kind_b)
        settled = structural_verdict(structure) or structural_resolution(structure)
        if settled is not None:
            out.append(Prediction(settled.relation, settled.confidence, settled.resolvable, True, settled.queueable))
            continue
        best = int(np.argmax(p))
        read = Verdict(RELATIONS[best], float(p[best]), "")
        verdict = reconcile(cross_checked(structure, read.relation, read.confidence, checked_rule) or read, structure)
        out.append(Prediction(verdict.relation, verdict.confidence, verdict.resolvable, False, verdict.queueable))
    return out


def structural_confidence(examples: Sequence[Example], predictions: Sequence[Prediction]) -> dict[str, float]:
    """How often each structural ruling names the labelled relation (its calibrated confidence);
    for the two rulings that retire, how often the labelled relation retires too."""
    out = {}
    for relation in ("supersedes", "duplicate"):
        rows = [
            e.relation in RETIRING
            for e, p in zip(examples, predictions, strict=True)
            if p.structural and p.relation == relation
        ]
        out[relation] = round(float(np.mean(rows)), 3) if rows else 0.9
    for relation in ("unrelated", "complementary"):
        rows = [
            e.relation == relation
            for e, p in zip(examples, predictions, strict=True)
            if p.structural and p.relation == relation
        ]
        out[relation] = round(float(np.mean(rows)), 3) if rows else 0.9
    return out


def train(
    examples: Sequence[Example], features: np.ndarray, feature_set: str, temperature: float, answered: np.ndarray
) -> dict[str, Any]:
    model = fit_model(features[answered], labels_of(examples)[answered])
    digest = hashlib.sha256(json.dumps([model.coef.tolist(), model.intercept.tolist()]).encode()).hexdigest()[:10]
    return {
        "version": digest,
        "feature_set": feature_set,
        "features": FEATURE_SETS[feature_set],
        "relations": RELATIONS,
        "mean": model.mean.tolist(),
        "scale": model.scale.tolist(),
        "coef": model.coef.tolist(),
        "intercept": model.intercept.tolist(),
        "temperature": temperature,
        "trained_on": int(answered.sum()),
        "sources": sorted({e.source for e in examples}),
    }


def evaluate(examples: Sequence[Example], predictions: Sequence[Prediction], threshold: float) -> dict[str, Any]:
    """Per-relation precision/recall, and what auto-resolution would do at ``threshold``."""
    truth = [e.relation for e in examples]
    predicted = [p.relation for p in predictions]
    confidence = np.array([p.confidence for p in predictions])
    per_relation = {}
    for relation in RELATIONS:
        tp = sum(p == relation and t == relation for p, t in zip(predicted, truth, strict=True))
        predicted_count = predicted.count(relation)
        actual_count = truth.count(relation)
        per_relation[relation] = {
            "precision": round(tp / predicted_count, 3) if predicted_count else 0.0,
            "recall": round(tp / actual_count, 3) if actual_count else 0.0,
            "support": actual_count,
        }
    auto = [
        i for i, p in enumerate(predictions) if p.relation in RETIRING and p.confidence >= threshold and p.resolvable
    ]
    wrongly = [i for i in auto if truth[i] not in RETIRING]
    retiring_truth = [i for i, t in enumerate(truth) if t in RETIRING]
    auto_rows = set(auto)
    queued = [
        i
        for i, p in enumerate(predictions)
        if p.relation in {*RETIRING, "contradicts"} and p.queueable and i not in auto_rows
    ]
    bins = np.linspace(0, 1, 11)
    calibration_error = 0.0
    for low, high in itertools.pairwise(bins):
        members = [i for i in range(len(examples)) if low < confidence[i] <= high]
        if members:
            accuracy = np.mean([predicted[i] == truth[i] for i in members])
            calibration_error += len(members) / len(examples) * abs(accuracy - np.mean(confidence[members]))
    return {
        "pairs": len(examples),
        "accuracy": round(float(np.mean([p == t for p, t in zip(predicted, truth, strict=True)])), 3),
        "per_relation": per_relation,
        "threshold": threshold,
        "auto_resolved": len(auto),
        "auto_resolved_share": round(len(auto) / max(1, len(examples)), 3),
        "auto_resolved_of_true_updates": round(len(set(auto) & set(retiring_truth)) / max(1, len(retiring_truth)), 3),
        "wrongly_retired": len(wrongly),
        "wrongly_retired_examples": [
            {"id": examples[i].id, "a": examples[i].a, "b": examples[i].b, "relation": truth[i]} for i in wrongly[:10]
        ],
        "queued": len(queued),
        "queued_distinguishable": sum(truth[i] in {"complementary", "unrelated"} for i in queued),
        "expected_calibration_error": round(float(calibration_error), 3),
    }
