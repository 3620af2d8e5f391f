"""The ONNX graph of a BERT sentence-transformers model, built from its weights without torch.

The weights are read from ``model.safetensors`` with numpy alone (an 8-byte header length, a JSON
header, raw little-endian data), and the encoder is written node by node (``onnx_proto``, no
``onnx`` package) in the same operations and order as ``torch.onnx.export`` of transformers'
eager BertModel writes them. The tokenizer is the model's own ``tokenizer.json``; the pooling
and maximum length come from its sentence-transformers files. Building all-MiniLM-L6-v2 takes
a second or two, once: the result is cached like the torch export (``onnx_backend.CacheEntry``).

Before a build is cached its vectors of the probe texts are checked against sentence-transformers'
own, stored in ``reference_vectors.json`` for the packaged model (keyed by the sha256 of its
weights; written by ``python -m memories.embedding.onnx_export``, and computed again with torch by
``tests/memories/test_embedding_reference.py``) or computed with torch where it is installed.
Only plain BERT (absolute positions, exact GELU) in a Transformer + Pooling (+ Normalize)
pipeline is built; anything else raises ``Unsupported``. Nothing here imports torch or onnx
(pyproject.toml's import contracts hold it).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import struct
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from memories.embedding.onnx_backend import (
    EXPORT_FORMAT,
    FP32_MIN_COSINE,
    OPSET,
    PROBE_TEXTS,
    SUPPORTED_POOLING,
    CacheEntry,
    FloatArray,
    OnnxEmbedder,
    temporary_path,
    verify,
    write_atomically,
)
from memories.embedding.onnx_proto import FLOAT, INT64, Graph

logger = logging.getLogger(__name__)

REFERENCE_VECTORS = Path(__file__).with_name("reference_vectors.json")
_DTYPES = {"F32": np.float32, "F16": np.float16, "I64": np.int64}
_INPUTS = ("input_ids", "attention_mask", "token_type_ids")


class Unsupported(ValueError):
    """A model the torch-free builder does not know how to write."""


@dataclass(frozen=True)
class Pipeline:
    """What sentence-transformers would do with the model, read from its files."""

    pooling: str
    max_seq_length: int
    config: dict[str, Any]


def _json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def pipeline(folder: Path) -> Pipeline:
    """The model's sentence-transformers settings (no sentence-transformers). Raises Unsupported."""
    required = ("modules.json", "config.json", "sentence_bert_config.json", "model.safetensors", "tokenizer.json")
    if missing := [name for name in required if not (folder / name).is_file()]:
        raise Unsupported(f"{folder} has no {', '.join(missing)}")
    modules = _json(folder / "modules.json")
    kinds = [module["type"].rsplit(".", 1)[-1] for module in modules]
    if kinds[:2] != ["Transformer", "Pooling"] or any(k != "Normalize" for k in kinds[2:]) or modules[0]["path"]:
        raise Unsupported(f"only Transformer + Pooling (+ Normalize) models are built, not {kinds}")
    pooling_config = _json(folder / modules[1]["path"] / "config.json")
    modes = [
        mode
        for mode in ("cls_token", "mean_tokens", "max_tokens", "mean_sqrt_len_tokens")
        if pooling_config.get(f"pooling_mode_{mode}")
    ]
    pooling = {"cls_token": "cls", "mean_tokens": "mean", "max_tokens": "max"}.get(modes[0], modes[0]) if modes else ""
    if len(modes) != 1 or pooling not in SUPPORTED_POOLING:
        raise Unsupported(f"pooling {modes} is not supported (one of {sorted(SUPPORTED_POOLING)})")
    prompts = folder / "config_sentence_transformers.json"
    if prompts.is_file() and _json(prompts).get("default_prompt_name"):
        raise Unsupported("models with a default prompt are not built")
    settings = _json(folder / "sentence_bert_config.json")
    if settings.get("do_lower_case"):
        raise Unsupported("sentence-transformers lowercasing is not built")
    config = _json(folder / "config.json")
    if config.get("model_type") != "bert" or config.get("hidden_act") != "gelu":
        kind = f"{config.get('model_type')}/{config.get('hidden_act')}"
        raise Unsupported(f"only BERT with exact GELU is built, not {kind}")
    if config.get("position_embedding_type", "absolute") != "absolute":
        raise Unsupported("only absolute position embeddings are built")
    if config["hidden_size"] % config["num_attention_heads"]:
        raise Unsupported("the hidden size is not a multiple of the attention heads")
    return Pipeline(pooling=pooling, max_seq_length=int(settings["max_seq_length"]), config=config)


