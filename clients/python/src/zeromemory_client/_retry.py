"""Which failures are retried, and after how long — one policy for both clients.

Retried: a connection that could not be made; 429 (after the server's Retry-After); 503 (the
database or the model is unavailable: the write rolled back whole, SPEC R-S9); 409
``idempotency_in_progress`` (the first attempt of this very write still runs on the server).
Where the outcome is unknown — the request went out and no answer came back, or a gateway
answered 502/504 — only calls that are safe to replay are retried (``Replay.SAFE``): reads,
idempotent writes, and remembers, which carry one Idempotency-Key for all their attempts.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import httpx

from zeromemory_client._calls import Call, Replay


@dataclass(frozen=True)
class RetryPolicy:
    attempts: int = 4  # the first try included
    backoff: float = 0.25  # seconds before the second try; doubles each time, with jitter
    max_backoff: float = 4.0
    max_retry_after: float = 30.0  # a longer Retry-After is answered with RateLimited at once

    def pause(self, attempt: int) -> float:
        """Seconds before try ``attempt + 1`` (``attempt`` counts from 1)."""
        return float(min(self.max_backoff, self.backoff * 2 ** (attempt - 1)) * random.uniform(0.5, 1.0))

    def after_transport_error(self, call: Call[Any], error: httpx.TransportError, attempt: int) -> float | None:
        """Seconds to wait before retrying, or None to give up."""
        if attempt >= self.attempts:
            return None
        unsent = isinstance(error, (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout))
        if unsent or call.replay is Replay.SAFE:
            return self.pause(attempt)
        return None

    def after_answer(
        self, call: Call[Any], status: int, payload: object, retry_after: float | None, attempt: int
    ) -> float | None:
        if attempt >= self.attempts:
            return None
        if status == 429:
            wait = retry_after if retry_after is not None else self.pause(attempt)
            return wait if wait <= self.max_retry_after else None
        if status == 503:
            return (
                retry_after if retry_after is not None and retry_after <= self.max_retry_after else self.pause(attempt)
            )
        if status in (502, 504) and call.replay is Replay.SAFE:
            return self.pause(attempt)
        if status == 409 and "Idempotency-Key" in call.headers and _code(payload) == "idempotency_in_progress":
            return self.pause(attempt)
        return None


def _code(payload: object) -> str | None:
    if isinstance(payload, dict) and isinstance(payload.get("error"), dict):
        code = payload["error"].get("code")
        return code if isinstance(code, str) else None
    return None


def retry_after_seconds(response: httpx.Response) -> float | None:
    value = response.headers.get("Retry-After")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:  # the HTTP-date form: no server of ours sends it; wait as for no header
        return None


def payload_of(response: httpx.Response) -> object:
    if not response.content:
        return None
    try:
        return response.json()
    except ValueError:  # a proxy's HTML error page
        return None
