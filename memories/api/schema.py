"""OpenAPI descriptions that drf-spectacular cannot infer."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import OpenApiResponse, inline_serializer
from rest_framework import serializers


class BearerTokenScheme(OpenApiAuthenticationExtension):
    target_class = "memories.api.auth.BearerTokenAuthentication"
    name = "bearerToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "An API token from `manage.py issue_token`: `Authorization: Bearer zm_…`.",
        }


class ErrorSerializer(serializers.Serializer[Any]):
    """The one error shape of the API (SPEC R-O8)."""

    # Built from a dict: a field named `fields` cannot be declared on a serializer class.
    error = inline_serializer(
        name="ErrorDetail",
        fields={
            "code": serializers.CharField(help_text="Stable and machine-readable, e.g. `not_found`, `invalid`."),
            "message": serializers.CharField(help_text="For people; may change."),
            "fields": serializers.DictField(
                required=False, help_text="Per-field problems, present on `invalid` when a field is to blame."
            ),
        },
    )


_ERRORS = {
    400: "Invalid input (`invalid`, `malformed_request`, `too_many_supersedes`), with `fields` when one is to blame.",
    401: "No token, or an invalid or revoked one (`not_authenticated`, `authentication_failed`).",
    403: "Authenticated, but not allowed to do this (`forbidden` and the operation's own codes).",
    404: "Not found, or not visible to the caller: the two are indistinguishable (`not_found`, `project_not_found`); "
    "on a list, also a `cursor` that is not one of the server's.",
    409: "The memory or conflict is not in a state that allows this (`not_live`, `idempotency_in_progress`).",
    413: "The request body is over the server's limit (`request_too_large`).",
    415: "The body is not JSON (`unsupported_media_type`).",
    422: "An Idempotency-Key reused with another body (`idempotency_key_reused`).",
    429: "The token has spent its requests per minute (`rate_limited`); the `Retry-After` header says how many "
    "seconds until the next one is allowed. Nothing was done.",
    503: "The database or the embedding model failed; nothing was changed, retry (`database_unavailable`, "
    "`embedding_failed`).",
}
# Every operation can fail these ways: no token, a spent rate limit, or a database that gives out.
_ALWAYS = (401, 429, 503)
# And every operation that reads a JSON body these.
_BODY = (400, 413, 415)


def error_responses(*statuses: int, body: bool = False) -> dict[int, OpenApiResponse]:
    """The error answers of an operation, each in the API's error shape."""
    wanted = sorted({*statuses, *_ALWAYS, *(_BODY if body else ())})
    return {status: OpenApiResponse(ErrorSerializer, description=_ERRORS[status]) for status in wanted}
