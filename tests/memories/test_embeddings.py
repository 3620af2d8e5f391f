"""The real embedding model, loaded offline from the installed package, and its backends.

The ONNX tests share one build (module-scoped, in a temporary folder): building takes a second or
two, loading the cached file a fraction of one. torch is here the reference and the fallback
(requirements-dev.txt); tests/memories/test_embedding_reference.py shows the server needs none of it.
"""

from __future__ import annotations

import json
import logging
import math
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
from django.core.exceptions import ImproperlyConfigured

from memories import embedding as embeddings
from memories.embedding import (
    EmbeddingError,
    SentenceTransformerEmbedder,
    build_embedder,
    get_embedder,
    onnx_backend,
    onnx_build,
    onnx_export,
    sentence_transformer,
)
from memories.embedding.onnx_backend import OnnxEmbedder
from memories.text import sentences

MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"
TEXTS = [
    "The deploy window is Monday 10:00 UTC.",
    "ok",
    "Deploys now happen on Friday at 14:00 UTC; the search cluster moved to three nodes in eu-west-1 "
    "after the March incident, and the on-call rotation changed with it.",
    "Ünïcode, emoji 🚀 and 東京 in one memory.",
    " ".join(["Every incident gets an owner, a timeline and a follow-up ticket."] * 40),  # > 256 tokens
]


def _cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b, strict=True))


def _cosines(a: list[list[float]], b: list[list[float]]) -> np.ndarray:
    left, right = np.asarray(a), np.asarray(b)
    return (left * right).sum(axis=1) / (np.linalg.norm(left, axis=1) * np.linalg.norm(right, axis=1))


@pytest.fixture(scope="module")
def torch_embedder() -> SentenceTransformerEmbedder:
    return SentenceTransformerEmbedder()


@pytest.fixture(scope="module")
def onnx_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("data") / "onnx"


@pytest.fixture(scope="module")
def onnx_fp32(onnx_cache: Path) -> OnnxEmbedder:
    embedder = build_embedder("", "cpu", "onnx", cache_dir=onnx_cache, threads=0)
    assert isinstance(embedder, OnnxEmbedder), "the build failed and fell back to torch"
    return embedder


@pytest.fixture(scope="module")
def onnx_int8(onnx_cache: Path, onnx_fp32: OnnxEmbedder) -> OnnxEmbedder:
    embedder = build_embedder("", "cpu", "onnx-int8", cache_dir=onnx_cache, threads=0)
    assert isinstance(embedder, OnnxEmbedder), "the quantization failed and fell back to torch"
    return embedder


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


def test_the_model_loads_without_network():
    assert get_embedder().name == MODEL_NAME
    assert os.environ.get("HF_HUB_OFFLINE") == "1"


def test_the_default_backend_is_onnx_with_the_model_name_of_torch(settings):
    assert settings.EMBEDDING_BACKEND == "onnx"
    assert isinstance(get_embedder(), OnnxEmbedder)


def test_onnx_gives_the_torch_vectors_for_single_texts_and_a_padded_batch(onnx_fp32, torch_embedder):
    single = [onnx_fp32.embed([text])[0] for text in TEXTS]
    batch = onnx_fp32.embed(TEXTS)
    reference = torch_embedder.embed(TEXTS)

    assert onnx_fp32.name == torch_embedder.name == MODEL_NAME  # same vectors, same recorded model
    assert onnx_fp32.dimensions == 384
    assert _cosines(single, reference).min() >= 0.9999
    assert _cosines(batch, reference).min() >= 0.9999
    assert np.allclose(np.linalg.norm(np.asarray(batch), axis=1), 1.0, atol=1e-5)


def test_a_batch_larger_than_one_run_keeps_the_order(onnx_fp32, torch_embedder):
    texts = [f"Memory {n}: " + "the cluster runs hot " * (n % 7) for n in range(70)]

    assert _cosines(onnx_fp32.embed(texts), torch_embedder.embed(texts)).min() >= 0.9999


