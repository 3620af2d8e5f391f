"""The torch-free embedder held to sentence-transformers itself (development only: uses torch).

The server builds all-MiniLM-L6-v2's ONNX graph from the packaged weights with numpy
(memories/embedding/onnx_build.py) and installs no torch. Here: its vectors against the
sentence-transformers reference on varied texts (short, past the model's 256 tokens, non-Latin
scripts, emoji, code, empty and blank), the stored reference vectors a build is checked against
at run time, the graph file against onnx's own checker, the same bytes from every build, and a
build in a process where torch, transformers, sentence-transformers, onnx and the other packages
the server's install leaves out cannot be imported.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from memories.embedding import SentenceTransformerEmbedder, build_embedder, onnx_backend, onnx_build
from memories.embedding.base import DEFAULT_MODEL_NAME, packaged_model_path
from memories.embedding.onnx_backend import OnnxEmbedder

MIN_COSINE = 0.9999
_WORDS = [
    "alpha",
    "deploy",
    "cluster",
    "incident",
    "owner",
    "follow-up",
    "rotation",
    "billing",
    "service",
    "moved",
    "Friday",
    "UTC",
    "report",
]
PROBE = [
    "ok",
    "a",
    "",
    " ",
    "\n\t ",
    ".",
    "🚀",
    "The deploy window is Monday 10:00 UTC.",
    "Deploys now happen on Friday at 14:00 UTC; the search cluster moved to three nodes in eu-west-1.",
    # Past the model's 256 tokens: truncated the same way.
    " ".join(["The quarterly report lists every incident, its owner and its follow-up."] * 40),
    " ".join(_WORDS[(i * 7) % len(_WORDS)] + ("," if i % 9 == 0 else "") for i in range(400)),
    "Café naïve — über straße",
    "Cafe\u0301 with a combining accent",
    "東京の天気は晴れです",
    "Привет, мир",
    "مرحبا بالعالم",
    "नमस्ते दुनिया",
    "👩\u200d👩\u200d👧 a family emoji",
    "https://example.com/a?b=c#d",
    "SELECT * FROM memories WHERE id = 42;",
    "x = [i**2 for i in range(10)]",
    "The API returns HTTP 429 after 100 req/s",
    "2026-11-01T10:00:00Z",
    "tabs\tand\nnewlines   and  spaces",
    "\x00 control \x07 characters",
    "ALL CAPS SHOUTING",
    "  leading and trailing blanks  ",
]
# What requirements.txt and requirements-nodeps.txt leave out of the server's install.
LEFT_OUT = (
    "torch",
    "transformers",
    "sentence_transformers",
    "onnx",
    "huggingface_hub",
    "sympy",
    "google",
    "coloredlogs",
    "flatbuffers",
)


def _cosines(got: np.ndarray, expected: np.ndarray) -> np.ndarray:
    return (got * expected).sum(axis=1) / (np.linalg.norm(got, axis=1) * np.linalg.norm(expected, axis=1))


def _assert_close(got: object, expected: np.ndarray, texts: list[str]) -> None:
    cosines = _cosines(np.asarray(got, dtype=np.float64), expected)
    worst = int(cosines.argmin())
    assert cosines[worst] >= MIN_COSINE, f"cosine {cosines[worst]:.7f} < {MIN_COSINE} on {texts[worst]!r}"


@pytest.fixture(scope="module")
def reference() -> SentenceTransformerEmbedder:
    return SentenceTransformerEmbedder()


@pytest.fixture(scope="module")
def expected(reference: SentenceTransformerEmbedder) -> np.ndarray:
    return np.asarray(reference.embed(PROBE), dtype=np.float64)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> OnnxEmbedder:
    embedder = build_embedder("", "cpu", "onnx", cache_dir=tmp_path_factory.mktemp("data") / "onnx", threads=0)
    assert isinstance(embedder, OnnxEmbedder), "the build failed and fell back to torch"
    assert json.loads((embedder.path.parent / "meta.json").read_text(encoding="utf-8"))["builder"] == "numpy"
    return embedder


def test_the_probe_set_reaches_past_the_models_length(built):
    lengths = [len(built._tokenizer.encode(text).ids) for text in PROBE]

    assert max(lengths) == 256  # truncated at max_seq_length
    assert min(lengths) == 2  # [CLS] [SEP] alone


def test_the_torch_free_embedder_gives_the_sentence_transformers_vectors(built, expected):
    _assert_close([built.embed([text])[0] for text in PROBE], expected, PROBE)
    _assert_close(built.embed(PROBE), expected, PROBE)  # one padded batch


def test_the_stored_reference_vectors_are_sentence_transformers_own(reference):
    stored = json.loads(onnx_build.REFERENCE_VECTORS.read_text(encoding="utf-8"))

    assert stored["safetensors_sha256"] == onnx_build.weights_digest(packaged_model_path())
    assert stored["texts"] == list(onnx_backend.PROBE_TEXTS)
    now = np.asarray(reference.embed(stored["texts"]))
    assert np.abs(np.asarray(stored["vectors"]) - now).max() < 1e-6, "python -m memories.embedding.onnx_export"


def test_the_graph_passes_onnx_checker_and_every_build_writes_the_same_bytes(built, tmp_path):
    import onnx

    model = onnx.load(str(built.path))
    onnx.checker.check_model(model, full_check=True)
    entry = onnx_backend.CacheEntry(tmp_path / "again")
    onnx_build.build(entry, packaged_model_path(), DEFAULT_MODEL_NAME, reference=None)

    assert [i.name for i in model.graph.input] == ["input_ids", "attention_mask", "token_type_ids"]
    assert [o.name for o in model.graph.output] == ["last_hidden_state"]
    digest = hashlib.sha256(built.path.read_bytes()).hexdigest()
    assert hashlib.sha256(entry.model(quantized=False).read_bytes()).hexdigest() == digest


_WITHOUT_TORCH = """
import importlib.abc, json, sys
from pathlib import Path

left_out, cache, texts = json.loads(sys.stdin.read())


class LeftOut(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in left_out:
            raise ModuleNotFoundError(f"No module named {name!r} (not in the server's install)", name=name)
        return None


sys.meta_path.insert(0, LeftOut())
from memories.embedding import build_embedder

embedder = build_embedder("", "cpu", "onnx", cache_dir=Path(cache), threads=1)
vectors = embedder.embed(texts)
imported = sorted({m.partition(".")[0] for m in sys.modules} & set(left_out))
print(json.dumps({"class": type(embedder).__name__, "imported": imported, "vectors": vectors}))
"""


def test_a_fresh_build_and_embedding_import_nothing_the_server_leaves_out(tmp_path, expected):
    result = subprocess.run(
        [sys.executable, "-c", _WITHOUT_TORCH],
        input=json.dumps([LEFT_OUT, str(tmp_path / "onnx"), PROBE]),
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).parents[2],
    )
    outcome = json.loads(result.stdout)

    assert outcome["class"] == "OnnxEmbedder"
    assert outcome["imported"] == []
    _assert_close(outcome["vectors"], expected, PROBE)
    assert list((tmp_path / "onnx").rglob("model.onnx"))
