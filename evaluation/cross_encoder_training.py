"""Training the cross-encoder (``./zm train --cross-encoder``); development only.

Needs torch and transformers (requirements-dev.txt); the server never imports this module. The
packaged all-MiniLM-L6-v2 weights get a five-way classification head and are fine-tuned on the
labelled pairs (evaluation/data/*.jsonl), reading each pair as review.judges.cross_encoder
does. Every figure is out of source: for each source, a model trained on the others answers
its pairs; those answers fit the temperature and measure what the judge's rules built on the
model earn (review.judges.local). The shipped model is then trained on every source, exported
to ONNX, quantized to int8 and checked against the torch model on held-out pairs.

On two CPU cores one training run over ~10,000 pairs takes about 25 minutes; the out-of-source
folds take one run per source.
"""

from __future__ import annotations

import json
import random
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from evaluation.training import Example
from review.judges.cross_encoder import MODEL_DIR, RELATIONS, CrossEncoder, pair_texts, softmax

MAX_LENGTH = 128
BATCH = 16
LEARNING_RATE = 4e-5
SEED = 20261204
OUT_OF_SOURCE_FILE = "out_of_source.json"


def packaged_model() -> Path:
    from memories.embedding.base import packaged_model_path

    return Path(packaged_model_path())


def _batches(examples: Sequence[Example], tokenizer: Any, size: int, rng: random.Random | None) -> Any:
    import torch

    order = list(range(len(examples)))
    if rng is not None:
        rng.shuffle(order)
    for start in range(0, len(order), size):
        chosen = [examples[i] for i in order[start : start + size]]
        texts = [pair_texts(e.a, e.b, e.kind_a, e.kind_b) for e in chosen]
        encoded = tokenizer(
            [a for a, _ in texts],
            [b for _, b in texts],
            padding=True,
            truncation=True,
            max_length=MAX_LENGTH,
            return_tensors="pt",
        )
        yield encoded, torch.tensor([RELATIONS.index(e.relation) for e in chosen])


