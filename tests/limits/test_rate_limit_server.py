"""The rate limit across real server processes: two gunicorn workers share one budget per token
(it lives in PostgreSQL), and one token's flood is refused cheaply while another token goes on."""

from __future__ import annotations

import math
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.conftest import Persona
from tests.platform.server import gunicorn_server, request

pytestmark = pytest.mark.django_db(transaction=True)

PER_MINUTE = 30
FLOOD = 120


def _get(port: int, token: str) -> tuple[int, str | None]:
    answer = request(port, "GET", "/api/v1/memories/", token)
    return answer.status, answer.headers.get("Retry-After")


def test_one_tokens_flood_is_limited_across_workers_and_does_not_starve_another(alice: Persona, bob: Persona) -> None:
    with gunicorn_server(workers=2, threads=4, ZEROMEMORY_RATE_LIMIT_PER_MINUTE=str(PER_MINUTE)) as server:
        started = time.monotonic()
        with ThreadPoolExecutor(max_workers=16) as pool:
            flood = [pool.submit(_get, server.port, alice.token) for _ in range(FLOOD)]
            others = [_get(server.port, bob.token) for _ in range(10)]
            answers = [future.result() for future in flood]
        elapsed = time.monotonic() - started

    allowed = sum(1 for status, _ in answers if status == 200)
    refused = [retry_after for status, retry_after in answers if status == 429]
    assert allowed + len(refused) == FLOOD
    # A burst of a minute's budget, plus one more per interval that passed while it ran; a
    # counter per process would have let each of the two workers give out its own 30.
    interval = 60 / PER_MINUTE
    assert PER_MINUTE <= allowed <= PER_MINUTE + math.ceil(elapsed / interval)
    assert set(refused) <= {"1", "2"}
    assert others == [(200, None)] * 10
