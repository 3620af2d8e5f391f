"""The ONNX Runtime embedding backend: a sentence-transformers model as an ONNX graph, run fast.

The graph is built once from the model's weights (``memories.embedding.onnx_build``, no torch) or,
for a model that builder does not know, exported with torch (``memories.embedding.onnx_export``)
into a cache folder; this module loads it with onnxruntime and never imports torch. Tokenizing and
pooling happen here, in numpy, exactly as sentence-transformers does them: the model's own fast
tokenizer (saved beside the graph, without padding, truncated at the model's ``max_seq_length``),
the attention mask from each encoding, the model's pooling mode, then L2 normalisation. What
writing a cache entry takes (the probe texts and the check, the lock, atomic writes) is here too.

This module imports neither Django settings nor torch at the top.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
import sys
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from memories.embedding.base import EmbeddingError

logger = logging.getLogger(__name__)

# Bump when the graph or the files beside it change shape: old cache entries are then simply
# not found (the key includes it). 2: built from the weights without torch.
EXPORT_FORMAT = 2
OPSET = 17
BATCH_SIZE = 32

FloatArray = npt.NDArray[np.float32]

FP32_MIN_COSINE = 0.9999
INT8_MIN_COSINE = 0.9
SUPPORTED_POOLING = {"mean", "mean_sqrt_len_tokens", "cls", "max"}

# Short and long, punctuation, non-ASCII, and one past the model's maximum length (truncation):
# embedded one by one and together as a padded batch of different lengths.
PROBE_TEXTS = (
    "The deploy window is Monday 10:00 UTC.",
    "ok",
    "Deploys now happen on Friday at 14:00 UTC; the billing service moved to the new cluster, "
    "and its on-call rotation (alice, bob, dave) changed with it.",
    "Café naïve — über straße, 東京の天気, emoji 🚀 and a tab\tinside.",
    " ".join(["The quarterly report lists every incident, its owner and its follow-up."] * 40),
)


class OnnxExportError(RuntimeError):
    """The model cannot be exported to ONNX, or the export does not reproduce its vectors."""


@dataclass(frozen=True)
class CacheEntry:
    """Where one model's exports live: ``<cache_dir>/<slug>-<key>/``."""

    folder: Path

    @classmethod
    def for_model(cls, model_dir: Path, cache_dir: Path) -> CacheEntry:
        """Keyed by the folder, not the name the model goes by: one export per model folder."""
        slug = re.sub(r"[^a-z0-9]+", "-", f"{model_dir.parent.name}-{model_dir.name}".lower()).strip("-")[:60]
        return cls(cache_dir / f"{slug or 'model'}-{model_key(model_dir)}")

    @property
    def meta(self) -> Path:
        return self.folder / "meta.json"

    @property
    def tokenizer(self) -> Path:
        return self.folder / "tokenizer.json"

    def model(self, quantized: bool) -> Path:
        return self.folder / ("model-int8.onnx" if quantized else "model.onnx")

    @property
    def lock(self) -> Path:
        return self.folder.with_name(self.folder.name + ".lock")


