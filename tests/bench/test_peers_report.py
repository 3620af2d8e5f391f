"""The pure parts of ``./zm bench --peers``: the shared workload, the ratios, the targets and the
page (bench/peers_workload.py, bench/peers_report.py). The peers themselves never run here."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import pytest

from bench.peers_report import (
    OPERATIONS,
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


def side(
    key: str,
    name: str,
    figures: tuple[float, float, float, float],
    embedding: float,
    row: str = "",
    pending: dict[str, list[int]] | None = None,
) -> Side:
    # Three calls per operation around the wanted median: p50 is the middle one, p95 the last.
    operations = {op: [value - 1, value, value + 5] for op, value in zip(OPERATIONS, figures, strict=True)}
    return Side(
        key, name, "detail", operations, [embedding - 1, embedding, embedding + 1], row=row, pending=pending or {}
    )


DRAINED = "ours, after the worker drained the seeding"
BACKLOG = "ours, with the seeding's hygiene backlog running"


@pytest.fixture
def issue_figures() -> list[Side]:
    """Issue 37's measurement: p50 ms of write, replace, search and delete / forget, and the
    embedding per text."""
    return [
        side("unforget", "unforget 0.3.0", (18.1, 18.8, 38.8, 2.1), 14.4),
        side("mem0", "mem0 2.2.1", (17.9, 18.5, 17.0, 1.8), 16.8),
        side(
            "ours",
            DRAINED,
            (34.2, 30.4, 35.6, 30.2),
            5.3,
            row="drained",
            pending={"write": [0, 14], "replace": [14, 3], "search": [3, 0], "forget": [0, 0]},
        ),
        side(
            "ours",
            BACKLOG,
            (36.3, 33.2, 32.9, 27.4),
            5.3,
            row="backlog",
            pending={"write": [2000, 1712], "replace": [1712, 1490], "search": [1490, 1268], "forget": [1268, 1051]},
        ),
    ]


def test_percentile_is_the_nearest_rank() -> None:
    assert percentile([5.0, 1.0, 3.0], 0.5) == 3.0
    assert percentile([float(n) for n in range(1, 101)], 0.95) == 95.0
    assert percentile([7.0], 0.95) == 7.0


def test_ratios_whole_and_beyond_each_sides_own_embedding(issue_figures: list[Side]) -> None:
    unforget, mem0, drained, _ = issue_figures
    found = ratios(drained, unforget)
    assert found["write"].whole == pytest.approx(34.2 / 18.1)
    assert found["write"].beyond_embedding == pytest.approx((34.2 - 5.3) / (18.1 - 14.4))
    assert ratios(drained, mem0)["search"].beyond_embedding == pytest.approx((35.6 - 5.3) / (17.0 - 16.8))


def test_a_delete_embeds_nothing_so_beyond_the_embedding_is_its_whole_time(issue_figures: list[Side]) -> None:
    unforget, mem0, drained, _ = issue_figures
    assert unforget.beyond_embedding("forget") == 2.1
    assert drained.beyond_embedding("forget") == 30.2
    found = ratios(drained, mem0)["forget"]
    assert found.whole == found.beyond_embedding == pytest.approx(30.2 / 1.8)


def test_a_ratio_to_no_time_left_is_not_a_number() -> None:
    assert ratio(10.0, 0.0) is None
    assert ratio(10.0, -2.0) is None
    assert ratio(3.0, 2.0) == 1.5


def test_targets_are_one_and_a_half_times_the_faster_peer_for_each_row_of_ours(issue_figures: list[Side]) -> None:
    unforget, mem0, drained, backlog = issue_figures
    peers = {"unforget": unforget, "mem0": mem0}
    rows = targets([drained, backlog], peers)
    assert [(row.operation, row.side) for row in rows] == [
        ("write", DRAINED),
        ("write", BACKLOG),
        ("replace", DRAINED),
        ("replace", BACKLOG),
        ("search", DRAINED),
        ("search", BACKLOG),
        ("delete / forget", DRAINED),
        ("delete / forget", BACKLOG),
    ]
    # mem0 is the faster peer at every operation of the issue's run.
    assert [row.faster for row in rows[::2]] == [
        "mem0 2.2.1, 17.9 ms",
        "mem0 2.2.1, 18.5 ms",
        "mem0 2.2.1, 17.0 ms",
        "mem0 2.2.1, 1.8 ms",
    ]
    assert [row.wanted for row in rows[::2]] == pytest.approx([26.85, 27.75, 25.5, 2.7])
    assert [row.measured for row in rows] == [34.2, 36.3, 30.4, 33.2, 35.6, 32.9, 30.2, 27.4]
    assert not any(row.met for row in rows)

    # The faster peer per operation: unforget once it is the faster one; at the limit is met.
    quick_unforget = side("unforget", "unforget 0.3.0", (10.0, 18.8, 38.8, 2.1), 9.0)
    fast = side("ours", DRAINED, (15.0, 27.75, 25.6, 2.7), 5.0, row="drained")
    rows = targets([fast], {"unforget": quick_unforget, "mem0": mem0})
    assert [row.faster for row in rows] == [
        "unforget 0.3.0, 10.0 ms",
        "mem0 2.2.1, 18.5 ms",
        "mem0 2.2.1, 17.0 ms",
        "mem0 2.2.1, 1.8 ms",
    ]
    assert [row.met for row in rows] == [True, True, False, True]
    assert len(targets([fast], {"mem0": mem0})) == 4  # one peer present: it is the faster
    assert targets([fast], {}) == []  # no peer, no target


CONTEXT = Context(
    date="2026-12-04",
    machine="2 cores",
    commit="abc1234",
    minutes=3.2,
    facts=2000,
    operations=200,
    warmup=20,
    quiet="**Not a quiet machine**: busy.",
    server="gunicorn, 2 workers of 4 threads, the hygiene task worker on at nice 10",
    how=["**The peers** come from PyPI."],
)


def test_the_page_shows_the_issues_table_with_the_forget_column_and_both_rows_of_ours(
    issue_figures: list[Side],
) -> None:
    page = markdown(issue_figures, CONTEXT)
    assert page.startswith("# Peers side by side\n")
    assert "Written by `./zm bench --peers`" in page
    assert "**Not a quiet machine**" in page
    assert "in process" in page
    assert "through HTTP" in page
    issue_table = (
        "| | write | replace | search | delete / forget |\n"
        "| --- | ---: | ---: | ---: | ---: |\n"
        "| unforget 0.3.0 | 18.1 | 18.8 | 38.8 | 2.1 |\n"
        "| mem0 2.2.1 | 17.9 | 18.5 | 17.0 | 1.8 |\n"
        "| ours, after the worker drained the seeding | 34.2 | 30.4 | 35.6 | 30.2 |\n"
        "| ours, with the seeding's hygiene backlog running | 36.3 | 33.2 | 32.9 | 27.4 |\n"
    )
    assert "## The issue's table (p50 ms)\n\n" + issue_table in page
    # Latency, p50 / p95, the forget column before the embedding's.
    assert "| mem0 2.2.1 (detail) | 17.9 / 22.9 | 18.5 / 23.5 | 17.0 / 22.0 | 1.8 / 6.8 | 16.8 / 17.8 |" in page
    # The hygiene checks waiting when each operation's timing began and ended.
    assert "| ours, after the worker drained the seeding | 0 → 14 | 14 → 3 | 3 → 0 | 0 → 0 |" in page
    assert (
        "| ours, with the seeding's hygiene backlog running | 2,000 → 1,712 | 1,712 → 1,490 | 1,490 → 1,268 | "
        "1,268 → 1,051 |" in page
    )
    # What each side calls: ours once, both rows call the same.
    assert "| unforget 0.3.0 | `write` | `supersede` | `recall` | `forget` (a delete) |" in page
    assert "| mem0 2.2.1 | `add(infer=False)` | `update` (in place) | `search` | `delete(memory_id)` |" in page
    assert page.count("| ours | remember | declared supersede | hybrid recall | forget |") == 1
    # Beyond the embedding: a forget embeds nothing, its whole p50.
    assert "A delete or forget embeds nothing on any side" in page
    assert "| unforget 0.3.0 | 3.7 | 4.4 | 24.4 | 2.1 |" in page
    assert "| ours, with the seeding's hygiene backlog running | 31.0 | 27.9 | 27.6 | 27.4 |" in page
    # Ratios: whole / beyond for the three that embed; one figure for the forget.
    assert (
        f"| ours, after the worker drained the seeding ÷ mem0 2.2.1 | {34.2 / 17.9:.2f}x / "
        f"{(34.2 - 5.3) / (17.9 - 16.8):.2f}x | {30.4 / 18.5:.2f}x / {(30.4 - 5.3) / (18.5 - 16.8):.2f}x | "
        f"{35.6 / 17.0:.2f}x / {(35.6 - 5.3) / (17.0 - 16.8):.2f}x | {30.2 / 1.8:.2f}x |" in page
    )
    # Issue 37's targets replace issue 19's.
    assert "## Targets (issue 37)" in page
    assert "issue 19" not in page
    assert (
        "| operation | ours | faster peer, p50 | wanted: ≤ 1.5x that | ours, p50 | met |\n"
        "| --- | --- | --- | ---: | ---: | :---: |\n"
        "| write | ours, after the worker drained the seeding | mem0 2.2.1, 17.9 ms | ≤ 26.8 ms | 34.2 ms | **no** |\n"
    ) in page
    assert (
        "| delete / forget | ours, with the seeding's hygiene backlog running | mem0 2.2.1, 1.8 ms | ≤ 2.7 ms | "
        "27.4 ms | **no** |\n" in page
    )
    met = side("ours", DRAINED, (20.0, 20.0, 20.0, 2.7), 5.0, row="drained")
    page = markdown([*issue_figures[:2], met], CONTEXT)
    assert (
        "| delete / forget | ours, after the worker drained the seeding | mem0 2.2.1, 1.8 ms | ≤ 2.7 ms | 2.7 ms "
        "| yes |" in page
    )


def test_the_console_and_the_json_show_every_side(issue_figures: list[Side]) -> None:
    console = "\n".join(console_table(issue_figures))
    assert "delete / forget" in console
    assert "drained ÷ mem0 2.2.1" in console
    assert "backlog ÷ unforget 0.3.0" in console
    assert "checks pending, backlog" in console
    assert (
        "target delete / forget (ours, after the worker drained the seeding): 30.2 ms against ≤ 2.7 ms "
        "(1.5x mem0 2.2.1, 1.8 ms): NOT met" in console
    )
    figures = summary(issue_figures)
    assert sorted(figures) == ["mem0", "ours_backlog", "ours_drained", "targets", "unforget"]
    drained = figures["ours_drained"]
    assert drained["latency_ms"]["write"]["beyond_embedding_p50"] == pytest.approx(34.2 - 5.3)  # type: ignore[index]
    assert drained["latency_ms"]["forget"] == {"p50": 30.2, "p95": 35.2, "beyond_embedding_p50": 30.2}  # type: ignore[index]
    assert figures["ours_backlog"]["hygiene_checks_pending"]["write"] == [2000, 1712]  # type: ignore[index]
    assert "hygiene_checks_pending" not in figures["mem0"]  # type: ignore[operator]
    assert figures["targets"][-1] == {  # type: ignore[index]
        "operation": "delete / forget",
        "side": BACKLOG,
        "faster_peer": "mem0 2.2.1, 1.8 ms",
        "wanted_ms": pytest.approx(2.7),
        "measured_ms": 27.4,
        "met": False,
    }


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
    forgets = work.forgets + work.warm_forgets
    assert len(work.forgets) == 40
    assert len(work.warm_forgets) == 5
    assert len(set(forgets)) == 45
    assert not set(forgets) & set(targets)  # a fact is replaced or deleted, never both
    assert all(0 <= target < 300 for target in forgets)
    questions = work.searches + work.warm_searches
    assert len(questions) == len(set(questions)) == 45
    assert workload_module.workload(facts=300, operations=40, warmup=5) == work  # the same on every side


def test_the_workload_says_when_the_corpus_runs_short(workload_module: ModuleType) -> None:
    with pytest.raises(ValueError, match="distinct questions"):
        workload_module.workload(facts=10, operations=5000, warmup=0)
