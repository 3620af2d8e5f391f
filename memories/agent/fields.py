"""The agent verbs' argument checks, without a web framework.

REST and MCP hand the same JSON here, so a bad argument fails the same way through either door.
The messages and the order of the checks are those the REST API answered with when DRF's
serializers did this job, so clients that match on them see no change (tests/mcp and
tests/memories pin several).
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone
from django.utils.dateparse import parse_datetime

from memories.errors import ValidationFailed

# An error detail: messages for one value, or per-key details for a nested object or list.
Detail = list[str] | dict[Any, Any]


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

    def run(self, data: Any) -> Any:
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
        value = self.convert(data)
        errors = [message for check in self.checks() if (message := check(value)) is not None]
        if errors:
            raise Invalid(errors)
        return value

    def convert(self, data: Any) -> Any:
        return data

    def checks(self) -> Iterable[Callable[[Any], str | None]]:
        return ()


def _no_nul(value: str) -> str | None:
    # PostgreSQL text cannot hold U+0000.
    return "Null characters are not allowed." if "\x00" in value else None


def _no_surrogates(value: str) -> str | None:
    # A lone surrogate cannot be encoded to UTF-8 for the database.
    for character in value:
        if 0xD800 <= ord(character) <= 0xDFFF:
            return f"Surrogate characters are not allowed: U+{ord(character):X}."
    return None


@dataclass(frozen=True, kw_only=True)
class Text(Field):
    max_length: int | None = None
    allow_blank: bool = False
    trim: bool = True
    pattern: re.Pattern[str] | None = None
    invalid: str = "Not a valid string."

    def run(self, data: Any) -> Any:
        if data is not MISSING and (data == "" or (self.trim and str(data).strip() == "")):
            if not self.allow_blank:
                raise Invalid(["This field may not be blank."])
            return ""
        return super().run(data)

    def convert(self, data: Any) -> str:
        # Numbers pass as their text; booleans and composites are a client's mistake.
        if isinstance(data, bool) or not isinstance(data, str | int | float):
            raise Invalid([self.invalid])
        value = str(data)
        return value.strip() if self.trim else value

    def checks(self) -> Iterable[Callable[[Any], str | None]]:
        if self.max_length is not None:
            limit = self.max_length
            yield (
                lambda value: f"Ensure this field has no more than {limit} characters." if len(value) > limit else None
            )
        yield _no_nul
        yield _no_surrogates
        if self.pattern is not None:
            pattern, invalid = self.pattern, self.invalid
            yield lambda value: None if pattern.search(value) else invalid


SLUG_RE = re.compile(r"^[-a-zA-Z0-9_]+$")
SLUG_INVALID = 'Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.'


def slug(*, max_length: int, **options: Any) -> Text:
    return Text(max_length=max_length, pattern=SLUG_RE, invalid=SLUG_INVALID, **options)


@dataclass(frozen=True, kw_only=True)
class Choice(Field):
    choices: tuple[str, ...] = ()

    def convert(self, data: Any) -> str:
        if str(data) in self.choices:
            return str(data)
        raise Invalid([f'"{data}" is not a valid choice.'])


@dataclass(frozen=True, kw_only=True)
class Integer(Field):
    minimum: int | None = None
    maximum: int | None = None

    _DECIMAL = re.compile(r"\.0*\s*$")  # 1.0 and "1.0" are integers, 1.5 is not

    def convert(self, data: Any) -> int:
        if isinstance(data, str) and len(data) > 1000:
            raise Invalid(["String value too large."])
        try:
            return int(self._DECIMAL.sub("", str(data)))
        except (ValueError, TypeError):
            raise Invalid(["A valid integer is required."]) from None

    def checks(self) -> Iterable[Callable[[Any], str | None]]:
        if self.maximum is not None:
            maximum = self.maximum
            yield lambda value: f"Ensure this value is less than or equal to {maximum}." if value > maximum else None
        if self.minimum is not None:
            minimum = self.minimum
            yield lambda value: f"Ensure this value is greater than or equal to {minimum}." if value < minimum else None


# 1 also stands for True and 1.0, 0 for False and 0.0 (equal values, one set member).
_TRUE = {"t", "y", "yes", "true", "on", "1", 1}
_FALSE = {"f", "n", "no", "false", "off", "0", 0}


@dataclass(frozen=True, kw_only=True)
class Boolean(Field):
    def convert(self, data: Any) -> bool:
        folded = data.lower() if isinstance(data, str) else data
        try:
            if folded in _TRUE:
                return True
            if folded in _FALSE:
                return False
        except TypeError:  # unhashable: a list or an object
            pass
        raise Invalid(["Must be a valid boolean."])


DATETIME_FORMAT = "YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z]"


@dataclass(frozen=True, kw_only=True)
class Timestamp(Field):
    """ISO 8601; a time without an offset is read in the server's zone (UTC)."""

    def convert(self, data: Any) -> datetime.datetime:
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


