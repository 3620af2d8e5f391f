"""The one error shape, ``{"error": {"code", "message", "fields"?}}`` (SPEC R-O8), for every door.

An expected failure is a ``DomainError``, which carries its code; a database failure becomes one
here. Anything else is unexpected: the door logs it and answers ``server_error_body()``.

What a code answers with is the doors' business, not the domain's: :data:`STATUS` is the one
table, here in the layer the doors share because a batch's body carries each item's status to
both doors alike; the REST exception handler and the MCP endpoint read it through
:func:`error_status`.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import DatabaseError

from memories.errors import DatabaseUnavailable, DomainError, ErrorCode

logger = logging.getLogger(__name__)

# Every code, once (a test holds the table total).
STATUS: dict[ErrorCode, int] = {
    ErrorCode.INVALID: 400,
    ErrorCode.SECRET_DETECTED: 400,
    ErrorCode.TOO_MANY_SUPERSEDES: 400,
    ErrorCode.FORBIDDEN: 403,
    ErrorCode.READ_ONLY_TOKEN: 403,
    ErrorCode.OUTSIDE_TOKEN_SCOPE: 403,
    ErrorCode.PROVISIONAL_CANNOT_SUPERSEDE: 403,
    ErrorCode.SUPERSEDE_TARGET_FORBIDDEN: 403,
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.PROJECT_NOT_FOUND: 404,
    ErrorCode.LINK_TARGET_NOT_FOUND: 404,
    ErrorCode.NOT_LIVE: 409,
    ErrorCode.STALE_TARGET: 409,
    ErrorCode.GROUP_CHANGED: 409,
    ErrorCode.IDEMPOTENCY_IN_PROGRESS: 409,
    ErrorCode.FEED_EPOCH_CHANGED: 410,
    ErrorCode.IDEMPOTENCY_KEY_REUSED: 422,
    ErrorCode.RATE_LIMITED: 429,
    ErrorCode.EMBEDDING_FAILED: 503,
    ErrorCode.DATABASE_UNAVAILABLE: 503,
}


def error_status(error: DomainError) -> int:
    """The status ``error`` answers with, at every door."""
    return STATUS[error.code]


def error_body(
    code: str, message: str, fields: dict[str, Any] | None = None, extra: dict[str, Any] | None = None
) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if fields:
        error["fields"] = fields
    if extra:
        error.update(extra)
    return {"error": error}


def server_error_body() -> dict[str, Any]:
    return error_body("server_error", "The server could not complete the request.")


def as_domain_error(exc: BaseException) -> DomainError | None:
    """The failure as the error it answers with; None for an unexpected one."""
    if isinstance(exc, DomainError):
        return exc
    if isinstance(exc, DatabaseError):
        # Lost connection, failover, statement timeout: the write rolled back as a whole.
        logger.exception("Database error", exc_info=exc)
        return DatabaseUnavailable("The database could not complete the request; nothing was changed.")
    return None


def domain_error_body(error: DomainError) -> dict[str, Any]:
    return error_body(str(error.code), error.message, error.fields, error.extra())
