"""Which memories hygiene judges, and against which (SPEC R-H1, R-H7, R-H9).

One rule for both ways of running hygiene: the pipeline, one memory after its write
(review.pipeline), and the backlog sweep, a scope at a time with the scope held in memory
(review.sweep). Each reads its state through these functions and screens its ranked candidates
through :func:`screen`, so the two can differ in how fast they find candidates, never in which.

The rule:

* a memory is judged while it is live, against the live memories of the same owner and scope
  (personal, or one project) — never itself;
* never against a memory it was already judged with (a pair is judged once), nor one linked to
  it by a declared supersede (the writer settled that pair);
* of the nearest of those by the similar_existing ranking, the first few whose structure does
  not already show two facts that both stand.

Hygiene acts for no viewer, so its reads of memories are the one named bypass of visibility.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import TypeVar

from django.conf import settings
from django.db.models import Q, QuerySet

from memories.choices import LinkOrigin, LinkType, State
from memories.models import Link, Memory
from memories.visibility import unrestricted_memories
from review.judges.guard import may_act, structural_verdict
from review.judges.structure import analyse
from review.models import Judgment

Item = TypeVar("Item")


def hygiene_memories() -> QuerySet[Memory]:
    """Every memory, for the hygiene worker: it compares an owner's memories with each other."""
    return unrestricted_memories(reason="hygiene judges each owner's memories within one scope, for no viewer")


def in_scope(owner_id: int, project_id: int | None, prefix: str = "") -> Q:
    """Memories (or, with ``prefix``, rows whose ``prefix`` memory is) of this owner and scope."""
    if project_id is None:
        return Q(**{f"{prefix}owner_id": owner_id, f"{prefix}project__isnull": True})
    return Q(**{f"{prefix}owner_id": owner_id, f"{prefix}project_id": project_id})


def memory_to_judge(memory_id: str) -> Memory | None:
    """The memory, if hygiene judges it now: a memory retired before its turn is left alone."""
    return hygiene_memories().filter(pk=memory_id, state=State.LIVE).first()


def scope_live(owner_id: int, project_id: int | None) -> QuerySet[Memory]:
    """What a memory of this owner and scope may be judged against, before the settled pairs."""
    return hygiene_memories().filter(in_scope(owner_id, project_id), state=State.LIVE)


def settled_pairs(
    *, memory_id: str | None = None, scope: tuple[int, int | None] | None = None
) -> Iterator[tuple[str, str]]:
    """Pairs never judged (again): judged already, or linked by a declared supersede — those of
    one memory, or those of one (owner, project) scope, in any lifecycle state."""
    if (memory_id is None) == (scope is None):
        raise TypeError("settled_pairs() takes memory_id or scope")
    judged = Judgment.objects.all()
    declared = Link.objects.filter(type=LinkType.SUPERSEDES, origin=LinkOrigin.DECLARED)
    if memory_id is not None:
        parts = [
            judged.filter(Q(older_id=memory_id) | Q(newer_id=memory_id)).values_list("older_id", "newer_id"),
            declared.filter(Q(src_id=memory_id) | Q(dst_id=memory_id)).values_list("src_id", "dst_id"),
        ]
    elif scope is not None:
        # A pair is judged only within one scope, so its older memory places it; a declared
        # supersede may cross scopes, so either end may.
        parts = [
            judged.filter(in_scope(*scope, "older__")).values_list("older_id", "newer_id"),
            *(declared.filter(in_scope(*scope, f"{end}__")).values_list("src_id", "dst_id") for end in ("src", "dst")),
        ]
    for part in parts:
        yield from part.iterator(chunk_size=10_000)


@dataclass(frozen=True)
class Described:
    """What screening reads of a memory: which of a pair is older, and its text."""

    order: tuple[datetime, str]  # (created_at, pk)
    content: str
    kind: str


def screen(
    subject: Item,
    ranked: Iterable[Item],
    describe: Callable[[Item], Described],
    *,
    known: dict[tuple[Item, Item], bool] | None = None,
) -> list[Item]:
    """The first ``HYGIENE_MAX_CANDIDATES`` of ``ranked`` (best first) worth judging against
    ``subject``; ``describe`` reads either, however the caller holds them. ``known`` keeps the
    answers by (older, newer) for a caller that meets the same pair again (the sweep screens
    each pair from both ends)."""
    limit = settings.HYGIENE_MAX_CANDIDATES
    mine = describe(subject)
    chosen: list[Item] = []
    for candidate in ranked:
        other = describe(candidate)
        mine_older = mine.order < other.order
        older, newer = (mine, other) if mine_older else (other, mine)
        key = (subject, candidate) if mine_older else (candidate, subject)
        worth = None if known is None else known.get(key)
        if worth is None:
            worth = worth_judging(older.content, newer.content, older.kind, newer.kind)
            if known is not None:
                known[key] = worth
        if worth:
            chosen.append(candidate)
            if len(chosen) == limit:
                break
    return chosen


def worth_judging(older: str, newer: str, kind_older: str, kind_newer: str) -> bool:
    """Whether a judge could change anything for this pair: not when its structure alone shows
    two facts that both stand (another subject, another attribute, nothing in common), nor when
    it gives no positive evidence of one slot, so that no verdict could retire or queue it
    (review.judges.guard.may_act). Such pairs are left out before the judge, so a memory's few
    judged candidates are pairs that could matter."""
    structure = analyse(older, newer, kind_older, kind_newer)
    return structural_verdict(structure) is None and may_act(structure)
