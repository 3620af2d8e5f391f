"""Turning text into vectors: one embedder per process, built from settings on first use.

The backends live beside this module, each importing only ``base`` (the protocol and the error):
``onnx_backend`` (the default: the model as an ONNX graph run with onnxruntime, built once from
its packaged weights by ``onnx_build`` without torch and cached under DATA_DIR/onnx/, the same
vectors as sentence-transformers; ``onnx-int8`` runs an int8 quantization of it, other vectors,
so another model name) and ``sentence_transformer`` (``torch``: sentence-transformers itself, a
development tool the server's install leaves out). Where torch is installed, a model the builder
does not know is exported with it (``onnx_export``), and an ONNX backend that cannot build or
verify the model logs a warning and falls back to torch; without torch that is a clear
ImproperlyConfigured at start.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from memories.embedding import sentence_transformer
from memories.embedding.base import DEFAULT_MODEL_NAME, Embedder, EmbeddingError, offline, packaged_model_path
from memories.embedding.sentence_transformer import SentenceTransformerEmbedder
from memories.text import sentences

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
    except ImportError:  # the server's install has no hub client: its cache is read as it lies
        return _hub_cache_snapshot(model)
    try:
        return Path(snapshot_download(model, local_files_only=True))
    except Exception:  # noqa: BLE001 - not in the local hub cache either: the caller says so
        return None


def _hub_cache_snapshot(model: str) -> Path | None:
    """``model``'s main snapshot in the local Hugging Face hub cache, as huggingface_hub lays it out."""
    home = os.environ.get("HF_HOME") or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "huggingface"
    repository = Path(os.environ.get("HF_HUB_CACHE") or Path(home) / "hub") / f"models--{model.replace('/', '--')}"
    try:
        commit = (repository / "refs" / "main").read_text(encoding="utf-8").strip()
    except OSError:
        return None
    folder = repository / "snapshots" / commit
    return folder if commit and folder.is_dir() else None


def build_embedder(
    model: str = "",
    device: str = "cpu",
    backend: str | None = None,
    *,
    cache_dir: Path | None = None,
    threads: int | None = None,
) -> Embedder:
    """An embedder for ``model`` ("" = the packaged one) with ``backend`` (default: settings).

    The ONNX backends load the cached model under ``cache_dir`` (default DATA_DIR/onnx), or
    build it first (once: a file lock keeps concurrent processes from doing it twice), and fall
    back to torch with a warning when that fails and torch is installed. A model that does not
    load at all, or an ONNX failure with no torch to fall back to, raises ImproperlyConfigured.
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
        if not sentence_transformer.available():
            raise ImproperlyConfigured(
                f"No local folder found for the embedding model {model!r}: set ZEROMEMORY_EMBEDDING_MODEL to a "
                "local sentence-transformers folder (README, 'Changing the embedding model')."
            )
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
        if failure.torch_embedder is None and not sentence_transformer.available():
            raise ImproperlyConfigured(
                f"Could not run the embedding model {model or DEFAULT_MODEL_NAME} with the {backend} backend "
                f"({failure.reason}), and the torch backend it would fall back to is not installed "
                "(requirements-dev.txt)."
            ) from failure
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
    """The cached model, or a fresh one (built under the lock, once). Raises _OnnxFailed."""
    from memories.embedding import onnx_backend, onnx_build, onnx_export

    name = model or DEFAULT_MODEL_NAME
    torch_embedder: SentenceTransformerEmbedder | None = None
    try:
        entry = onnx_backend.CacheEntry.for_model(folder, cache_dir)
        cached = onnx_backend.load_cached(entry, name, quantized, threads)
        if cached is not None:
            return cached
        with onnx_backend.export_lock(entry):
            # Another process may have built it while this one waited for the lock.
            cached = onnx_backend.load_cached(entry, name, quantized, threads)
            if cached is not None:
                return cached
            # int8 is quantized from the fp32 model, which may be there already.
            if not quantized or onnx_backend.load_cached(entry, name, quantized=False) is None:
                # The stored reference vectors of the packaged model; torch's own for another.
                reference = onnx_build.stored_reference(folder)
                if reference is None and sentence_transformer.available():
                    torch_embedder = SentenceTransformerEmbedder(model, "cpu")
                    reference = onnx_export.reference_vectors(torch_embedder.model)
                try:
                    onnx_build.build(entry, folder, name, reference)
                except onnx_build.Unsupported as unsupported:
                    if not sentence_transformer.available():
                        raise
                    logger.info("%s is not built without torch (%s); exporting it with torch.", name, unsupported)
                    torch_embedder = torch_embedder or SentenceTransformerEmbedder(model, "cpu")
                    onnx_export.export(entry, torch_embedder.model, name)
            if quantized:
                onnx_export.quantize(entry, name)
            return onnx_backend.OnnxEmbedder(entry, name, quantized, threads)
    except ImproperlyConfigured:
        raise  # the model does not load at all: no backend can run it
    except Exception as exc:  # any build or export failure falls back to torch where it can
        raise _OnnxFailed(f"{type(exc).__name__}: {exc}", torch_embedder) from exc


_embedder: Embedder | None = None
_embedder_lock = threading.Lock()
# Called with each embedding call's seconds (zeromemory's metrics register one); memories cannot
# import the wiring layer, so the wiring layer listens here.
_embed_observers: list[Callable[[float], None]] = []


def observe_embedding(observer: Callable[[float], None]) -> None:
    """Have ``observer`` called with the duration of every call to the process embedder's ``embed``."""
    if observer not in _embed_observers:
        _embed_observers.append(observer)


