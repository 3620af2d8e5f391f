"""The backlog sweep (``manage.py hygiene``): the hygiene pipeline for many memories at once.

It decides what calling :func:`review.pipeline.hygiene_check` on each memory of the backlog in
turn, oldest first, decides — the same candidates, verdicts, judgments, retirements and
conflicts — but does the work in bulk, one scope (owner, project) at a time:

* **Candidates.** The scope's live memories and their stored lexemes are read once. Each
  memory's candidates are ranked as ``candidates_for`` ranks them (memories.search: vector
  similarity fused with full-text matching): the nearest by vector from one matrix product over
  the unit embeddings (float32, with slack), every memory holding one of its telling lexemes
  from an inverted index of the scope, then float64 scores order them. pgvector computes the
  distance in float32, so where two candidates are so close that its rounding could order them
  differently — exact ties included, which it breaks by id — PostgreSQL itself is asked, with
  the very ranking ``candidates_for`` runs, restricted to those candidates.
* **State.** The scope's settled pairs (judged, or declared supersedes: review.eligibility)
  are read once. The sweep keeps
  them, and which memories are live, up to date as it goes: a pair is judged once, and a memory
  retired earlier in the sweep is never judged again (its turn is skipped, it is no candidate).
* **Writes.** Verdicts are written in batches, each in one transaction that re-reads the
  memories of the pairs that may act (``duplicate``, ``supersedes``, ``contradicts``) and decides
  as ``apply_verdict`` does, records every judgment in one statement (a pair judged meanwhile by
  a concurrent writer is left alone), retires through memories' supersede service — every pair
  of the batch in one call, so its rows are locked at once in id order and checked live under
  the lock — and opens conflicts. If a batch meets anything unexpected (a concurrent writer got
  there first), it is rolled back and written pair by pair through ``apply_verdict``, and the
  sweep re-reads the state it touched.

A scope whose backlog is a sliver of its live memories is cheaper to sweep memory by memory, so
it goes through ``hygiene_check`` itself.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import TextField
from django.db.models.expressions import RawSQL
from django.db.models.functions import Cast
from django.utils import timezone

from memories.choices import LinkOrigin, State
from memories.search import (
    DISTINCT_TOP,
    CompiledParts,
    compile_parts,
    distinct_from,
    fused_ranking,
    lexical_queries,
    lexical_score,
    score,
    stored_lexemes,
    weight_for,
)
from memories.selectors import sentence_vectors
from memories.services import NotLive, Supersession, memory_supersede_many
from review.eligibility import Described, hygiene_memories, scope_live, screen, settled_pairs
from review.judges import JudgeError, Pair, Verdict, get_judge
from review.models import QUEUED_RELATIONS, Conflict, Judgment, JudgmentOutcome
from review.pipeline import (
    apply_verdict,
    conflict_for,
    decide_outcome,
    hygiene_check,
    hygiene_reason,
    judge_with_retries,
    newers_lock,
    newers_waiting,
    pending_pairs,
    strongest_to_queue,
)

logger = logging.getLogger(__name__)

# Stands for the ids a compiled ranking is run among (a slot of memories.search.CompiledParts).
_AMONG_SLOT = "zm:slot:sweep-among"

# pgvector computes the cosine distance in float32: each of its three sums over n dimensions is
# off by at most n * 2**-24 relative to the norms, so the distance by at most about
# 2 n 2**-24 (4.6e-5 for 384 dimensions). Two candidates whose float64 scores are closer than
# twice this slack are left to PostgreSQL (the lexical side is float64 on both sides).
EXACT_SLACK = 2.5 * settings.EMBEDDING_DIMENSIONS * 2.0**-24
# How far the float32 matrix product's similarities may be off the float64 ones, with margin.
SUPERSET_SLACK = max(1e-3, 10 * EXACT_SLACK)
# Neighbours kept per memory from the matrix product; a memory that needs more gets its whole row.
NEIGHBOURS_KEPT = 64
# Matrix-product block: at most this many distances in memory at once.
BLOCK_CELLS = 16_000_000
# A scope is swept memory by memory when its live memories outnumber its backlog this much.
PER_MEMORY_RATIO = 200


@dataclass
class SweepResult:
    memories: int = 0
    judgments: int = 0


def sweep(
    backlog: Sequence[tuple[str, int, int | None]],
    *,
    batch_size: int = 500,
    progress: Callable[[int], object] | None = None,
) -> SweepResult:
    """Run the hygiene pipeline over ``backlog`` — (memory id, owner id, project id) rows, oldest
    first — as ``hygiene_check`` on each in turn would. Each batch commits on its own."""
    step = progress or (lambda count: None)
    scopes: dict[tuple[int, int | None], list[str]] = {}
    for memory_id, owner_id, project_id in backlog:
        scopes.setdefault((owner_id, project_id), []).append(memory_id)
    result = SweepResult()
    for (owner_id, project_id), memory_ids in scopes.items():
        live = scope_live(owner_id, project_id).count()
        if len(memory_ids) * PER_MEMORY_RATIO < live:
            for memory_id in memory_ids:
                result.judgments += len(hygiene_check(memory_id))
                step(1)
        else:
            scope = ScopeSweep(owner_id, project_id, batch_size=batch_size, progress=step)
            result.judgments += scope.run(memory_ids)
        result.memories += len(memory_ids)
    return result


@dataclass(frozen=True)
class _Pending:
    """A verdict waiting for its batch to be written (members by index)."""

    older: int
    newer: int
    verdict: Verdict
    may_queue: bool = True


class _Interfered(RuntimeError):
    """A concurrent writer touched a pair of the batch; the batch is redone pair by pair."""


class ScopeSweep:
    """The sweep of one scope's backlog, with the scope's live memories held in memory."""

    def __init__(
        self, owner_id: int, project_id: int | None, *, batch_size: int, progress: Callable[[int], object]
    ) -> None:
        self.owner_id, self.project_id = owner_id, project_id
        self.batch_size = max(1, batch_size)
        self.progress = progress
        self.judge_name = get_judge().name
        self.screen_candidates = int(settings.HYGIENE_SCREEN_CANDIDATES)
        live = scope_live(owner_id, project_id)
        rows = list(
            live.annotate(vector_text=Cast("embedding", output_field=TextField()))
            .order_by("pk")
            .values_list("pk", "created_at", "kind", "content", "provenance", "vector_text")
        )
        self.pks = [row[0] for row in rows]
        self.index = {pk: i for i, pk in enumerate(self.pks)}
        self.provenances = [row[4] for row in rows]
        # (created_at, pk) tells which of a pair is older; content and kind are what the judge reads.
        self.described = [Described(order=(row[1], row[0]), content=row[3], kind=row[2]) for row in rows]
        self.live = [True] * len(rows)
        # Parsed from pgvector's text exactly as the ORM does (float(v) per value): these are the
        # embeddings hygiene_check hands the judge and the vector it sends to PostgreSQL.
        dimensions = settings.EMBEDDING_DIMENSIONS
        joined = ",".join(row[5][1:-1] for row in rows)
        vectors = np.fromstring(joined, sep=",") if rows else np.zeros(0)
        self.vectors = vectors.reshape(len(rows), dimensions)
        with np.errstate(divide="ignore", invalid="ignore"):
            self.unit = self.vectors / np.linalg.norm(self.vectors, axis=1, keepdims=True)
        self.unit32 = self.unit.astype(np.float32)
        # Per row, the rows it is never judged with: judged already, or a declared supersede.
        self.settled_with: list[set[int]] = [set() for _ in rows]
        self._load_pairs()
        self._load_lexemes()
        # Sentence vectors of the scope's memories of several sentences (memories.search's
        # sentence side). A scope holding any is ranked by PostgreSQL, row by row, over every
        # eligible memory: the numpy ranking below mirrors the whole-text side only.
        self.sentences = sentence_vectors(memory_ids=self.pks)
        self.neighbours: dict[int, tuple[np.ndarray, float | None]] = {}
        self.pending: list[_Pending] = []
        self.exact_queries = 0
        # Each pair's screening, by (older row, newer row): its texts never change in a sweep.
        self.screened: dict[tuple[int, int], bool] = {}

    # -- loading ------------------------------------------------------------------------------

    def _load_pairs(self) -> None:
        self._mark_all(self.settled_with, settled_pairs(scope=(self.owner_id, self.project_id)))

    def _mark_all(self, table: list[set[int]], pairs: Iterable[tuple[str, str]]) -> None:
        for a_id, b_id in pairs:
            self._mark(table, a_id, b_id)

    def _mark(self, table: list[set[int]], a_id: str, b_id: str) -> None:
        a, b = self.index.get(a_id), self.index.get(b_id)
        if a is not None and b is not None:
            table[a].add(b)
            table[b].add(a)

    def _load_lexemes(self) -> None:
        """Each memory's telling lexemes (its lexical query) and the scope's inverted index."""
        live = scope_live(self.owner_id, self.project_id)
        counts = stored_lexemes(live)
        self.lexemes = [counts.get(pk, {}) for pk in self.pks]
        self.queries = lexical_queries(self.lexemes, live.db)
        self.postings: dict[str, list[int]] = {}
        for row, lexemes in enumerate(self.lexemes):
            for lexeme in lexemes:
                self.postings.setdefault(lexeme, []).append(row)

    def _compute_neighbours(self, rows: list[int]) -> None:
        """Each row's nearest by vector (the similarity of the last kept), from float32 products."""
        block = max(1, BLOCK_CELLS // max(1, len(self.pks)))
        for start in range(0, len(rows), block):
            chunk = rows[start : start + block]
            similarities = self.unit32[chunk] @ self.unit32.T
            similarities[np.arange(len(chunk)), chunk] = -np.inf
            for offset, row in enumerate(chunk):
                self.neighbours[row] = self._top(
                    similarities[offset], keep=max(NEIGHBOURS_KEPT, 2 * self.screen_candidates)
                )

    def _top(self, similarities: np.ndarray, keep: int | None) -> tuple[np.ndarray, float | None]:
        """(all columns, None) or, when there are more than ``keep``, the ``keep`` most similar and
        the similarity of the last kept (every column left out is at most that similar)."""
        finite = np.flatnonzero(np.isfinite(similarities))
        if keep is None or len(finite) <= keep:
            return finite, None
        nearest = finite[np.argpartition(-similarities[finite], keep - 1)[:keep]]
        return nearest, float(similarities[nearest].min())

    def _lexical(self, row: int) -> dict[int, float]:
        """The lexical side of ``row``'s ranking for every memory holding one of its telling lexemes."""
        query = self.queries[row]
        if query is None:
            return {}
        holders = {column for lexeme in query.lexemes for column in self.postings.get(lexeme, ())}
        return {column: lexical_score(query, self.lexemes[column]) for column in holders if column != row}

    # -- the sweep ----------------------------------------------------------------------------

    def run(self, memory_ids: list[str]) -> int:
        rows = [self.index[memory_id] for memory_id in memory_ids if memory_id in self.index]
        self._compute_neighbours(rows)
        made = 0
        try:
            for done, memory_id in enumerate(memory_ids, start=1):
                row = self.index.get(memory_id)
                if row is not None and self.live[row]:
                    self._check(row)
                self.progress(1)
                if done % self.batch_size == 0:
                    made += self.flush()
        except KeyboardInterrupt:
            self.flush()  # keep what was decided: the next run picks up here, as one by one would
            raise
        made += self.flush()
        logger.debug(
            "swept %d memories of owner %s, project %s: %d judgments, %d candidate lists from PostgreSQL",
            len(memory_ids),
            self.owner_id,
            self.project_id,
            made,
            self.exact_queries,
        )
        return made

    def _check(self, row: int) -> None:
        """hygiene_check for one memory, against the sweep's state; verdicts wait for the flush."""
        judged: list[tuple[int, int, Verdict]] = []
        for candidate in self.candidates(row):
            older, newer = sorted((row, candidate), key=lambda i: self.described[i].order)
            pair = Pair(
                a=self.described[older].content,
                b=self.described[newer].content,
                kind_a=self.described[older].kind,
                kind_b=self.described[newer].kind,
                embedding_a=self.vectors[older].tolist(),
                embedding_b=self.vectors[newer].tolist(),
            )
            try:
                verdict = judge_with_retries(pair)
            except JudgeError:
                logger.exception(
                    "judge gave no verdict for %s / %s; a later sweep retries", self.pks[older], self.pks[newer]
                )
                continue
            judged.append((older, newer, verdict))
        queue_index = strongest_to_queue(
            [(verdict, self.provenances[older], self.provenances[newer]) for older, newer, verdict in judged]
        )
        for index, (older, newer, verdict) in enumerate(judged):
            self.settled_with[older].add(newer)
            self.settled_with[newer].add(older)
            outcome = decide_outcome(
                verdict=verdict,
                both_live=self.live[older] and self.live[newer],
                older_provenance=self.provenances[older],
                newer_provenance=self.provenances[newer],
                may_queue=index == queue_index,
            )
            if outcome == JudgmentOutcome.AUTO_RESOLVED:
                self.live[older] = False
            self.pending.append(_Pending(older=older, newer=newer, verdict=verdict, may_queue=index == queue_index))

    def candidates(self, row: int) -> list[int]:
        """What ``candidates_for`` returns for this memory now, nearest first."""
        return screen(row, self._nearest(row), self.described.__getitem__, known=self.screened)

    def _nearest(self, row: int) -> list[int]:
        """What ``candidates_for`` screens for this memory now, best first."""
        if self.sentences:
            return self._ask_postgres(row, self._eligible(row, list(range(len(self.pks)))))
        columns, kept_down_to = self.neighbours[row]
        lexical = self._lexical(row)
        weight = weight_for(self.queries[row])
        eligible = self._eligible(row, sorted({*columns.tolist(), *lexical}))
        # float64 similarities, within EXACT_SLACK of pgvector's; it decides every closer call.
        similarity = self.unit[eligible] @ self.unit[row] if eligible else np.zeros(0)
        # The sentence side for a memory of one sentence in a scope without sentence rows: its
        # nearest few by similarity, each by how far it stands above their mean.
        nearest = sorted(range(len(eligible)), key=lambda i: (-float(similarity[i]), self.pks[eligible[i]]))
        distinct = distinct_from(
            [[(self.pks[eligible[i]], 1.0 - float(similarity[i])) for i in nearest[:DISTINCT_TOP]]]
        )
        scored = sorted(
            (
                -score(
                    similarity=float(similarity[i]),
                    lexical=lexical.get(column, 0.0),
                    distinct=distinct.get(self.pks[column], 0.0),
                    weight=weight,
                ),
                1.0 - float(similarity[i]),
                self.pks[column],
            )
            for i, column in enumerate(eligible)
        )
        window = scored[: self.screen_candidates + 1]
        if kept_down_to is not None and (
            len(window) <= self.screen_candidates
            or -window[self.screen_candidates - 1][0] <= kept_down_to + SUPERSET_SLACK
            or len(set(eligible).intersection(columns.tolist())) < DISTINCT_TOP
        ):
            # A memory beyond the nearest kept might belong: take the whole row.
            self.neighbours[row] = self._top(self.unit32 @ self.unit32[row], keep=None)
            self.neighbours[row][0].sort()
            return self._nearest(row)
        # A near tie among the nearest few decides which of them the sentence side weighs.
        close_calls = any(
            float(similarity[earlier]) - float(similarity[later]) <= 2 * EXACT_SLACK
            for earlier, later in itertools.pairwise(nearest[: DISTINCT_TOP + 1])
        ) or any(later[0] - earlier[0] <= 2 * EXACT_SLACK for earlier, later in itertools.pairwise(window))
        if close_calls:
            return self._ask_postgres(row, eligible)
        return [self.index[pk] for _, _, pk in window[: self.screen_candidates]]

    def _eligible(self, row: int, columns: list[int]) -> list[int]:
        settled, live = self.settled_with[row], self.live
        return [c for c in columns if c != row and live[c] and c not in settled]

    def _ask_postgres(self, row: int, columns: list[int]) -> list[int]:
        """candidates_for's own ranking (pgvector's distance, ties by id), among ``columns``."""
        self.exact_queries += 1
        embedding = self.vectors[row].tolist()
        ranked = fused_ranking(
            self._among,
            embedding,
            self.queries[row],
            self.screen_candidates,
            query_vectors=self.sentences.get(self.pks[row]) or [embedding],
            sentence_rows=bool(self.sentences),
            bind={_AMONG_SLOT: [self.pks[c] for c in columns]},
        )
        return [self.index[r.pk] for r in ranked]

    @cached_property
    def _among(self) -> CompiledParts:
        """The ranking among given memories, compiled once for the sweep: three of every four
        memories ask PostgreSQL (6,845 of 8,982 on the bench owner), and building and compiling
        the queryset each time cost about as much CPU as PostgreSQL spent running it."""
        among = hygiene_memories().filter(pk__in=RawSQL("SELECT unnest(%s::text[])", (_AMONG_SLOT,)))
        return compile_parts([among], self.screen_candidates)

    # -- writing ------------------------------------------------------------------------------

    def flush(self) -> int:
        """Write the pending verdicts; the number of judgments recorded."""
        pending, self.pending = self.pending, []
        if not pending:
            return 0
        try:
            with transaction.atomic():
                return self._write(pending)
        except (IntegrityError, NotLive, _Interfered):
            logger.warning("a concurrent writer touched this batch; writing its %d verdicts one by one", len(pending))
            return self._write_one_by_one(pending)

    def _write(self, pending: list[_Pending]) -> int:
        acting = [p for p in pending if p.verdict.relation in QUEUED_RELATIONS]
        may_queue = [p for p in acting if p.may_queue and p.verdict.queueable]
        newers_lock(self.pks[p.newer] for p in may_queue)
        # Read, not locked: the supersede service locks what it retires and checks it is still
        # live (NotLive sends the batch pair by pair); a conflict opened for a pair retired
        # meanwhile is what the same write one moment earlier would have left.
        rows = hygiene_memories().defer("embedding", "search_vector")
        read = rows.in_bulk([self.pks[m] for p in acting for m in (p.older, p.newer)])
        states = {pk: memory.state for pk, memory in read.items()}
        already = self._judged_already(pending)
        waiting = pending_pairs(
            [
                (self.pks[p.older], self.pks[p.newer])
                for p in pending
                if p.may_queue and p.verdict.relation in QUEUED_RELATIONS
            ]
        )
        # One conflict per new memory (R-H9), counting those queued earlier in this batch.
        newers_queued = newers_waiting(self.pks[p.newer] for p in may_queue)
        decided: list[tuple[_Pending, JudgmentOutcome]] = []
        for p in pending:
            older_id, newer_id = self.pks[p.older], self.pks[p.newer]
            if (older_id, newer_id) in already:
                continue  # judged meanwhile by someone else: as apply_verdict, leave it be
            outcome = JudgmentOutcome.NO_ACTION
            if p.verdict.relation in QUEUED_RELATIONS:
                older, newer = read[older_id], read[newer_id]
                outcome = decide_outcome(
                    verdict=p.verdict,
                    both_live=states[older_id] == State.LIVE and states[newer_id] == State.LIVE,
                    older_provenance=older.provenance,
                    newer_provenance=newer.provenance,
                    may_queue=p.may_queue,
                )
                if outcome == JudgmentOutcome.AUTO_RESOLVED:
                    states[older_id] = State.SUPERSEDED
                elif outcome == JudgmentOutcome.QUEUED and (
                    (older_id, newer_id) in waiting or newer_id in newers_queued
                ):
                    outcome = JudgmentOutcome.NO_ACTION  # as apply_verdict: the pending conflict stands
                elif outcome == JudgmentOutcome.QUEUED:
                    newers_queued.add(newer_id)
            decided.append((p, outcome))
        recorded = self._insert_judgments(decided)
        conflicts: list[Conflict] = []
        supersessions: list[Supersession] = []
        for p, outcome in decided:
            if outcome == JudgmentOutcome.NO_ACTION:
                continue
            older_id, newer_id = self.pks[p.older], self.pks[p.newer]
            judgment_id = recorded.get((older_id, newer_id))
            if judgment_id is None:
                raise _Interfered(f"{older_id} / {newer_id} was judged concurrently")
            older, newer = read[older_id], read[newer_id]
            if outcome == JudgmentOutcome.AUTO_RESOLVED:
                supersessions.append(Supersession(older_id, newer_id, reason=hygiene_reason(p.verdict)))
            else:
                conflicts.append(conflict_for(older=older, newer=newer, judgment_id=judgment_id, verdict=p.verdict))
        if supersessions:
            memory_supersede_many(actor=None, supersessions=supersessions, origin=LinkOrigin.HYGIENE)
        Conflict.objects.bulk_create(conflicts, batch_size=1000)
        self._sync_live(states)
        return len(recorded)

    def _judged_already(self, pending: list[_Pending]) -> set[tuple[str, str]]:
        olders = [self.pks[p.older] for p in pending]
        newers = [self.pks[p.newer] for p in pending]
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT j.older_id, j.newer_id FROM {Judgment._meta.db_table} j "
                "JOIN unnest(%s::text[], %s::text[]) AS p(older_id, newer_id) "
                "ON j.older_id = p.older_id AND j.newer_id = p.newer_id",
                [olders, newers],
            )
            return {(older_id, newer_id) for older_id, newer_id in cursor.fetchall()}

    def _insert_judgments(self, decided: list[tuple[_Pending, JudgmentOutcome]]) -> dict[tuple[str, str], int]:
        """Insert the judgments in one statement, skipping pairs judged meanwhile; their ids."""
        if not decided:
            return {}
        now = timezone.now()
        columns: list[list[object]] = [[] for _ in range(8)]
        for p, outcome in decided:
            values = (
                self.pks[p.older],
                self.pks[p.newer],
                p.verdict.relation,
                p.verdict.confidence,
                p.verdict.rationale,
                self.judge_name,
                str(outcome),
                now,
            )
            for column, value in zip(columns, values, strict=True):
                column.append(value)
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {Judgment._meta.db_table} "
                "(older_id, newer_id, relation, confidence, rationale, judge, outcome, created_at) "
                "SELECT * FROM unnest(%s::text[], %s::text[], %s::text[], %s::float8[], %s::text[], %s::text[], "
                "%s::text[], %s::timestamptz[]) "
                "ON CONFLICT (older_id, newer_id) DO NOTHING RETURNING id, older_id, newer_id",
                columns,
            )
            return {(older_id, newer_id): pk for pk, older_id, newer_id in cursor.fetchall()}

    def _write_one_by_one(self, pending: list[_Pending]) -> int:
        made = 0
        for p in pending:
            older_id, newer_id = self.pks[p.older], self.pks[p.newer]
            if apply_verdict(
                older_id=older_id,
                newer_id=newer_id,
                verdict=p.verdict,
                judge_name=self.judge_name,
                may_queue=p.may_queue,
            ):
                made += 1
            elif not Judgment.objects.filter(older_id=older_id, newer_id=newer_id).exists():
                # Not recorded (a pending conflict of the pair from elsewhere): not judged either.
                self.settled_with[p.older].discard(p.newer)
                self.settled_with[p.newer].discard(p.older)
        touched = {self.pks[m] for p in pending for m in (p.older, p.newer)}
        self._sync_live(dict(hygiene_memories().filter(pk__in=touched).values_list("pk", "state")))
        return made

    def _sync_live(self, states: dict[str, str]) -> None:
        for pk, state in states.items():
            row = self.index.get(pk)
            if row is not None:
                self.live[row] = state == State.LIVE
