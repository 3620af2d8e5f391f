"""The lifecycle invariants of SPEC §8, checked against the whole store (check_integrity)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from memories.choices import CREATION_ACTIONS, RETIRING_ORIGINS, EventAction, LinkOrigin, LinkType, LoopStatus, State
from memories.forks import find_forks
from memories.models import TOMBSTONE, Link, Memory, MemoryEvent, MemorySentence
from memories.services.lifecycle import event_append

REQUIRED_TRIGGERS = {
    "memoryevent_append_only",
    "memory_forward_only",
    "link_forward_only",
    # The event feed and the webhooks' outbox (migration 0016).
    "memory_event_feed",
    "feed_event_append_only",
    "feed_event_outbox",
}


@dataclass(frozen=True)
class Breach:
    code: str
    memory_ids: tuple[str, ...]
    message: str
    fixable: bool = False

    def __str__(self) -> str:
        return f"{self.code}: {', '.join(self.memory_ids) or '-'}: {self.message}"


def _active_supersedes(src: Any, dst: Any) -> Exists:
    return Exists(
        Link.objects.filter(
            type=LinkType.SUPERSEDES, reverted=False, src_id=src, dst_id=dst, origin__in=RETIRING_ORIGINS
        )
    )


def find_breaches() -> Iterator[Breach]:
    superseded = Memory.objects.filter(state=State.SUPERSEDED).only("id", "superseded_by_id")
    for memory in superseded.exclude(_active_supersedes(OuterRef("superseded_by_id"), OuterRef("pk"))):
        yield Breach(
            "superseded_without_link",
            (memory.pk, str(memory.superseded_by_id)),
            "superseded, but no active supersedes link from its successor",
            fixable=True,
        )
    for memory in Memory.objects.filter(state=State.LIVE).exclude(superseded_by__isnull=True).only("id"):
        yield Breach("live_with_successor", (memory.pk,), "live, yet names a successor")
    stale = Link.objects.filter(
        type=LinkType.SUPERSEDES, reverted=False, origin__in=RETIRING_ORIGINS, dst__state=State.LIVE
    ).only("id", "src_id", "dst_id")
    for link in stale:
        yield Breach(
            "live_target_of_active_supersede",
            (link.dst_id, link.src_id),
            f"live, yet the retiring link {link.pk} from its successor is not marked reverted",
            fixable=True,
        )
    yield from _cycles()
    for memory in Memory.objects.filter(state=State.SUPERSEDED, loop_status=LoopStatus.CLOSED).only(
        "id", "closed_by_id", "superseded_by_id"
    ):
        if memory.closed_by_id != memory.superseded_by_id:
            yield Breach("loop_closed_without_successor", (memory.pk,), "loop closed by a supersede names no successor")
    forgotten_loops = Memory.objects.filter(state=State.FORGOTTEN, loop_status=LoopStatus.CLOSED)
    for memory in forgotten_loops.filter(
        Q(closed_at__isnull=True)
        | ~Exists(MemoryEvent.objects.filter(memory=OuterRef("pk"), action=EventAction.FORGOTTEN))
    ).only("id"):
        yield Breach("forgotten_loop_unrecorded", (memory.pk,), "loop closed by forget lacks closed_at or its event")
    unborn = Memory.objects.exclude(
        Exists(MemoryEvent.objects.filter(memory=OuterRef("pk"), action__in=list(CREATION_ACTIONS)))
    ).only("id")
    for memory in unborn:
        yield Breach("no_creation_event", (memory.pk,), "has no created (or imported, or submitted) event")
    yield from _tombstones()
    for fork in find_forks(unaccounted_only=True):
        yield Breach(
            "unsettled_fork",
            (fork.older, fork.newer, fork.stale),
            f"two live versions of the chain of {fork.stale}, and no pending conflict names them (SPEC R-S12)",
        )
    with connection.cursor() as cursor:
        cursor.execute("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal AND tgenabled <> 'D'")
        present = {row[0] for row in cursor.fetchall()}
    for missing in sorted(REQUIRED_TRIGGERS - present):
        yield Breach("trigger_missing", (), f"the trigger {missing} is missing or disabled")


def _tombstones() -> Iterator[Breach]:
    """A purge leaves a tombstone, an event and no vectors of the words; nothing else does."""
    purged = Memory.objects.filter(purged_at__isnull=False)
    for memory in purged.exclude(content=TOMBSTONE).only("id"):
        yield Breach("tombstone_with_content", (memory.pk,), "purged, yet its content is not the tombstone")
    for memory in purged.filter(Exists(MemorySentence.objects.filter(memory=OuterRef("pk")))).only("id"):
        yield Breach("tombstone_with_vectors", (memory.pk,), "purged, yet its sentence vectors remain")
    unrecorded = purged.exclude(Exists(MemoryEvent.objects.filter(memory=OuterRef("pk"), action=EventAction.PURGED)))
    for memory in unrecorded.only("id"):
        yield Breach("purge_unrecorded", (memory.pk,), "purged without a purged event")
    half = Memory.objects.filter(
        purged_at__isnull=True,
        pk__in=MemoryEvent.objects.filter(action=EventAction.PURGED).values("memory_id"),
    )
    for memory in half.only("id"):
        yield Breach("purge_incomplete", (memory.pk,), "has a purged event, yet its content was never erased")


def _cycles() -> Iterator[Breach]:
    successor = dict(Memory.objects.filter(superseded_by__isnull=False).values_list("pk", "superseded_by_id"))
    reported: set[str] = set()
    for start in successor:
        seen: list[str] = []
        node: str | None = start
        while node is not None and node not in seen:
            seen.append(node)
            node = successor.get(node)
        if node is not None and node not in reported:
            cycle = seen[seen.index(node) :]
            reported.update(cycle)
            yield Breach("supersede_cycle", tuple(cycle), "these memories supersede each other in a cycle")


def repair(breach: Breach) -> bool:
    """Repair a breach where the repair is safe, recording it as an event. True if fixed."""
    if not breach.fixable:
        return False
    reason = "check_integrity --fix"
    with transaction.atomic():
        if breach.code == "superseded_without_link":
            target_id, successor_id = breach.memory_ids
            link = Link.objects.create(
                src_id=successor_id, dst_id=target_id, type=LinkType.SUPERSEDES, origin=LinkOrigin.MODERATOR
            )
            event_append(
                memory=Memory.objects.get(pk=target_id),
                action=EventAction.LINKED,
                actor=None,
                reason=reason,
                data={"link": link.pk, "repaired": breach.code},
            )
            return True
        if breach.code == "live_target_of_active_supersede":
            target_id, successor_id = breach.memory_ids
            links = Link.objects.filter(src_id=successor_id, dst_id=target_id, type=LinkType.SUPERSEDES, reverted=False)
            ids = list(links.values_list("pk", flat=True))
            links.update(reverted=True, reverted_at=timezone.now())
            event_append(
                memory=Memory.objects.get(pk=target_id),
                action=EventAction.LINK_REVERTED,
                actor=None,
                reason=reason,
                data={"links": ids, "repaired": breach.code},
            )
            return True
    return False
