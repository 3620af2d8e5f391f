"""Per-token rate limits: 429 with Retry-After past the budget, one budget per token shared by
REST and MCP, nothing stored by a refused write, and time (simulated by moving the stored
arrival time back) giving requests back."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db.models import F

from memories.models import Memory, RateLimitBucket
from memories.platform.ratelimit import Limit, credential_rate_key, rate_limit_blocked_for, rate_limit_take
from tests.conftest import Persona

FEED = "/api/v1/memories/"


def _rewind(key: str, seconds: float) -> None:
    """As if ``seconds`` had passed for this key."""
    assert RateLimitBucket.objects.filter(key=key).update(tat=F("tat") - timedelta(seconds=seconds)) == 1


@pytest.fixture
def three_per_minute(settings: Any) -> None:
    settings.RATE_LIMIT_PER_MINUTE = 3


def test_a_burst_up_to_the_limit_passes_and_the_next_request_waits_one_interval(db: None) -> None:
    limit = Limit(requests=4, period_seconds=60.0)
    assert [rate_limit_take(key="k", limit=limit) for _ in range(4)] == [None] * 4
    # Four requests used the minute; the next may come when the first quarter has passed.
    assert rate_limit_take(key="k", limit=limit) == 15
    assert rate_limit_blocked_for(key="k", limit=limit) == 15
    _rewind("k", 15)
    assert rate_limit_blocked_for(key="k", limit=limit) is None
    assert rate_limit_take(key="k", limit=limit) is None
    assert rate_limit_take(key="k", limit=limit) == 15


def test_refused_requests_do_not_push_the_wait_further(db: None) -> None:
    limit = Limit(requests=2, period_seconds=60.0)
    rate_limit_take(key="k", limit=limit)
    rate_limit_take(key="k", limit=limit)
    assert [rate_limit_take(key="k", limit=limit) for _ in range(5)] == [30] * 5


def test_a_quiet_key_gets_its_whole_burst_back(db: None) -> None:
    limit = Limit(requests=3, period_seconds=60.0)
    for _ in range(3):
        rate_limit_take(key="k", limit=limit)
    _rewind("k", 60)
    assert [rate_limit_take(key="k", limit=limit) for _ in range(4)] == [None, None, None, 20]


def test_peeking_counts_nothing(db: None) -> None:
    limit = Limit(requests=1, period_seconds=60.0)
    assert rate_limit_blocked_for(key="k", limit=limit) is None
    assert not RateLimitBucket.objects.exists()
    assert rate_limit_take(key="k", limit=limit) is None
    assert rate_limit_blocked_for(key="k", limit=limit) == 60


def test_past_its_budget_a_token_gets_429_with_retry_after(alice: Persona, three_per_minute: None) -> None:
    assert [alice.client.get(FEED).status_code for _ in range(3)] == [200] * 3
    response = alice.client.get(FEED)
    assert response.status_code == 429
    assert response["Retry-After"] == "20"
    assert response.json() == {
        "error": {"code": "rate_limited", "message": "Request was throttled. Expected available in 20 seconds."}
    }


def test_a_refused_write_stores_nothing(alice: Persona, three_per_minute: None) -> None:
    for _ in range(3):
        alice.client.get(FEED)
    response = alice.client.post(FEED, {"content": "The deploy window is Monday."}, format="json")
    assert response.status_code == 429
    assert not Memory.objects.exists()


def test_each_token_has_its_own_budget(alice: Persona, bob: Persona, three_per_minute: None) -> None:
    for _ in range(4):
        alice.client.get(FEED)
    assert alice.client.get(FEED).status_code == 429
    assert [bob.client.get(FEED).status_code for _ in range(3)] == [200] * 3


def test_requests_without_a_valid_token_are_not_counted(alice: Persona, anonymous: Any, three_per_minute: None) -> None:
    assert [anonymous.get(FEED).status_code for _ in range(5)] == [401] * 5
    wrong_last = "y" if alice.token.endswith("x") else "x"  # a token may itself end in "x"
    anonymous.credentials(HTTP_AUTHORIZATION=f"Bearer {alice.token[:-1]}{wrong_last}")
    assert anonymous.get(FEED).status_code == 401
    assert not RateLimitBucket.objects.exists()
    assert [alice.client.get(FEED).status_code for _ in range(3)] == [200] * 3


def test_waiting_gives_requests_back(alice: Persona, three_per_minute: None) -> None:
    for _ in range(3):
        alice.client.get(FEED)
    assert alice.client.get(FEED).status_code == 429
    _rewind(credential_rate_key(alice.credential), 20)
    assert [alice.client.get(FEED).status_code for _ in range(2)] == [200, 429]


def test_zero_turns_the_limit_off(alice: Persona, settings: Any) -> None:
    settings.RATE_LIMIT_PER_MINUTE = 0
    assert {alice.client.get(FEED).status_code for _ in range(20)} == {200}
    assert not RateLimitBucket.objects.exists()


def test_a_sweep_deletes_at_most_its_bound_and_expired_rows_go_over_repeated_sweeps(db: None, monkeypatch: Any) -> None:
    from django.utils import timezone

    from memories.platform import ratelimit

    now = timezone.now()
    RateLimitBucket.objects.bulk_create(
        [RateLimitBucket(key=f"expired-{n}", tat=now - timedelta(seconds=1 + n)) for n in range(25)]
        + [RateLimitBucket(key=f"waiting-{n}", tat=now + timedelta(minutes=5)) for n in range(3)]
    )
    monkeypatch.setattr(ratelimit, "_SWEEP_ONE_IN", 1)  # every take draws a sweep
    # raising=False: without a bound, the test fails on what it measures, not on a missing name.
    monkeypatch.setattr(ratelimit, "SWEEP_BATCH", 10, raising=False)

    left = []
    for _ in range(4):
        assert rate_limit_take(key="caller", limit=Limit(requests=10, period_seconds=60.0)) is None
        left.append(RateLimitBucket.objects.filter(key__startswith="expired-").count())

    assert left == [15, 5, 0, 0]
    # Rows still holding a wait are never swept.
    assert sorted(RateLimitBucket.objects.values_list("key", flat=True)) == [
        "caller",
        "waiting-0",
        "waiting-1",
        "waiting-2",
    ]


def test_a_sweep_keeps_its_bound_under_a_plan_that_rescans_its_choice(db: None, monkeypatch: Any) -> None:
    """The rows a sweep deletes are chosen once. Chosen in an ``IN (subquery)``, a nested loop
    that ran the subquery again for each row locked a fresh batch each time (skipping the rows
    the statement had just deleted) and deleted every expired row: the plan a prepared
    statement's generic plan picked in a whole-suite run. Here that plan is forced."""
    from django.db import connection
    from django.utils import timezone

    from memories.platform import ratelimit

    now = timezone.now()
    RateLimitBucket.objects.bulk_create(
        [RateLimitBucket(key=f"expired-{n}", tat=now - timedelta(seconds=1 + n)) for n in range(25)]
    )
    monkeypatch.setattr(ratelimit, "_SWEEP_ONE_IN", 1)
    monkeypatch.setattr(ratelimit, "SWEEP_BATCH", 10)
    with connection.cursor() as cursor:  # local to the test's transaction
        for setting in ("hashjoin", "mergejoin", "material", "hashagg", "sort"):
            cursor.execute(f"SET LOCAL enable_{setting} = off")

    assert rate_limit_take(key="caller", limit=Limit(requests=10, period_seconds=60.0)) is None
    assert RateLimitBucket.objects.filter(key__startswith="expired-").count() == 15
