"""Turning text into vectors: one embedder per process, built from settings on first use.

The backends live beside this module, each importing only ``base`` (the protocol and the error):
``onnx_backend`` (the default: the model exported once to ONNX by ``onnx_export`` and run with
onnxruntime, same vectors, about three times faster, torch not even imported once the export is
cached under DATA_DIR/onnx/; ``onnx-int8`` runs an int8 quantization of it, other vectors, so
another model name) and ``sentence_transformer`` (``torch``: sentence-transformers itself, with
the packaged all-MiniLM-L6-v2 and the Hugging Face hub switched off). An ONNX backend that cannot
export or verify the model logs a warning and falls back to torch: the server always starts.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from memories.embedding.base import DEFAULT_MODEL_NAME, Embedder, EmbeddingError, offline
from memories.embedding.sentence_transformer import SentenceTransformerEmbedder, packaged_model_path

BACKENDS = ("onnx", "onnx-int8", "torch")

logger = logging.getLogger(__name__)


def _model_folder(model: str) -> Path | None:
    """The folder holding ``model``'s files, found without loading it (None: not found)."""
    if not model:
        return packaged_model_path()
    if Path(model).is_dir():
        return Path(model)
    try:
        from huggingface_hub import snapshot_download

        return Path(snapshot_download(model, local_files_only=True))
    except Exception:  # noqa: BLE001 - not in the local hub cache either: the torch backend says why
        return None


def build_embedder(
    model: str = "",
    device: str = "cpu",
    backend: str | None = None,
    *,
    cache_dir: Path | None = None,
    threads: int | None = None,
) -> Embedder:
    """An embedder for ``model`` ("" = the packaged one) with ``backend`` (default: settings).

    The ONNX backends load the cached export under ``cache_dir`` (default DATA_DIR/onnx), or
    export it first (once: a file lock keeps concurrent processes from doing it twice), and
    fall back to torch with a warning when that fails. A model that does not load at all
    raises ImproperlyConfigured, whatever the backend.
    """
    offline()
    backend = backend or settings.EMBEDDING_BACKEND
    if backend not in BACKENDS:
        raise ImproperlyConfigured(f"The embedding backend must be one of {', '.join(BACKENDS)}, not {backend!r}")
    if backend == "torch":
        return SentenceTransformerEmbedder(model, device)
    if device != "cpu":
        logger.warning("The %s embedding backend runs on the CPU only; using torch on %s.", backend, device)
        return SentenceTransformerEmbedder(model, device)
    folder = _model_folder(model)
    if folder is None:
        logger.warning("No local folder found for the embedding model %r; using the torch backend.", model)
        return SentenceTransformerEmbedder(model, device)
    try:
        return _onnx_embedder(
            model,
            folder,
            quantized=backend == "onnx-int8",
            cache_dir=cache_dir or Path(settings.DATA_DIR) / "onnx",
            threads=settings.EMBEDDING_THREADS if threads is None else threads,
        )
    except _OnnxFailed as failure:
        logger.warning(
            "Could not run the embedding model %s with the %s backend (%s); falling back to torch.",
            model or DEFAULT_MODEL_NAME,
            backend,
            failure.reason,
        )
        return failure.torch_embedder or SentenceTransformerEmbedder(model, device)


class _OnnxFailed(Exception):
    def __init__(self, reason: str, torch_embedder: SentenceTransformerEmbedder | None) -> None:
        super().__init__(reason)
        self.reason, self.torch_embedder = reason, torch_embedder


def _onnx_embedder(model: str, folder: Path, *, quantized: bool, cache_dir: Path, threads: int) -> Embedder:
    """The cached export, or a fresh one (exported under the lock, once). Raises _OnnxFailed."""
    from memories.embedding import onnx_backend, onnx_export

    name = model or DEFAULT_MODEL_NAME
    torch_embedder: SentenceTransformerEmbedder | None = None
    try:
        entry = onnx_backend.CacheEntry.for_model(folder, cache_dir)
        cached = onnx_backend.load_cached(entry, name, quantized, threads)
        if cached is not None:
            return cached
        with onnx_export.export_lock(entry):
            # Another process may have exported it while this one waited for the lock.
            cached = onnx_backend.load_cached(entry, name, quantized, threads)
            if cached is not None:
                return cached
            # int8 is quantized from the fp32 export, which may be there already.
            if not quantized or onnx_backend.load_cached(entry, name, quantized=False) is None:
                torch_embedder = SentenceTransformerEmbedder(model, "cpu")
                onnx_export.export(entry, torch_embedder.model, name)
            if quantized:
                onnx_export.quantize(entry, name)
            return onnx_backend.OnnxEmbedder(entry, name, quantized, threads)
    except ImproperlyConfigured:
        raise  # the model does not load at all: no backend can run it
    except Exception as exc:  # any export failure falls back to torch: never stop the server
        raise _OnnxFailed(f"{type(exc).__name__}: {exc}", torch_embedder) from exc


_embedder: Embedder | None = None
_embedder_lock = threading.Lock()


def get_embedder() -> Embedder:
    """The process-wide embedder, built from settings on first use."""
    global _embedder  # noqa: PLW0603 - the one process-wide instance, built lazily
    if _embedder is None:
        with _embedder_lock:
            if _embedder is None:
                embedder = build_embedder(settings.EMBEDDING_MODEL, settings.EMBEDDING_DEVICE)
                if embedder.dimensions != settings.EMBEDDING_DIMENSIONS:
                    raise ImproperlyConfigured(
                        f"The embedding model gives {embedder.dimensions}-dimension vectors but the "
                        f"database stores {settings.EMBEDDING_DIMENSIONS}; see README, 'Changing the "
                        "embedding model'."
                    )
                _embedder = embedder
    return _embedder


def embed_one(text: str) -> list[float]:
    return get_embedder().embed([text])[0]


__all__ = [
    "BACKENDS",
    "DEFAULT_MODEL_NAME",
    "Embedder",
    "EmbeddingError",
    "SentenceTransformerEmbedder",
    "build_embedder",
    "embed_one",
    "get_embedder",
]
