"""The ONNX export: a sentence-transformers model exported once, verified, cached.

On first use the model's transformer is exported to ONNX (``torch.onnx.export``) into a cache
folder, checked against the torch model on probe sentences, and only then moved into place
(written to a temporary file, then ``os.replace``), so a file in the cache is always a complete,
verified export that ``memories.embedding.onnx_backend`` loads. torch is imported only by
``export``, onnxruntime's quantizer only by ``quantize``.
"""

from __future__ import annotations

import contextlib
import copy
import json
import logging
import os
import sys
import time
import uuid
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from memories.embedding.onnx_backend import EXPORT_FORMAT, OPSET, CacheEntry, FloatArray, OnnxEmbedder, OnnxExportError

logger = logging.getLogger(__name__)

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
