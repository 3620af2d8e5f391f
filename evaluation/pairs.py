"""The judge scored on labelled pairs: out of source, and on an external set (``./zm eval``).

Three judges are compared on the same pairs, each as the server would use it:

* ``baseline`` — the first shipped model (lexical features, trained on one source), alone: the
  judge before the structure guard existed (evaluation/baseline_judge.json);
* ``lexical`` and ``aligned`` — a model of each feature set trained out of source (each source
  judged by a model trained on the others), behind the structure guard.

The external set is LongMemEval's knowledge-update questions (MIT; its ``ku.jsonl`` handed in by
``./zm eval --external FILE`` or ``ZEROMEMORY_EVAL_EXTERNAL``, docs/hygiene.md), used for testing
only: each question's earlier evidence turn and its update are a true ``supersedes`` pair; the
update and the earlier turn against their nearest turns of the same haystack (other
conversations) are ``unrelated`` pairs.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from django.conf import settings

from evaluation.training import (
    Embed,
    Example,
    Prediction,
    embed_texts,
    embedding_cache,
    embedding_model_name,
    evaluate,
    featurize,
    fit_model,
    fit_temperature,
    guarded_predictions,
    labels_of,
    load_examples,
    model_rows,
    out_of_source_logits,
)
from review.judges.local import RELATIONS, LocalJudge, softmax

BASELINE_WEIGHTS = Path(__file__).with_name("baseline_judge.json")
# A source written apart from every other and never read by those who tune the judge: its pairs
# are scored in aggregate only (the report shows no example of it).
BLIND = Path(__file__).with_name("blind") / "blind.jsonl"
NEGATIVES_PER_TURN = 3


def external_examples(path: Path, embed: Embed) -> list[Example]:
    """LongMemEval's update chains as labelled pairs (see the module docstring)."""
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    examples: list[Example] = []
    seen: set[tuple[str, str]] = set()
    for row in rows:
        olds, new, distractors = row["old"], row["new"], row["distractors"]
        if (olds[-1], new) in seen:
            continue  # two questions share one chain (see the data's README)
        for old in olds:
            seen.add((old, new))
            examples.append(Example(f"lme-{row['qid']}-update", old, new, "supersedes", "fact", "fact", "longmemeval"))
        if not distractors:
            continue
        vectors = np.asarray(embed([new, olds[-1], *distractors]))
        for offset, turn in enumerate((new, olds[-1])):
            nearest = np.argsort(-(vectors[2:] @ vectors[offset]))[:NEGATIVES_PER_TURN]
            for rank, index in enumerate(nearest):
                distractor = distractors[int(index)]
                # The distractor was said earlier or later in another conversation: either order.
                a, b = (distractor, turn) if rank % 2 == 0 else (turn, distractor)
                examples.append(
                    Example(f"lme-{row['qid']}-near{offset}{rank}", a, b, "unrelated", "fact", "fact", "longmemeval")
                )
    return examples


def baseline_predictions(examples: Sequence[Example], vectors: dict[str, list[float]]) -> list[Prediction]:
    judge = LocalJudge(json.loads(BASELINE_WEIGHTS.read_text()))
    features = featurize(examples, vectors, judge.feature_set)
    probabilities = judge.probabilities(features)
    return [Prediction(RELATIONS[int(p.argmax())], float(p.max()), True, False) for p in probabilities]