def test_a_long_text_and_its_short_sentences_run_in_batches_of_their_own_widths():
    from memories.embedding.onnx_backend import BATCH_SIZE, _batches

    # A chat turn of 40 tokens and its sentences of 5 to 13: the turn is not padded into the
    # sentences' batch (nor they to its width); a batch is still at most BATCH_SIZE long.
    assert _batches([1, 2, 3, 4, 0], [40, 5, 6, 12, 13]) == [[1, 2, 3, 4], [0]]
    assert _batches(list(range(BATCH_SIZE + 1)), [8] * (BATCH_SIZE + 1)) == [
        list(range(BATCH_SIZE)),
        [BATCH_SIZE],
    ]


def test_a_text_with_its_sentences_gives_the_vectors_each_gives_alone(onnx_fp32):
    turn = (
        "I finally moved the lemon tree to the sunny windowsill in the kitchen. It had been "
        "dropping leaves all winter by the draughty door. Do you think it needs repotting too?"
    )
    parts = [turn, *sentences(turn)]
    together = np.asarray(onnx_fp32.embed(parts))
    alone = np.asarray([onnx_fp32.embed([part])[0] for part in parts])

    assert len(parts) == 4
    assert _cosines(together.tolist(), alone.tolist()).min() >= 0.99999


def test_int8_is_close_to_torch_and_recorded_under_its_own_name(onnx_int8, torch_embedder):
    vectors = onnx_int8.embed(TEXTS)

    assert onnx_int8.name == f"{MODEL_NAME}+onnx-int8"
    assert onnx_int8.path.name == "model-int8.onnx"
    assert _cosines(vectors, torch_embedder.embed(TEXTS)).min() >= 0.9


def test_the_packaged_model_is_built_without_torch_and_recorded_as_such(onnx_fp32):
    meta = json.loads((onnx_fp32.path.parent / "meta.json").read_text(encoding="utf-8"))

    assert meta["builder"] == "numpy"
    assert "torch" not in meta


