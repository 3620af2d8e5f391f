"""One exception family for every failure the client reports.

The server answers every error as ``{"error": {"code", "message", "fields"?, …}}`` (SPEC R-O8);
each becomes a ``ZeromemoryError`` whose class follows the status (and, for 409, the code), so
callers catch what they can act on: ``StaleTarget`` to reread a fact's head, ``NotFound``,
``InvalidRequest`` with ``.fields``. A failure with no answer at all (the server unreachable after
the retries) is a ``TransportError`` with ``status`` 0.
"""

from __future__ import annotations

from typing import Any


class ZeromemoryError(Exception):
    """An error answer: ``status`` (HTTP), ``code`` (the server's), ``message``, ``fields`` (per
    field messages on a 400), and ``body``, the whole error object (extra keys a rule names)."""

    def __init__(self, status: int, code: str, message: str, fields: dict[str, Any] | None, body: dict[str, Any]):
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.fields = fields
        self.body = body


class InvalidRequest(ZeromemoryError):
    """400: a field is missing, unknown or of the wrong type (``fields`` names it); nothing changed."""


class Unauthorized(ZeromemoryError):
    """401: no token, or one the server does not know (revoked, expired)."""


class Forbidden(ZeromemoryError):
    """403: the token may see this but not do it (``forbidden``, ``read_only_token``,
    ``supersede_target_forbidden``, ``provisional_cannot_supersede``, ``outside_token_scope``)."""


class NotFound(ZeromemoryError):
    """404: missing, or not visible to you (the two answer alike); ``project_not_found`` too."""


class StateConflict(ZeromemoryError):
    """409: the thing is not in the state the call needs (``not_live``, ``group_changed``,
    ``idempotency_in_progress``)."""


class StaleTarget(StateConflict):
    """409 ``stale_target``: a write with ``on_stale="reject"`` named a version another write
    already replaced. Nothing was stored. ``current`` lists ``{"dst", "current"}`` for each stale
    target: the version that is current now (or None), to reread before deciding again."""

    @property
    def current(self) -> list[dict[str, Any]]:
        entries: list[dict[str, Any]] = self.body.get("current") or []
        return entries


class FeedEpochChanged(ZeromemoryError):
    """410: the database was restored since this events cursor was handed out (docs/api.md):
    reread the state you follow, then read the feed again without the cursor."""


class IdempotencyKeyReused(ZeromemoryError):
    """422: the Idempotency-Key was used before with other arguments."""


class RateLimited(ZeromemoryError):
    """429 after the retries: ``retry_after`` is the server's Retry-After, in seconds."""

    retry_after: float | None = None


class Unavailable(ZeromemoryError):
    """503 after the retries: the database or the embedding model is unavailable for now."""


class TransportError(ZeromemoryError):
    """No answer at all (connection refused, reset, timed out) after the retries; ``status`` 0."""


_BY_STATUS: dict[int, type[ZeromemoryError]] = {
    400: InvalidRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    409: StateConflict,
    410: FeedEpochChanged,
    422: IdempotencyKeyReused,
    429: RateLimited,
    503: Unavailable,
}


def error_from_answer(status: int, payload: Any, retry_after: float | None = None) -> ZeromemoryError:
    """The exception for an error answer (any JSON, or none: a proxy's HTML page)."""
    body: dict[str, Any] = {}
    if isinstance(payload, dict) and isinstance(payload.get("error"), dict):
        body = payload["error"]
    code = str(body.get("code") or f"http_{status}")
    message = str(body.get("message") or "The server answered an error without a message.")
    fields = body.get("fields") if isinstance(body.get("fields"), dict) else None
    kind = StaleTarget if code == "stale_target" else _BY_STATUS.get(status, ZeromemoryError)
    error = kind(status, code, message, fields, body)
    if isinstance(error, RateLimited):
        error.retry_after = retry_after
    return error
