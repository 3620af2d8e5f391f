"""The Python client's documented examples, run unchanged against the server as a user runs
them (a separate process with ZEROMEMORY_URL and ZEROMEMORY_TOKEN), and shown whole in the docs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "clients" / "python" / "examples"

pytestmark = pytest.mark.django_db(transaction=True)


def run_example(name: str, server: str, token: str) -> list[str]:
    env = {**os.environ, "ZEROMEMORY_URL": server, "ZEROMEMORY_TOKEN": token}
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / name)], env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


@pytest.mark.parametrize(("example", "page"), [("quickstart.py", "python.md"), ("langgraph_agent.py", "langgraph.md")])
def test_the_docs_show_each_example_whole(example, page):
    code = (EXAMPLES / example).read_text()
    assert f"```python\n{code}```" in (ROOT / "docs" / "clients" / page).read_text()


def test_the_quickstart_runs_as_documented(server, alice):
    lines = run_example("quickstart.py", server, alice.token)

    assert lines[0] == "I am alice"
    assert lines[1].startswith("stored mem_")
    assert lines[1].endswith("- similar: []")
    old = lines[1].split()[1]
    assert lines[2] == f"replaced ['{old}']"
    assert lines[3:5] == [
        "  superseded The deploy window is Monday 10:00 UTC.",
        "  live       The deploy window is Friday 14:00 UTC.",
    ]
    assert lines[5].startswith("recall ")
    assert lines[5].endswith(" The deploy window is Friday 14:00 UTC.")
    assert lines[6].startswith("stale: the current version is mem_")
    assert "The deploy window is Friday 14:00 UTC." in "\n".join(lines[7:])


def test_the_langgraph_agent_runs_as_documented(server, alice):
    lines = run_example("langgraph_agent.py", server, alice.token)

    assert lines == [
        "knew: 'nothing yet' -> now: 'I like my coffee black.'",
        "knew: 'I like my coffee black.' -> now: 'Oat milk in my coffee now.'",
        "knew: 'Oat milk in my coffee now.' -> now: 'Tea only, please.'",
        "store.get: {'text': 'Tea only, please.'}",
        "  superseded I like my coffee black.",
        "  superseded Oat milk in my coffee now.",
        "  live       Tea only, please.",
    ]