def test_a_second_construction_loads_the_cache_without_exporting(onnx_cache, onnx_int8, monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("built, exported or loaded torch again")

    monkeypatch.setattr(onnx_build, "build", forbidden)
    monkeypatch.setattr(onnx_export, "export", forbidden)
    monkeypatch.setattr(onnx_export, "quantize", forbidden)
    monkeypatch.setattr(embeddings, "SentenceTransformerEmbedder", forbidden)

    again = build_embedder("", "cpu", "onnx", cache_dir=onnx_cache, threads=0)
    again_int8 = build_embedder("", "cpu", "onnx-int8", cache_dir=onnx_cache, threads=0)

    assert isinstance(again, OnnxEmbedder)
    assert isinstance(again_int8, OnnxEmbedder)
    assert again.name == MODEL_NAME
    assert again_int8.name == f"{MODEL_NAME}+onnx-int8"


def test_a_cached_export_loads_without_importing_torch(onnx_cache, onnx_fp32):
    script = (
        "import sys; from pathlib import Path; from memories.embedding import build_embedder; "
        f"e = build_embedder('', 'cpu', 'onnx', cache_dir=Path({str(onnx_cache)!r}), threads=1); "
        "e.embed(['warm-up']); "
        "print(type(e).__name__, 'torch' in sys.modules, 'sentence_transformers' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=Path(__file__).parents[2]
    )

    assert result.stdout.split() == ["OnnxEmbedder", "False", "False"]


def test_a_failed_build_falls_back_to_torch_with_a_warning(settings, tmp_path, torch_embedder, monkeypatch, caplog):
    settings.DATA_DIR = tmp_path

    def broken_build(*args, **kwargs):
        raise RuntimeError("the builder broke")

    monkeypatch.setattr(onnx_build, "build", broken_build)
    monkeypatch.setattr(embeddings, "SentenceTransformerEmbedder", lambda *args: torch_embedder)

    with caplog.at_level(logging.WARNING, logger="memories.embedding"):
        embedder = build_embedder("", "cpu", "onnx")

    assert embedder is torch_embedder
    assert "falling back to torch" in caplog.text
    assert "the builder broke" in caplog.text
    assert not list((tmp_path / "onnx").rglob("*.onnx"))


def test_a_build_that_gives_other_vectors_is_never_cached(settings, tmp_path, torch_embedder, monkeypatch, caplog):
    settings.DATA_DIR = tmp_path
    # The graph is right but pooling goes wrong: the check against the stored
    # sentence-transformers vectors must catch it.
    real_pool = onnx_backend.pool
    monkeypatch.setattr(onnx_backend, "pool", lambda hidden, mask, mode: real_pool(hidden, mask, "cls"))
    monkeypatch.setattr(embeddings, "SentenceTransformerEmbedder", lambda *args: torch_embedder)

    with caplog.at_level(logging.WARNING, logger="memories.embedding"):
        embedder = build_embedder("", "cpu", "onnx")

    assert embedder is torch_embedder
    assert "gives other vectors" in caplog.text
    assert [p.name for p in (tmp_path / "onnx").rglob("*.onnx*")] == []  # nor a temporary file left


def _not_bert(folder: Path) -> onnx_build.Pipeline:
    raise onnx_build.Unsupported("not BERT")


def test_a_model_the_builder_does_not_know_is_exported_with_torch(tmp_path, torch_embedder, monkeypatch):
    monkeypatch.setattr(onnx_build, "pipeline", _not_bert)
    monkeypatch.setattr(embeddings, "SentenceTransformerEmbedder", lambda *args: torch_embedder)

    embedder = build_embedder("", "cpu", "onnx", cache_dir=tmp_path / "onnx", threads=0)

    assert isinstance(embedder, OnnxEmbedder)
    assert "torch" in json.loads((embedder.path.parent / "meta.json").read_text(encoding="utf-8"))
    assert _cosines(embedder.embed(TEXTS), torch_embedder.embed(TEXTS)).min() >= 0.9999


def test_an_export_that_gives_other_vectors_is_never_cached(
    settings, tmp_path, onnx_fp32, torch_embedder, monkeypatch, caplog
):
    import torch

    settings.DATA_DIR = tmp_path
    monkeypatch.setattr(onnx_build, "pipeline", _not_bert)
    # The exporter "writes" the good graph (a copy of the shared build, to save the seconds
    # of a real export), but pooling goes wrong: the verification against torch must catch it.
    monkeypatch.setattr(torch.onnx, "export", lambda module, args, path, **kwargs: shutil.copy(onnx_fp32.path, path))
    real_pool = onnx_backend.pool
    monkeypatch.setattr(onnx_backend, "pool", lambda hidden, mask, mode: real_pool(hidden, mask, "cls"))
    monkeypatch.setattr(embeddings, "SentenceTransformerEmbedder", lambda *args: torch_embedder)

    with caplog.at_level(logging.WARNING, logger="memories.embedding"):
        embedder = build_embedder("", "cpu", "onnx")

    assert embedder is torch_embedder
    assert "gives other vectors" in caplog.text
    assert [p.name for p in (tmp_path / "onnx").rglob("*.onnx*")] == []  # nor a temporary file left


def _without_torch(monkeypatch: pytest.MonkeyPatch) -> None:
    """As in the server's install: sentence-transformers (and so torch) cannot be imported."""
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)
    monkeypatch.setattr(sentence_transformer, "available", lambda: False)


def test_without_torch_a_failed_build_stops_the_start_with_what_to_do(tmp_path, monkeypatch):
    _without_torch(monkeypatch)

    def broken_build(*args, **kwargs):
        raise RuntimeError("the builder broke")

    monkeypatch.setattr(onnx_build, "build", broken_build)

    with pytest.raises(ImproperlyConfigured, match=r"the builder broke.*torch backend .* is not installed"):
        build_embedder("", "cpu", "onnx", cache_dir=tmp_path / "onnx", threads=0)