def read_safetensors(path: Path) -> dict[str, npt.NDArray[Any]]:
    """Every tensor in the file, float32 or int64, as numpy arrays (memory-mapped where they can be)."""
    with path.open("rb") as handle:
        (length,) = struct.unpack("<Q", handle.read(8))
        header = json.loads(handle.read(length))
    data = np.memmap(path, dtype=np.uint8, mode="r")
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        if info["dtype"] not in _DTYPES:
            raise Unsupported(f"{name} is {info['dtype']}")
        start, end = (8 + length + offset for offset in info["data_offsets"])
        array = np.frombuffer(data[start:end], dtype=np.dtype(_DTYPES[info["dtype"]]).newbyteorder("<"))
        array = array.reshape(info["shape"])
        tensors[name] = array.astype(np.int64 if info["dtype"] == "I64" else np.float32, copy=False)
    return tensors


def write_bert_graph(path: Path, weights: dict[str, npt.NDArray[Any]], config: dict[str, Any]) -> None:
    """The encoder: (input_ids, attention_mask, token_type_ids) -> last_hidden_state, to ``path``."""
    _BertGraph(weights, config).save(path)


class _BertGraph:
    """transformers' eager BertModel, node by node, as ``torch.onnx.export`` writes it."""

    def __init__(self, weights: dict[str, npt.NDArray[Any]], config: dict[str, Any]) -> None:
        self.weights, self.config = weights, config
        self.prefix = "bert." if "bert.embeddings.word_embeddings.weight" in weights else ""
        self.hidden, self.heads = int(config["hidden_size"]), int(config["num_attention_heads"])
        self.eps = float(config["layer_norm_eps"])
        self.graph = graph = Graph("bert")
        head = self.hidden // self.heads
        self.one = graph.constant("one", np.array(1.0, np.float32))
        self.split = graph.constant("split", np.array([0, 0, self.heads, head], np.int64))
        self.merge = graph.constant("merge", np.array([0, 0, self.hidden], np.int64))
        self.scale = graph.constant("scale", np.array(1.0 / np.sqrt(head), np.float32))
        self.sqrt2 = graph.constant("sqrt2", np.array(np.sqrt(2.0), np.float32))
        self.half = graph.constant("half", np.array(0.5, np.float32))

    def weight(self, name: str) -> npt.NDArray[Any]:
        try:
            return self.weights[self.prefix + name]
        except KeyError:
            raise Unsupported(f"the weights have no {self.prefix + name}") from None

    def linear(self, x: str, name: str) -> str:
        # torch's Linear keeps its weight as [out, in]: MatMul takes it transposed.
        weight = self.graph.constant(f"{name}.weight_t", self.weight(f"{name}.weight").T)
        bias = self.graph.constant(f"{name}.bias", self.weight(f"{name}.bias"))
        return self.graph.node("Add", [bias, self.graph.node("MatMul", [x, weight])])

    def layer_norm(self, x: str, name: str) -> str:
        gamma = self.graph.constant(f"{name}.weight", self.weight(f"{name}.weight"))
        beta = self.graph.constant(f"{name}.bias", self.weight(f"{name}.bias"))
        return self.graph.node("LayerNormalization", [x, gamma, beta], axis=-1, epsilon=self.eps)

    def attention_mask(self) -> str:
        """The additive mask, [batch, 1, 1, sequence]: 0 on tokens, float32's min on padding."""
        graph = self.graph
        axes = graph.constant("axes_1_2", np.array([1, 2], np.int64))
        mask = graph.node("Cast", [graph.node("Unsqueeze", ["attention_mask", axes])], to=FLOAT)
        lowest = graph.constant("lowest", np.array(np.finfo(np.float32).min, np.float32))
        return graph.node("Mul", [graph.node("Sub", [self.one, mask]), lowest])

    def embeddings(self) -> str:
        """(words + token types) + positions 0..S-1, normalised. The positions are a Slice of an id
        table, then a Gather: a Range with scalar bounds is rewritten by onnxruntime's optimizer into
        an invalid Slice."""
        graph, table = self.graph, self.weight("embeddings.position_embeddings.weight")
        length = graph.node("Shape", ["input_ids"], start=1, end=2)
        ids = graph.constant("position_ids", np.arange(table.shape[0], dtype=np.int64)[None])
        starts, steps = (
            graph.constant("zero_1d", np.array([0], np.int64)),
            graph.constant("one_1d", np.array([1], np.int64)),
        )
        positions = graph.node("Slice", [ids, starts, length, steps])
        words = graph.constant("word_embeddings", self.weight("embeddings.word_embeddings.weight"))
        types = graph.constant("token_type_embeddings", self.weight("embeddings.token_type_embeddings.weight"))
        summed = graph.node(
            "Add", [graph.node("Gather", [words, "input_ids"]), graph.node("Gather", [types, "token_type_ids"])]
        )
        summed = graph.node(
            "Add", [summed, graph.node("Gather", [graph.constant("position_embeddings", table), positions])]
        )
        return self.layer_norm(summed, "embeddings.LayerNorm")

    def layer(self, x: str, mask: str, index: int) -> str:
        graph, p = self.graph, f"encoder.layer.{index}"

        def heads_of(name: str, perm: list[int]) -> str:
            return graph.node("Transpose", [graph.node("Reshape", [self.linear(x, name), self.split])], perm=perm)

        q = heads_of(f"{p}.attention.self.query", [0, 2, 1, 3])
        k = heads_of(f"{p}.attention.self.key", [0, 2, 3, 1])
        v = heads_of(f"{p}.attention.self.value", [0, 2, 1, 3])
        scores = graph.node("Add", [graph.node("Mul", [graph.node("MatMul", [q, k]), self.scale]), mask])
        context = graph.node("MatMul", [graph.node("Softmax", [scores], axis=-1), v])
        context = graph.node("Reshape", [graph.node("Transpose", [context], perm=[0, 2, 1, 3]), self.merge])
        attended = graph.node("Add", [self.linear(context, f"{p}.attention.output.dense"), x])
        x = self.layer_norm(attended, f"{p}.attention.output.LayerNorm")
        inner = self.linear(x, f"{p}.intermediate.dense")  # exact GELU: x * (1 + erf(x / sqrt 2)) / 2
        erf = graph.node("Erf", [graph.node("Div", [inner, self.sqrt2])])
        gelu = graph.node("Mul", [graph.node("Mul", [inner, graph.node("Add", [erf, self.one])]), self.half])
        return self.layer_norm(graph.node("Add", [self.linear(gelu, f"{p}.output.dense"), x]), f"{p}.output.LayerNorm")

    def save(self, path: Path) -> None:
        mask = self.attention_mask()
        x = self.embeddings()
        for index in range(int(self.config["num_hidden_layers"])):
            x = self.layer(x, mask, index)
        self.graph.node("Identity", [x], ["last_hidden_state"])
        dims: list[int | str] = ["batch", "sequence"]
        self.graph.save(
            path,
            [(name, INT64, dims) for name in _INPUTS],
            [("last_hidden_state", FLOAT, [*dims, self.hidden])],
            opset=OPSET,
            producer="zeromemory",
        )


