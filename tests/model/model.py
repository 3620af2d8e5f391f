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


# Stands for the new memory's id in a plan made before the write (R-S11: a head the write
# itself replaces is current once it commits).
SUCCESSOR = "<successor>"


@dataclass
class WritePlan:
    """What an accepted remember must do, before the new memory's id is known."""

    absorbing: Mem | None
    retire: list[Mem]
    skipped: list[dict[str, str | None]]
    declared: bool
    links: list[tuple[str, str]]  # other (type, dst) edges the write records
    followed: list[dict[str, str]] = field(default_factory=list)
    # (stale version, live head) pairs the write forks under "skip" (R-S12).
    forks: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class Store:
    memories: dict[str, Mem] = field(default_factory=dict)
    edges: list[Edge] = field(default_factory=list)
    events: Counter[tuple[str, str]] = field(default_factory=Counter)
    # Every fork a write made: (stale version, the head it forked beside, the write's memory).
    forks: list[tuple[str, str, str]] = field(default_factory=list)

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
        on_stale: str = "skip",
    ) -> Refused | WritePlan:
        """R-S10's order: validation, provenance, project, then each target."""
        targets = list(dict.fromkeys(supersede_ids))
        refusal = self.refusal(user, provenance, project, visibility, targets)
        if refusal is not None:
            return refusal
        absorbing = self.absorbing(user, project, session_key, topic)
        classified = self.classify_targets(user, targets, absorbing, on_stale)
        if isinstance(classified, Refused):
            return classified
        links = list(dict.fromkeys(other_links))
        if any(self.get_visible(user, dst) is None for _, dst in links):
            return Refused(404, "not_found")
        classified.links = links
        return classified

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

    def end(self, memory_id: str) -> Mem:
        """The last version of a chain, followed forward through superseded_by."""
        memory = self.memories[memory_id]
        while memory.superseded_by is not None:
            memory = self.memories[memory.superseded_by]
        return memory

    def classify_targets(
        self, user: str, targets: list[str], absorbing: Mem | None, on_stale: str
    ) -> Refused | WritePlan:
        """R-S5/R-S6 per target: visibility (403), liveness (skipped, or R-S11 for a stale one),
        right to retire (403)."""
        plan = WritePlan(absorbing=absorbing, retire=[], skipped=[], declared=bool(targets), links=[])
        successor = absorbing.id if absorbing is not None else SUCCESSOR
        stale: list[Mem] = []
        for target_id in targets:
            target = self.memories.get(target_id)
            if target is None:
                plan.skipped.append({"dst": target_id, "reason": "missing"})
            elif not self.visible(user, target):
                return Refused(403, "supersede_target_forbidden")
            elif absorbing is not None and target_id == absorbing.id:
                plan.skipped.append({"dst": target_id, "reason": "self"})
            elif target.state == SUPERSEDED:
                stale.append(target)
            elif target.state != LIVE:
                plan.skipped.append({"dst": target_id, "reason": "dead", "current": None})
            elif not self.can_retire(user, target):
                return Refused(403, "supersede_target_forbidden")
            else:
                plan.retire.append(target)
        if stale and on_stale == "reject":
            return Refused(409, "stale_target")
        return self.resolve_stale(user, stale, plan, on_stale, successor)

    def resolve_stale(
        self, user: str, stale: list[Mem], plan: WritePlan, on_stale: str, successor: str
    ) -> Refused | WritePlan:
        """R-S11 for each stale target, in order: its chain's live head is followed, reported
        (a fork, R-S12), or already the write's own."""
        for target in stale:
            head = self.end(target.id)
            retiring = {memory.id for memory in plan.retire}
            if head.state != LIVE:
                plan.skipped.append({"dst": target.id, "reason": "dead", "current": None})
            elif on_stale == "follow" and head.id != successor:
                if not (self.visible(user, head) and self.can_retire(user, head)):
                    return Refused(403, "supersede_target_forbidden")
                if head.id not in retiring:
                    plan.retire.append(head)
                plan.followed.append({"dst": target.id, "current": head.id})
            elif head.id == successor or head.id in retiring:
                plan.skipped.append({"dst": target.id, "reason": "dead", "current": successor})
            else:
                current = head.id if self.visible(user, head) else None
                plan.skipped.append({"dst": target.id, "reason": "dead", "current": current})
                if head.id not in {h for _s, h in plan.forks}:
                    plan.forks.append((target.id, head.id))
        return plan

    def unsettled_forks(self) -> list[tuple[str, str, str]]:
        """R-S12's record: (stale version, one live head, the other) for every fork whose two
        lines still end in distinct live versions — each must be in the review queue."""
        found = []
        for stale, head, forker in self.forks:
            a, b = self.end(head), self.end(forker)
            if a.id != b.id and a.state == LIVE and b.state == LIVE:
                found.append((stale, a.id, b.id))
        return found

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
