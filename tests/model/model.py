"""A plain-Python model of the store, as SPEC §2-§4 describe it.

It knows nothing of the application's code: who sees what, who may retire what, what a
write, forget, restore or link must do, and what every answer must therefore contain. The
state machine in test_state_machine.py drives the real API and the model side by side and
compares them after every step.

Restatements are built by construction (a *topic* and a textual variant of it, differing
only in case, spacing and punctuation), so the model decides R-D1 without normalising text
the way the application does.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

LIVE, SUPERSEDED, FORGOTTEN = "live", "superseded", "forgotten"
LOOP_KINDS = frozenset({"task", "open-question"})
SUPERSEDES = "supersedes"

# project slug -> {username: role}; mirrors tests/conftest.py.
MEMBERS: dict[str, dict[str, str]] = {
    "acme": {"alice": "member", "bob": "member", "dave": "maintainer"},
    "globex": {"carol": "member"},
}

# Deliberately close in meaning (the hygiene judge gets real work) yet distinct as text:
# "Monday 10:00" and "Monday 11:00" are two facts (R-D1).
TOPICS = (
    "Deploy window is Monday 10:00 UTC.",
    "Deploy window is Monday 11:00 UTC.",
    "Deploy window is Friday 14:00 UTC (moved from Monday).",
    "The staging database runs PostgreSQL 16.",
    "Fix the flaky login test before the release.",
    "Who owns the billing service?",
    "Alice prefers short status updates.",
)


def variant(topic: int, which: int) -> str:
    """A near-verbatim restatement of TOPICS[topic]: same words and digits, other case/spacing/punctuation."""
    text = TOPICS[topic]
    if which == 1:
        return "  " + text.upper().replace(" ", "   ") + "  "
    if which == 2:
        return text.lower().rstrip(".?") + " !!"
    return text


@dataclass
class Mem:
    id: str
    seq: int  # creation order
    writer: str  # the caller (credential) that wrote it: a sessionless write's session is its credential's
    topic: int
    content: str  # as stored: trimmed
    kind: str
    owner: str
    project: str | None
    visibility: str
    provenance: str
    session: str | None
    session_key: str
    state: str = LIVE
    superseded_by: str | None = None
    loop_status: str | None = None
    closed_by: str | None = None


@dataclass
class Edge:
    src: str
    dst: str
    type: str
    origin: str
    reverted: bool = False


@dataclass
class Refused:
    status: int
    code: str


@dataclass
class WritePlan:
    """What an accepted remember must do, before the new memory's id is known."""

    absorbing: Mem | None
    retire: list[Mem]
    skipped: list[dict[str, str]]
    declared: bool
    links: list[tuple[str, str]]  # other (type, dst) edges the write records


