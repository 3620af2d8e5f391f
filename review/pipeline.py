"""The hygiene pipeline (SPEC §6): candidates → judge → retire or queue.

Runs after commit for every memory created by a write that declared no supersede. The judge
is called outside any transaction (it may be a slow HTTP call); its verdict is applied in one
transaction that re-checks both memories under lock and records the judgment with a unique
(older, newer) key, so a retry or a second worker never applies a verdict twice.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q

from memories.choices import LinkOrigin, LinkType, Provenance, State
from memories.locks import lock_memories
from memories.models import Link, Memory
from memories.ranking import Ranked, fused_ranking, lexical_query
from memories.services.lifecycle import retire_by_successor
from review.judges import JudgeError, Pair, Verdict, get_judge
from review.judges.guard import guarded_judge, structural_verdict
from review.judges.structure import analyse
from review.models import QUEUED_RELATIONS, RETIRING_RELATIONS, Conflict, ConflictStatus, Judgment, Outcome

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Candidate:
    memory: Memory
    distance: float


def candidates_for(memory: Memory) -> list[Candidate]:
    """The memories ``memory`` is judged against (SPEC R-H1, R-H9): among the live memories of
    the same owner and scope most like it — by the ranking similar_existing uses
    (memories.ranking: vector similarity fused with full-text matching, bounded by rank, with no
    distance window) — except pairs a writer linked by a declared supersede and pairs already
    judged, the first few whose structure does not already show two distinguishable facts."""
    judged = Judgment.objects.filter(Q(older=memory) | Q(newer=memory)).values_list("older_id", "newer_id")
    already = {other for pair in judged for other in pair} - {memory.pk}
    declared = Link.objects.filter(type=LinkType.SUPERSEDES, origin=LinkOrigin.DECLARED).filter(
        Q(src=memory) | Q(dst=memory)
    )
    linked = {other for pair in declared.values_list("src_id", "dst_id") for other in pair} - {memory.pk}
    scope = Memory.objects.filter(owner_id=memory.owner_id, project=memory.project, state=State.LIVE).exclude(
        pk__in=[memory.pk, *already, *linked]
    )
    ranked = fused_ranking(
        [scope], list(memory.embedding), lexical_query(memory.content, scope.db), settings.HYGIENE_SCREEN_CANDIDATES
    )
    return screened(memory, ranked)


def screened(memory: Memory, ranked: list[Ranked]) -> list[Candidate]:
    """The first ``HYGIENE_MAX_CANDIDATES`` of ``ranked`` worth judging against ``memory``."""
    # The screen reads text only; the few chosen rows are then read whole (their embeddings
    # feed the judge): parsing forty vectors to keep five cost more than the second query.
    texts = {
        pk: (content, kind, created_at)
        for pk, content, kind, created_at in Memory.objects.filter(pk__in=[r.pk for r in ranked]).values_list(
            "pk", "content", "kind", "created_at"
        )
    }
    chosen: dict[str, float] = {}
    for candidate in ranked:
        content, kind, created_at = texts[candidate.pk]
        if (created_at, candidate.pk) < (memory.created_at, memory.pk):
            worth = worth_judging(content, memory.content, kind, memory.kind)
        else:
            worth = worth_judging(memory.content, content, memory.kind, kind)
        if worth:
            chosen[candidate.pk] = candidate.distance
            if len(chosen) == settings.HYGIENE_MAX_CANDIDATES:
                break
    rows = Memory.objects.defer("search_vector").in_bulk(list(chosen))
    return [Candidate(memory=rows[pk], distance=distance) for pk, distance in chosen.items()]


def worth_judging(older: str, newer: str, kind_older: str, kind_newer: str) -> bool:
    """Whether a judge could change anything for this pair: not when its structure alone shows
    two facts that both stand (another subject, another attribute, nothing in common)."""
    return structural_verdict(analyse(older, newer, kind_older, kind_newer)) is None


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
    memory = Memory.objects.filter(pk=memory_id, state=State.LIVE).first()
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
) -> Outcome:
    """What a verdict does to a pair (SPEC §6): retire the older, queue a conflict, or nothing.
    ``may_queue`` is False for all but the one candidate of a memory that may open a conflict."""
    if both_live and would_retire(
        verdict=verdict, older_provenance=older_provenance, newer_provenance=newer_provenance
    ):
        return Outcome.AUTO_RESOLVED
    if both_live and may_queue and verdict.queueable and verdict.relation in QUEUED_RELATIONS:
        return Outcome.QUEUED
    return Outcome.NO_ACTION


def retire_older(*, older: Memory, newer: Memory, verdict: Verdict) -> None:
    """Retire the locked, live ``older`` in favour of ``newer`` on the judge's word."""
    retire_by_successor(
        target=older,
        successor=newer,
        origin=LinkOrigin.HYGIENE,
        actor=None,
        reason=f"hygiene: {verdict.relation} ({verdict.confidence:.2f})",
    )


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
    )


def pending_pairs(pairs: list[tuple[str, str]]) -> set[tuple[str, str]]:
    """Which of these (older, newer) pairs already wait in the queue, in either order. Callers
    hold both memories' locks, which every conflict's opening takes too."""
    if not pairs:
        return set()
    match = Q()
    for older_id, newer_id in pairs:
        match |= Q(older_id=older_id, newer_id=newer_id) | Q(older_id=newer_id, newer_id=older_id)
    found = Conflict.objects.filter(match, status=ConflictStatus.PENDING).values_list("older_id", "newer_id")
    waiting = {frozenset(pair) for pair in found}
    return {pair for pair in pairs if frozenset(pair) in waiting}


def apply_verdict(
    *, older_id: str, newer_id: str, verdict: Verdict, judge_name: str, may_queue: bool = True
) -> Judgment | None:
    """Record the verdict and act on it atomically; None if the pair was judged already."""
    try:
        with transaction.atomic():
            locked = lock_memories([older_id, newer_id])
            older, newer = locked[older_id], locked[newer_id]
            outcome = decide_outcome(
                verdict=verdict,
                both_live=older.state == State.LIVE and newer.state == State.LIVE,
                older_provenance=older.provenance,
                newer_provenance=newer.provenance,
                may_queue=may_queue,
            )
            if outcome == Outcome.QUEUED and pending_pairs([(older_id, newer_id)]):
                outcome = Outcome.NO_ACTION  # never queued twice (R-H9); the pending one stands
            judgment = Judgment.objects.create(
                older=older,
                newer=newer,
                relation=verdict.relation,
                confidence=verdict.confidence,
                rationale=verdict.rationale,
                judge=judge_name,
                outcome=outcome,
            )
            if outcome == Outcome.AUTO_RESOLVED:
                retire_older(older=older, newer=newer, verdict=verdict)
            elif outcome == Outcome.QUEUED:
                conflict_for(older=older, newer=newer, judgment_id=judgment.pk, verdict=verdict).save(force_insert=True)
    except IntegrityError:
        logger.info("pair %s / %s was judged already; nothing to do", older_id, newer_id)
        return None
    return judgment
