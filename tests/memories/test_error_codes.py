"""Domain errors carry a code and nothing of HTTP; the doors' one table gives each code its status
(issue 35): the domain module names no status, and no code is left without an answer."""

from __future__ import annotations

import inspect

from memories import errors
from memories.agent.errors import STATUS, error_status
from memories.errors import DomainError, ErrorCode
from review.errors import GroupChanged


def test_every_code_has_exactly_one_status():
    assert sorted(STATUS) == sorted(ErrorCode)
    assert all(isinstance(status, int) and 400 <= status < 600 for status in STATUS.values())


def test_the_domain_errors_name_no_status():
    classes = [cls for _, cls in inspect.getmembers(errors, inspect.isclass) if issubclass(cls, DomainError)]
    assert len(classes) == 13
    assert [cls.__name__ for cls in [*classes, GroupChanged] if hasattr(cls, "status")] == []


def test_each_error_answers_the_status_it_always_has():
    answered = {
        "ValidationFailed": error_status(errors.ValidationFailed("x")),
        "SecretDetected": error_status(errors.SecretDetected("x")),
        "NotFound": error_status(errors.memory_not_found("x")),
        "ProjectNotFound": error_status(errors.project_not_found("x")),
        "Forbidden": error_status(errors.Forbidden("x")),
        "ReadOnly": error_status(errors.Forbidden("x", code=ErrorCode.READ_ONLY_TOKEN)),
        "TooManySupersedes": error_status(errors.ValidationFailed("x", code=ErrorCode.TOO_MANY_SUPERSEDES)),
        "NotLive": error_status(errors.memory_not_live("x")),
        "StaleTarget": error_status(errors.StaleTarget("x", current=[])),
        "FeedEpochChanged": error_status(errors.FeedEpochChanged(cursor_epoch=1, epoch=2)),
        "IdempotencyInProgress": error_status(errors.IdempotencyInProgress("x")),
        "IdempotencyKeyReused": error_status(errors.IdempotencyKeyReused("x")),
        "RateLimited": error_status(errors.RateLimited(3)),
        "EmbeddingFailed": error_status(errors.EmbeddingFailed("x")),
        "DatabaseUnavailable": error_status(errors.DatabaseUnavailable("x")),
    }
    assert answered == {
        "ValidationFailed": 400,
        "SecretDetected": 400,
        "NotFound": 404,
        "ProjectNotFound": 404,
        "Forbidden": 403,
        "ReadOnly": 403,
        "TooManySupersedes": 400,
        "NotLive": 409,
        "StaleTarget": 409,
        "FeedEpochChanged": 410,
        "IdempotencyInProgress": 409,
        "IdempotencyKeyReused": 422,
        "RateLimited": 429,
        "EmbeddingFailed": 503,
        "DatabaseUnavailable": 503,
    }
