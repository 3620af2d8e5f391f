"""The pure parts of ``./zm bench --throughput``: the rates and the page (bench/throughput_report.py).
The servers and the worker never run here."""

from __future__ import annotations

import pytest

from bench.throughput_report import Context, Drain, Load, Side, markdown, p50_p95


def side(label: str, commit: str, scale: float, left: int = 12, rounds: int = 2) -> Side:
    """Hand-made figures: ``scale`` multiplies every latency (the faster side is the smaller)."""
    made = Side(label, commit)
    for clients, seconds in ((4, 10.0), (16, 8.0)):
        for operation, base in (("remember", 20.0), ("recall", 30.0)):
            # 100 requests of base, base + 1, … base + 99 ms (times scale), in ``seconds``: in two
            # rounds of half the time each, 40 requests in the first and 60 in the second.
            latencies = [(base + n) * scale for n in range(100)]
            if rounds == 1:
                made.loads.append(Load(operation, clients, seconds, latencies))
            else:
                made.loads.append(Load(operation, clients, seconds / 2, latencies[:40]))
                made.loads.append(Load(operation, clients, seconds / 2, latencies[40:]))
    made.drain = Drain(checks=400, judgments=250, seconds=12.5)
    made.idle = {"remember": [10.0 * scale, 11.0 * scale, 30.0 * scale], "recall": [20.0 * scale] * 3}
    made.backlog = {"remember": [12.0 * scale, 15.0 * scale, 40.0 * scale], "recall": [22.0, 23.0, 24.0]}
    made.judged_during_backlog = 150
    made.backlog_seconds = 12.0
    made.left_after_backlog = left
    return made


@pytest.fixture
def context() -> Context:
    return Context(
        date="2026-12-06",
        machine="2 cores (AMD EPYC), Python 3.11.7",
        size=10_000,
        clients=[4, 16],
        seconds=10,
        rounds=2,
        requests=200,
        checks=400,
        backlog=400,
        niceness=10,
        minutes=5.25,
        command="./zm bench --throughput --before /work/wt-t-base",
    )


def test_rates_are_answered_requests_and_judgments_over_the_time_taken() -> None:
    assert Load("remember", 4, 8.0, [5.0] * 200).per_second == 25.0
    drain = Drain(checks=400, judgments=250, seconds=12.5)
    assert drain.checks_per_second == 32.0
    assert drain.judgments_per_second == 20.0
    assert p50_p95([float(n) for n in range(1, 101)]) == "51.0 / 95.0"  # nearest rank


def test_the_page_puts_both_sides_in_columns_row_by_row(context: Context) -> None:
    page = markdown([side("before", "c4fdd4f", 2.0), side("after", "1234abc", 1.0)], context)
    lines = page.splitlines()

    assert lines[0] == "# Throughput"
    assert "Reproduce with `./zm bench --throughput --before /work/wt-t-base`" in lines[4]
    assert "the whole run took 5.2 minutes" in lines[4]
    assert "both running at once and measured in turn" in lines[6]
    assert "2 rounds of every phase: requests per second over them all, each round's in brackets" in page
    load_rows = lines[lines.index("## Requests per second under load") + 4 :][:6]
    assert load_rows == [
        "| operation | clients | before: per second | before: p50 / p95 ms | after: per second | after: p50 / p95 ms |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
        "| remember | 4 | 10.0 (8.0, 12.0) | 140.0 / 228.0 | 10.0 (8.0, 12.0) | 70.0 / 114.0 |",
        "| recall | 4 | 10.0 (8.0, 12.0) | 160.0 / 248.0 | 10.0 (8.0, 12.0) | 80.0 / 124.0 |",
        "| remember | 16 | 12.5 (10.0, 15.0) | 140.0 / 228.0 | 12.5 (10.0, 15.0) | 70.0 / 114.0 |",
        "| recall | 16 | 12.5 (10.0, 15.0) | 160.0 / 248.0 | 12.5 (10.0, 15.0) | 80.0 / 124.0 |",
    ]
    worker = lines[lines.index("## The hygiene worker's rate") + 4 :][:7]
    assert worker == [
        "| | before `c4fdd4f` | after `1234abc` |",
        "| --- | ---: | ---: |",
        "| checks drained | 400 | 400 |",
        "| seconds | 12.5 | 12.5 |",
        "| checks per second | 32.0 | 32.0 |",
        "| judgments recorded | 250 | 250 |",
        "| **judgments per second** | **20.0** | **20.0** |",
    ]
    effect = lines[lines.index("## The backlog's effect on request latency") + 4 :]
    assert effect == [
        "| operation | worker | before `c4fdd4f` | after `1234abc` |",
        "| --- | --- | ---: | ---: |",
        "| remember | idle | 22.0 / 60.0 | 11.0 / 30.0 |",
        "| remember | draining a backlog | 30.0 / 80.0 | 15.0 / 40.0 |",
        "| recall | idle | 40.0 / 40.0 | 20.0 / 20.0 |",
        "| recall | draining a backlog | 23.0 / 24.0 | 23.0 / 24.0 |",
        "| checks judged during the draining phase (still waiting at its end) | | 150 (12) | 150 (12) |",
        "| checks judged per second while the requests ran | | 12.5 | 12.5 |",
    ]
    assert page.endswith("| 12.5 | 12.5 |\n")


def test_one_side_has_one_column_and_a_backlog_that_ran_out_is_said(context: Context) -> None:
    context.rounds = 1
    page = markdown([side("this code", "1234abc", 1.0, left=0, rounds=1)], context)
    lines = page.splitlines()

    assert "both running at once" not in page
    assert "rounds" not in page
    assert "| remember | 16 | 12.5 | 70.0 / 114.0 |" in lines
    assert "| **judgments per second** | **20.0** |" in lines
    assert lines[-4] == "| checks judged during the draining phase (still waiting at its end) | | 150 (0) |"
    assert lines[-3] == "| checks judged per second while the requests ran | | 12.5 |"
    assert lines[-1] == (
        "**The backlog ran out before the draining phase ended** (this code): part of that phase ran "
        "with the worker idle. Run again with a larger `--backlog`."
    )
