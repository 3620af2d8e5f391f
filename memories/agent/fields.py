"""The agent verbs' argument checks, without a web framework, and the JSON Schema they document.

REST and MCP hand the same JSON here, so a bad argument fails the same way through either door.
The messages and the order of the checks are those the REST API answered with when DRF's
serializers did this job, so clients that match on them see no change (tests/mcp and
tests/memories pin several).

A JSON body is read strictly (SPEC R-V5): each value must already be of its JSON type (no
``"5"`` for 5, no ``1`` for true, no ``123`` for a text) and a key no field defines is refused,
because a typo must never change what a write does. A query string (a Django QueryDict, as the
GET lists receive) only has strings, so there they are converted. An integer may be written
``5.0``: JSON Schema counts a number with no fraction as an integer, and so does the check.
Each field also says what it takes as JSON Schema (``schema()``), so the published schemas
(MCP tools, OpenAPI) are written from the very objects that check.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from django.utils import timezone
from django.utils.dateparse import parse_datetime

from memories.errors import ValidationFailed

# An error detail: messages for one value, or per-key details for a nested object or list.
Detail = list[str] | dict[Any, Any]
Schema = dict[str, Any]

UNKNOWN_FIELD = "Unknown field."


class Invalid(Exception):
    def __init__(self, detail: Detail) -> None:
        super().__init__(detail)
        self.detail = detail


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


class _Skip(Exception):
    """An optional argument left out with no default: absent from the parsed arguments."""


@dataclass(frozen=True, kw_only=True)
class Field:
    required: bool = True
    default: Any = MISSING
    allow_null: bool = False
    description: str = ""

    def run(self, data: Any, *, query: bool = False) -> Any:
        if data is MISSING:
            if self.required and self.default is MISSING:
                raise Invalid(["This field is required."])
            if self.default is MISSING:
                raise _Skip
            return self.default() if callable(self.default) else self.default
        if data is None:
            if not self.allow_null:
                raise Invalid(["This field may not be null."])
            return None
        value = self.convert(data, query=query)
        errors = [message for check in self.checks() if (message := check(value)) is not None]
        if errors:
            raise Invalid(errors)
        return value

    def convert(self, data: Any, *, query: bool) -> Any:
        return data

    def checks(self) -> Iterable[Callable[[Any], str | None]]:
        return ()

    @property
    def optional(self) -> bool:
        return not self.required or self.default is not MISSING

    def schema(self) -> Schema:
        """This field as JSON Schema: its type's keywords, then what every field may carry."""
        schema = self.type_schema()
        if self.allow_null and "type" in schema:
            schema["type"] = [schema["type"], "null"]
            if "enum" in schema:
                schema["enum"] = [*schema["enum"], None]
        if self.default is not MISSING:
            schema["default"] = self.default() if callable(self.default) else self.default
        if self.description:
            schema["description"] = self.description
        return schema

    def type_schema(self) -> Schema:
        return {}


def _no_nul(value: str) -> str | None:
    # PostgreSQL text cannot hold U+0000.
    return "Null characters are not allowed." if "\x00" in value else None


_SURROGATE = re.compile("[\ud800-\udfff]")


def surrogate_problem(value: str) -> str | None:
    # A lone surrogate cannot be encoded to UTF-8 for the database. (A regular expression: a
    # character-by-character loop in Python costs ~0.5 ms on 8,000 characters.)
    found = _SURROGATE.search(value)
    return f"Surrogate characters are not allowed: U+{ord(found.group()):X}." if found else None


