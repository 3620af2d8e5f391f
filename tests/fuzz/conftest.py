"""The live production server and the objects the fuzzer aims at.

The fuzzer talks to gunicorn (threaded WSGI workers, as ``./zm serve`` runs it) over real HTTP,
so what it checks is what a client gets: middleware, error handlers, content types and all.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from memories import services
from memories.models import Memory, Project
from review.models import Conflict, Relation
from tests.conftest import Persona
from tests.factories import make_memory
from tests.platform.server import gunicorn_server

# Unguessable words that only the seeded memories contain: if one of another principal's ever
# shows up in a response, content leaked.
ALICE_MARK = "zqalicemark"
CAROL_MARK = "zqcarolmark"


@pytest.fixture
def live_server_url(alice: Persona, carol: Persona, tmp_path: Path) -> Iterator[str]:
    """gunicorn on the test database; the personas exist before it starts."""
    log = tmp_path / "gunicorn.log"
    try:
        # Thousands of requests from two tokens in a few minutes: a per-credential rate limit
        # would turn the run into a test of 429s.
        with gunicorn_server(log=log, ZEROMEMORY_RATE_LIMIT_PER_MINUTE="0") as server:
            yield server.base_url
    finally:
        # The server's side of a failure (a 5xx's traceback) goes into the test's report.
        text = log.read_text(errors="replace") if log.exists() else ""
        if "Traceback" in text:
            start = max(0, text.index("Traceback") - 2000)
            print(text[start : start + 20000])


@dataclass
class Seeded:
    """Real objects of each principal, so fuzzed ids hit something that exists."""

    alice_ids: list[str] = field(default_factory=list)
    carol_ids: list[str] = field(default_factory=list)
    bob_ids: list[str] = field(default_factory=list)
    conflict_ids: list[int] = field(default_factory=list)
    # alice's captures waiting for her review (she maintains their project): the first half for
    # approve to act on, the rest for reject (each consumes what it settles).
    pending_ids: list[str] = field(default_factory=list)
    # Versions another write already replaced (alice's, carol's): remember aims at them with each
    # on_stale mode (SPEC R-S11).
    stale_ids: dict[str, tuple[str, str]] = field(default_factory=dict)  # id -> (its project, its owner)

    @property
    def memory_ids(self) -> list[str]:
        return [*self.alice_ids, *self.carol_ids, *self.bob_ids, *self.pending_ids]


def _conflict(older: Memory, newer: Memory) -> int:
    conflict = Conflict.objects.create(
        older=older, newer=newer, relation=Relation.SUPERSEDES, confidence=0.6, rationale="seeded for the fuzzer"
    )
    return int(conflict.pk)


@pytest.fixture
def seeded(alice: Persona, bob: Persona, carol: Persona, acme: Project) -> Seeded:
    """Each state a memory can be in, for each owner: live, superseded, forgotten; project,
    private and personal; an open loop; and a pending conflict between two of each owner's."""
    globex = Project.objects.get(slug="globex")
    found = Seeded()

    def mine(persona: Persona, project: Project, mark: str, into: list[str]) -> list[Memory]:
        user = persona.user
        made = [
            make_memory(user, f"The {mark} deploy window is Monday 10:00 UTC.", project=project),
            make_memory(user, f"The {mark} budget is private: 40k.", project=project, visibility="private"),
            make_memory(user, f"My {mark} editor is vim.", visibility="private"),
            make_memory(user, f"Ship the {mark} release notes.", project=project, kind="task"),
            make_memory(user, f"The {mark} office is in Lyon.", project=project),
            make_memory(user, f"The {mark} standup is at 09:30.", project=project),
        ]
        services.memory_forget(user=user, credential=persona.credential, memory_id=made[4].id, reason="moved")
        newer = services.memory_remember(
            user=user,
            credential=persona.credential,
            content=f"The {mark} standup is at 09:45.",
            kind="fact",
            project_slug=project.slug,
            links=[services.LinkSpec(type="supersedes", dst=made[5].id)],
        ).memory
        into.extend([m.id for m in made] + [newer.id])
        found.stale_ids[made[5].id] = (project.slug, persona.username)
        return made

    alice_made = mine(alice, acme, ALICE_MARK, found.alice_ids)
    carol_made = mine(carol, globex, CAROL_MARK, found.carol_ids)
    found.bob_ids.append(make_memory(bob.user, "Bob's note: the coffee machine is fixed.", project=acme).id)
    # Captures waiting for alice's review (she maintains lab, which reviews provisional writes):
    # approve and reject have something to act on.
    lab, _ = services.project_create(actor=None, via="tests", slug="lab")
    services.membership_set(actor=None, via="tests", project=lab, user=alice.user, role="maintainer")
    services.project_set_policy(actor=None, via="tests", project=lab, review_provisional=True)
    watcher, _ = services.credential_issue(
        actor=None, via="tests", user=alice.user, label="watcher", provenance="provisional"
    )
    for n in range(12):
        found.pending_ids.append(
            services.memory_remember(
                user=alice.user,
                credential=watcher,
                content=f"Captured {ALICE_MARK} note {n}.",
                kind="fact",
                project_slug="lab",
            ).memory.id
        )
    found.conflict_ids = [_conflict(alice_made[0], alice_made[3]), _conflict(carol_made[0], carol_made[3])]
    # A second conflict of each owner's, in a group of its own: a group's decision settles the
    # first, and the per-pair resolve still has one to answer 2xx on (and the other way round).
    for persona, project, mark, into in (
        (alice, acme, ALICE_MARK, found.alice_ids),
        (carol, globex, CAROL_MARK, found.carol_ids),
    ):
        rooms = [make_memory(persona.user, f"The {mark} lab is in room {n}.", project=project) for n in (1, 2)]
        into.extend(room.id for room in rooms)
        found.conflict_ids.append(_conflict(*rooms))
    return found


def pytest_terminal_summary(terminalreporter: Any) -> None:
    from tests.fuzz.test_api_fuzz import FIGURES

    if FIGURES:
        terminalreporter.write_line(f"fuzz figures: {json.dumps(FIGURES)}")
