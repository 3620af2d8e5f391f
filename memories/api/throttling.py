"""The per-token request limit for the REST API (the MCP endpoint applies the same one)."""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle

from memories.models import Credential
from memories.platform.ratelimit import credential_wait


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
