"""Stale versions: a declared supersedes target that another write already replaced (SPEC R-S5,
R-S11, R-S12).

A superseded memory's ``superseded_by`` points one step forward; following it to the end finds
the version that is current now (R-O6's head), or a retired end when the chain has no live
version. remember asks for those ends after it has locked its targets, and locks every end it
will act on or report — retire it (``follow``), open a conflict with it (``skip``) — so that no
concurrent write can move the head between the answer and the commit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from django.db import connection

from memories.choices import OnStale, State
from memories.errors import StaleTarget
from memories.models import Memory

# A chain longer than this is cut there (no supersede cycles exist: SPEC §8; this only bounds
# the walk over a store that breaches it).
MAX_CHAIN_STEPS = 10_000

_ENDS_SQL = f"""
WITH RECURSIVE walk(start, id, next, steps) AS (
    SELECT m.id, m.id, m.superseded_by_id, 0 FROM {Memory._meta.db_table} m WHERE m.id = ANY(%s)
    UNION ALL
    SELECT w.start, m.id, m.superseded_by_id, w.steps + 1
    FROM walk w JOIN {Memory._meta.db_table} m ON m.id = w.next
    WHERE w.steps < {MAX_CHAIN_STEPS}
)
SELECT start, id FROM walk WHERE next IS NULL
"""


def chain_ends(memory_ids: Iterable[str]) -> dict[str, str]:
    """For each of ``memory_ids``, the last version of its chain followed forward through
    ``superseded_by`` (itself when nothing replaced it), whatever that version's state."""
    wanted = sorted(set(memory_ids))
    if not wanted:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(_ENDS_SQL, [wanted])
        return dict(cursor.fetchall())


class Relock(Exception):
    """The heads to act on are not all locked yet: the write starts over with them in its lock
    set, so every row is still locked in one statement in id order (no deadlock with a writer
    that names the same memories in another order)."""

    def __init__(self, ids: set[str]) -> None:
        super().__init__(sorted(ids))
        self.ids = ids


@dataclass
class TargetPlan:
    """What a declared write does with each of its targets, decided under the locks."""

    to_retire: list[Memory] = field(default_factory=list)
    skipped: list[dict[str, str | None]] = field(default_factory=list)
    followed: list[dict[str, str]] = field(default_factory=list)
    # (stale target, live head) pairs the write forks under "skip": each opens a conflict.
    forks: list[tuple[str, Memory]] = field(default_factory=list)


def resolve_stale(
    *,
    stale: list[Memory],
    locked: dict[str, Memory],
    plan: TargetPlan,
    on_stale: str,
    successor_id: str,
    forbidden: Callable[[str], Exception],
) -> None:
    """Decide, under the locks, what each stale (superseded) target means for the write.

    ``successor_id`` is the memory the write retires its targets in favour of: the new one, or
    the absorbing one when the write restates a live memory (R-D2). ``locked`` carries the
    caller's rights over each row (remember's lock statement). Raises Relock when a head is not
    locked, StaleTarget under "reject", and ``forbidden(target_id)`` when "follow" meets a head
    the caller may not see or retire.
    """
    if not stale:
        return
    ends = chain_ends(target.pk for target in stale)
    missing = {end for end in ends.values() if end not in locked}
    if missing:
        raise Relock(missing)
    retiring = {memory.pk for memory in plan.to_retire}
    rejected: list[dict[str, str | None]] = []
    forked: set[str] = set()
    for target in stale:
        head = locked[ends[target.pk]]
        live = head.state == State.LIVE
        visible = bool(head.zm_visible)  # type: ignore[attr-defined]
        current = head.pk if live and visible else None
        if on_stale == OnStale.REJECT:
            rejected.append({"dst": target.pk, "current": current})
        elif not live:
            plan.skipped.append({"dst": target.pk, "reason": "dead", "current": None})
        elif on_stale == OnStale.FOLLOW and head.pk != successor_id:
            if not visible or not head.zm_retirable:  # type: ignore[attr-defined]
                raise forbidden(target.pk)
            if head.pk not in retiring:
                plan.to_retire.append(head)
                retiring.add(head.pk)
            plan.followed.append({"dst": target.pk, "current": head.pk})
        elif head.pk == successor_id or head.pk in retiring:
            # This write is (or is about to be) the head's successor: the chain stays one line,
            # and what is current once it commits is the write's own memory.
            plan.skipped.append({"dst": target.pk, "reason": "dead", "current": successor_id})
        else:
            plan.skipped.append({"dst": target.pk, "reason": "dead", "current": current})
            if head.pk not in forked:
                forked.add(head.pk)
                plan.forks.append((target.pk, head))
    if rejected:
        names = ", ".join(entry["dst"] or "" for entry in rejected)
        raise StaleTarget(
            f"Another write already replaced {names}; nothing was stored. Read the current version "
            '(see "current"), then write again naming it, or use "on_stale": "follow".',
            current=rejected,
        )