@dataclass(frozen=True, kw_only=True)
class Text(Field):
    max_length: int | None = None
    allow_blank: bool = False
    trim: bool = True
    pattern: re.Pattern[str] | None = None
    invalid: str = "Not a valid string."

    def run(self, data: Any, *, query: bool = False) -> Any:
        if isinstance(data, str) and (data == "" or (self.trim and data.strip() == "")):
            if not self.allow_blank:
                raise Invalid(["This field may not be blank."])
            return ""
        return super().run(data, query=query)

    def convert(self, data: Any, *, query: bool) -> str:
        if not isinstance(data, str):
            raise Invalid(["Not a valid string."])
        return data.strip() if self.trim else data

    def checks(self) -> Iterable[Callable[[Any], str | None]]:
        if self.max_length is not None:
            limit = self.max_length
            yield (
                lambda value: f"Ensure this field has no more than {limit} characters." if len(value) > limit else None
            )
        yield _no_nul
        yield surrogate_problem
        if self.pattern is not None:
            pattern, invalid = self.pattern, self.invalid
            yield lambda value: None if pattern.search(value) else invalid

    def type_schema(self) -> Schema:
        schema: Schema = {"type": "string"}
        if not self.allow_blank:
            schema["minLength"] = 1
        if self.max_length is not None:
            schema["maxLength"] = self.max_length
        if self.pattern is not None:
            schema["pattern"] = self.pattern.pattern
        return schema


SLUG_RE = re.compile(r"^[-a-zA-Z0-9_]+$")
SLUG_INVALID = 'Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.'


def slug(*, max_length: int, **options: Any) -> Text:
    return Text(max_length=max_length, pattern=SLUG_RE, invalid=SLUG_INVALID, **options)


@dataclass(frozen=True, kw_only=True)
class Choice(Field):
    choices: tuple[str, ...] = ()

    def convert(self, data: Any, *, query: bool) -> str:
        if isinstance(data, str) and data in self.choices:
            return data
        raise Invalid([f'"{data}" is not a valid choice.'])

    def type_schema(self) -> Schema:
        return {"type": "string", "enum": list(self.choices)}


@dataclass(frozen=True, kw_only=True)
class Integer(Field):
    minimum: int | None = None
    maximum: int | None = None

    _DECIMAL = re.compile(r"\.0*\s*$")  # "1.0" in a query string is an integer, "1.5" is not

    def convert(self, data: Any, *, query: bool) -> int:
        if query:
            if isinstance(data, str) and len(data) > 1000:
                raise Invalid(["String value too large."])
            try:
                return int(self._DECIMAL.sub("", str(data)))
            except (ValueError, TypeError):
                raise Invalid(["A valid integer is required."]) from None
        if isinstance(data, int) and not isinstance(data, bool):
            return data
        if isinstance(data, float) and data.is_integer():
            return int(data)
        raise Invalid(["A valid integer is required."])

    def checks(self) -> Iterable[Callable[[Any], str | None]]:
        if self.maximum is not None:
            maximum = self.maximum
            yield lambda value: f"Ensure this value is less than or equal to {maximum}." if value > maximum else None
        if self.minimum is not None:
            minimum = self.minimum
            yield lambda value: f"Ensure this value is greater than or equal to {minimum}." if value < minimum else None

    def type_schema(self) -> Schema:
        schema: Schema = {"type": "integer"}
        if self.minimum is not None:
            schema["minimum"] = self.minimum
        if self.maximum is not None:
            schema["maximum"] = self.maximum
        return schema


_TRUE = {"t", "y", "yes", "true", "on", "1"}
_FALSE = {"f", "n", "no", "false", "off", "0"}


@dataclass(frozen=True, kw_only=True)
class Boolean(Field):
    def convert(self, data: Any, *, query: bool) -> bool:
        if isinstance(data, bool):
            return data
        if query and isinstance(data, str):
            if data.lower() in _TRUE:
                return True
            if data.lower() in _FALSE:
                return False
        raise Invalid(["Must be a valid boolean."])

    def type_schema(self) -> Schema:
        return {"type": "boolean"}


DATETIME_FORMAT = "YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]"