def embedder_loaded() -> bool:
    """Whether this process has its embedder (readiness: a request that embeds will not wait for the model)."""
    return _embedder is not None


def _timed(embedder: Embedder) -> Embedder:
    """The same embedder, its ``embed`` reporting each call's duration to the observers."""
    embed = embedder.embed

    def timed_embed(texts: Sequence[str]) -> list[list[float]]:
        started = time.perf_counter()
        try:
            return embed(texts)
        finally:
            elapsed = time.perf_counter() - started
            for observer in _embed_observers:
                observer(elapsed)

    setattr(embedder, "embed", timed_embed)  # noqa: B010 - an instance attribute, not a method assignment
    return embedder


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
                _embedder = _timed(embedder)
    return _embedder


def embed_one(text: str) -> list[float]:
    return get_embedder().embed([text])[0]


def embed_sentences(texts: Sequence[str], embedder: Embedder | None = None) -> list[list[list[float]]]:
    """Each text's sentence vectors (memories.text.sentences; none for a text of one sentence),
    in one call: sentences are short, and batched apart from whole texts they pad little."""
    split = [sentences(text) for text in texts]
    flat = iter((embedder or get_embedder()).embed([sentence for found in split for sentence in found]))
    return [[next(flat) for _ in found] for found in split]


def embed_with_sentences(texts: Sequence[str]) -> list[tuple[list[float], list[list[float]]]]:
    """Each text's vector and its sentences' vectors (as ``embed_sentences``), in one call."""
    split = [sentences(text) for text in texts]
    flat = iter(get_embedder().embed([*texts, *(sentence for found in split for sentence in found)]))
    whole = [next(flat) for _ in texts]
    return [(vector, [next(flat) for _ in found]) for vector, found in zip(whole, split, strict=True)]


__all__ = [
    "BACKENDS",
    "DEFAULT_MODEL_NAME",
    "Embedder",
    "EmbeddingError",
    "SentenceTransformerEmbedder",
    "build_embedder",
    "embed_one",
    "embed_sentences",
    "embed_with_sentences",
    "embedder_loaded",
    "get_embedder",
    "observe_embedding",
]
