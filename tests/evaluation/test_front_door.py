"""The offline tooling's front door (``python -m evaluation``, ``./zm eval``, ``./zm train``): the
external set comes in only when named, a named file that is not there stops the run, and the
server never loads the package."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management.base import CommandError

from evaluation.__main__ import main
from evaluation.commands.eval_hygiene import EXTERNAL_VARIABLE, external_set

ROOT = Path(__file__).resolve().parents[2]


def test_with_nothing_named_there_is_no_external_set(monkeypatch):
    monkeypatch.delenv(EXTERNAL_VARIABLE, raising=False)
    assert external_set(None) is None


def test_the_environment_names_the_set_when_the_argument_does_not(tmp_path, monkeypatch):
    named = tmp_path / "ku.jsonl"
    named.write_text("")
    monkeypatch.setenv(EXTERNAL_VARIABLE, str(named))
    assert external_set(None) == named


def test_the_argument_wins_over_the_environment(tmp_path, monkeypatch):
    given = tmp_path / "given.jsonl"
    given.write_text("")
    monkeypatch.setenv(EXTERNAL_VARIABLE, str(tmp_path / "missing.jsonl"))
    assert external_set(given) == given


def test_a_missing_file_named_by_the_argument_is_an_error_that_names_it(tmp_path, monkeypatch):
    monkeypatch.delenv(EXTERNAL_VARIABLE, raising=False)
    missing = tmp_path / "ku.jsonl"
    with pytest.raises(CommandError) as refused:
        external_set(missing)
    assert str(refused.value) == (
        f"--external names {missing}, which is not a file (LongMemEval's ku.jsonl; docs/hygiene.md)."
    )


def test_a_missing_file_named_by_the_environment_is_an_error_that_names_it(tmp_path, monkeypatch):
    missing = tmp_path / "ku.jsonl"
    monkeypatch.setenv(EXTERNAL_VARIABLE, str(missing))
    with pytest.raises(CommandError) as refused:
        external_set(None)
    assert str(refused.value) == (
        f"{EXTERNAL_VARIABLE} names {missing}, which is not a file (LongMemEval's ku.jsonl; docs/hygiene.md)."
    )


@pytest.mark.parametrize("argv", [[], ["check"], ["eval"]])
def test_only_the_two_commands_run(argv, capsys):
    assert main(argv) == 64
    assert capsys.readouterr().err == "usage: python -m evaluation {eval_hygiene,train_judge} [ARGS]\n"


def test_eval_stops_before_anything_starts_when_the_named_set_is_missing(tmp_path):
    missing = tmp_path / "ku.jsonl"
    done = subprocess.run(
        [sys.executable, "-m", "evaluation", "eval_hygiene", "--external", str(missing)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == (
        f"CommandError: --external names {missing}, which is not a file (LongMemEval's ku.jsonl; docs/hygiene.md).\n"
    )


def test_the_server_loads_nothing_of_the_tooling():
    # What gunicorn, the task worker and the sender load: the WSGI application, every URL, the
    # apps' admin, tasks and pipeline, and every management command the apps offer.
    probe = """
import sys
from zeromemory.wsgi import application
import zeromemory.urls, review.tasks, review.pipeline, review.sweep
from django.core.management import get_commands, load_command_class
for name, app in get_commands().items():
    if app in ("memories", "review"):
        load_command_class(app, name)
print(sorted(m for m in sys.modules if m == "evaluation" or m.startswith("evaluation.")))
"""
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"