def fine_tune(
    examples: Sequence[Example], *, epochs: int = 2, threads: int = 2, progress: Callable[[str], object] = print
) -> tuple[Any, Any]:
    """The packaged MiniLM fine-tuned on ``examples``: (model, tokenizer)."""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    torch.manual_seed(SEED)
    torch.set_num_threads(threads)
    rng = random.Random(SEED)
    path = str(packaged_model())
    tokenizer = AutoTokenizer.from_pretrained(path)
    model = AutoModelForSequenceClassification.from_pretrained(path, num_labels=len(RELATIONS))
    steps = epochs * ((len(examples) + BATCH - 1) // BATCH)
    optimizer = torch.optim.AdamW(model.parameters(), lr=LEARNING_RATE, weight_decay=0.01)
    warmup = max(1, steps // 10)
    scheduler = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda step: min(1.0, step / warmup) * max(0.0, (steps - step) / steps)
    )
    started = time.monotonic()
    model.train()
    for epoch in range(epochs):
        losses = []
        for encoded, labels in _batches(examples, tokenizer, BATCH, rng):
            loss = model(**encoded, labels=labels).loss
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
            losses.append(float(loss))
        progress(f"  epoch {epoch + 1}/{epochs}: loss {np.mean(losses):.3f} ({time.monotonic() - started:.0f} s)")
    model.eval()
    return model, tokenizer


def torch_logits(model: Any, tokenizer: Any, examples: Sequence[Example]) -> np.ndarray:
    import torch

    out = []
    with torch.no_grad():
        for encoded, _ in _batches(examples, tokenizer, 64, None):
            out.append(model(**encoded).logits.numpy())
    return np.vstack(out).astype(np.float64) if out else np.zeros((0, len(RELATIONS)))


def out_of_source(
    examples: Sequence[Example], *, epochs: int, threads: int, progress: Callable[[str], object] = print
) -> dict[str, list[float]]:
    """Each pair's logits from a model trained on every other source, by pair id."""
    logits: dict[str, list[float]] = {}
    for source in sorted({e.source for e in examples}):
        train = [e for e in examples if e.source != source]
        held = [e for e in examples if e.source == source]
        progress(f"fold {source}: training on {len(train)} pairs of the other sources…")
        model, tokenizer = fine_tune(train, epochs=epochs, threads=threads, progress=progress)
        for example, row in zip(held, torch_logits(model, tokenizer, held), strict=True):
            logits[example.id] = [round(float(x), 5) for x in row]
    return logits


def fit_temperature(logits: np.ndarray, labels: np.ndarray) -> float:
    """The temperature that makes the softmax's confidence mean what it says (least log loss)."""

    def loss(temperature: float) -> float:
        probabilities = softmax(logits / temperature)
        return float(-np.log(probabilities[np.arange(len(labels)), labels] + 1e-12).mean())

    return float(min(np.arange(0.3, 4.0, 0.01), key=loss))


def export(model: Any, tokenizer: Any, folder: Path, meta: dict[str, Any], check: Sequence[Example]) -> float:
    """Write the int8 ONNX graph, its tokenizer and ``meta`` to ``folder``; returns the least
    agreement (cosine of the probability vectors) between torch and ONNX on ``check``."""
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic

    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        full = Path(scratch) / "model-fp32.onnx"
        sample = tokenizer(["fact: a"], ["fact: b"], return_tensors="pt")
        names = [n for n in ("input_ids", "attention_mask", "token_type_ids") if n in sample]
        torch.onnx.export(
            model,
            tuple(sample[n] for n in names),
            str(full),
            input_names=names,
            output_names=["logits"],
            dynamic_axes={**{n: {0: "batch", 1: "sequence"} for n in names}, "logits": {0: "batch"}},
            opset_version=17,
            dynamo=False,
        )
        quantize_dynamic(str(full), str(folder / "model.onnx"), weight_type=QuantType.QInt8)
    tokenizer_file = packaged_model() / "tokenizer.json"
    shutil.copyfile(tokenizer_file, folder / "tokenizer.json")
    (folder / "meta.json").write_text(json.dumps({"model": "model.onnx", **meta}, indent=1) + "\n")
    shipped = CrossEncoder(folder)
    reference = softmax(torch_logits(model, tokenizer, check) / meta["temperature"])
    quantized = shipped.probabilities([pair_texts(e.a, e.b, e.kind_a, e.kind_b) for e in check])
    cosines = (reference * quantized).sum(1) / (np.linalg.norm(reference, axis=1) * np.linalg.norm(quantized, axis=1))
    return float(cosines.min())


def write_out_of_source(logits: dict[str, list[float]], folder: Path = MODEL_DIR) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / OUT_OF_SOURCE_FILE).write_text(json.dumps(logits, separators=(",", ":")) + "\n")


def read_out_of_source(folder: Path = MODEL_DIR) -> dict[str, list[float]]:
    path = folder / OUT_OF_SOURCE_FILE
    return json.loads(path.read_text()) if path.exists() else {}


RULE_PROBABILITIES = (0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
RULE_MIN_PRECISION = 0.97
RULE_MIN_PAIRS = 50


def choose_checked_rule(examples: Sequence[Example], probabilities: np.ndarray) -> dict[str, Any] | None:
    """The least probability at which the cross-checked supersede (review.judges.local) is right
    — its pair labelled a supersede or a restatement — at least 97% of the time out of source,
    over at least 50 pairs; its measured precision becomes the ruling's confidence."""
    from review.judges.guard import structural_resolution, structural_verdict
    from review.judges.local import cross_checked
    from review.judges.structure import analyse

    open_pairs = []
    for example, p in zip(examples, probabilities, strict=True):
        structure = analyse(example.a, example.b, example.kind_a, example.kind_b)
        if structural_verdict(structure) is None and structural_resolution(structure) is None:
            best = int(np.argmax(p))
            open_pairs.append((example, structure, RELATIONS[best], float(p[best])))
    for minimum in RULE_PROBABILITIES:
        rule = {"min_probability": minimum, "precision": 1.0}
        hits = [e.relation in ("supersedes", "duplicate") for e, s, r, c in open_pairs if cross_checked(s, r, c, rule)]
        if len(hits) >= RULE_MIN_PAIRS and np.mean(hits) >= RULE_MIN_PRECISION:
            precision = float(np.floor(np.mean(hits) * 1000) / 1000)
            return {"min_probability": minimum, "precision": precision, "pairs": len(hits)}
    return None
