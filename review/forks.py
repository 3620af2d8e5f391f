"""Forks of a version chain in the review queue (SPEC R-S12, §8).

A fork is two live versions of one fact written by writers who did not see each other: a write
named a version another write had already replaced, under ``on_stale: "skip"``. The write
opens the pair's conflict in its own transaction (``conflict_open_fork``, a hook of
memories); when either side is later replaced, the conflict moves on to the replacement
(``forks_follow_head``), so it always names the chain's live versions; and the sweep opens one
for any fork that has none (``forks_open_unaccounted``: forks older than this rule, imported
stores). Resolving it keeps one line: the newer supersedes the older, or the older stands.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.utils import timezone

from memories.forks import Fork, find_forks
from memories.models import Memory
from review.eligibility import hygiene_memories
from review.models import Conflict, ConflictStatus, Relation, Resolution

# A person who chose to keep both versions of a fork (or dismissed it) has accounted for it.
SETTLED_AS_TWO = (Resolution.KEEP_BOTH, Resolution.DISMISS)


def fork_rationale(older_id: str, newer_id: str) -> str:
    # The stale version is named by the conflict's stale_version, shown only to whom may see it.
    return (
        f"Both writers replaced the same version (stale_version): {newer_id} was written naming it after "
        f"{older_id} had already replaced it. Two live versions of one fact now stand; keep one line: "
        "the newer supersedes the older, or the older stands."
    )


def _open(*, older: Memory, newer: Memory, stale_id: str) -> bool:
    """One pending conflict for the pair, whichever way round it was opened before (R-H9)."""
    pair = Q(older=older, newer=newer) | Q(older=newer, newer=older)
    if Conflict.objects.filter(pair, status=ConflictStatus.PENDING).exists():
        return False
    try:
        # A savepoint: a concurrent opener of the same pair loses to the partial unique index
        # without failing the write it is part of.
        with transaction.atomic():
            Conflict.objects.create(
                older=older,
                newer=newer,
                relation=Relation.CONTRADICTS,
                # Not a judge's guess: the writes themselves name the version both replaced.
                confidence=1.0,
                rationale=fork_rationale(older.pk, newer.pk),
                stale_version_id=stale_id,
                same_credential=older.credential_id is not None and older.credential_id == newer.credential_id,
            )
    except IntegrityError:
        return False
    return True


def conflict_open_fork(memory: Memory, head: Memory, stale_id: str) -> None:
    """memories.hooks.on_fork: the write ``memory`` forked the chain whose live head is ``head``."""
    _open(older=head, newer=memory, stale_id=stale_id)


@dataclass(frozen=True)
class PendingRow:
    pk: int
    older_id: str
    newer_id: str
    stale_version_id: str | None

    @property
    def pair(self) -> tuple[str, str]:
        return (self.older_id, self.newer_id)


_PENDING_NAMING_SQL = f"""
SELECT id, older_id, newer_id, stale_version_id FROM {Conflict._meta.db_table}
WHERE status = 'pending' AND (older_id = ANY(%s) OR newer_id = ANY(%s))
ORDER BY id FOR UPDATE
"""


def pending_naming(memory_ids: list[str]) -> list[PendingRow]:
    """The pending conflicts naming any of ``memory_ids``, their rows locked in id order. Raw:
    it runs in every declared write, where compiling the ORM's query cost more than running it.
    The conflict rows alone are locked: the writer already holds its memories' row locks, and
    locking joined memories too (FOR UPDATE) deadlocked with writers (tests/faults/test_stress.py)."""
    with connection.cursor() as cursor:
        cursor.execute(_PENDING_NAMING_SQL, [memory_ids, memory_ids])
        return [PendingRow(*row) for row in cursor.fetchall()]


def forks_move(rows: list[PendingRow], successor: Memory, retired: set[str]) -> None:
    """Each fork conflict among ``rows`` that names a version in ``retired`` moves on to its
    ``successor``, so it names the chain's live versions. When the successor is the other side,
    the chain is one line again, and whoever retired it settles the conflict (a declaration, a
    moderator's decision)."""
    moving = [row for row in rows if set(row.pair) & retired]
    if not moving:
        return
    others = {side for row in moving for side in row.pair} - retired
    sides = hygiene_memories().defer("embedding", "search_vector").in_bulk(others)
    now = timezone.now()
    for row in moving:
        if row.stale_version_id is None:  # not a fork: hygiene's conflicts follow their own rule
            continue
        older = successor if row.older_id in retired else sides[row.older_id]
        newer = successor if row.newer_id in retired else sides[row.newer_id]
        if older.pk == newer.pk:
            continue
        Conflict.objects.filter(pk=row.pk, status=ConflictStatus.PENDING).update(
            status=ConflictStatus.RESOLVED, resolution=Resolution.RETIRED, resolved_at=now
        )
        _open(older=older, newer=newer, stale_id=row.stale_version_id)


def forks_follow_head(successor: Memory, targets: list[Memory]) -> None:
    """memories.hooks.on_superseded (hygiene's and moderators' retirements): forks_move."""
    retired = {target.pk for target in targets}
    forks_move(pending_naming(sorted(retired)), successor, retired)


def forks_accounted(forks: list[tuple[str, str, str]]) -> set[tuple[str, str]]:
    """memories.hooks.fork_accounted: the head pairs a conflict accounts for — a pending one
    naming both heads; or one of this fork (its stale version) naming either head, pending or
    settled by a person as two facts (kept both, dismissed). A fork's conflict moves on with its
    heads (``forks_follow_head``), but a restore can bring an older head back beside the one the
    conflict names: the fork is still in the queue."""
    if not forks:
        return set()
    heads = {head for _stale, a, b in forks for head in (a, b)}
    rows = (
        Conflict.objects.filter(Q(older_id__in=heads) | Q(newer_id__in=heads))
        .filter(Q(status=ConflictStatus.PENDING) | Q(resolution__in=SETTLED_AS_TWO, stale_version__isnull=False))
        .values_list("older_id", "newer_id", "stale_version_id", "status")
    )
    both: set[frozenset[str]] = set()
    of_fork: set[tuple[str, str]] = set()  # (stale version, a head it names)
    for older, newer, stale, status in rows:
        if status == ConflictStatus.PENDING:
            both.add(frozenset((older, newer)))
        if stale is not None:
            of_fork |= {(stale, older), (stale, newer)}
    return {
        (a, b) for stale, a, b in forks if frozenset((a, b)) in both or (stale, a) in of_fork or (stale, b) in of_fork
    }


def forks_open_unaccounted() -> list[Fork]:
    """The sweep's part: a conflict for every fork that has none; the forks it opened them for."""
    opened: list[Fork] = []
    for fork in find_forks(unaccounted_only=True):
        # The sweep acts for no viewer: the hygiene worker's named bypass of the visibility rule.
        memories = hygiene_memories().defer("embedding", "search_vector").in_bulk([fork.older, fork.newer])
        if len(memories) == 2 and _open(older=memories[fork.older], newer=memories[fork.newer], stale_id=fork.stale):
            opened.append(fork)
    return opened
