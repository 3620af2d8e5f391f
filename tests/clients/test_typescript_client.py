"""clients/typescript (@zeromemory/client) against the production server.

The client's own tests are node's (``node --test``, clients/typescript/test/): each file runs
here against the module's gunicorn, with the personas' tokens in its environment, and must
report every one of its tests passed (node's TAP summary; its whole output is shown on a
failure). Beside them: the documented example, run unchanged from a project that installed the
package with ``npm install <the folder>`` and nothing else; the committed ``dist/``, which must be
what ``tsc`` builds from ``src/`` now; and a TypeScript caller type-checked against its
declarations.
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
DOC = ROOT / "docs" / "clients" / "typescript.md"
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


def test_the_documented_example_runs_unchanged_from_an_npm_install_of_the_folder(
    server: str, alice: Persona, tmp_path: Path
) -> None:
    # A project of the user's own, with nothing but `npm install <the folder>` (offline: the
    # package needs nothing from a registry), and the example copied in as it is.
    project = tmp_path / "app"
    project.mkdir()
    (project / "package.json").write_text('{"name": "app", "version": "1.0.0", "private": true}\n')
    npm = _run(
        [_tool("npm"), "install", "--offline", "--no-audit", "--no-fund", "--loglevel=error", str(PACKAGE)], cwd=project
    )
    assert npm.returncode == 0, npm.stdout + npm.stderr
    shutil.copy(PACKAGE / "examples" / "quickstart.mjs", project / "quickstart.mjs")

    done = _run(
        [_tool("node"), "quickstart.mjs"], cwd=project, env={"ZEROMEMORY_URL": server, "ZEROMEMORY_TOKEN": alice.token}
    )
    assert done.returncode == 0, done.stdout + done.stderr
    # The context pack's lines carry the day they were written.
    shown = re.sub(r"\d{4}-\d{2}-\d{2}", "<day>", done.stdout)
    page = DOC.read_text()
    assert f"```js\n{(PACKAGE / 'examples' / 'quickstart.mjs').read_text()}```\n" in page, "the page shows the file"
    documented = re.search(r"node quickstart\.mjs\n```\n\n```\n(.*?)```\n", page, re.DOTALL)
    assert documented is not None, "the page shows the example's output after its command"
    assert re.sub(r"\d{4}-\d{2}-\d{2}", "<day>", documented.group(1)) == shown
    assert shown == (
        "signed in as alice\n"
        "replaced the Monday version: true\n"
        "recall: The deploy window is Friday 14:00 UTC.\n"
        "stale: the current version is the Friday one: true\n"
        "history: superseded The deploy window is Monday 10:00 UTC.\n"
        "history: live The deploy window is Friday 14:00 UTC.\n"
        "Current facts, most relevant first:\n"
        "- (decision, <day>) The deploy window is Friday 14:00 UTC.\n"
        "  was: The deploy window is Monday 10:00 UTC. (until <day>)\n"
        "not found: 404 not_found\n"
    ), done.stdout + done.stderr
    # What the server holds: the two versions, and nothing of the refused compare-and-set.
    stored = Memory.objects.filter(owner=alice.user).order_by("created_at").values_list("content", "state")
    assert list(stored) == [
        ("The deploy window is Monday 10:00 UTC.", "superseded"),
        ("The deploy window is Friday 14:00 UTC.", "live"),
    ]


def test_the_committed_dist_is_what_tsc_builds_from_src(tmp_path: Path) -> None:
    # dist/ is committed so that `npm install <the folder>` needs no build (npm links the folder
    # and installs none of its devDependencies): it must be the build of src/ as it is now.
    tsc = PACKAGE / "node_modules" / ".bin" / "tsc"
    assert tsc.exists(), "clients/typescript/node_modules is missing: ./zm test runs npm ci there"
    built = tmp_path / "dist"
    done = _run([str(tsc), "-p", "tsconfig.json", "--outDir", str(built)], cwd=PACKAGE)
    assert done.returncode == 0, done.stdout + done.stderr
    committed = PACKAGE / "dist"
    names = sorted(path.relative_to(built).as_posix() for path in built.rglob("*") if path.is_file())
    assert names == sorted(path.relative_to(committed).as_posix() for path in committed.rglob("*") if path.is_file())
    _, mismatch, errors = filecmp.cmpfiles(built, committed, names, shallow=False)
    assert (mismatch, errors) == ([], []), "dist/ is stale: npm run build in clients/typescript, and commit it"


def test_a_typescript_caller_type_checks_against_the_declarations() -> None:
    # test/types.check.ts uses every method as a TypeScript caller would, through the package's
    # own name (dist/*.d.ts), and misuses it where the types must refuse (@ts-expect-error).
    tsc = PACKAGE / "node_modules" / ".bin" / "tsc"
    assert tsc.exists(), "clients/typescript/node_modules is missing: ./zm test runs npm ci there"
    done = _run([str(tsc), "-p", "tsconfig.check.json"], cwd=PACKAGE)
    assert done.returncode == 0, done.stdout + done.stderr