def weights_digest(folder: Path) -> str:
    digest = hashlib.sha256()
    with (folder / "model.safetensors").open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def stored_reference(folder: Path) -> FloatArray | None:
    """sentence-transformers' vectors of the probe texts, if they are stored for these weights."""
    if not REFERENCE_VECTORS.is_file() or not (folder / "model.safetensors").is_file():
        return None
    stored = _json(REFERENCE_VECTORS)
    if stored["texts"] != list(PROBE_TEXTS) or stored["safetensors_sha256"] != weights_digest(folder):
        return None
    return np.asarray(stored["vectors"], dtype=np.float32)


def build(entry: CacheEntry, folder: Path, name: str, reference: FloatArray | None) -> None:
    """Write ``entry``'s tokenizer, meta and fp32 model from ``folder``, checked against ``reference``.

    Raises Unsupported for a model it does not build, OnnxExportError when the vectors differ.
    Without a reference (another model, and no torch to compute one) the build is only checked
    for finite unit vectors, and says so in the log.
    """
    from tokenizers import Tokenizer

    started = time.perf_counter()
    settings = pipeline(folder)
    weights = read_safetensors(folder / "model.safetensors")
    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tokenizer.enable_truncation(max_length=settings.max_seq_length)
    tokenizer.no_padding()
    meta = {
        "dimensions": int(settings.config["hidden_size"]),
        "pooling": settings.pooling,
        "max_seq_length": settings.max_seq_length,
        "inputs": list(_INPUTS),
        "export_format": EXPORT_FORMAT,
        "opset": OPSET,
        "builder": "numpy",
    }
    entry.folder.mkdir(parents=True, exist_ok=True)
    write_atomically(entry.tokenizer, tokenizer.to_str())
    write_atomically(entry.meta, json.dumps(meta, indent=2))
    target = entry.model(quantized=False)
    temporary = temporary_path(target)
    try:
        write_bert_graph(temporary, weights, settings.config)
        del weights
        candidate = OnnxEmbedder(entry, name, path=temporary)
        if reference is not None:
            worst = verify(candidate, reference, FP32_MIN_COSINE)
            checked = f"lowest probe cosine to sentence-transformers: {worst:.6f}"
        else:
            verify(candidate, candidate.encode(PROBE_TEXTS), FP32_MIN_COSINE)  # finite, unit, batch = single
            checked = "no sentence-transformers reference to check against"
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)
    elapsed = time.perf_counter() - started
    logger.info("Built %s as ONNX at %s in %.1fs without torch (%s).", name, target, elapsed, checked)