@dataclass(frozen=True, kw_only=True)
class Timestamp(Field):
    """ISO 8601; a time without an offset is read in the server's zone (UTC)."""

    def convert(self, data: Any, *, query: bool) -> datetime.datetime:
        try:
            parsed = parse_datetime(data)
        except (ValueError, TypeError):
            parsed = None
        if parsed is None:
            raise Invalid([f"Datetime has wrong format. Use one of these formats instead: {DATETIME_FORMAT}."])
        zone = timezone.get_current_timezone()
        if timezone.is_aware(parsed):
            try:
                return parsed.astimezone(zone)
            except OverflowError:
                raise Invalid(["Datetime value out of range."]) from None
        return timezone.make_aware(parsed, zone)

    def type_schema(self) -> Schema:
        return {"type": "string", "format": "date-time"}


@dataclass(frozen=True, kw_only=True)
class Json(Field):
    """Any JSON value, checked further by a refinement or by the verb itself. ``json_type``
    and ``checked_as`` document what that later check expects."""

    json_type: str | None = None
    checked_as: Shape | None = None

    def convert(self, data: Any, *, query: bool) -> Any:
        try:
            json.dumps(data)
        except (TypeError, ValueError):
            raise Invalid(["Value must be valid JSON."]) from None
        return data

    def type_schema(self) -> Schema:
        if self.checked_as is not None:
            return self.checked_as.schema()
        return {"type": self.json_type} if self.json_type else {}


@dataclass(frozen=True, kw_only=True)
class JsonObject(Field):
    """A JSON object: in a body as it is; in a query string (the REST feed) as JSON text."""

    def convert(self, data: Any, *, query: bool) -> dict[str, Any]:
        if query and isinstance(data, str):
            try:
                data = json.loads(data)
            except ValueError:
                raise Invalid(['Value must be a JSON object, e.g. {"team": "infra"}.']) from None
        if not isinstance(data, dict):
            raise Invalid([f'Expected a JSON object but got type "{type(data).__name__}".'])
        return data

    def type_schema(self) -> Schema:
        return {"type": "object"}


@dataclass(frozen=True, kw_only=True)
class Items(Field):
    child: Field | Shape = field(default_factory=Field)
    min_length: int | None = None
    max_length: int | None = None

    def convert(self, data: Any, *, query: bool) -> list[Any]:
        if not isinstance(data, list):
            raise Invalid([f'Expected a list of items but got type "{type(data).__name__}".'])
        values, errors = [], {}
        for index, item in enumerate(data):
            try:
                values.append(self.child.run(item, query=query))
            except Invalid as exc:
                errors[index] = exc.detail
        if errors:
            raise Invalid(errors)
        return values

    def checks(self) -> Iterable[Callable[[Any], str | None]]:
        if self.min_length is not None:
            least = self.min_length
            yield lambda value: f"Ensure this field has at least {least} elements." if len(value) < least else None
        if self.max_length is not None:
            limit = self.max_length
            yield lambda value: f"Ensure this field has no more than {limit} elements." if len(value) > limit else None

    def type_schema(self) -> Schema:
        schema: Schema = {"type": "array", "items": self.child.schema()}
        if self.min_length is not None:
            schema["minItems"] = self.min_length
        if self.max_length is not None:
            schema["maxItems"] = self.max_length
        return schema


NON_FIELD = "non_field_errors"


def _checked_later(spec: Field | Shape) -> Shape | None:
    """The shape a list's objects are checked against by the verb rather than here."""
    if isinstance(spec, Items) and isinstance(spec.child, Json):
        return spec.child.checked_as
    return None


def is_query(data: Any) -> bool:
    """A query string's parameters (Django's QueryDict), as the GET lists take them."""
    return hasattr(data, "getlist")


def _blank_as_absent(spec: Field | Shape, value: Any) -> Any:
    # A form or query string cannot leave a value out once its name is there: ?kind= means no
    # kind, not an empty one, wherever the argument is optional.
    if value != "" or isinstance(spec, Shape):
        return value
    if spec.allow_null:
        return "" if getattr(spec, "allow_blank", False) else None
    if spec.optional:
        return "" if getattr(spec, "allow_blank", False) else MISSING
    return value


