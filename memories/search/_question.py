"""A question's ranking (recall's): the best candidates of each side, scored as every ranking is."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db.models import QuerySet
from pgvector.django import CosineDistance

from memories.models import Memory, Project
from memories.search._lexical import lexical_query, lexical_scores, weight_for
from memories.search._nearest import project_ranking, vector_ranking
from memories.search._score import score
from memories.search._sentences import question_distinct


@dataclass(frozen=True)
class Scored:
    pk: str
    distance: float  # cosine distance of the embeddings
    score: float


def question_ranking(
    memories: QuerySet[Memory],
    *,
    user: User,
    text: str,
    embedding: list[float],
    query_vectors: list[list[float]],
    candidates: int,
    exact: bool | None = None,
    use_text: bool = True,
    by_project: tuple[QuerySet[Memory], Project] | None = None,
) -> list[Scored]:
    """The memories of ``memories`` (read from visible_memories for ``user``) most like the
    question ``text``, best first, by ``score`` (memories.search): ``candidates`` from each side
    — the nearest by vector, the best lexical matches, the sentence side's nearest few — each
    scored on every side.

    The vector side: ``vector_ranking`` (``exact``: its plan, None to choose by the planner's
    estimates), or with ``by_project`` = (the unfiltered-by-project scope, the project) the exact
    scans of the project's and the personal rows (``project_ranking``). ``use_text=False`` ranks
    by the vectors alone (for measuring what fusion adds)."""
    if by_project is not None:
        unscoped, project = by_project
        by_vector = project_ranking(unscoped, user, project, embedding, candidates)
    else:
        by_vector = vector_ranking(memories, embedding, candidates, user=user, exact=exact)
    distances = {pk: float(distance) for pk, distance in by_vector}
    # The lexical match of the question's rarest words, over the best few by each side.
    lexical = lexical_query(text, memories.db) if use_text else None
    weight = weight_for(lexical, question=True)
    matches = lexical_scores(memories, lexical, limit=candidates) if lexical is not None else {}
    if lexical is not None:
        unmatched = [pk for pk in distances if pk not in matches]
        matches |= lexical_scores(memories, lexical, ids=unmatched) if unmatched else {}
    distinct = question_distinct(memories, embedding, query_vectors, by_vector) if use_text else {}
    missing = [pk for pk in [*matches, *distinct] if pk not in distances]
    if missing:
        distances |= {
            pk: float(distance)
            for pk, distance in Memory.objects.filter(pk__in=missing)
            .annotate(distance=CosineDistance("embedding", embedding))
            .values_list("pk", "distance")
        }
    scores = {
        pk: score(
            similarity=1.0 - distance, lexical=matches.get(pk, 0.0), distinct=distinct.get(pk, 0.0), weight=weight
        )
        for pk, distance in distances.items()
    }
    ranked = sorted(scores, key=lambda pk: (-scores[pk], distances[pk], pk))
    return [Scored(pk=pk, distance=distances[pk], score=scores[pk]) for pk in ranked]
