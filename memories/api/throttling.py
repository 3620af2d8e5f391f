"""The per-token request limit for the REST API (the MCP endpoint applies the same one)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle

from memories.models import Credential
from memories.ratelimit import Limit, rate_limit_take


def credential_limit() -> Limit | None:
    per_minute: int = settings.RATE_LIMIT_PER_MINUTE
    return Limit(requests=per_minute, period_seconds=60.0) if per_minute else None


def credential_rate_key(credential: Credential) -> str:
    return f"credential:{credential.pk}"


def credential_wait(credential: Credential) -> int | None:
    """Counts a request of this token: None if allowed, else the seconds to wait."""
    limit = credential_limit()
    if limit is None:
        return None
    return rate_limit_take(key=credential_rate_key(credential), limit=limit)


class CredentialRateThrottle(BaseThrottle):
    """DRF runs throttles after authentication and permissions, so only valid tokens count."""

    def __init__(self) -> None:
        self._wait: int | None = None

    def allow_request(self, request: Request, view: Any) -> bool:
        credential = getattr(request, "auth", None)
        if not isinstance(credential, Credential):
            return True  # the anonymous endpoints (schema, docs) carry no token to count against
        self._wait = credential_wait(credential)
        return self._wait is None

    def wait(self) -> float | None:
        return self._wait