def model_key(model_dir: Path) -> str:
    """A short hash of the model folder's files (paths, sizes, modification times)."""
    digest = hashlib.sha256(f"zeromemory-onnx-export-{EXPORT_FORMAT}-opset-{OPSET}\n".encode())
    for path in sorted(p for p in model_dir.rglob("*") if p.is_file()):
        stat = path.stat()
        digest.update(f"{path.relative_to(model_dir).as_posix()}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


class OnnxEmbedder:
    """Embeds with an exported model under onnxruntime. Same protocol as the torch embedder."""

    def __init__(
        self, entry: CacheEntry, name: str, quantized: bool = False, threads: int = 0, path: Path | None = None
    ) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        self.path = path or entry.model(quantized)
        meta = json.loads(entry.meta.read_text(encoding="utf-8"))
        self.name = f"{name}+onnx-int8" if quantized else name
        self.dimensions = int(meta["dimensions"])
        self._pooling = str(meta["pooling"])
        self._tokenizer = Tokenizer.from_file(str(entry.tokenizer))
        self._tokenizer.enable_truncation(max_length=int(meta["max_seq_length"]))
        self._tokenizer.no_padding()
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.log_severity_level = 3  # errors only
        # Idle threads sleep instead of spinning: a server shares its cores with other workers
        # and PostgreSQL, and spinning threads doubled the CPU per call and the p50 under load.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self._session = ort.InferenceSession(str(self.path), options, providers=["CPUExecutionProvider"])
        self._inputs = [i.name for i in self._session.get_inputs()]
        if not set(self._inputs) <= {"input_ids", "attention_mask", "token_type_ids"}:
            raise OnnxExportError(f"{self.path} takes unexpected inputs {self._inputs}")
        # onnxruntime sessions may run concurrently, but one at a time keeps each call's
        # threads on the cores instead of fighting over them.
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        try:
            with self._lock:
                vectors = self.encode(texts)
        except Exception as exc:
            raise EmbeddingError(f"embedding failed: {exc}") from exc
        listed: list[list[float]] = vectors.tolist()
        return listed

    def encode(self, texts: Sequence[str]) -> FloatArray:
        """Unit vectors as one float32 array. Batched in length order so each batch pads little."""
        encodings = self._tokenizer.encode_batch(list(texts))
        order = sorted(range(len(encodings)), key=lambda i: len(encodings[i].ids))
        out = np.empty((len(encodings), self.dimensions), dtype=np.float32)
        for chosen in _batches(order, [len(encoding.ids) for encoding in encodings]):
            out[chosen] = self._run([encodings[i] for i in chosen])
        return out

    def _run(self, encodings: list[Any]) -> FloatArray:
        width = max(len(e.ids) for e in encodings)
        ids = np.zeros((len(encodings), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        types = np.zeros_like(ids)
        for row, encoding in enumerate(encodings):
            length = len(encoding.ids)
            ids[row, :length] = encoding.ids
            mask[row, :length] = encoding.attention_mask
            types[row, :length] = encoding.type_ids
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
        hidden = self._session.run(None, {name: feeds[name] for name in self._inputs})[0]
        return pool(np.asarray(hidden, dtype=np.float32), mask, self._pooling)


def _batches(order: list[int], lengths: list[int]) -> list[list[int]]:
    """``order`` (by length, shortest first) cut into batches of at most BATCH_SIZE, a new one
    begun where a text is over twice as long as the batch's first (plus a few tokens).

    A batch is padded to its longest text, and the model's cost grows with the padded width: a
    long write and its short sentences in one batch (embed_with_sentences) ran every sentence
    at the whole text's width. Cut apart, a 34-word chat turn with its four sentences embeds in
    21 ms instead of 32 (bench/longtext.py, issue 31), with the same vectors: padding is masked."""
    batches: list[list[int]] = []
    for index in order:
        batch = batches[-1] if batches else None
        if batch is None or len(batch) >= BATCH_SIZE or lengths[index] > 2 * lengths[batch[0]] + 4:
            batches.append([index])
        else:
            batch.append(index)
    return batches


def pool(hidden: FloatArray, mask: npt.NDArray[np.int64], mode: str) -> FloatArray:
    """sentence-transformers' pooling over the real tokens, then L2 normalisation."""
    weights = mask[..., None].astype(np.float32)
    if mode == "cls":
        pooled = hidden[:, 0]
    elif mode == "max":
        pooled = np.where(weights > 0, hidden, np.float32(-1e9)).max(axis=1)
    else:  # mean; mean_sqrt_len_tokens points the same way, and the vector is normalised
        pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    return np.asarray(pooled / np.maximum(norms, 1e-12), dtype=np.float32)


def load_cached(entry: CacheEntry, name: str, quantized: bool, threads: int = 0) -> OnnxEmbedder | None:
    """The cached model, or None if there is none yet. A file that does not load is removed."""
    path = entry.model(quantized)
    if not path.exists():
        return None
    try:
        return OnnxEmbedder(entry, name, quantized, threads)
    except Exception as exc:  # noqa: BLE001 - a broken cache file is built again, never fatal
        logger.warning("The cached ONNX model %s does not load (%s); building it again.", path, exc)
        path.unlink(missing_ok=True)
        return None


# Writing a cache entry, shared by the torch-free builder (onnx_build) and the torch export
# (onnx_export): one writer at a time, every file complete or absent, and checked before it lands.


@contextlib.contextmanager
def export_lock(entry: CacheEntry, timeout: float = 600.0) -> Iterator[None]:
    """One exporter per cache entry across processes (server workers start together)."""
    entry.lock.parent.mkdir(parents=True, exist_ok=True)
    if sys.platform == "win32":  # no flock: concurrent exports still land atomically
        yield
        return
    import fcntl

    with entry.lock.open("a+") as handle:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"another process has held {entry.lock} for over {timeout:.0f}s") from None
                time.sleep(0.1)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def temporary_path(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")


def write_atomically(path: Path, text: str) -> None:
    temporary = temporary_path(path)
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def _worst_cosine(candidate: OnnxEmbedder, reference: FloatArray) -> float:
    """The probe texts one by one and as one padded batch: the lowest cosine to the reference."""
    single = np.vstack([candidate.encode([text]) for text in PROBE_TEXTS])
    batch = candidate.encode(PROBE_TEXTS)
    return float(min((single * reference).sum(axis=1).min(), (batch * reference).sum(axis=1).min()))


def verify(candidate: OnnxEmbedder, reference: FloatArray, minimum: float) -> float:
    worst = _worst_cosine(candidate, reference)
    if not worst >= minimum:  # also catches NaN
        raise OnnxExportError(
            f"the ONNX graph of {candidate.name} gives other vectors: cosine {worst:.6f} < {minimum} on a probe text"
        )
    return worst