@dataclass(frozen=True, kw_only=True)
class Json(Field):
    def convert(self, data: Any) -> Any:
        try:
            json.dumps(data)
        except (TypeError, ValueError):
            raise Invalid(["Value must be valid JSON."]) from None
        return data


@dataclass(frozen=True, kw_only=True)
class Items(Field):
    child: Field | Shape = field(default_factory=Field)
    max_length: int | None = None

    def convert(self, data: Any) -> list[Any]:
        if isinstance(data, str | Mapping) or not hasattr(data, "__iter__"):
            raise Invalid([f'Expected a list of items but got type "{type(data).__name__}".'])
        values, errors = [], {}
        for index, item in enumerate(data):
            try:
                values.append(self.child.run(item))
            except Invalid as exc:
                errors[index] = exc.detail
        if errors:
            raise Invalid(errors)
        return values

    def checks(self) -> Iterable[Callable[[Any], str | None]]:
        if self.max_length is not None:
            limit = self.max_length
            yield lambda value: f"Ensure this field has no more than {limit} elements." if len(value) > limit else None


NON_FIELD = "non_field_errors"


def _is_query(data: Mapping[str, Any]) -> bool:
    """A query string's parameters (Django's QueryDict), as the feed takes them."""
    return hasattr(data, "getlist")


def _blank_as_absent(spec: Field | Shape, value: Any) -> Any:
    # A form or query string cannot leave a value out once its name is there: ?kind= means no
    # kind, not an empty one, wherever the argument is optional.
    if value != "" or isinstance(spec, Shape):
        return value
    if spec.allow_null:
        return "" if getattr(spec, "allow_blank", False) else None
    if not spec.required or spec.default is not MISSING:
        return "" if getattr(spec, "allow_blank", False) else MISSING
    return value


@dataclass(frozen=True)
class Shape:
    """A JSON object of named arguments, checked field by field, then as a whole."""

    fields: dict[str, Field | Shape]
    # Per-field checks after conversion (field name -> check), then the whole-object check.
    refine: dict[str, Callable[[Any], Any]] = field(default_factory=dict)
    whole: Callable[[dict[str, Any]], None] | None = None

    def run(self, data: Any) -> dict[str, Any]:
        if data is None:
            raise Invalid(["This field may not be null."])
        if not isinstance(data, Mapping):
            raise Invalid({NON_FIELD: [f"Invalid data. Expected a dictionary, but got {type(data).__name__}."]})
        values: dict[str, Any] = {}
        errors: dict[str, Detail] = {}
        for name, spec in self.fields.items():
            try:
                value = spec.run(
                    _blank_as_absent(spec, data.get(name, MISSING)) if _is_query(data) else data.get(name, MISSING)
                )
                if name in self.refine:
                    value = self.refine[name](value)
            except Invalid as exc:
                errors[name] = exc.detail
            except _Skip:
                continue
            else:
                values[name] = value
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
