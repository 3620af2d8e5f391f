"""The REST API's exception handler: every failure in the one error shape (SPEC R-O8).

Domain and database errors are described by the agent layer, as for MCP (their codes' statuses
from memories.agent.errors.STATUS); what is left is DRF's
own refusals (authentication, throttling, parsing, media types), named here.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from memories.agent.errors import as_domain_error, domain_error_body, error_body, error_status, server_error_body
from memories.errors import RateLimited

logger = logging.getLogger(__name__)


class RequestTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "The request body is too large."


_DRF_CODES = {
    RequestTooLarge: "request_too_large",
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "authentication_failed",
    exceptions.PermissionDenied: "forbidden",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.ParseError: "malformed_request",
    exceptions.Throttled: "rate_limited",
    exceptions.ValidationError: "invalid",
}


def _flatten(detail: Any) -> Any:
    """DRF's nested ErrorDetail lists, as plain strings and dicts."""
    if isinstance(detail, dict):
        return {key: _flatten(value) for key, value in detail.items()}
    if isinstance(detail, list):
        return [_flatten(item) for item in detail]
    return str(detail)


def describe_exception(exc: Exception) -> tuple[int, dict[str, Any]] | None:
    """The status and error body for an expected failure; None for an unexpected one."""
    domain_error = as_domain_error(exc)
    if domain_error is not None:
        return error_status(domain_error), domain_error_body(domain_error)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    elif isinstance(exc, RequestDataTooBig):
        exc = RequestTooLarge(
            f"The request body is larger than {settings.DATA_UPLOAD_MAX_MEMORY_SIZE:,} bytes; nothing was stored."
        )
    if not isinstance(exc, exceptions.APIException):
        return None

    code = next((c for cls, c in _DRF_CODES.items() if isinstance(exc, cls)), "error")
    if isinstance(exc, exceptions.ValidationError):
        detail = _flatten(exc.detail)
        if isinstance(detail, dict):
            non_field = detail.pop("non_field_errors", None)
            message = "; ".join(non_field) if non_field else "The request is invalid; see fields."
            return exc.status_code, error_body(code, message, detail or None)
        return exc.status_code, error_body(code, "; ".join(detail) if isinstance(detail, list) else detail)
    return exc.status_code, error_body(code, str(exc.detail))


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    described = describe_exception(exc)
    if described is None:
        # Unexpected: log it and answer in the API's shape, never with an HTML 500 page.
        logger.exception("Unhandled error in %s", context.get("view").__class__.__name__, exc_info=exc)
        return Response(server_error_body(), status=status.HTTP_500_INTERNAL_SERVER_ERROR)
    answer, body = described
    # DRF's handler adds the headers that go with some errors (WWW-Authenticate, Retry-After).
    response = exception_handler(exc, context)
    if response is None:
        response = Response(body, status=answer)
        if isinstance(exc, RateLimited):  # a batch's items over the budget (memories.agent.batch)
            response["Retry-After"] = str(exc.retry_after)
        return response
    response.data = body
    response.status_code = answer
    return response
