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
from django.db.models.expressions import CombinedExpression
from pgvector.django import CosineDistance

from memories.choices import LinkOrigin, LinkType, Provenance, State
from memories.locks import lock_memories
from memories.models import Link, Memory
from memories.services.lifecycle import retire_by_successor
from review.judges import JudgeError, Pair, Verdict, get_judge
from review.models import QUEUED_RELATIONS, RETIRING_RELATIONS, Conflict, Judgment, Outcome

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Candidate:
    memory: Memory
    distance: float


def candidates_for(memory: Memory) -> list[Candidate]:
    """The nearest live memories of the same owner and scope within the configured distance,
    except pairs a writer linked by a declared supersede and pairs already judged."""
    judged = Judgment.objects.filter(Q(older=memory) | Q(newer=memory)).values_list("older_id", "newer_id")
    already = {other for pair in judged for other in pair} - {memory.pk}
    declared = Link.objects.filter(type=LinkType.SUPERSEDES, origin=LinkOrigin.DECLARED).filter(
        Q(src=memory) | Q(dst=memory)
    )
    linked = {other for pair in declared.values_list("src_id", "dst_id") for other in pair} - {memory.pk}
    rows = (
        Memory.objects.filter(owner_id=memory.owner_id, project=memory.project, state=State.LIVE)
        .exclude(pk__in=[memory.pk, *already, *linked])
        .defer("search_vector")
        .annotate(distance=exact_distance(memory.embedding))
        .filter(distance__lte=settings.HYGIENE_MAX_DISTANCE)
        .order_by("distance", "pk")[: settings.HYGIENE_MAX_CANDIDATES]
    )
    return [Candidate(memory=row, distance=float(row.distance)) for row in rows]


def exact_distance(embedding: list[float]) -> CombinedExpression:
    """pgvector's cosine distance to ``embedding``, as an expression the HNSW index cannot serve
    (``+ 0``): ordered by the bare distance, PostgreSQL may walk the approximate index and filter
    after it, silently dropping true neighbours (see memories.selectors.exact_nearest)."""
    return CosineDistance("embedding", embedding) + 0.0


def judge_with_retries(pair: Pair) -> Verdict:
    judge = get_judge()
    attempts = settings.HYGIENE_JUDGE_ATTEMPTS
    for attempt in range(1, attempts + 1):
        try:
            return judge.judge(pair)
        except JudgeError:
            if attempt == attempts:
                raise
            logger.warning("judge failed (attempt %d of %d); retrying", attempt, attempts)
            time.sleep(0.2 * 2 ** (attempt - 1))
    raise AssertionError("unreachable")  # pragma: no cover


def hygiene_check(memory_id: str) -> list[Judgment]:
    """Judge ``memory_id`` against its neighbours and act on each verdict. Idempotent."""
    memory = Memory.objects.filter(pk=memory_id, state=State.LIVE).first()
    if memory is None:
        return []
    judgments = []
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
        judgment = apply_verdict(older_id=older.pk, newer_id=newer.pk, verdict=verdict, judge_name=get_judge().name)
        if judgment is not None:
            judgments.append(judgment)
    return judgments


def decide_outcome(*, verdict: Verdict, both_live: bool, older_provenance: str, newer_provenance: str) -> Outcome:
    """What a verdict does to a pair (SPEC §6): retire the older, queue a conflict, or nothing."""
    retire = (
        both_live
        and verdict.relation in RETIRING_RELATIONS
        and verdict.confidence >= settings.HYGIENE_AUTO_RESOLVE_THRESHOLD
        # A watcher's capture never overrules what a person or agent said in-band.
        and not (newer_provenance == Provenance.PROVISIONAL and older_provenance == Provenance.AUTHORITATIVE)
    )
    if retire:
        return Outcome.AUTO_RESOLVED
    if both_live and verdict.relation in QUEUED_RELATIONS:
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


def apply_verdict(*, older_id: str, newer_id: str, verdict: Verdict, judge_name: str) -> Judgment | None:
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
            )
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
