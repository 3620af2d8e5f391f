"""A question's ranking (recall's): the best candidates of each side, scored as every ranking is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import connections, router
from django.db.models import QuerySet, Value
from pgvector import Vector
from pgvector.django import CosineDistance

from memories.compiled import id_slots, id_values, ids_of
from memories.models import Memory, MemorySentence, Project
from memories.search._lexical import lexical_query, question_lexical, weight_for
from memories.search._nearest import VECTOR, project_ranking, vector_ranking
from memories.search._scope import Scope, statement
from memories.search._score import score
from memories.search._sentences import question_distinct


@dataclass(frozen=True)
class Scored:
    pk: str
    distance: float  # cosine distance of the embeddings
    score: float


def _distances(ids: list[str], embedding: list[float]) -> list[tuple[str, float]]:
    """(pk, cosine distance to ``embedding``) of the memories ``ids``: the candidates only the
    lexical or sentence side found (one statement, compiled once per count of ids)."""
    ids = list(dict.fromkeys(ids))  # a memory both sides found, once (as pk__in would have it)
    slots = [VECTOR, *id_slots(len(ids))]

    def build(**values: Any) -> QuerySet[Any, Any]:
        return (
            Memory.objects.filter(pk__in=ids_of(values, len(ids)))
            .annotate(distance=CosineDistance("embedding", Value(values[VECTOR.name])))
            .values_list("pk", "distance")
        )

    values = {VECTOR.name: Vector(embedding).to_text(), **id_values(ids)}
    sql, params = statement("distances", len(ids), build, slots, values)
    with connections[router.db_for_read(Memory)].cursor() as cursor:
        cursor.execute(sql, params)
        return [(pk, float(distance)) for pk, distance in cursor.fetchall()]


def _question_lexemes(text: str, alias: str) -> tuple[dict[str, int], bool]:
    """The question's lexemes with their counts (``text_lexemes``) and whether any memory has
    sentence rows (``sentence_rows_exist``), in one round trip: each was a statement of its own
    on every recall."""
    with connections[alias].cursor() as cursor:
        cursor.execute(
            f"SELECT (SELECT EXISTS (SELECT 1 FROM {MemorySentence._meta.db_table})), array_agg(lexeme), "
            "array_agg(coalesce(cardinality(positions), 1)) FROM unnest(to_tsvector('english', %s))",
            [text],
        )
        exists, lexemes, counts = cursor.fetchone()
    return {lexeme: int(count) for lexeme, count in zip(lexemes or [], counts or [], strict=True)}, bool(exists)


def question_ranking(
    memories: QuerySet[Memory] | Scope,
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
    scope = Scope.of(memories)
    if by_project is not None:
        unscoped, project = by_project
        by_vector = project_ranking(unscoped, user, project, embedding, candidates)
    else:
        by_vector = vector_ranking(scope, embedding, candidates, user=user, exact=exact)
    distances = {pk: float(distance) for pk, distance in by_vector}
    # The lexical match of the question's rarest words, over the best few by each side.
    lexical, sentence_rows = None, False
    if use_text:
        counts, sentence_rows = _question_lexemes(text, scope.db)
        lexical = lexical_query(text, scope.db, counts=counts)
    weight = weight_for(lexical, question=True)
    # The best few by the lexical side, and the vector side's rows scored there too.
    found = {}
    if lexical is not None:
        found = question_lexical(scope, lexical, limit=candidates, also=list(distances), embedding=embedding)
    matches = {pk: lexical_score for pk, (lexical_score, _) in found.items()}
    distinct = question_distinct(scope, embedding, query_vectors, by_vector, sentence_rows) if use_text else {}
    missing = [pk for pk in [*matches, *distinct] if pk not in distances]
    distances |= {pk: found[pk][1] for pk in missing if pk in found}
    missing = [pk for pk in missing if pk not in distances]
    if missing:
        distances |= dict(_distances(missing, embedding))
    scores = {
        pk: score(
            similarity=1.0 - distance, lexical=matches.get(pk, 0.0), distinct=distinct.get(pk, 0.0), weight=weight
        )
        for pk, distance in distances.items()
    }
    ranked = sorted(scores, key=lambda pk: (-scores[pk], distances[pk], pk))
    return [Scored(pk=pk, distance=distances[pk], score=scores[pk]) for pk in ranked]
