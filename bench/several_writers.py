"""Several writers replacing one fact (SPEC R-S8, R-S11, R-S12, R-D3), against a real server.

    python bench/several_writers.py [--racers 8]

Starts ``./zm serve`` on a fresh data folder of its own (a temporary ``ZEROMEMORY_DATA_DIR``,
a free port), creates the project acme with alice and bob as maintainers, and gives agent A
(alice's token) and agent B (bob's) one fact each per ``on_stale`` mode: both read version v1,
A replaces it, then B replaces the same v1 under that mode. Prints each request and its answer
(JSON trimmed to what the story needs), the conflict queue after ``skip`` and how a person
settles it, B's reread and retry after ``reject``, the history after ``follow``, a write that
restates a retired version (``matches_retired``), then ``--racers`` agents replacing one fact at
once under each mode (how many versions stay live), ``check_integrity``, and a fork carried
into another deployment by export and import, where no conflict came with it:
``check_integrity`` names it and ``hygiene`` queues it. docs/supersede.md ("Several writers")
quotes a run. About two minutes, most of it starting two fresh databases.
"""

from __future__ import annotations

import argparse
import http.client
import json
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.zm_serve import fresh_env, zm_serve  # noqa: E402
from zeromemory.embedded_db import EmbeddedServer  # noqa: E402

