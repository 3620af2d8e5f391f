"""The real embedding model, loaded offline from the installed package."""

from __future__ import annotations

import math

from memories.embeddings import get_embedder


def _cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def test_the_packaged_model_gives_unit_384_dimension_vectors_with_meaningful_distances():
    embedder = get_embedder()

    deploy, moved, lunch = embedder.embed(
        [
            "The deploy window is Monday 10:00 UTC.",
            "Deploys now happen on Friday at 14:00 UTC.",
            "I had a sandwich for lunch.",
        ]
    )

    assert embedder.dimensions == 384
    assert len(deploy) == 384
    assert math.isclose(math.sqrt(_cosine(deploy, deploy)), 1.0, rel_tol=1e-4)
    assert _cosine(deploy, moved) > _cosine(deploy, lunch) + 0.2


def test_the_embedder_is_loaded_once_per_process():
    assert get_embedder() is get_embedder()


def test_the_model_loads_without_network(monkeypatch):
    import os

    assert os.environ.get("HF_HUB_OFFLINE") == "1"
    assert get_embedder().name == "sentence-transformers/all-MiniLM-L6-v2"
