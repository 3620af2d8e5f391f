"""The embedding backends side by side: speed, start-up, memory, and agreement with torch.

    python bench/embedding_agreement.py [--corpus 3000] [--queries 200] [--no-startup]

For torch (sentence-transformers), onnx (fp32, the default) and onnx-int8: p50/p95 of one
short sentence, throughput of one call with 1,000 texts, top-10 nearest-neighbour agreement with
torch over a corpus of realistic notes (template sentences about services, people, dates and
numbers: clustered, so neighbours are close calls), and mean/min cosine to the torch vectors.
Then, each in a fresh process, the start-up time (build the embedder, embed one text) with an
empty ONNX cache (the graph built from the weights) and with the cached file, and the process's
resident memory.

Needs no database, and torch (requirements-dev.txt) for the reference. ONNX models come from and
go to the deployment's cache (DATA_DIR/onnx); the cold start-ups use a temporary folder.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from common import ROOT, percentile, sentence

from memories.embedding import Embedder, build_embedder

BACKENDS = ("torch", "onnx", "onnx-int8")
SHORT = "The billing service deploys on Friday at 14:00 UTC (moved from Monday)."
DATA_DIR = Path(os.environ.get("ZEROMEMORY_DATA_DIR") or ROOT / ".data").expanduser().resolve()

STARTUP = """
import json, sys, time
started = time.perf_counter()
from pathlib import Path
import psutil
from memories.embedding import build_embedder
embedder = build_embedder("", "cpu", sys.argv[1], cache_dir=Path(sys.argv[2]), threads=0)
embedder.embed(["warm-up"])
print(json.dumps({
    "seconds": time.perf_counter() - started,
    "class": type(embedder).__name__,
    "torch": "torch" in sys.modules,
    "rss_mb": psutil.Process().memory_info().rss / 2**20,
}))
"""


def build(backend: str) -> Embedder:
    return build_embedder("", "cpu", backend, cache_dir=DATA_DIR / "onnx", threads=0)


def latency(embedder: Embedder, runs: int = 300) -> tuple[float, float]:
    for _ in range(20):
        embedder.embed([SHORT])
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        embedder.embed([SHORT])
        times.append((time.perf_counter() - started) * 1000)
    return percentile(times, 0.5), percentile(times, 0.95)


def vectors(embedder: Embedder, texts: list[str]) -> np.ndarray:
    array = np.asarray(embedder.embed(texts), dtype=np.float32)
    return array / np.linalg.norm(array, axis=1, keepdims=True)


def top10(queries: np.ndarray, corpus: np.ndarray) -> np.ndarray:
    return np.argsort(-(queries @ corpus.T), axis=1)[:, :10]


def startup(backend: str, cache_dir: Path) -> dict[str, object]:
    result = subprocess.run(
        [sys.executable, "-c", STARTUP, backend, str(cache_dir)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    measured: dict[str, object] = json.loads(result.stdout.strip().splitlines()[-1])
    return measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=int, default=3000)
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--no-startup", action="store_true", help="Skip the start-up and memory measurements.")
    args = parser.parse_args()

    rng = random.Random(1)
    corpus = [sentence(rng, n) for n in range(args.corpus)]
    queries = [sentence(rng, 90_000 + n) for n in range(args.queries)]
    batch = corpus[:1000]
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; ", end="")
    print(f"corpus {len(corpus)}, queries {len(queries)}, batch {len(batch)}")

    header = f"{'backend':<10} {'name':<48} {'p50 ms':>7} {'p95 ms':>7} {'batch s':>10} {'texts/s':>8} "
    header += f"{'top-10 agree':>12} {'mean cos':>9} {'min cos':>9}"
    print(header)
    reference: tuple[np.ndarray, np.ndarray] = (np.empty(0), np.empty(0))
    for backend in BACKENDS:  # torch first: the reference
        embedder = build(backend)
        p50, p95 = latency(embedder)
        started = time.perf_counter()
        embedder.embed(batch)
        batch_seconds = time.perf_counter() - started
        corpus_vectors, query_vectors = vectors(embedder, corpus), vectors(embedder, queries)
        if backend == "torch":
            reference = (corpus_vectors, top10(query_vectors, corpus_vectors))
        got = top10(query_vectors, corpus_vectors)
        agreement = float(np.mean([len(set(a) & set(b)) / 10 for a, b in zip(reference[1], got, strict=True)]))
        cosines = (corpus_vectors * reference[0]).sum(axis=1)
        print(
            f"{backend:<10} {embedder.name:<48} {p50:>7.2f} {p95:>7.2f} {batch_seconds:>10.2f} "
            f"{len(batch) / batch_seconds:>8.0f} {agreement:>12.3f} {cosines.mean():>9.6f} {cosines.min():>9.6f}",
            flush=True,
        )
        del embedder

    if args.no_startup:
        return
    print("\nStart-up in a fresh process (import, build the embedder, embed one text):")
    with tempfile.TemporaryDirectory() as empty:
        cold_cache = Path(empty) / "onnx"
        runs = [
            ("torch", "torch", DATA_DIR / "onnx"),
            ("onnx, empty cache (build)", "onnx", cold_cache),
            ("onnx, cached", "onnx", cold_cache),
            ("onnx-int8, fp32 cached (quantize)", "onnx-int8", cold_cache),
            ("onnx-int8, cached", "onnx-int8", cold_cache),
        ]
        for label, backend, cache in runs:
            measured = startup(backend, cache)
            print(
                f"  {label:<36} {measured['seconds']:>6.2f} s  RSS {measured['rss_mb']:>5.0f} MB  "
                f"{measured['class']}{'  (torch imported)' if measured['torch'] else ''}"
            )


if __name__ == "__main__":
    main()
