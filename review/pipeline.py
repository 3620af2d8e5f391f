"""The hygiene pipeline (SPEC §6): candidates → judge → retire or queue.

Runs after commit for every memory created by a write that declared no supersede. The judge
is called outside any transaction (it may be a slow HTTP call); its verdict is applied in one
transaction that records the judgment with a unique (older, newer) key, so a retry or a second
worker never applies a verdict twice, and retires through memories' supersede service, which
re-checks both memories under lock. Which memories are judged against which is
review.eligibility's rule, shared with the backlog sweep.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.db.models.expressions import RawSQL

from memories.choices import LinkOrigin, Provenance, State
from memories.models import Memory
from memories.search import CompiledParts, Ranked, compile_parts, fused_ranking, lexical_query
from memories.selectors import sentence_vectors
from memories.services import NotLive, memory_supersede
from review.eligibility import Described, hygiene_memories, memory_to_judge, scope_live, screen, settled_pairs
from review.judges import JudgeError, Pair, Verdict, get_judge
from review.judges.guard import guarded_judge
from review.judges.slots import slot_key
from review.models import QUEUED_RELATIONS, RETIRING_RELATIONS, Conflict, ConflictStatus, Judgment, JudgmentOutcome

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Candidate:
    memory: Memory
    distance: float


def candidates_for(memory: Memory) -> list[Candidate]:
    """The memories ``memory`` is judged against (review.eligibility's rule), nearest first, by
    the ranking similar_existing uses (memories.search: vector similarity fused with full-text
    matching, bounded by rank, with no distance window)."""
    settled = {other for pair in settled_pairs(memory_id=memory.pk) for other in pair} - {memory.pk}
    limit = int(settings.HYGIENE_SCREEN_CANDIDATES)
    parts = _candidate_parts(hygiene_memories().db, memory.owner_id, memory.project_id, limit)
    embedding = list(memory.embedding)
    own = sentence_vectors(memory_ids=[memory.pk]).get(memory.pk)
    ranked = fused_ranking(
        parts,
        embedding,
        lexical_query(memory.content, parts.alias),
        limit,
        query_vectors=own or [embedding],
        bind={_EXCLUDED_SLOT: [memory.pk, *settled]},
    )
    return screened(memory, ranked)


# Stands for the ids a memory's candidates leave out: itself and the memories it was judged with.
_EXCLUDED_SLOT = "zm:slot:hygiene-excluded"


@functools.lru_cache(maxsize=1024)
def _candidate_parts(alias: str, owner_id: int, project_id: int | None, limit: int) -> CompiledParts:
    """A scope's ranking compiled once (memories.search.CompiledParts), the ids to leave out
    bound per call: compiling its querysets cost more CPU than the rest of a check's ranking."""
    excluded = RawSQL("SELECT unnest(%s::text[])", (_EXCLUDED_SLOT,))
    return compile_parts([scope_live(owner_id, project_id).using(alias).exclude(pk__in=excluded)], limit)


def screened(memory: Memory, ranked: list[Ranked]) -> list[Candidate]:
    """The candidates of ``ranked`` worth judging against ``memory`` (review.eligibility.screen)."""
    # The screen reads text only; the few chosen rows are then read whole (their embeddings
    # feed the judge): parsing forty vectors to keep five cost more than the second query.
    texts = {
        pk: Described(order=(created_at, pk), content=content, kind=kind)
        for pk, content, kind, created_at in hygiene_memories()
        .filter(pk__in=[r.pk for r in ranked])
        .values_list("pk", "content", "kind", "created_at")
    }
    texts[memory.pk] = Described(order=(memory.created_at, memory.pk), content=memory.content, kind=memory.kind)
    distances = {r.pk: r.distance for r in ranked}
    chosen = screen(memory.pk, [r.pk for r in ranked], texts.__getitem__)
    rows = hygiene_memories().defer("search_vector").in_bulk(chosen)
    return [Candidate(memory=rows[pk], distance=distances[pk]) for pk in chosen]


def judge_with_retries(pair: Pair) -> Verdict:
    """The configured judge's verdict under the structure guard (R-H7, R-H8), retried on failure."""
    judge = get_judge()
    attempts = settings.HYGIENE_JUDGE_ATTEMPTS
    for attempt in range(1, attempts + 1):
        try:
            return guarded_judge(judge, pair)
        except JudgeError:
            if attempt == attempts:
                raise
            logger.warning("judge failed (attempt %d of %d); retrying", attempt, attempts)
            time.sleep(0.2 * 2 ** (attempt - 1))
    raise AssertionError("unreachable")  # pragma: no cover


def hygiene_check(memory_id: str) -> list[Judgment]:
    """Judge ``memory_id`` against its neighbours and act on the verdicts. Idempotent."""
    memory = memory_to_judge(memory_id)
    if memory is None:
        return []
    judged: list[tuple[Memory, Memory, Verdict]] = []
    for candidate in candidates_for(memory):
        older, newer = sorted((candidate.memory, memory), key=lambda m: (m.created_at, m.pk))
        pair = Pair(
            a=older.content,
            b=newer.content,
            kind_a=older.kind,
            kind_b=newer.kind,
            embedding_a=list(older.embedding),
            embedding_b=list(newer.embedding),
        )
        try:
            verdict = judge_with_retries(pair)
        except JudgeError:
            logger.exception("judge gave no verdict for %s / %s; a later sweep retries", older.pk, newer.pk)
            continue
        judged.append((older, newer, verdict))
    queue_index = strongest_to_queue(
        [(verdict, older.provenance, newer.provenance) for older, newer, verdict in judged]
    )
    judgments = []
    for index, (older, newer, verdict) in enumerate(judged):
        judgment = apply_verdict(
            older_id=older.pk,
            newer_id=newer.pk,
            verdict=verdict,
            judge_name=get_judge().name,
            may_queue=index == queue_index,
        )
        if judgment is not None:
            judgments.append(judgment)
    return judgments


def would_retire(*, verdict: Verdict, older_provenance: str, newer_provenance: str) -> bool:
    """Whether the verdict retires the older memory when both are live (SPEC R-H3, R-H7, R-H8)."""
    return (
        verdict.relation in RETIRING_RELATIONS
        and verdict.resolvable
        and verdict.confidence >= settings.HYGIENE_AUTO_RESOLVE_THRESHOLD
        # A watcher's capture never overrules what a person or agent said in-band.
        and not (newer_provenance == Provenance.PROVISIONAL and older_provenance == Provenance.AUTHORITATIVE)
    )


def strongest_to_queue(verdicts: list[tuple[Verdict, str, str]]) -> int | None:
    """Which of one memory's verdicts (in candidate order, nearest first) may open its one
    conflict (SPEC R-H9): the most confident of those that would queue; the nearer on a tie."""
    best: int | None = None
    for index, (verdict, older_provenance, newer_provenance) in enumerate(verdicts):
        if verdict.relation not in QUEUED_RELATIONS or not verdict.queueable:
            continue
        if would_retire(verdict=verdict, older_provenance=older_provenance, newer_provenance=newer_provenance):
            continue
        if best is None or verdict.confidence > verdicts[best][0].confidence:
            best = index
    return best


def decide_outcome(
    *, verdict: Verdict, both_live: bool, older_provenance: str, newer_provenance: str, may_queue: bool = True
) -> JudgmentOutcome:
    """What a verdict does to a pair (SPEC §6): retire the older, queue a conflict, or nothing.
    ``may_queue`` is False for all but the one candidate of a memory that may open a conflict."""
    if both_live and would_retire(
        verdict=verdict, older_provenance=older_provenance, newer_provenance=newer_provenance
    ):
        return JudgmentOutcome.AUTO_RESOLVED
    if both_live and may_queue and verdict.queueable and verdict.relation in QUEUED_RELATIONS:
        return JudgmentOutcome.QUEUED
    return JudgmentOutcome.NO_ACTION


def hygiene_reason(verdict: Verdict) -> str:
    """Why hygiene retired a memory, as its event says."""
    return f"hygiene: {verdict.relation} ({verdict.confidence:.2f})"


def conflict_for(*, older: Memory, newer: Memory, judgment_id: int, verdict: Verdict) -> Conflict:
    """The (unsaved) review-queue entry for a doubtful verdict."""
    return Conflict(
        older=older,
        newer=newer,
        judgment_id=judgment_id,
        relation=verdict.relation,
        confidence=verdict.confidence,
        rationale=verdict.rationale,
        same_credential=older.credential_id is not None and older.credential_id == newer.credential_id,
        slot=slot_key(older.content, newer.content, older.kind, newer.kind),
    )


def pending_pairs(pairs: list[tuple[str, str]]) -> set[tuple[str, str]]:
    """Which of these (older, newer) pairs already wait in the queue, in either order. Two
    hygiene runs never open one pair's conflict at once: each first records the pair's judgment,
    whose unique key makes the second wait for the first and then fail."""
    if not pairs:
        return set()
    match = Q()
    for older_id, newer_id in pairs:
        match |= Q(older_id=older_id, newer_id=newer_id) | Q(older_id=newer_id, newer_id=older_id)
    found = Conflict.objects.filter(match, status=ConflictStatus.PENDING).values_list("older_id", "newer_id")
    waiting = {frozenset(pair) for pair in found}
    return {pair for pair in pairs if frozenset(pair) in waiting}


def newers_lock(newer_ids: Iterable[str]) -> None:
    """Serialise the queueing of conflicts per newer memory (R-H9: one each): a transaction-scoped
    advisory lock per memory, in id order, taken first in its transaction, before any row lock,
    so it never closes a cycle with them."""
    wanted = sorted(set(newer_ids))
    if not wanted:
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_advisory_xact_lock(hashtextextended('review:conflict-newer:' || id, 0))"
            " FROM unnest(%s::text[]) WITH ORDINALITY AS wanted(id, n) ORDER BY n",
            [wanted],
        )


