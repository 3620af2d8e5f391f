"""judge_pairs (R-H6) and the hygiene sweep."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command

from review.judges import Verdict
from review.models import Conflict, Judgment
from tests.factories import make_memory


def test_judge_pairs_prints_one_json_line_per_pair(tmp_path, scripted_judge, capsys):
    scripted_judge.verdict = Verdict("duplicate", 0.93, "same statement")
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text(
        json.dumps({"id": "p1", "a": "Standup 09:30", "b": "standup at 09:30"})
        + "\n"
        + json.dumps({"id": "p2", "a": "Budget 10k", "b": "Budget 12k"})
        + "\n"
    )
    out = StringIO()

    call_command("judge_pairs", str(pairs), stdout=out)

    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert lines[0] == {"id": "p1", "relation": "duplicate", "confidence": 0.93, "rationale": "same statement"}
    # The judge's "duplicate" for two values is held to the structure, as in the pipeline (R-H8).
    assert (lines[1]["id"], lines[1]["relation"], lines[1]["confidence"]) == ("p2", "contradicts", 0.93)
    assert lines[1]["rationale"].startswith("same statement Structure: the values differ")


def test_judge_pairs_never_calls_facts_about_two_subjects_one(tmp_path, scripted_judge):
    scripted_judge.verdict = Verdict("supersedes", 0.99, "always sure")
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text(
        json.dumps(
            {"id": "s", "a": "The billing service deploys on Fridays.", "b": "The search service deploys on Fridays."}
        )
        + "\n"
    )
    out = StringIO()

    call_command("judge_pairs", str(pairs), stdout=out)

    line = json.loads(out.getvalue())
    assert line["relation"] == "complementary"
    assert line["rationale"].startswith("Structure: different subjects")
    assert scripted_judge.calls == []


def test_judge_pairs_reports_bad_lines_and_keeps_the_good_ones(tmp_path, scripted_judge, capsys):
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text('{"id": "ok", "a": "x", "b": "y"}\nnot json\n{"id": "no-b", "a": "x"}\n')
    out = StringIO()

    with pytest.raises(SystemExit) as exit_info:
        call_command("judge_pairs", str(pairs), stdout=out)

    assert exit_info.value.code == 1
    assert [json.loads(line)["id"] for line in out.getvalue().splitlines()] == ["ok"]
    errors = capsys.readouterr().err
    assert "line 2:" in errors
    assert "line 3:" in errors


def test_the_hygiene_sweep_judges_a_backlog_once(alice, scripted_judge):
    scripted_judge.verdict = Verdict("contradicts", 0.8, "conflict")
    for minutes in (10, 20, 30):
        make_memory(alice.user, f"The retro starts at 16:{minutes}")
    out = StringIO()

    call_command("hygiene", stdout=out, stderr=StringIO())
    first = Judgment.objects.count()
    call_command("hygiene", stdout=out, stderr=StringIO())

    assert first == 3  # each of the three pairs, once
    assert Judgment.objects.count() == 3
    assert Conflict.objects.count() == 2  # one for each of the two memories that had an open pair (R-H9)
    assert "Swept 3 memories" in out.getvalue()