@dataclass(frozen=True)
class Shape:
    """A JSON object of named arguments, checked field by field, then as a whole."""

    fields: dict[str, Field | Shape]
    # Per-field checks after conversion (field name -> check), then the whole-object check.
    refine: dict[str, Callable[[Any], Any]] = field(default_factory=dict)
    whole: Callable[[dict[str, Any]], None] | None = None
    # Keys a caller may send that this shape leaves to someone else to read (a list's cursor
    # and page size, read by the door's pagination): accepted, not parsed, not documented.
    passthrough: frozenset[str] = frozenset()
    # What to add to "Unknown field." for a key someone is likely to send by mistake.
    hints: dict[str, str] = field(default_factory=dict)
    description: str = ""

    # A nested object (a link of ``links``) is always written out whole.
    optional = False

    def extend(self, fields: Mapping[str, Field | Shape], *, passthrough: Iterable[str] = ()) -> Shape:
        """This shape with more arguments, for a door that takes some of its own (MCP's memory_id,
        idempotency_key): checked and documented alike."""
        return replace(self, fields={**self.fields, **fields}, passthrough=self.passthrough | set(passthrough))

    def unknown(self, data: Mapping[str, Any]) -> dict[str, list[str]]:
        """The keys of ``data`` this shape does not take, each with its message; and those of
        the objects of a list checked later (a batch's items, as ``items[1].key``), so that a
        key the server does not know refuses the whole request before anything is written."""
        allowed = self.fields.keys() | self.passthrough
        unknown: dict[str, list[str]] = {}
        for name, value in data.items():
            if name not in allowed:
                unknown[name] = [f"{UNKNOWN_FIELD} {self.hints[name]}" if name in self.hints else UNKNOWN_FIELD]
                continue
            later = _checked_later(self.fields[name]) if name in self.fields else None
            if later is not None and isinstance(value, list):
                for index, item in enumerate(value):
                    for key, messages in (later.unknown(item) if isinstance(item, Mapping) else {}).items():
                        unknown[f"{name}[{index}].{key}"] = messages
        return unknown

    def run(self, data: Any, *, query: bool | None = None) -> dict[str, Any]:
        if data is None:
            raise Invalid(["This field may not be null."])
        if not isinstance(data, Mapping):
            raise Invalid({NON_FIELD: [f"Invalid data. Expected a dictionary, but got {type(data).__name__}."]})
        query = is_query(data) if query is None else query
        values: dict[str, Any] = {}
        errors: dict[str, Detail] = {}
        for name, spec in self.fields.items():
            raw = data.get(name, MISSING)
            try:
                value = spec.run(_blank_as_absent(spec, raw) if query else raw, query=query)
                if name in self.refine:
                    value = self.refine[name](value)
            except Invalid as exc:
                errors[name] = exc.detail
            except _Skip:
                continue
            else:
                values[name] = value
        errors.update(self.unknown(data))
        if errors:
            raise Invalid(errors)
        if self.whole is not None:
            self.whole(values)
        return values

    def parse(self, data: Any) -> dict[str, Any]:
        """The arguments, converted; a ValidationFailed naming each field at fault otherwise."""
        try:
            return self.run(data)
        except Invalid as exc:
            detail = exc.detail
            if isinstance(detail, list):
                # Only a missing body (null) fails here as a whole value.
                detail = {NON_FIELD: ["No data provided"]}
            detail = dict(detail)
            non_field = detail.pop(NON_FIELD, None)
            message = "; ".join(non_field) if non_field else "The request is invalid; see fields."
            raise ValidationFailed(message, fields=detail or None) from None

    def schema(self) -> Schema:
        """The JSON object this shape takes, as JSON Schema: exactly these keys, each typed."""
        schema: Schema = {
            "type": "object",
            "properties": {name: spec.schema() for name, spec in self.fields.items()},
            "additionalProperties": False,
        }
        required = [name for name, spec in self.fields.items() if not spec.optional]
        if required:
            schema["required"] = required
        if self.description:
            schema["description"] = self.description
        return schema
