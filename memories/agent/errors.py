"""The one error shape, ``{"error": {"code", "message", "fields"?}}`` (SPEC R-O8), for every door.

An expected failure is a ``DomainError``, which carries its code and the status it answers with;
a database failure becomes one here. Anything else is unexpected: the door logs it and answers
``server_error_body()``.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import DatabaseError

from memories.errors import DatabaseUnavailable, DomainError

logger = logging.getLogger(__name__)


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
