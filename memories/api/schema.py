"""OpenAPI descriptions that drf-spectacular cannot infer, and the request bodies and query
parameters written from the agent contract's shapes (the one list of what each verb takes)."""

from __future__ import annotations

import functools
from typing import Any, ClassVar

from django.db.models import TextChoices
from drf_spectacular.extensions import OpenApiAuthenticationExtension, OpenApiSerializerExtension
from drf_spectacular.plumbing import list_hash
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, inline_serializer
from rest_framework import serializers

from memories import choices
from memories.agent.fields import Schema, Shape


class BearerTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]  # untyped base
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
            "current": serializers.ListField(
                child=inline_serializer(
                    name="StaleTargetCurrent",
                    fields={
                        "dst": serializers.CharField(help_text="A supersedes target another write already replaced."),
                        "current": serializers.CharField(
                            allow_null=True, help_text="The live head of its chain now, or null when none is live."
                        ),
                    },
                ),
                required=False,
                help_text='On `stale_target` (409, `"on_stale": "reject"`): each stale target and its current '
                "version (SPEC R-S11).",
            ),
        },
    )


_ERRORS = {
    400: "Invalid input (`invalid`, `malformed_request`, `too_many_supersedes`), with `fields` when one is to blame.",
    401: "No token, or an invalid or revoked one (`not_authenticated`, `authentication_failed`).",
    403: "Authenticated, but not allowed to do this (`forbidden` and the operation's own codes).",
    404: "Not found, or not visible to the caller: the two are indistinguishable (`not_found`, `project_not_found`); "
    "on a list, also a `cursor` that is not one of the server's.",
    409: "The memory or conflict is not in a state that allows this (`not_live`, `idempotency_in_progress`), or a "
    'supersedes target was already replaced by another write under `"on_stale": "reject"` (`stale_target`).',
    410: "A feed cursor from before the database was restored from a backup (`feed_epoch_changed`, with the "
    "current `epoch`): read the current state again, then the feed without a cursor.",
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


@functools.cache
def _enum_ids() -> dict[tuple[str, ...], str]:
    """drf-spectacular names an enum by the hash of its (value, label) pairs; a contract choice
    has values only. Those of one of memories.choices' sets get that set's hash, so a request's
    ``kind`` and a response's share one KindEnum (and the generator sees no name collision)."""
    sets = [item for item in vars(choices).values() if isinstance(item, type) and issubclass(item, TextChoices)]
    return {tuple(item.values): list_hash(item.choices) for item in sets if item is not TextChoices}


def openapi_schema(schema: Schema) -> Schema:
    """JSON Schema as OpenAPI 3.0 writes it: a nullable value is ``nullable: true``, not a
    second type."""
    converted: Schema = {}
    if "enum" in schema:
        values = tuple(value for value in schema["enum"] if value is not None)
        if values in _enum_ids():
            converted["x-spec-enum-id"] = _enum_ids()[values]
    for key, value in schema.items():
        if key == "type" and isinstance(value, list):
            types = [kind for kind in value if kind != "null"]
            converted["type"] = types[0]
            if len(types) < len(value):
                converted["nullable"] = True
        elif key == "properties":
            converted[key] = {name: openapi_schema(child) for name, child in value.items()}
        elif key == "items":
            converted[key] = openapi_schema(value)
        else:
            converted[key] = value
    return converted


class ShapeBody(serializers.Serializer[Any]):
    """A request body documented from a contract shape. Never used to read a request: the
    verbs check the body against the same shape."""

    shape: ClassVar[Shape]


def shape_body(name: str, shape: Shape) -> type[ShapeBody]:
    """The body ``shape`` takes, for ``extend_schema(request=...)``; ``name`` names its component."""
    return type(name, (ShapeBody,), {"shape": shape, "__module__": __name__})


class ShapeBodyExtension(OpenApiSerializerExtension):  # type: ignore[no-untyped-call]  # untyped base
    target_class = ShapeBody
    match_subclasses = True

    def get_name(self, auto_schema: Any, direction: str) -> str:
        return type(self.target).__name__

    def map_serializer(self, auto_schema: Any, direction: str) -> Schema:
        return openapi_schema(self.target.shape.schema())


def shape_parameters(shape: Shape) -> list[OpenApiParameter]:
    """A GET list's query parameters, from the shape its verb checks them against."""
    parameters = []
    for name, spec in shape.fields.items():
        schema = openapi_schema(spec.schema())
        schema.pop("nullable", None)  # a query string has no null: an empty value is left out
        description = schema.pop("description", "")
        if schema.get("type") == "object":  # a query string carries an object as its JSON text
            schema = {"type": "string"}
            description += " In the query string, as JSON text (URL-encoded)."
        parameters.append(
            OpenApiParameter(name, schema, OpenApiParameter.QUERY, required=not spec.optional, description=description)
        )
    return parameters