def newers_waiting(newer_ids: Iterable[str]) -> set[str]:
    """Which of these memories already wait in the queue as the newer of a judged pair: a new
    memory opens at most one conflict (R-H9), whichever check or sweep found it — with the worker
    behind the writes, an older memory's check may meet it before its own check runs."""
    wanted = set(newer_ids)
    if not wanted:
        return set()
    found = Conflict.objects.filter(
        newer_id__in=wanted, status=ConflictStatus.PENDING, stale_version__isnull=True
    ).values_list("newer_id", flat=True)
    return set(found)


def apply_verdict(
    *, older_id: str, newer_id: str, verdict: Verdict, judge_name: str, may_queue: bool = True
) -> Judgment | None:
    """Record the verdict and act on it atomically; None if the pair was judged already."""
    try:
        with transaction.atomic():
            if may_queue and verdict.queueable and verdict.relation in QUEUED_RELATIONS:
                newers_lock([newer_id])
            pair = hygiene_memories().defer("embedding", "search_vector").in_bulk([older_id, newer_id])
            older, newer = pair[older_id], pair[newer_id]
            outcome = decide_outcome(
                verdict=verdict,
                both_live=older.state == State.LIVE and newer.state == State.LIVE,
                older_provenance=older.provenance,
                newer_provenance=newer.provenance,
                may_queue=may_queue,
            )
            if outcome == JudgmentOutcome.QUEUED and (
                pending_pairs([(older_id, newer_id)]) or newers_waiting([newer_id])
            ):
                # Never queued twice, and one conflict per new memory (R-H9): the pending one stands.
                outcome = JudgmentOutcome.NO_ACTION
            judgment = Judgment.objects.create(
                older=older,
                newer=newer,
                relation=verdict.relation,
                confidence=verdict.confidence,
                rationale=verdict.rationale,
                judge=judge_name,
                outcome=outcome,
            )
            if outcome == JudgmentOutcome.AUTO_RESOLVED:
                try:
                    memory_supersede(
                        actor=None,
                        target_id=older_id,
                        successor_id=newer_id,
                        origin=LinkOrigin.HYGIENE,
                        reason=hygiene_reason(verdict),
                    )
                except NotLive:
                    # Retired since it was read: what the verdict would have done to a retired pair.
                    judgment.outcome = JudgmentOutcome.NO_ACTION
                    judgment.save(update_fields=["outcome"])
            elif outcome == JudgmentOutcome.QUEUED:
                conflict_for(older=older, newer=newer, judgment_id=judgment.pk, verdict=verdict).save(force_insert=True)
    except IntegrityError:
        logger.info("pair %s / %s was judged already; nothing to do", older_id, newer_id)
        return None
    return judgment