ZM = str(ROOT / "zm")
MEMORIES = "/api/v1/memories/"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def manage(env: dict[str, str], *args: str, show: bool = True, most: int = 4) -> subprocess.CompletedProcess[str]:
    """``./zm manage ARGS``; with ``show``, the command and its output, past ``most`` lines only
    the first ones and the last."""
    done = subprocess.run([ZM, "manage", *args], cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if show:
        print(f"$ ./zm manage {' '.join(args)}   (exit {done.returncode})")
        lines = done.stdout.splitlines()
        if len(lines) > most:
            lines = [*lines[: most - 1], f"… {len(lines) - most} more line(s) like these", lines[-1]]
        for line in lines:
            print(f"  {line}")
    return done


@contextmanager
def serving(data_dir: Path) -> Iterator[int]:
    """``./zm serve`` on ``data_dir`` until the block ends; the port it listens on."""
    port = free_port()
    with zm_serve(fresh_env(data_dir), port, data_dir.parent / "serve.log"):
        yield port


def call(port: int, method: str, path: str, token: str | None = None, body: Any = None) -> tuple[int, Any]:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        response = connection.getresponse()
        raw = response.read()
        return response.status, json.loads(raw) if raw else None
    except (OSError, http.client.HTTPException):
        return 0, None
    finally:
        connection.close()


# --- trimming answers to what the story needs ------------------------------------------------


def brief_memory(memory: dict[str, Any]) -> dict[str, Any]:
    kept = {key: memory[key] for key in ("id", "content", "owner", "state")}
    if memory.get("superseded_by"):
        kept["superseded_by"] = memory["superseded_by"]
    return kept


def brief(answer: Any) -> Any:
    if not isinstance(answer, dict):
        return answer
    out: dict[str, Any] = {}
    for key, value in answer.items():
        if key in {"memory", "older", "newer"} and isinstance(value, dict):
            out[key] = brief_memory(value)
        elif key == "similar_existing":
            out[key] = [{"id": entry["id"], "preview": entry["preview"]} for entry in value]
        elif key == "hint":
            out[key] = value[:60] + "…"
        elif key == "versions":
            out[key] = [brief_memory(version) for version in value]
        elif key == "results" and isinstance(value, list):
            out[key] = [brief(item) for item in value]
        elif key in {"edges", "opened_at", "resolved_at", "same_credential"}:
            continue
        else:
            out[key] = value
    return out


class Agent:
    def __init__(self, name: str, token: str, port: int) -> None:
        self.name, self.token, self.port = name, token, port

    def send(self, method: str, path: str, body: Any = None, *, show: bool = True) -> tuple[int, Any]:
        status, answer = call(self.port, method, path, self.token, body)
        if show:
            sent = "" if body is None else " " + json.dumps(body, ensure_ascii=False)
            print(f"{self.name}> {method} {path}{sent}")
            print(f"  {status} {json.dumps(brief(answer), ensure_ascii=False)}")
        return status, answer

    def remember(self, body: dict[str, Any], *, show: bool = True) -> tuple[int, Any]:
        return self.send("POST", MEMORIES, body, show=show)

    def read(self, memory_id: str) -> dict[str, Any]:
        status, memory = self.send("GET", f"{MEMORIES}{memory_id}/", show=False)
        assert status == 200, (status, memory)
        print(f"{self.name}> GET {MEMORIES}{memory_id}/   -> {status} {memory['content']!r} ({memory['state']})")
        return dict(memory)


def supersede(content: str, dst: str, on_stale: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"content": content, "project": "acme", "links": [{"type": "supersedes", "dst": dst}]}
    if on_stale:
        body["on_stale"] = on_stale
    return body


# --- the story ---------------------------------------------------------------------------------


def two_writers(a: Agent, b: Agent, mode: str, subject: str) -> dict[str, str]:
    fact = f"The {subject} service listens on port {{}}."
    sent = "B sends no on_stale: skip, the default" if mode == "skip" else f'B sends "on_stale": "{mode}"'
    print(f"\n== {mode}: A and B both read v1; A replaces it, then B does ({sent}) ==")
    _, written = a.remember({"content": fact.format(8080), "project": "acme"}, show=False)
    v1 = written["memory"]["id"]
    print(f"v1 = {v1} {fact.format(8080)!r}, written by alice")
    a.read(v1)
    b.read(v1)
    _, by_a = a.remember(supersede(fact.format(9090), v1))
    _, by_b = b.remember(supersede(fact.format(7070), v1, None if mode == "skip" else mode))
    ids = {"v1": v1, "a": by_a["memory"]["id"]}
    if "memory" in by_b:
        ids["b"] = by_b["memory"]["id"]
    return ids


def skip_then_settle(a: Agent, b: Agent) -> dict[str, str]:
    ids = two_writers(a, b, "skip", "billing")
    print("-- the conflict queue (alice maintains acme) --")
    _, queue = a.send("GET", "/api/v1/conflicts/", show=False)
    forks = [c for c in queue["results"] if ids["b"] in (c["older"]["id"], c["newer"]["id"])]
    others = len(queue["results"]) - len(forks)
    print(
        f"alice> GET /api/v1/conflicts/   -> {len(forks)} naming B's write" + (f", {others} other(s)" if others else "")
    )
    for conflict in forks:
        print(f"  {json.dumps(brief(conflict), ensure_ascii=False)}")
    print("-- a person settles it: B's version replaces A's; one line again --")
    a.send("POST", f"/api/v1/conflicts/{forks[0]['id']}/resolve/", {"action": "newer_supersedes"})
    history(a, ids["v1"])
    return ids


def reject_then_retry(a: Agent, b: Agent) -> None:
    ids = two_writers(a, b, "reject", "search")
    print("-- B rereads the current version, decides its write still stands, and names that one --")
    b.read(ids["a"])
    b.remember(supersede("The search service listens on port 7070.", ids["a"], "reject"))


def follow(a: Agent, b: Agent) -> None:
    ids = two_writers(a, b, "follow", "auth")
    history(a, ids["v1"])


def history(agent: Agent, memory_id: str) -> None:
    _, chain = agent.send("GET", f"{MEMORIES}{memory_id}/history/", show=False)
    print(f"{agent.name}> GET {MEMORIES}{memory_id}/history/")
    print(f"  head {chain['head']}")
    for version in chain["versions"]:
        after = f" -> superseded_by {version['superseded_by']}" if version["superseded_by"] else ""
        print(f"  {version['id']} {version['state']:<10} {version['owner']:<5} {version['content']!r}{after}")


def restate_retired(a: Agent, v1: str) -> None:
    print(f"\n== A writes the billing v1's text again ({v1} is retired; a revert, or an agent with an old copy) ==")
    a.remember({"content": "The billing service listens on port 8080.", "project": "acme"})


def race(port: int, tokens: list[tuple[str, str]], owner: Agent, mode: str, hour: int) -> None:
    fact = f"The search index is rebuilt at {hour:02d}:00 UTC."
    _, written = owner.remember({"content": fact, "project": "acme"}, show=False)
    v1 = written["memory"]["id"]
    racers = [Agent(name, token, port) for name, token in tokens]
    for racer in racers:
        racer.send("GET", f"{MEMORIES}{v1}/", show=False)
    start = threading.Barrier(len(racers))
    answers: list[tuple[int, Any]] = [(0, None)] * len(racers)

    def write(index: int) -> None:
        body = supersede(f"The search index is rebuilt at {hour:02d}:{index + 1:02d} UTC.", v1, mode)
        start.wait()
        answers[index] = racers[index].remember(body, show=False)

    threads = [threading.Thread(target=write, args=(index,)) for index in range(len(racers))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    alias = {v1: "v1"}
    for index, (status, answer) in enumerate(answers):
        if status in {200, 201}:
            alias[answer["memory"]["id"]] = f"r{index + 1}"

    def named(memory_id: str | None) -> str:
        return "null" if memory_id is None else alias.get(memory_id, memory_id)

    print(f"\n-- {len(racers)} agents replace v1 {fact!r} at once, on_stale {mode} --")
    for index, (status, answer) in enumerate(answers):
        if status not in {200, 201}:
            current = ", ".join(f"{named(e['dst'])} -> {named(e['current'])}" for e in answer["error"]["current"])
            print(f"  {racers[index].name}: {status} {answer['error']['code']} (current: {current})")
            continue
        superseded = ",".join(named(x) for x in answer["superseded"]) or "-"
        skipped = ", ".join(f"{named(e['dst'])} {e['reason']} current {named(e['current'])}" for e in answer["skipped"])
        followed = ", ".join(f"{named(e['dst'])} -> {named(e['current'])}" for e in answer.get("followed", []))
        line = f"  {racers[index].name}: {status} stored r{index + 1}, superseded {superseded}"
        line += f"; followed {followed}" if followed else ""
        line += f"; skipped {skipped}" if skipped else ""
        print(line)
    states = {
        name: owner.send("GET", f"{MEMORIES}{memory_id}/", show=False)[1]["state"] for memory_id, name in alias.items()
    }
    live = sorted((name for name, state in states.items() if state == "live"), key=lambda n: (len(n), n))
    _, chain = owner.send("GET", f"{MEMORIES}{v1}/history/", show=False)
    # history lists versions by creation; the line is v1's successors followed one by one
    successor = {version["id"]: version["superseded_by"] for version in chain["versions"]}
    walk: list[str] = [v1]
    while successor.get(walk[-1]):
        walk.append(successor[walk[-1]])
    line = " -> ".join(named(memory_id) for memory_id in walk)
    _, queue = owner.send("GET", "/api/v1/conflicts/?limit=200", show=False)
    forks = [c for c in queue["results"] if c["stale_version"] == v1 and c["status"] == "pending"]
    print(f"  live versions of the fact: {len(live)} ({', '.join(live)}); v1's chain: {line}")
    print(f"  pending conflicts for forks of v1: {len(forks)}")


def fork_in_an_import(env: dict[str, str], workdir: Path) -> None:
    print("\n== A fork that reached a store without its conflict: export, import into a fresh deployment ==")
    export = workdir / "export.jsonl"
    manage(env, "export_memories", "--output", str(export))
    other = workdir / "imported"
    elsewhere = fresh_env(other)
    try:
        print(f"(ZEROMEMORY_DATA_DIR={other.name}/, a fresh deployment)")
        manage(elsewhere, "migrate", "-v0", show=False)
        manage(elsewhere, "import_memories", str(export))
        manage(elsewhere, "check_integrity", most=3)
        manage(elsewhere, "hygiene")
        manage(elsewhere, "check_integrity")
    finally:
        EmbeddedServer(other).destroy()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--racers", type=int, default=8, help="Agents replacing one fact at once.")
    args = parser.parse_args()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="zm-several-writers-") as folder:
        workdir = Path(folder)
        data_dir = workdir / "data"
        env = fresh_env(data_dir)
        try:
            with serving(data_dir) as port:
                print(f"./zm serve on a fresh data folder, port {port}")
                manage(env, "create_project", "acme", "--name", "Acme")
                tokens: dict[str, str] = {}
                for user, label in (("alice", "agent-a"), ("bob", "agent-b")):
                    issued = manage(env, "issue_token", user, "--create-user", "--name", label, show=False)
                    tokens[label] = issued.stdout.strip().splitlines()[-1]
                    print(f"$ ./zm manage issue_token {user} --create-user --name {label}   -> {tokens[label][:12]}…")
                    manage(env, "add_member", "acme", user, "--role", "maintainer")
                racer_tokens = issue_racers(env, args.racers)
                a, b = Agent("A", tokens["agent-a"], port), Agent("B", tokens["agent-b"], port)

                billing = skip_then_settle(a, b)
                reject_then_retry(a, b)
                follow(a, b)
                restate_retired(a, billing["v1"])

                print(f"\n== Racing: {args.racers} agents (alice's and bob's tokens) replace one fact at once ==")
                for hour, mode in ((1, "follow"), (2, "reject"), (3, "skip")):
                    race(port, racer_tokens, a, mode, hour)

                print()
                manage(env, "check_integrity")
            fork_in_an_import(env, workdir)
        finally:
            EmbeddedServer(data_dir).destroy()
    print(f"\n({time.monotonic() - started:.0f} s)")


def issue_racers(env: dict[str, str], count: int) -> list[tuple[str, str]]:
    """Tokens racer-1..N, alternately alice's and bob's, issued a few at a time (each
    ``./zm manage`` is a Python start-up)."""
    found: list[tuple[str, str]] = [("", "")] * count

    def issue(index: int) -> None:
        user = ("alice", "bob")[index % 2]
        done = manage(env, "issue_token", user, "--name", f"racer-{index + 1}", show=False)
        found[index] = (f"racer-{index + 1} ({user})", done.stdout.strip().splitlines()[-1])

    for first in range(0, count, 4):
        batch = [threading.Thread(target=issue, args=(i,)) for i in range(first, min(first + 4, count))]
        for thread in batch:
            thread.start()
        for thread in batch:
            thread.join()
    return found


if __name__ == "__main__":
    main()
