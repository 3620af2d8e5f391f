"""The Python client under a rate limit: a 429 is waited out for its Retry-After and retried,
within the policy's bounds; beyond them it is a RateLimited the caller can act on."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from zeromemory_client import Client, RateLimited, RetryPolicy

from memories.models import Memory
from tests.platform.server import gunicorn_server

pytestmark = pytest.mark.django_db(transaction=True)

PER_MINUTE = 60  # a burst of 60, then one request a second: Retry-After says 1


@pytest.fixture(scope="module")
def limited_server(django_db_setup: None, django_db_blocker: Any) -> Iterator[str]:
    with django_db_blocker.unblock(), gunicorn_server(ZEROMEMORY_RATE_LIMIT_PER_MINUTE=str(PER_MINUTE)) as running:
        yield running.base_url


def spend_the_burst(zm: Client) -> None:
    for _ in range(PER_MINUTE):
        try:
            zm.whoami()
        except RateLimited:
            return


def test_a_429_is_waited_out_and_the_write_is_stored_once(limited_server, alice):
    with Client(limited_server, alice.token, retry=RetryPolicy(attempts=1)) as eager:
        spend_the_burst(eager)
        with pytest.raises(RateLimited) as refused:
            eager.remember("Refused while the budget is spent.")
    with Client(limited_server, alice.token) as patient:
        stored = patient.remember("Stored after waiting for the budget.")

    assert (refused.value.status, refused.value.code) == (429, "rate_limited")
    assert refused.value.retry_after is not None
    assert 0 < refused.value.retry_after <= 2
    assert stored.status == 201
    assert list(Memory.objects.values_list("content", flat=True)) == ["Stored after waiting for the budget."]


def test_a_retry_after_beyond_the_policy_is_raised_at_once(limited_server, alice):
    with Client(limited_server, alice.token, retry=RetryPolicy(max_retry_after=0.5)) as zm:
        spend_the_burst(zm)
        with pytest.raises(RateLimited) as refused:
            zm.whoami()

    assert refused.value.retry_after is not None
    assert refused.value.retry_after > 0.5
