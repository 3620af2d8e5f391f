"""Rate limits shared by every server process: the generic cell rate algorithm in PostgreSQL.

A limit of N requests per period P lets one request through every P/N seconds on average and a
burst of up to N at once. Each key keeps a single timestamp, its *theoretical arrival time*
(TAT): taking a request moves it P/N later (from now, if it lies in the past), and a request is
refused when that would move it more than P past now. One upsert decides and records a request,
atomically, so concurrent requests on any number of processes cannot overshoot, and each key has
its own row: one client hammering its key waits on its own row lock, never on another's.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from django.conf import settings
from django.db import connections, router
from django.db.backends.utils import CursorWrapper

from memories.compiled import prepared_cursor
from memories.models import Credential, RateLimitBucket

# Intervals are kept to the microsecond, so N of them can add up to a hair over the period;
# the slack keeps the N-th request of a burst from being refused for that.
_SLACK = "1 millisecond"
# A row whose TAT has passed says the same as no row; once in this many takes, such rows go.
_SWEEP_ONE_IN = 1000

_TAKE = f"""
INSERT INTO {RateLimitBucket._meta.db_table} AS bucket (key, tat)
VALUES (%(key)s, clock_timestamp() + make_interval(secs => %(interval)s))
ON CONFLICT (key) DO UPDATE
   SET tat = GREATEST(bucket.tat, clock_timestamp()) + make_interval(secs => %(interval)s)
 WHERE GREATEST(bucket.tat, clock_timestamp()) + make_interval(secs => %(interval)s)
       <= clock_timestamp() + make_interval(secs => %(period)s) + %(slack)s::interval
RETURNING 1
"""
_BLOCKED_FOR = f"""
SELECT EXTRACT(EPOCH FROM tat - clock_timestamp() - %(slack)s::interval)::float8 + %(interval)s - %(period)s
  FROM {RateLimitBucket._meta.db_table} WHERE key = %(key)s
"""
# A sweep runs on the request that drew it, so it deletes at most SWEEP_BATCH rows however many
# expired ones have piled up (a burst of new keys, a quiet spell): the request stays short. Each
# take adds at most one row and one take in _SWEEP_ONE_IN sweeps, so a bound of _SWEEP_ONE_IN
# removes at least as many expired rows as takes can add; a backlog drains over later sweeps.
# SKIP LOCKED: a row a concurrent take holds is in use (about to get a new TAT), and a sweep
# must never queue behind another client's request or another sweep.
SWEEP_BATCH = _SWEEP_ONE_IN
# The rows to delete are chosen once, in a materialized CTE. As an IN (subquery) the planner
# may rescan the subquery for each row of a nested loop, and each rescan, skipping the rows this
# very statement has already deleted, locks the next batch: a prepared statement's generic plan
# deleted all 25 expired rows of a bound of 10 that way (tests/limits/test_rate_limits.py).
_SWEEP = f"""
WITH expired AS MATERIALIZED (
    SELECT key FROM {RateLimitBucket._meta.db_table}
     WHERE tat < clock_timestamp()
     LIMIT %(batch)s
       FOR UPDATE SKIP LOCKED
)
DELETE FROM {RateLimitBucket._meta.db_table} AS bucket USING expired WHERE bucket.key = expired.key
"""


@dataclass(frozen=True)
class Limit:
    requests: int
    period_seconds: float

    @property
    def interval(self) -> float:
        return self.period_seconds / self.requests


def _cursor() -> CursorWrapper:
    # The table is written on every take, so it lives where writes go, replicas or not. Every
    # authenticated request takes: prepared, its plan is made once per connection.
    return prepared_cursor(connections[router.db_for_write(RateLimitBucket)])


def _params(key: str, limit: Limit, cost: int = 1) -> dict[str, str | float]:
    return {"key": key, "interval": limit.interval * cost, "period": limit.period_seconds, "slack": _SLACK}


def _retry_after(seconds: float | None) -> int:
    """Whole seconds for a Retry-After header: rounded up, and never 0 for a refusal."""
    return max(1, math.ceil(seconds or 0.0))


def rate_limit_take(*, key: str, limit: Limit, cost: int = 1) -> int | None:
    """Counts ``cost`` requests against ``key`` at once: None if allowed, else seconds to wait."""
    params = _params(key, limit, cost)
    with _cursor() as cursor:
        if random.randrange(_SWEEP_ONE_IN) == 0:  # a sampling choice, not a secret
            cursor.execute(_SWEEP, {"batch": SWEEP_BATCH})
        cursor.execute(_TAKE, params)
        if cursor.fetchone() is not None:
            return None
        cursor.execute(_BLOCKED_FOR, params)
        row = cursor.fetchone()
    return _retry_after(row[0] if row else None)


_REFUND = f"""
UPDATE {RateLimitBucket._meta.db_table} SET tat = tat - make_interval(secs => %(interval)s) WHERE key = %(key)s
"""


def rate_limit_refund(*, key: str, limit: Limit, cost: int = 1) -> None:
    """Gives back ``cost`` requests taken from ``key`` (taken before the outcome was known, and
    the outcome does not count: a login that succeeded)."""
    with _cursor() as cursor:
        cursor.execute(_REFUND, _params(key, limit, cost))


def rate_limit_blocked_for(*, key: str, limit: Limit) -> int | None:
    """Seconds until ``key`` may take another request, or None if it may now; counts nothing."""
    with _cursor() as cursor:
        cursor.execute(_BLOCKED_FOR, _params(key, limit))
        row = cursor.fetchone()
    if row is None or row[0] <= 0:
        return None
    return _retry_after(row[0])


# -- the per-token budget, REST and MCP together ------------------------------------------


def credential_limit() -> Limit | None:
    per_minute: int = settings.RATE_LIMIT_PER_MINUTE
    return Limit(requests=per_minute, period_seconds=60.0) if per_minute else None


def credential_rate_key(credential: Credential) -> str:
    return f"credential:{credential.pk}"


def credential_remaining(credential: Credential) -> int | None:
    """How many requests this token may still send right now (None: no limit); counts nothing."""
    limit = credential_limit()
    if limit is None:
        return None
    with _cursor() as cursor:
        cursor.execute(
            f"SELECT EXTRACT(EPOCH FROM clock_timestamp() + make_interval(secs => %s) "
            f"- GREATEST(tat, clock_timestamp()))::float8 FROM {RateLimitBucket._meta.db_table} WHERE key = %s",
            [limit.period_seconds, credential_rate_key(credential)],
        )
        row = cursor.fetchone()
    if row is None:
        return limit.requests
    tokens: float = row[0]
    return max(0, min(limit.requests, math.floor(tokens / limit.interval + 1e-9)))


def credential_wait(credential: Credential, cost: int = 1) -> int | None:
    """Counts ``cost`` requests of this token (a batch counts its items): None if allowed, else
    the seconds to wait."""
    limit = credential_limit()
    if limit is None:
        return None
    return rate_limit_take(key=credential_rate_key(credential), limit=limit, cost=cost)
