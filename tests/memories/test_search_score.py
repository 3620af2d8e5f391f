"""The score is written once (memories.search): PostgreSQL, running the SQL that ``score_sql``
renders, and Python, running ``score``, give the same number for the same sides, and a change of
a constant weight reaches both."""

from __future__ import annotations

import pytest
from django.db import connection

from memories.search import (
    DISTINCT_WEIGHT,
    QUESTION_TEXT_WEIGHT,
    TEXT_WEIGHT,
    _score,  # its constant weight, patched
    score,
    score_sql,
)

# (distance, lexical, distinct, weight): the weights the rankings use, and sides with many digits,
# where any difference in the order of operations or the weights would show in the last bit.
SIDES = [
    (0.0, 0.0, 0.0, 0.0),
    (0.3127450113, 0.8712093, 0.0, TEXT_WEIGHT),
    (0.5523901772, 1.0, 0.1411235791, QUESTION_TEXT_WEIGHT),
    (1.2871, 0.0731, 0.0042917, TEXT_WEIGHT),
    (0.0000931, 2.5, 0.3333333333333333, 0.0),
]


def sql_score(distance: float, lexical: float, distinct: float, weight: float) -> float:
    expression = score_sql(similarity="(1 - %s::float8)", lexical="%s::float8", distinct="%s::float8")
    with connection.cursor() as cursor:
        # Parameters in the order they stand: the similarity's, the weight, the lexical side's, the
        # sentence side's (the constant weight is written into the SQL).
        cursor.execute(f"SELECT {expression}", [distance, weight, lexical, distinct])
        return float(cursor.fetchone()[0])


@pytest.mark.django_db
@pytest.mark.parametrize(("distance", "lexical", "distinct", "weight"), SIDES)
def test_the_sql_and_the_python_score_are_the_same_number(distance, lexical, distinct, weight):
    expected = score(similarity=1.0 - distance, lexical=lexical, distinct=distinct, weight=weight)
    assert sql_score(distance, lexical, distinct, weight) == expected
    # And the number is the formula's: similarity + weight · lexical + DISTINCT_WEIGHT · distinct.
    assert expected == pytest.approx((1.0 - distance) + weight * lexical + DISTINCT_WEIGHT * distinct, abs=1e-12)


@pytest.mark.django_db
def test_a_change_of_the_constant_weight_reaches_the_sql_too(monkeypatch):
    before = sql_score(0.4, 0.5, 0.25, TEXT_WEIGHT)
    monkeypatch.setattr(_score, "DISTINCT_WEIGHT", 4.0)
    after = sql_score(0.4, 0.5, 0.25, TEXT_WEIGHT)
    assert after == score(similarity=0.6, lexical=0.5, distinct=0.25, weight=TEXT_WEIGHT)
    assert after == pytest.approx(0.6 + TEXT_WEIGHT * 0.5 + 4.0 * 0.25)
    assert before == pytest.approx(0.6 + TEXT_WEIGHT * 0.5 + DISTINCT_WEIGHT * 0.25)
    assert before - after == pytest.approx((DISTINCT_WEIGHT - 4.0) * 0.25)
