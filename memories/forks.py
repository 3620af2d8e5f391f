"""Forks of a version chain: two live versions of one fact (SPEC R-S12, the §8 invariant).

A version chain has at most one live version unless a pending conflict names the two. A fork
is found from its record — the ``forked`` event a write appends when it names a stale version
under ``on_stale: "skip"`` — or, for one made behind the API's back, from a version that two
active retiring links replace. Either way the two lines are followed forward to their heads as
they are now: a fork whose lines have met again, or one of whose heads is retired, is settled.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count

from memories import hooks
from memories.choices import RETIRING_ORIGINS, EventAction, LinkType, State
from memories.models import Link, Memory, MemoryEvent
from memories.services.stale import chain_ends


@dataclass(frozen=True)
class Fork:
    stale: str  # the version both lines replaced
    older: str  # the live head of the line that replaced it first
    newer: str  # the live head of the line that forked from it


def _candidates() -> list[tuple[str, str, str]]:
    """(stale version, a version of one line, a version of the other), from the records."""
    found: list[tuple[str, str, str]] = []
    for memory_id, data in MemoryEvent.objects.filter(action=EventAction.FORKED).values_list("memory_id", "data"):
        if isinstance(data, dict) and data.get("stale") and data.get("current"):
            found.append((str(data["stale"]), str(data["current"]), memory_id))
    retiring = Link.objects.filter(type=LinkType.SUPERSEDES, reverted=False, origin__in=RETIRING_ORIGINS)
    twice = retiring.values("dst_id").annotate(n=Count("id")).filter(n__gt=1).values_list("dst_id", flat=True)
    sources: dict[str, list[str]] = {}
    for dst_id, src_id in (
        retiring.filter(dst_id__in=list(twice)).order_by("created_at", "pk").values_list("dst_id", "src_id")
    ):
        sources.setdefault(dst_id, []).append(src_id)
    for dst_id, srcs in sources.items():
        found.extend((dst_id, srcs[0], other) for other in srcs[1:])
    return found


def find_forks(*, unaccounted_only: bool = False) -> list[Fork]:
    """Every fork of the store whose two lines still end in distinct live versions; with
    ``unaccounted_only``, those no conflict accounts for (``hooks.fork_accounted``)."""
    candidates = _candidates()
    ends = chain_ends({version for _stale, a, b in candidates for version in (a, b)})
    live = set(Memory.objects.filter(pk__in=set(ends.values()), state=State.LIVE).values_list("pk", flat=True))
    forks: list[Fork] = []
    seen: set[frozenset[str]] = set()
    for stale, a, b in candidates:
        older, newer = ends.get(a), ends.get(b)
        if older is None or newer is None or older == newer or older not in live or newer not in live:
            continue
        if frozenset((older, newer)) not in seen:
            seen.add(frozenset((older, newer)))
            forks.append(Fork(stale=stale, older=older, newer=newer))
    if not unaccounted_only or not forks:
        return forks
    accounted: set[tuple[str, str]] = set()
    for check in hooks.fork_accounted:
        accounted |= check([(fork.stale, fork.older, fork.newer) for fork in forks])
    return [fork for fork in forks if (fork.older, fork.newer) not in accounted]