@dataclass
class Store:
    memories: dict[str, Mem] = field(default_factory=dict)
    edges: list[Edge] = field(default_factory=list)
    events: Counter[tuple[str, str]] = field(default_factory=Counter)

    # -- the rules of §2 ------------------------------------------------------------------

    @staticmethod
    def role(user: str, project: str | None) -> str | None:
        return MEMBERS.get(project or "", {}).get(user)

    def visible(self, user: str, memory: Mem) -> bool:
        return memory.owner == user or (memory.visibility == "project" and self.role(user, memory.project) is not None)

    def can_retire(self, user: str, memory: Mem) -> bool:
        return memory.owner == user or self.role(user, memory.project) == "maintainer"

    def get_visible(self, user: str, memory_id: str) -> Mem | None:
        memory = self.memories.get(memory_id)
        return memory if memory is not None and self.visible(user, memory) else None

    def active_edge(self, src: str, dst: str, type_: str) -> Edge | None:
        for edge in self.edges:
            if (edge.src, edge.dst, edge.type, edge.reverted) == (src, dst, type_, False):
                return edge
        return None

    # -- remember (§3) --------------------------------------------------------------------

    def plan_remember(
        self,
        *,
        user: str,
        provenance: str,
        session_key: str,
        topic: int,
        project: str | None,
        visibility: str | None,
        supersede_ids: list[str],
        other_links: list[tuple[str, str]],
    ) -> Refused | WritePlan:
        """R-S10's order: validation, provenance, project, then each target."""
        targets = list(dict.fromkeys(supersede_ids))
        refusal = self.refusal(user, provenance, project, visibility, targets)
        if refusal is not None:
            return refusal
        absorbing = self.absorbing(user, project, session_key, topic)
        classified = self.classify_targets(user, targets, absorbing)
        if isinstance(classified, Refused):
            return classified
        links = list(dict.fromkeys(other_links))
        if any(self.get_visible(user, dst) is None for _, dst in links):
            return Refused(404, "not_found")
        retire, skipped = classified
        return WritePlan(absorbing=absorbing, retire=retire, skipped=skipped, declared=bool(targets), links=links)

    def refusal(
        self, user: str, provenance: str, project: str | None, visibility: str | None, targets: list[str]
    ) -> Refused | None:
        """The checks before any target is looked at: 400, then 403, then 404."""
        if visibility == "project" and project is None:
            return Refused(400, "invalid")
        if len(targets) > 10:
            return Refused(400, "too_many_supersedes")
        if targets and provenance == "provisional":
            return Refused(403, "provisional_cannot_supersede")
        if project is not None and self.role(user, project) is None:
            return Refused(404, "project_not_found")
        return None

    def classify_targets(
        self, user: str, targets: list[str], absorbing: Mem | None
    ) -> Refused | tuple[list[Mem], list[dict[str, str]]]:
        """R-S5/R-S6 per target: visibility (403), liveness (skipped), right to retire (403)."""
        retire: list[Mem] = []
        skipped: list[dict[str, str]] = []
        for target_id in targets:
            target = self.memories.get(target_id)
            if target is None:
                skipped.append({"dst": target_id, "reason": "missing"})
            elif not self.visible(user, target):
                return Refused(403, "supersede_target_forbidden")
            elif absorbing is not None and target_id == absorbing.id:
                skipped.append({"dst": target_id, "reason": "self"})
            elif target.state != LIVE:
                skipped.append({"dst": target_id, "reason": "dead"})
            elif not self.can_retire(user, target):
                return Refused(403, "supersede_target_forbidden")
            else:
                retire.append(target)
        return retire, skipped

    def absorbing(self, owner: str, project: str | None, session_key: str, topic: int) -> Mem | None:
        """R-D1: the oldest live restatement by the same owner, scope and session."""
        for memory in self.memories.values():  # creation order
            if (memory.owner, memory.project, memory.session_key, memory.topic, memory.state) == (
                owner,
                project,
                session_key,
                topic,
                LIVE,
            ):
                return memory
        return None

    def similar_candidates(self, user: str, project: str | None, exclude: str) -> set[str]:
        """R-N1/R-N2: the caller's own live memories, personal scope plus the project written into."""
        return {
            m.id
            for m in self.memories.values()
            if m.owner == user and m.state == LIVE and m.id != exclude and m.project in {None, project}
        }

    def add(self, memory: Mem) -> None:
        self.memories[memory.id] = memory
        self.events[memory.id, "created"] += 1

    def apply_links(self, src: Mem, links: list[tuple[str, str]]) -> None:
        """Other edges of a write: self edges dropped, existing active ones kept (no event)."""
        for type_, dst in links:
            if dst != src.id and self.active_edge(src.id, dst, type_) is None:
                self.edges.append(Edge(src.id, dst, type_, "link"))

    # -- lifecycle (§2, R-O2, R-O3) -----------------------------------------------------------

    def retire(self, memory: Mem, successor: Mem | None, origin: str = "declared") -> None:
        assert memory.state == LIVE
        memory.state = SUPERSEDED if successor is not None else FORGOTTEN
        memory.superseded_by = successor.id if successor is not None else None
        if memory.loop_status == "open":
            memory.loop_status = "closed"
            memory.closed_by = memory.superseded_by
        if successor is not None:
            graph_only = self.active_edge(successor.id, memory.id, SUPERSEDES)
            if graph_only is not None:
                # The retiring edge replaces a graph edge the caller recorded with POST /links/.
                graph_only.reverted = True
            self.edges.append(Edge(successor.id, memory.id, SUPERSEDES, origin))
            self.events[memory.id, "superseded"] += 1
        else:
            self.events[memory.id, "forgotten"] += 1

    def restore(self, memory: Mem) -> None:
        assert memory.state != LIVE
        previous = memory.superseded_by
        memory.state, memory.superseded_by = LIVE, None
        if memory.kind in LOOP_KINDS:
            # Loops only ever close through a retirement here, so restoring reopens them.
            memory.loop_status, memory.closed_by = "open", None
        retiring = self.active_edge(previous, memory.id, SUPERSEDES) if previous else None
        if retiring is not None and retiring.origin != "link":
            retiring.reverted = True
        self.events[memory.id, "restored"] += 1

    def link(self, src: Mem, dst: Mem, type_: str) -> tuple[Edge, bool]:
        existing = self.active_edge(src.id, dst.id, type_)
        if existing is not None:
            return existing, False
        edge = Edge(src.id, dst.id, type_, "link")
        self.edges.append(edge)
        self.events[src.id, "linked"] += 1
        return edge, True

    # -- reads (R-O1, R-O6, R-O7) --------------------------------------------------------

    def feed(self, user: str, state: str, project: str | None) -> list[str]:
        rows = [
            m
            for m in self.memories.values()
            if self.visible(user, m) and state in {"all", m.state} and (project is None or m.project == project)
        ]
        return [m.id for m in sorted(rows, key=lambda m: -m.seq)]

    def recall_eligible(self, user: str, project: str | None, include_superseded: bool) -> set[str]:
        states = {LIVE, SUPERSEDED} if include_superseded else {LIVE}
        return {
            m.id
            for m in self.memories.values()
            if self.visible(user, m)
            and m.state in states
            and (project is None or m.project == project or (m.project is None and m.owner == user))
        }

    def history(self, user: str, start: Mem) -> tuple[str | None, list[str], list[Edge]]:
        """Every memory joined to ``start`` by supersedes edges of any origin, reverted or not,
        walking through versions the caller cannot see, then showing only those it can."""
        component = {start.id}
        frontier = [start.id]
        while frontier:
            node = frontier.pop()
            for edge in self.edges:
                if edge.type == SUPERSEDES and node in (edge.src, edge.dst):
                    for end in (edge.src, edge.dst):
                        if end not in component:
                            component.add(end)
                            frontier.append(end)
        shown = sorted(
            (self.memories[i] for i in component if self.visible(user, self.memories[i])), key=lambda m: m.seq
        )
        ids = {m.id for m in shown}
        live = [m for m in shown if m.state == LIVE]
        edges = [e for e in self.edges if e.type == SUPERSEDES and e.src in ids and e.dst in ids]
        return (live[-1].id if live else None), [m.id for m in shown], edges
