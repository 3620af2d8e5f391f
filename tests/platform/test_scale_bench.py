"""``./zm bench --scale`` on a clean data folder, small (issue 33): the million-memory run's code
path end to end — the corpus embedded by the model, the layout of owners, teams and version
chains loaded on a standalone server, the indexes rebuilt, then every measurement, HTTP through
``./zm web`` included. The run at a million is a command of its own (docs/scaling.md); this keeps
it from rotting."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bench.zm_serve import share_exported_model
from tests.platform.helpers import ROOT, child_env

SIZE = 3000


def test_the_scale_bench_builds_and_measures_a_store(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    share_exported_model(data)
    report = tmp_path / "scale.json"
    done = _scale(data, "--requests", "4", "--queries", "5", "--output", str(report))
    assert done.returncode == 0, f"{done.stdout[-3000:]}\n{done.stderr[-4000:]}"
    figures = json.loads(report.read_text())
    store = figures["store"]
    # Every memory loaded, in the three states, one declared link per superseded memory, a
    # created event per memory plus one per retirement, and the feed written by its triggers.
    states = {state: store.get(f"memories {state}", 0) for state in ("live", "superseded", "forgotten")}
    assert sum(states.values()) == SIZE, store
    assert all(states.values()), store
    assert store["link"] == states["superseded"], store
    assert store["memoryevent"] == SIZE + states["superseded"] + states["forgotten"], store
    assert store["feedevent"] == store["memoryevent"], store
    assert store["owners"] == figures["build"]["owners"] == 10, store
    assert figures["disk"]["database"] > 0
    assert figures["disk"]["index memory_embedding_hnsw_idx"] > 0
    for label in ("small", "large"):
        side = figures["vector side"][label]
        assert 0.0 <= side["recall@10"] <= 1.0, side
        assert side["visible"] > 0, side
        for operation in ("remember", "declared supersede", "recall"):
            assert figures["http"][label][operation]["p50"] > 0, figures["http"]
    assert set(figures["similar_existing"]) == {"~100", "~300", "~1000", "~3000", "~10000", "large"}
    # A second run reuses the store: it says so and builds nothing.
    again = _scale(data, "--requests", "2", "--queries", "2")
    assert again.returncode == 0, again.stderr[-4000:]
    assert "reusing the store built" in again.stdout
    assert "loading" not in again.stdout + again.stderr


def _scale(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "bench" / "suite.py"), "--scale", str(SIZE), *args],
        cwd=ROOT,
        env=child_env(ZEROMEMORY_DATA_DIR=str(data)),
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