def test_without_torch_a_model_the_builder_does_not_know_is_refused(tmp_path, monkeypatch):
    _without_torch(monkeypatch)
    monkeypatch.setattr(onnx_build, "pipeline", _not_bert)

    with pytest.raises(ImproperlyConfigured, match=r"Unsupported: not BERT.*requirements-dev\.txt"):
        build_embedder("", "cpu", "onnx", cache_dir=tmp_path / "onnx", threads=0)


def test_the_torch_backend_without_torch_says_what_to_install(monkeypatch):
    _without_torch(monkeypatch)

    with pytest.raises(ImproperlyConfigured, match=r"requirements-dev\.txt.*The default backend, onnx, needs neither"):
        build_embedder("", "cpu", "torch")


def test_int8_without_the_quantizer_says_what_to_install(tmp_path, onnx_fp32, monkeypatch):
    _without_torch(monkeypatch)
    monkeypatch.setitem(sys.modules, "onnxruntime.quantization", None)  # as without onnx and sympy
    cache = tmp_path / "onnx"
    folder = cache / onnx_fp32.path.parent.name
    folder.mkdir(parents=True)
    for name in ("meta.json", "tokenizer.json", "model.onnx"):  # the fp32 model is built already
        shutil.copy(onnx_fp32.path.parent / name, folder / name)

    with pytest.raises(ImproperlyConfigured, match=r"pip install onnx==1\.23\.2 sympy==1\.14\.0"):
        build_embedder("", "cpu", "onnx-int8", cache_dir=cache, threads=0)
    assert not list(cache.rglob("model-int8.onnx*"))


def test_a_hub_model_name_is_found_in_the_local_cache_without_the_hub_client(tmp_path, monkeypatch):
    repository = tmp_path / "hub" / "models--acme--mini"
    (repository / "refs").mkdir(parents=True)
    (repository / "refs" / "main").write_text("abc123\n", encoding="utf-8")
    (repository / "snapshots" / "abc123").mkdir(parents=True)
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.setitem(sys.modules, "huggingface_hub", None)

    assert embeddings._model_folder("acme/mini") == repository / "snapshots" / "abc123"
    assert embeddings._model_folder("acme/other") is None


def test_the_export_lock_keeps_a_second_exporter_waiting(onnx_fp32, tmp_path):
    entry = onnx_backend.CacheEntry(tmp_path / "model")
    outcome: list[str] = []

    def second() -> None:
        try:
            with onnx_backend.export_lock(entry, timeout=0.3):
                outcome.append("acquired")
        except TimeoutError:
            outcome.append("timed out")

    with onnx_backend.export_lock(entry):
        waiting = threading.Thread(target=second)
        waiting.start()
        waiting.join()
    late = threading.Thread(target=second)
    late.start()
    late.join()

    assert outcome == ["timed out", "acquired"]


def test_onnx_failures_while_embedding_raise_embedding_error(onnx_fp32, monkeypatch):
    class BrokenSession:
        def run(self, *args, **kwargs):
            raise RuntimeError("out of memory")

    monkeypatch.setattr(onnx_fp32, "_session", BrokenSession())

    with pytest.raises(EmbeddingError, match="out of memory"):
        onnx_fp32.embed(["anything"])


def test_an_unknown_backend_is_refused():
    with pytest.raises(ImproperlyConfigured, match="onnx, onnx-int8, torch"):
        build_embedder("", "cpu", "tensorflow")


def test_a_model_of_another_dimension_is_refused(settings, monkeypatch):
    settings.EMBEDDING_DIMENSIONS = 768
    monkeypatch.setattr(embeddings, "_embedder", None)

    with pytest.raises(ImproperlyConfigured, match="384-dimension vectors but the database stores 768"):
        get_embedder()
