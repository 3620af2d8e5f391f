"""The local judge's reader of pairs: a cross-encoder fine-tuned from the packaged MiniLM.

The packaged all-MiniLM-L6-v2 weights, with a five-way classification head, fine-tuned on the
labelled pairs of every source (``./zm train --cross-encoder``) to read an older and
a newer statement *together* — the fact sentence of each (review.judges.structure picks them),
prefixed with its kind — and name their relation. It reads word against word, so it sees that
"Diego's mobile is …" and "Diego's number changed to …" state one attribute, which no word
alignment can.

It ships as an int8 ONNX graph with its tokenizer (review/judges/cross_encoder/) and runs
under onnxruntime on the CPU: no torch, no network, a few milliseconds a pair. ``meta.json``
holds the relation order, the input format and the temperature fitted on out-of-source answers.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from review.judges.structure import fact_sentences

MODEL_DIR = Path(__file__).with_name("cross_encoder")
RELATIONS = ("duplicate", "supersedes", "complementary", "contradicts", "unrelated")


def pair_texts(older: str, newer: str, kind_older: str = "fact", kind_newer: str = "fact") -> tuple[str, str]:
    """What the cross-encoder reads of a pair: each statement's fact sentence, after its kind."""
    older_sentence, newer_sentence = fact_sentences(older, newer)
    return f"{kind_older}: {older_sentence}", f"{kind_newer}: {newer_sentence}"


class CrossEncoder:
    """Relation probabilities for (older, newer) pairs from the shipped ONNX model."""

    def __init__(self, folder: Path = MODEL_DIR, threads: int = 1) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        if tuple(meta["relations"]) != RELATIONS:
            raise ValueError(f"{folder} names other relations; retrain with ./zm train --cross-encoder")
        self.meta = meta
        self.temperature = float(meta["temperature"])
        self._tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self._tokenizer.enable_truncation(max_length=int(meta["max_length"]))
        self._tokenizer.no_padding()
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads  # the worker judges a few pairs at a time
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self._session = ort.InferenceSession(str(folder / meta["model"]), options, providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._lock = threading.Lock()

    def logits(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        """Raw scores, one row per (older text, newer text) as ``pair_texts`` gives them."""
        if not pairs:
            return np.zeros((0, len(RELATIONS)), dtype=np.float32)
        encodings = self._tokenizer.encode_batch([(a, b) for a, b in pairs])
        width = max(len(e.ids) for e in encodings)
        feed: dict[str, Any] = {}
        columns = {"input_ids": "ids", "attention_mask": "attention_mask", "token_type_ids": "type_ids"}
        for name, attribute in columns.items():
            if name in self._inputs:
                array = np.zeros((len(encodings), width), dtype=np.int64)
                for row, encoding in enumerate(encodings):
                    values = getattr(encoding, attribute)
                    array[row, : len(values)] = values
                feed[name] = array
        with self._lock:
            (out,) = self._session.run(None, feed)
        return np.asarray(out, dtype=np.float64)

    def probabilities(self, pairs: Sequence[tuple[str, str]]) -> np.ndarray:
        """Calibrated relation probabilities (softmax of the logits over the fitted temperature)."""
        return softmax(self.logits(pairs) / self.temperature)


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max(axis=-1, keepdims=True)
    exp = np.exp(shifted)
    return np.asarray(exp / exp.sum(axis=-1, keepdims=True))


def available(folder: Path = MODEL_DIR) -> bool:
    return (folder / "meta.json").exists()


@cache
def shipped() -> CrossEncoder:
    """The shipped model, loaded once per process."""
    return CrossEncoder()
