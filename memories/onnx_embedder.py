"""The ONNX Runtime embedding backend: a sentence-transformers model exported once, run fast.

On first use the model's transformer is exported to ONNX (``torch.onnx.export``) into a cache
folder, checked against the torch model on probe sentences, and only then moved into place
(written to a temporary file, then ``os.replace``), so a file in the cache is always a complete,
verified export. Later starts load the cached file with onnxruntime and never import torch.

Tokenizing and pooling happen here, in numpy, exactly as sentence-transformers does them: the
model's own fast tokenizer (saved beside the export, without padding, truncated at the model's
``max_seq_length``), the attention mask from each encoding, the model's pooling mode, then L2
normalisation.

This module imports neither Django settings nor torch at the top; ``export`` and ``quantize``
import what they need.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import json
import logging
import os
import re
import sys
import threading
import time
import uuid
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

logger = logging.getLogger(__name__)

# Bump when the exported graph or the files beside it change shape: old cache entries are
# then simply not found (the key includes it).
EXPORT_FORMAT = 1
OPSET = 17
BATCH_SIZE = 32
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

FloatArray = npt.NDArray[np.float32]


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


def _temporary(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")


def _write_atomically(path: Path, text: str) -> None:
    temporary = _temporary(path)
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


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
        from memories.embeddings import EmbeddingError

        if not texts:
            return []
        try:
            with self._lock:
                vectors = self.encode(texts)
        except Exception as exc:
            raise EmbeddingError(f"embedding failed: {exc}") from exc
        return vectors.tolist()

    def encode(self, texts: Sequence[str]) -> FloatArray:
        """Unit vectors as one float32 array. Batched in length order so each batch pads little."""
        encodings = self._tokenizer.encode_batch(list(texts))
        order = sorted(range(len(encodings)), key=lambda i: len(encodings[i].ids))
        out = np.empty((len(encodings), self.dimensions), dtype=np.float32)
        for start in range(0, len(order), BATCH_SIZE):
            chosen = order[start : start + BATCH_SIZE]
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
    """The cached export, or None if there is none yet. A file that does not load is removed."""
    path = entry.model(quantized)
    if not path.exists():
        return None
    try:
        return OnnxEmbedder(entry, name, quantized, threads)
    except Exception as exc:  # noqa: BLE001 - a broken cache file is exported again, never fatal
        logger.warning("The cached ONNX model %s does not load (%s); exporting it again.", path, exc)
        path.unlink(missing_ok=True)
        return None


def _worst_cosine(candidate: OnnxEmbedder, reference: FloatArray) -> float:
    """The probe texts one by one and as one padded batch: the lowest cosine to the reference."""
    single = np.vstack([candidate.encode([text]) for text in PROBE_TEXTS])
    batch = candidate.encode(PROBE_TEXTS)
    return float(min((single * reference).sum(axis=1).min(), (batch * reference).sum(axis=1).min()))


def _verify(candidate: OnnxEmbedder, reference: FloatArray, minimum: float) -> float:
    worst = _worst_cosine(candidate, reference)
    if not worst >= minimum:  # also catches NaN
        raise OnnxExportError(
            f"the ONNX export of {candidate.name} gives other vectors: cosine {worst:.6f} < {minimum} on a probe text"
        )
    return worst


def export(entry: CacheEntry, model: Any, name: str) -> None:
    """Export a loaded SentenceTransformer to ``entry``'s fp32 ONNX file, verified against it.

    Raises OnnxExportError (or whatever torch raises) when the model is not a plain
    transformer + pooling (+ normalize) pipeline, or when the export gives other vectors.
    """
    import torch
    from tokenizers import Tokenizer

    started = time.perf_counter()
    modules = [type(module).__name__ for module in model]
    if modules[:2] != ["Transformer", "Pooling"] or any(m != "Normalize" for m in modules[2:]):
        raise OnnxExportError(f"only Transformer + Pooling (+ Normalize) models are exported, not {modules}")
    pooling = model[1].pooling_mode
    if pooling not in SUPPORTED_POOLING:
        raise OnnxExportError(f"pooling mode {pooling!r} is not supported (only {sorted(SUPPORTED_POOLING)})")
    if getattr(model, "default_prompt_name", None):
        raise OnnxExportError("models with a default prompt are not exported")
    hf_tokenizer = model.tokenizer
    input_names = [n for n in ("input_ids", "attention_mask", "token_type_ids") if n in hf_tokenizer.model_input_names]
    if input_names[:2] != ["input_ids", "attention_mask"]:
        raise OnnxExportError(f"the tokenizer gives {hf_tokenizer.model_input_names}, not input_ids + attention_mask")
    max_seq_length = int(model.max_seq_length)

    # Our own copy of the fast tokenizer: sentence-transformers switches padding on the shared one.
    tokenizer = Tokenizer.from_str(hf_tokenizer.backend_tokenizer.to_str())
    tokenizer.enable_truncation(max_length=max_seq_length)
    tokenizer.no_padding()
    meta = {
        "dimensions": int(model.get_embedding_dimension()),
        "pooling": pooling,
        "max_seq_length": max_seq_length,
        "inputs": input_names,
        "export_format": EXPORT_FORMAT,
        "opset": OPSET,
        "torch": torch.__version__,
    }
    entry.folder.mkdir(parents=True, exist_ok=True)
    _write_atomically(entry.tokenizer, tokenizer.to_str())
    _write_atomically(entry.meta, json.dumps(meta, indent=2))

    # A copy, so the torch model stays as it was (it may yet serve as the fallback). Eager
    # attention with the additive mask built in the graph traces without data-dependent
    # branches, so the graph serves any batch size, length and padding.
    transformer = copy.deepcopy(model[0].auto_model).float().cpu().eval()
    transformer.set_attn_implementation("eager")

    class Wrapper(torch.nn.Module):
        def __init__(self, inner: torch.nn.Module) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, *tensors: torch.Tensor) -> torch.Tensor:
            features = dict(zip(input_names, tensors, strict=True))
            mask = features["attention_mask"][:, None, None, :].to(torch.float32)
            features["attention_mask"] = (1.0 - mask) * torch.finfo(torch.float32).min
            return self.inner(**features).last_hidden_state

    encodings = tokenizer.encode_batch(list(PROBE_TEXTS[:3]))  # a padded batch to trace
    width = max(len(e.ids) for e in encodings)
    example = {n: torch.zeros((len(encodings), width), dtype=torch.long) for n in input_names}
    for row, encoding in enumerate(encodings):
        for input_name, values in (
            ("input_ids", encoding.ids),
            ("attention_mask", encoding.attention_mask),
            ("token_type_ids", encoding.type_ids),
        ):
            if input_name in example:
                example[input_name][row, : len(values)] = torch.tensor(values)

    target = entry.model(quantized=False)
    temporary = _temporary(target)
    try:
        with warnings.catch_warnings(), torch.no_grad():
            warnings.simplefilter("ignore")
            torch.onnx.export(
                Wrapper(transformer),
                tuple(example[n] for n in input_names),
                str(temporary),
                input_names=input_names,
                output_names=["last_hidden_state"],
                dynamic_axes={n: {0: "batch", 1: "sequence"} for n in [*input_names, "last_hidden_state"]},
                opset_version=OPSET,
                dynamo=False,
            )
        del transformer
        reference = np.asarray(
            model.encode(list(PROBE_TEXTS), normalize_embeddings=True, convert_to_numpy=True), dtype=np.float32
        )
        worst = _verify(OnnxEmbedder(entry, name, path=temporary), reference, FP32_MIN_COSINE)
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)
    logger.info(
        "Exported %s to ONNX at %s in %.1fs (lowest probe cosine to torch: %.6f).",
        name,
        target,
        time.perf_counter() - started,
        worst,
    )


class _FromOnnxruntime(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return f"{os.sep}onnxruntime{os.sep}" not in record.pathname


@contextlib.contextmanager
def _quiet_onnxruntime_logs() -> Iterator[None]:
    """The quantizer logs dozens of lines per model to the root logger; keep them out."""
    root, only_ours = logging.getLogger(), _FromOnnxruntime()
    root.addFilter(only_ours)
    try:
        yield
    finally:
        root.removeFilter(only_ours)


def quantize(entry: CacheEntry, name: str) -> None:
    """Dynamic int8 quantization of the verified fp32 export, checked for sanity against it."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    started = time.perf_counter()
    source, target = entry.model(quantized=False), entry.model(quantized=True)
    temporary = _temporary(target)
    try:
        # Per-channel weights: on clustered short texts, top-10 neighbour agreement with fp32 goes
        # from 0.78 (per tensor) to 0.85 at the same speed (bench/embedding_agreement.py).
        with _quiet_onnxruntime_logs():
            quantize_dynamic(source, temporary, weight_type=QuantType.QInt8, per_channel=True)
        reference = OnnxEmbedder(entry, name).encode(PROBE_TEXTS)
        worst = _verify(OnnxEmbedder(entry, name, quantized=True, path=temporary), reference, INT8_MIN_COSINE)
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)
    logger.info(
        "Quantized %s to int8 at %s in %.1fs (lowest probe cosine to fp32: %.4f).",
        name,
        target,
        time.perf_counter() - started,
        worst,
    )
