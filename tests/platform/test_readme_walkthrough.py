"""README.md's walk-through ("A first session with curl", "An agent's session, start to
finish") is what a new user runs first, to the letter: its bash blocks run as written, in order,
in one bash process, against ``./zm serve`` on a fresh data folder (only the port is changed),
and each prints the output block the README shows after it.

What a shown block asserts:

* JSON: every object lists exactly the keys of the answer unless it has a ``"…": "…"`` member (or
  a bare ``…``); a list ends with ``…`` when the answer may hold more; a string with ``…`` in it
  matches any text there; values are compared exactly, except those of VOLATILE keys (times,
  ages, scores, token counts, a token's prefix), of which only the type is.
* Text: line by line, ``…`` matching any text within the line.
* Everywhere: an id (``mem_…``) shown in one place is the same id wherever it is shown again,
  across the whole walk-through (the id the first write answered is the one the agent's batch
  replaced), and two different shown ids are two different ids; dates in text are any dates.

``ZEROMEMORY_WALKTHROUGH_DUMP=<file>`` writes what each block printed there, to refresh the
README's outputs after a change.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bench.zm_serve import fresh_env, zm_serve
from tests.platform.helpers import ROOT, free_port
from zeromemory.embedded_db import EmbeddedServer

pytestmark = pytest.mark.slow

README = ROOT / "README.md"
START = re.compile(r"<!-- walkthrough\b.*?-->", re.DOTALL)
END = "<!-- /walkthrough -->"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.DOTALL | re.MULTILINE)
README_SERVER = "http://127.0.0.1:8000"
ELLIPSIS = "…"

# Values that differ from run to run; only their JSON type is compared.
VOLATILE = frozenset(
    {
        "created_at",
        "updated_at",
        "invalidated_at",
        "closed_at",
        "expires_at",
        "until",
        "age",
        "age_seconds",
        "score",
        "distance",
        "tokens",
        "prefix",
    }
)
PUBLIC_ID = re.compile(r"\b(?:mem|lnk|evt)_[0-9A-Z]{26}\b")
TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z")
DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass
class Step:
    command: str
    shown: str | None  # the output block after the command, if the README shows one
    language: str


def walkthrough_steps(text: str) -> list[Step]:
    steps: list[Step] = []
    regions = 0
    for start in START.finditer(text):
        end = text.index(END, start.end())
        regions += 1
        for fence in FENCE.finditer(text, start.end(), end):
            language, body = fence.group(1), fence.group(2)
            if language == "bash":
                steps.append(Step(body, None, ""))
            else:
                assert steps, f"an output block before any command:\n{body}"
                assert steps[-1].shown is None, f"two output blocks after one command:\n{body}"
                steps[-1].shown, steps[-1].language = body, language
    assert regions, "README.md has no <!-- walkthrough --> section"
    return steps


# --- the shown blocks as patterns ---------------------------------------------------------------


def _json_pattern_text(shown: str) -> str:
    """Valid JSON from a shown block: a bare … becomes a "…" member of an object or a "…"
    element of a list."""
    out: list[str] = []
    stack: list[str] = []
    in_string = escaped = False
    for char in shown:
        if in_string:
            out.append(char)
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
            continue
        if char == '"':
            in_string = True
        elif char in "{[":
            stack.append(char)
        elif char in "}]":
            stack.pop()
        elif char == ELLIPSIS:
            out.append('"…": "…"' if stack and stack[-1] == "{" else '"…"')
            continue
        out.append(char)
    return "".join(out)


def json_documents(text: str) -> list[Any]:
    """The JSON values of ``text`` one after another (curl prints its answers unseparated)."""
    decoder = json.JSONDecoder()
    documents: list[Any] = []
    position = 0
    while True:
        while position < len(text) and text[position].isspace():
            position += 1
        if position == len(text):
            return documents
        value, position = decoder.raw_decode(text, position)
        documents.append(value)


class Mismatch(AssertionError):
    pass


@dataclass
class Ids:
    """Shown ids bound to real ones, both ways, for the whole walk-through."""

    shown_to_real: dict[str, str]
    real_to_shown: dict[str, str]

    def bind(self, shown: str, real: str, where: str) -> None:
        if self.shown_to_real.setdefault(shown, real) != real:
            raise Mismatch(f"{where}: {shown} was {self.shown_to_real[shown]} before, here it is {real}")
        if self.real_to_shown.setdefault(real, shown) != shown:
            raise Mismatch(f"{where}: {real} is shown as {self.real_to_shown[real]} before, here as {shown}")


def _text_regex(shown: str) -> tuple[re.Pattern[str], list[str]]:
    """A regex for one shown string or line, and the ids it shows (one group each)."""
    parts: list[str] = []
    ids: list[str] = []
    tokens = re.compile(rf"({PUBLIC_ID.pattern})|({TIMESTAMP.pattern})|({DATE.pattern})|({ELLIPSIS})")
    position = 0
    for found in tokens.finditer(shown):
        parts.append(re.escape(shown[position : found.start()]))
        if found.group(1):
            ids.append(found.group(1))
            parts.append(r"((?:mem|lnk|evt)_[0-9A-Z]{26})")
        elif found.group(2):
            parts.append(TIMESTAMP.pattern)
        elif found.group(3):
            parts.append(DATE.pattern)
        else:
            parts.append(r"[^\n]*?")
        position = found.end()
    parts.append(re.escape(shown[position:]))
    return re.compile("".join(parts), re.DOTALL), ids


def match_text(shown: str, real: str, ids: Ids, where: str) -> None:
    pattern, shown_ids = _text_regex(shown)
    found = pattern.fullmatch(real)
    if found is None:
        raise Mismatch(f"{where}: shown {shown!r}, printed {real!r}")
    for index, shown_id in enumerate(shown_ids, start=1):
        ids.bind(shown_id, found.group(index), where)


def match_json(shown: Any, real: Any, ids: Ids, where: str = "$", key: str = "") -> None:
    if key in VOLATILE:
        if (shown is None) != (real is None) or (
            shown is not None and not isinstance(real, type(shown)) and not _both_numbers(shown, real)
        ):
            raise Mismatch(f"{where}: shown {shown!r}, the answer has {real!r} (another type)")
    elif isinstance(shown, dict):
        _match_object(shown, real, ids, where)
    elif isinstance(shown, list):
        _match_list(shown, real, ids, where)
    elif isinstance(shown, str):
        if not isinstance(real, str):
            raise Mismatch(f"{where}: shown {shown!r}, the answer has {real!r}")
        if TIMESTAMP.fullmatch(shown):
            if shown != real:  # a time that is not volatile is data the walk-through wrote
                raise Mismatch(f"{where}: shown {shown!r}, the answer has {real!r}")
        else:
            match_text(shown, real, ids, where)
    elif shown != real or type(shown) is not type(real):
        raise Mismatch(f"{where}: shown {shown!r}, the answer has {real!r}")


def _match_object(shown: dict[str, Any], real: Any, ids: Ids, where: str) -> None:
    if not isinstance(real, dict):
        raise Mismatch(f"{where}: shown an object, the answer has {real!r}")
    open_ended = shown.get(ELLIPSIS) == ELLIPSIS
    expected = {name for name in shown if not (open_ended and name == ELLIPSIS)}
    if expected - set(real) or (set(real) - expected and not open_ended):
        raise Mismatch(f"{where}: shown keys {sorted(expected)}, the answer has {sorted(real)}")
    for name in sorted(expected):
        match_json(shown[name], real[name], ids, f"{where}.{name}", name)


def _match_list(shown: list[Any], real: Any, ids: Ids, where: str) -> None:
    if not isinstance(real, list):
        raise Mismatch(f"{where}: shown a list, the answer has {real!r}")
    open_ended = bool(shown) and shown[-1] == ELLIPSIS
    items = shown[:-1] if open_ended else shown
    if len(real) < len(items) or (len(real) != len(items) and not open_ended):
        more = " or more" if open_ended else ""
        raise Mismatch(f"{where}: shown {len(items)} item(s){more}, the answer has {len(real)}")
    for index, item in enumerate(items):
        match_json(item, real[index], ids, f"{where}[{index}]")


def _both_numbers(a: Any, b: Any) -> bool:
    return all(isinstance(x, int | float) and not isinstance(x, bool) for x in (a, b))


def match_block(step: Step, printed: str, ids: Ids, where: str) -> None:
    assert step.shown is not None
    if step.language == "json":
        shown = json_documents(_json_pattern_text(step.shown))
        real = json_documents(printed)
        if len(shown) != len(real):
            raise Mismatch(f"{where}: {len(shown)} JSON document(s) shown, {len(real)} printed:\n{printed}")
        for index, (one, other) in enumerate(zip(shown, real, strict=True)):
            match_json(one, other, ids, f"{where} document {index + 1}")
        return
    shown_lines = step.shown.rstrip("\n").split("\n")
    printed_lines = printed.rstrip("\n").split("\n")
    if len(shown_lines) != len(printed_lines):
        raise Mismatch(f"{where}: {len(shown_lines)} line(s) shown, {len(printed_lines)} printed:\n{printed}")
    for number, (one, other) in enumerate(zip(shown_lines, printed_lines, strict=True), start=1):
        match_text(one, other, ids, f"{where} line {number}")


# --- running it ----------------------------------------------------------------------------------


def _server_requirements_recorded() -> None:
    """``./zm`` reinstalls the server's requirements when their stamp is missing or stale. The
    development install is a superset (requirements-dev.txt starts with -r requirements.txt and
    installs requirements-nodeps.txt), so when it is current the server's are too; the stamp
    ``./zm serve`` would write after a no-op install is written here instead of running pip."""
    venv = ROOT / ".venv"
    digest = subprocess.run(
        "cat requirements*.txt clients/python/pyproject.toml | sha256sum | cut -d' ' -f1",  # as ./zm's ensure_env
        shell=True,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    server, dev = venv / ".installed-requirements.txt", venv / ".installed-requirements-dev.txt"
    if server.exists() and server.read_text().strip() == digest:
        return
    if not (dev.exists() and dev.read_text().strip() == digest):
        pytest.fail("the .venv is not installed for this checkout: run the suite with ./zm test")
    server.write_text(digest + "\n")


def run_steps(steps: list[Step], env: dict[str, str], port: int) -> tuple[list[str], subprocess.CompletedProcess[str]]:
    """Every step in one bash process (variables carry over), each followed by a marker line so
    what each printed can be told apart."""
    marker = "@@walkthrough-step-{}@@"
    script = ["set -euo pipefail"]
    for number, step in enumerate(steps):
        script.append(step.command.replace(README_SERVER, f"http://127.0.0.1:{port}"))
        script.append(f"printf '\\n{marker.format(number)}\\n'")
    done = subprocess.run(
        ["bash", "-c", "\n".join(script)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False
    )
    printed: list[str] = []
    rest = done.stdout
    for number in range(len(steps)):
        line = f"\n{marker.format(number)}\n"
        if line not in rest:
            break
        before, rest = rest.split(line, 1)
        printed.append(before)
    return printed, done


def test_the_readme_walkthrough_prints_what_it_shows(tmp_path: Path) -> None:
    steps = walkthrough_steps(README.read_text())
    commands = "\n".join(step.command for step in steps)
    assert README_SERVER in commands
    assert "8000" not in commands.replace(README_SERVER, "")
    assert sum(step.shown is not None for step in steps) >= 6

    _server_requirements_recorded()
    port = free_port()
    data_dir = tmp_path / "data"
    env = fresh_env(data_dir, ZEROMEMORY_PORT=str(port))
    try:
        with zm_serve(env, port, tmp_path / "serve.log"):
            printed, done = run_steps(steps, env, port)
    finally:
        EmbeddedServer(data_dir).destroy()

    dump = os.environ.get("ZEROMEMORY_WALKTHROUGH_DUMP")
    if dump:
        Path(dump).write_text("\n\n".join(f"$ step {n}\n{out}" for n, out in enumerate(printed)))
    stopped = (
        f"the walk-through stopped at step {len(printed)} (exit {done.returncode}); stderr:\n{done.stderr[-4000:]}"
    )
    assert len(printed) == len(steps), stopped
    assert done.returncode == 0, stopped
    ids = Ids({}, {})
    for number, (step, out) in enumerate(zip(steps, printed, strict=True)):
        if step.shown is not None:
            first_line = step.command.strip().splitlines()[0]
            match_block(step, out.strip("\n"), ids, f"step {number} ({first_line})")


# --- the comparison itself: what the README got wrong before must fail it -------------------------

MEMORY = (
    '{"id": "mem_01M934ME91E0TK5NNZ374K64XG", "content": "The deploy window is Monday 10:00 UTC.", '
    '"valid_from": null, "valid_until": null, "purged_at": null, "created_at": "2026-12-05T12:59:59.137237Z"}'
)
OTHER_ID = "mem_01M934MJ3DM1HDGF8FVJTARVDE"


@pytest.mark.parametrize(
    ("language", "shown", "printed"),
    [
        # whoami's role, after add_member --role maintainer
        (
            "json",
            '{"projects": [{"slug": "acme", "role": "member"}]}',
            '{"projects": [{"slug": "acme", "role": "maintainer"}]}',
        ),
        # an answer shown without fields the server returns now, with no … to say so
        ("json", '{"id": "mem_01M934ME91E0TK5NNZ374K64XG", "content": "…", "created_at": "…"}', MEMORY),
        # a list shown shorter than the answer's, with no … at its end
        ("json", '{"similar_existing": []}', '{"similar_existing": [{"id": "mem_01M934ME91E0TK5NNZ374K64XG"}]}'),
        # a field shown that the answer lacks
        ("json", '{"superseded": [], "hint": "…"}', '{"superseded": []}'),
        # the id shown as written is not the one later shown replaced
        (
            "json",
            '{"id": "mem_01M934ME91E0TK5NNZ374K64XG"}\n{"superseded": ["mem_01M934ME91E0TK5NNZ374K64XG"]}',
            f'{{"id": "mem_01M934ME91E0TK5NNZ374K64XG"}}{{"superseded": ["{OTHER_ID}"]}}',
        ),
        # a context line from writes the walk-through never runs
        (
            "text",
            "- (fact, acme, 2026-12-04) Deploy window is Friday 14:00 UTC (moved from Monday).",
            "- (fact, acme, 2026-12-05) The deploy window is Monday 10:00 UTC.",
        ),
        ("text", "Created acme (Acme)\nAdded alice in acme as maintainer", "Created acme (Acme)"),
        # a stable value that is not volatile
        ("json", '{"valid_until": "2026-11-01T00:00:00Z"}', '{"valid_until": "2026-12-01T00:00:00Z"}'),
    ],
)
def test_the_comparison_catches_a_wrong_output(language: str, shown: str, printed: str) -> None:
    with pytest.raises(Mismatch):
        match_block(Step("true", shown, language), printed, Ids({}, {}), "example")


def test_the_comparison_allows_what_varies_and_what_is_elided() -> None:
    shown = (
        '{"memory": {"id": "mem_01M934ME91E0TK5NNZ374K64XG", "created_at": "2026-12-05T12:59:59.137237Z", …},\n'
        ' "similar_existing": [{"id": "mem_01M934MJ3DM1HDGF8FVJTARVDE", "score": 0.25, "age": "just now"}, …],\n'
        ' "hint": "These are your live memories … do nothing."}'
    )
    printed = (
        '{"memory": {"id": "mem_01ZZZZZZZZZZZZZZZZZZZZZZZZ", "created_at": "2027-01-01T00:00:00Z", "state": "live"},'
        ' "similar_existing": [{"id": "mem_01YYYYYYYYYYYYYYYYYYYYYYYY", "score": 0.3, "age": "3 s"}, {"id": "x"}],'
        ' "hint": "These are your live memories most like it: do nothing."}'
    )
    ids = Ids({}, {})
    match_block(Step("true", shown, "json"), printed, ids, "example")
    assert ids.shown_to_real == {
        "mem_01M934ME91E0TK5NNZ374K64XG": "mem_01ZZZZZZZZZZZZZZZZZZZZZZZZ",
        "mem_01M934MJ3DM1HDGF8FVJTARVDE": "mem_01YYYYYYYYYYYYYYYYYYYYYYYY",
    }
