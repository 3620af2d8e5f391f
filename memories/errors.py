"""Domain errors. Each carries a stable code (``ErrorCode``) and nothing of any transport: the
doors map a code to what they answer with (memories.agent.errors.STATUS, read by the REST
exception handler, the MCP endpoint and a batch's items alike)."""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class ErrorCode(StrEnum):
    INVALID = "invalid"
    NOT_FOUND = "not_found"
    PROJECT_NOT_FOUND = "project_not_found"
    FORBIDDEN = "forbidden"
    NOT_LIVE = "not_live"
    TOO_MANY_SUPERSEDES = "too_many_supersedes"
    PROVISIONAL_CANNOT_SUPERSEDE = "provisional_cannot_supersede"
    SUPERSEDE_TARGET_FORBIDDEN = "supersede_target_forbidden"
    EMBEDDING_FAILED = "embedding_failed"
    DATABASE_UNAVAILABLE = "database_unavailable"
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"
    IDEMPOTENCY_IN_PROGRESS = "idempotency_in_progress"
    LINK_TARGET_NOT_FOUND = "link_target_not_found"
    RATE_LIMITED = "rate_limited"
    READ_ONLY_TOKEN = "read_only_token"
    OUTSIDE_TOKEN_SCOPE = "outside_token_scope"
    SECRET_DETECTED = "secret_detected"
    STALE_TARGET = "stale_target"
    GROUP_CHANGED = "group_changed"  # review: a conflict group is not the one the moderator decided on
    FEED_EPOCH_CHANGED = "feed_epoch_changed"


class DomainError(Exception):
    code: ErrorCode = ErrorCode.INVALID

    def __init__(self, message: str, *, code: ErrorCode | None = None, fields: dict[str, Any] | None = None):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.fields = fields

    def extra(self) -> dict[str, Any]:
        """Keys a rule adds to the error object beside code, message and fields (R-O8)."""
        return {}


class ValidationFailed(DomainError):
    code = ErrorCode.INVALID


class SecretDetected(DomainError):
    """The write holds what looks like a credential, and its project blocks them (nothing stored)."""

    code = ErrorCode.SECRET_DETECTED


class NotFound(DomainError):
    code = ErrorCode.NOT_FOUND


class Forbidden(DomainError):
    code = ErrorCode.FORBIDDEN


class NotLive(DomainError):
    """What the caller expected live (a memory, a pending conflict, a token) no longer is; nothing changed."""

    code = ErrorCode.NOT_LIVE

    def __init__(self, message: str, *, memory_id: str | None = None) -> None:
        super().__init__(message)
        self.memory_id = memory_id


class StaleTarget(DomainError):
    """A write under ``on_stale: "reject"`` named a version another write already replaced
    (SPEC R-S11): nothing was stored; ``current`` names each stale target's live head."""

    code = ErrorCode.STALE_TARGET

    def __init__(self, message: str, *, current: list[dict[str, str | None]]) -> None:
        super().__init__(message)
        self.current = current

    def extra(self) -> dict[str, Any]:
        return {"current": self.current}


class FeedEpochChanged(DomainError):
    """A feed cursor from before the database was restored (memories.models.FeedEpoch): its
    position counts in a history the database no longer continues, so reading on from it would
    skip events. ``epoch`` is the current one; a reader starts again without a cursor."""

    code = ErrorCode.FEED_EPOCH_CHANGED

    def __init__(self, *, cursor_epoch: int, epoch: int) -> None:
        super().__init__(
            f"This cursor is from feed epoch {cursor_epoch}; the database has since been restored from a "
            f"backup and the feed is at epoch {epoch}. Events after the backup was taken may be gone, and "
            "positions do not carry over: read the current state again (the memories you follow), then "
            "read the feed without a cursor (or with since=) and keep its new cursor."
        )
        self.epoch = epoch

    def extra(self) -> dict[str, Any]:
        return {"epoch": self.epoch}


class IdempotencyInProgress(DomainError):
    code = ErrorCode.IDEMPOTENCY_IN_PROGRESS


class IdempotencyKeyReused(DomainError):
    code = ErrorCode.IDEMPOTENCY_KEY_REUSED


class RateLimited(DomainError):
    code = ErrorCode.RATE_LIMITED

    def __init__(self, retry_after: int) -> None:
        # Worded as the REST API's throttle has always answered.
        unit = "second" if retry_after == 1 else "seconds"
        super().__init__(f"Request was throttled. Expected available in {retry_after} {unit}.")
        self.retry_after = retry_after


class EmbeddingFailed(DomainError):
    code = ErrorCode.EMBEDDING_FAILED


class DatabaseUnavailable(DomainError):
    code = ErrorCode.DATABASE_UNAVAILABLE


def project_not_found(slug: str) -> NotFound:
    # Missing and not-a-member answer alike: non-members learn nothing of a project.
    return NotFound(f"Project {slug!r} not found.", code=ErrorCode.PROJECT_NOT_FOUND)


def memory_not_found(memory_id: str) -> NotFound:
    return NotFound(f"Memory {memory_id!r} not found.")


def memory_not_live(memory_id: str) -> NotLive:
    return NotLive(f"{memory_id} is no longer live.", memory_id=memory_id)
