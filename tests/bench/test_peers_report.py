"""The pure parts of ``./zm bench --peers``: the shared workload, the ratios, the targets and the
page (bench/peers_workload.py, bench/peers_report.py). The peers themselves never run here."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import pytest

from bench.peers_report import (
    Context,
    Side,
    console_table,
    markdown,
    percentile,
    ratio,
    ratios,
    summary,
    targets,
)

BENCH = Path(__file__).resolve().parents[2] / "bench"


def side(key: str, name: str, write: float, replace: float, search: float, embedding: float) -> Side:
    # Three calls per operation around the wanted median: p50 is the middle one.
    operations = {
        op: [value - 1, value, value + 5]
        for op, value in zip(("write", "replace", "search"), (write, replace, search), strict=True)
    }
    return Side(key, name, "detail", operations, [embedding - 1, embedding, embedding + 1])


@pytest.fixture
def issue_figures() -> list[Side]:
    """The issue's measurement: p50 ms and the embedding per text."""
    return [
        side("unforget", "unforget 0.3.0", 18.4, 19.9, 44.6, 14.4),
        side("mem0", "mem0 2.2.1", 21.7, 23.0, 26.4, 16.8),
        side("ours", "zeromemory over HTTP", 31.9, 26.1, 29.4, 5.3),
    ]


def test_percentile_is_the_nearest_rank() -> None:
    assert percentile([5.0, 1.0, 3.0], 0.5) == 3.0
    assert percentile([float(n) for n in range(1, 101)], 0.95) == 95.0
    assert percentile([7.0], 0.95) == 7.0


def test_ratios_whole_and_beyond_each_sides_own_embedding(issue_figures: list[Side]) -> None:
    unforget, mem0, ours = issue_figures
    found = ratios(ours, unforget)
    assert found["write"].whole == pytest.approx(31.9 / 18.4)
    assert found["write"].beyond_embedding == pytest.approx((31.9 - 5.3) / (18.4 - 14.4))
    assert ratios(ours, mem0)["search"].beyond_embedding == pytest.approx((29.4 - 5.3) / (26.4 - 16.8))


def test_a_ratio_to_no_time_left_is_not_a_number() -> None:
    assert ratio(10.0, 0.0) is None
    assert ratio(10.0, -2.0) is None
    assert ratio(3.0, 2.0) == 1.5


def test_targets_compare_with_the_peer_the_issue_names(issue_figures: list[Side]) -> None:
    unforget, mem0, ours = issue_figures
    rows = targets(ours, {"unforget": unforget, "mem0": mem0})
    assert [row.met for row in rows] == [False, False, False, False, False, False]
    assert rows[0].name == "remember p50 ≤ unforget 0.3.0's `write` p50"
    assert rows[2].name == "hybrid recall p50 ≤ mem0 2.2.1's `search` p50"
    assert rows[3].measured == f"{(31.9 - 5.3) / (18.4 - 14.4):.1f} x"

    fast = side("ours", "zeromemory over HTTP", 14.0, 15.0, 20.0, 5.0)
    assert all(row.met for row in targets(fast, {"unforget": unforget, "mem0": mem0}))
    assert len(targets(fast, {"mem0": mem0})) == 2  # only what the peers present allow


def test_the_page_and_the_console_show_every_side(issue_figures: list[Side]) -> None:
    context = Context(
        date="2026-12-04",
        machine="2 cores",
        commit="abc1234",
        minutes=3.2,
        facts=2000,
        operations=200,
        warmup=20,
        quiet="**Not a quiet machine**: busy.",
        server="gunicorn, 2 workers of 4 threads, the hygiene task worker on",
        how=["**The peers** come from PyPI."],
    )
    page = markdown(issue_figures, context)
    assert page.startswith("# Peers side by side\n")
    assert "Written by `./zm bench --peers`" in page
    assert "**Not a quiet machine**" in page
    assert "in process" in page
    assert "through HTTP" in page
    assert "| unforget 0.3.0 (detail) | 18.4 / 23.4 | 19.9 / 24.9 | 44.6 / 49.6 | 14.4 / 15.4 |" in page
    assert f"| ours ÷ unforget 0.3.0 | {31.9 / 18.4:.2f}x / {(31.9 - 5.3) / (18.4 - 14.4):.2f}x |" in page
    assert "| remember p50 ≤ unforget 0.3.0's `write` p50 | ≤ 18.4 ms | 31.9 ms | **no** |" in page
    console = "\n".join(console_table(issue_figures))
    assert "zeromemory over HTTP" in console
    assert "ours ÷ mem0 2.2.1" in console
    figures = summary(issue_figures)
    assert figures["ours"]["latency_ms"]["write"]["beyond_embedding_p50"] == pytest.approx(31.9 - 5.3)  # type: ignore[index]


@pytest.fixture
def workload_module(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCH))  # the bench scripts import their siblings by name
    return importlib.import_module("peers_workload")


def test_the_workload_repeats_nothing(workload_module: ModuleType) -> None:
    work = workload_module.workload(facts=300, operations=40, warmup=5)
    stored = [content for _, content in work.facts]
    assert len(stored) == len(set(stored)) == 300
    new = [content for _, content in work.writes + work.warm_writes]
    new += [content for _, _, content in work.replaces + work.warm_replaces]
    assert len(new) == len(set(new)) == 90
    assert not set(new) & set(stored)
    targets = [target for target, _, _ in work.replaces + work.warm_replaces]
    assert len(set(targets)) == 45
    assert all(0 <= target < 300 for target in targets)
    questions = work.searches + work.warm_searches
    assert len(questions) == len(set(questions)) == 45
    assert workload_module.workload(facts=300, operations=40, warmup=5) == work  # the same on every side


def test_the_workload_says_when_the_corpus_runs_short(workload_module: ModuleType) -> None:
    with pytest.raises(ValueError, match="distinct questions"):
        workload_module.workload(facts=10, operations=5000, warmup=0)
