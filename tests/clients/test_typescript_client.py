"""clients/typescript (@zeromemory/client) against the production server.

The client's own tests are node's (``node --test``, clients/typescript/test/): each file runs
here against the module's gunicorn, with the personas' tokens in its environment, and must
report every one of its tests passed (node's TAP summary; its whole output is shown on a
failure). Beside them: the documented example, run unchanged from a project that installed the
package with ``npm install <the folder>`` and nothing else, and the committed ``dist/``, which
must be what ``tsc`` builds from ``src/`` now.
"""

from __future__ import annotations

import filecmp
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from memories.models import Memory
from tests.conftest import Persona
from tests.platform.helpers import ROOT

pytestmark = pytest.mark.django_db(transaction=True)

PACKAGE = ROOT / "clients" / "typescript"
NODE_TESTS = ["memories.test.mjs", "lists.test.mjs", "retries.test.mjs"]
NODE_TIMEOUT = 240


def _tool(name: str) -> str:
    found = shutil.which(name)
    assert found is not None, f"{name} is not on PATH: ./zm test installs Node.js (nodejs, npm)"
    return found


def _run(command: list[str], *, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=NODE_TIMEOUT,
        check=False,
    )


def test_the_node_test_files_are_the_ones_run_here() -> None:
    # A file added under test/ and not listed here would never run.
    assert sorted(path.name for path in (PACKAGE / "test").glob("*.test.mjs")) == sorted(NODE_TESTS)


@pytest.mark.parametrize("name", NODE_TESTS)
def test_node(name: str, server: str, alice: Persona, bob: Persona, dave: Persona) -> None:
    env = {
        "ZEROMEMORY_URL": server,
        "ZEROMEMORY_TOKEN": alice.token,
        "ZEROMEMORY_TOKEN_BOB": bob.token,
        "ZEROMEMORY_TOKEN_DAVE": dave.token,
    }
    done = _run([_tool("node"), "--test", "--test-reporter=tap", f"test/{name}"], cwd=PACKAGE, env=env)
    output = f"{done.stdout}\n{done.stderr}"
    counts = dict(re.findall(r"^# (tests|pass|fail|cancelled|skipped|todo) (\d+)$", done.stdout, re.MULTILINE))
    assert done.returncode == 0, output
    assert int(counts.get("tests", "0")) > 0, output
    assert counts["pass"] == counts["tests"], output
    assert (counts["fail"], counts["cancelled"], counts["skipped"], counts["todo"]) == ("0", "0", "0", "0"), output