def evaluate_pairs(
    *, embed: Embed, external: Path | None, feature_sets: Sequence[str] = ("lexical", "aligned")
) -> dict[str, Any]:
    """Every judge on the labelled sources (out of source), on the external set and on the blind
    source."""
    threshold = settings.HYGIENE_AUTO_RESOLVE_THRESHOLD
    examples = load_examples()
    outside = external_examples(external, embed) if external and external.exists() else []
    blind = load_examples([BLIND]) if BLIND.exists() else []
    vectors = embed_texts([*examples, *outside, *blind], embed, cache=embedding_cache(), model=embedding_model_name())
    labels = labels_of(examples)
    answered = model_rows(examples)
    sources = sorted({e.source for e in examples})
    report: dict[str, Any] = {
        "threshold": threshold,
        "sources": {s: sum(e.source == s for e in examples) for s in sources},
    }
    judges: dict[str, Any] = {}

    baseline = baseline_predictions(examples, vectors)
    judges["baseline"] = {"labelled": _by_source(examples, baseline, threshold)}
    if outside:
        judges["baseline"]["external"] = evaluate(outside, baseline_predictions(outside, vectors), threshold)
    if blind:
        judges["baseline"]["blind"] = _blinded(evaluate(blind, baseline_predictions(blind, vectors), threshold))

    for feature_set in feature_sets:
        matrix = featurize(examples, vectors, feature_set)
        logits = out_of_source_logits(examples, matrix, answered)
        temperature = fit_temperature(logits[answered], labels[answered])
        predictions = guarded_predictions(examples, softmax(logits / temperature))
        entry: dict[str, Any] = {"temperature": temperature, "labelled": _by_source(examples, predictions, threshold)}
        if outside:
            # The external set is judged by a model trained on every labelled source.
            model = fit_model(matrix[answered], labels[answered])
            external_logits = model.logits(featurize(outside, vectors, feature_set))
            entry["external"] = evaluate(
                outside, guarded_predictions(outside, softmax(external_logits / temperature)), threshold
            )
        if blind:
            model = fit_model(matrix[answered], labels[answered])
            blind_logits = model.logits(featurize(blind, vectors, feature_set))
            entry["blind"] = _blinded(
                evaluate(blind, guarded_predictions(blind, softmax(blind_logits / temperature)), threshold)
            )
        judges[feature_set] = entry
    reader = cross_encoder_report(examples, outside, blind, threshold)
    if reader is not None:
        judges["cross-encoder"] = reader
    report["judges"] = judges
    report["external_pairs"] = len(outside)
    report["blind_pairs"] = len(blind)
    return report


def cross_encoder_report(
    examples: Sequence[Example], outside: Sequence[Example], blind: Sequence[Example], threshold: float
) -> dict[str, Any] | None:
    """The shipped judge: the cross-encoder behind the structure, out of source from the answers
    its training kept (each source read by a model trained on the others), and the shipped model
    on the external and blind sets."""
    from evaluation.cross_encoder_training import read_out_of_source
    from review.judges import cross_encoder

    if not cross_encoder.available():
        return None
    reader = cross_encoder.shipped()
    rule = reader.meta.get("checked_supersede")
    logits_by_id = read_out_of_source()
    known = [e for e in examples if e.id in logits_by_id]
    entry: dict[str, Any] = {"temperature": reader.temperature, "checked_supersede": rule}
    if known:
        logits = np.array([logits_by_id[e.id] for e in known])
        entry["labelled"] = _by_source(
            known, guarded_predictions(known, softmax(logits / reader.temperature), rule), threshold
        )

    def shipped_predictions(pairs: Sequence[Example]) -> list[Prediction]:
        texts = [cross_encoder.pair_texts(e.a, e.b, e.kind_a, e.kind_b) for e in pairs]
        return guarded_predictions(pairs, reader.probabilities(texts), rule)

    if outside:
        entry["external"] = evaluate(outside, shipped_predictions(outside), threshold)
    if blind:
        entry["blind"] = _blinded(evaluate(blind, shipped_predictions(blind), threshold))
    return entry


def _blinded(block: dict[str, Any]) -> dict[str, Any]:
    """A report on the blind source with no example of its text."""
    return {**block, "wrongly_retired_examples": []}


def _by_source(examples: Sequence[Example], predictions: Sequence[Prediction], threshold: float) -> dict[str, Any]:
    out = {"pooled": evaluate(examples, predictions, threshold)}
    for source in sorted({e.source for e in examples}):
        rows = [i for i, e in enumerate(examples) if e.source == source]
        out[source] = evaluate([examples[i] for i in rows], [predictions[i] for i in rows], threshold)
    return out
