"""The log formatter: tracebacks of database errors without the rows they quote.

PostgreSQL's error details repeat the values of the row or key at fault ("Failing row contains
(…)", "Key (…)=(…) already exists"), which for this store means memory content. Logs go to
people and systems that may not read memories, so a database error's traceback keeps its frames,
its type, its SQLSTATE and its first line (what went wrong, naming the constraint), and drops the
rest of its message.
"""

from __future__ import annotations

import logging
import traceback
from types import TracebackType

from django.db import DatabaseError

ExcInfo = tuple[type[BaseException], BaseException, TracebackType | None] | tuple[None, None, None]


def _quotes_rows(exc: BaseException) -> bool:
    if isinstance(exc, DatabaseError):
        return True
    module = type(exc).__module__ or ""
    return module == "psycopg" or module.startswith("psycopg.")


def _describe(exc: BaseException) -> str:
    name = f"{type(exc).__module__}.{type(exc).__qualname__}"
    if not _quotes_rows(exc):
        return "".join(traceback.format_exception_only(exc)).rstrip("\n")
    first_line = str(exc).split("\n", 1)[0].strip()
    sqlstate = getattr(exc, "sqlstate", None) or getattr(getattr(exc, "__cause__", None), "sqlstate", None)
    suffix = f" [SQLSTATE {sqlstate}]" if sqlstate else ""
    return f"{name}: {first_line}{suffix} (details withheld from the log)"


_CAUSE = "\nThe above exception was the direct cause of the following exception:\n\n"
_CONTEXT = "\nDuring handling of the above exception, another exception occurred:\n\n"


def format_exception_redacted(exc: BaseException) -> str:
    """Like traceback.format_exception, chained exceptions included, with rows withheld."""
    chain: list[tuple[BaseException, str]] = [(exc, "")]  # each with what joins it to the outer one
    seen = {id(exc)}
    current = exc
    while True:
        if current.__cause__ is not None:
            inner, joint = current.__cause__, _CAUSE
        elif current.__context__ is not None and not current.__suppress_context__:
            inner, joint = current.__context__, _CONTEXT
        else:
            break
        if id(inner) in seen:
            break
        seen.add(id(inner))
        chain.append((inner, joint))
        current = inner
    parts: list[str] = []
    for link, joint in reversed(chain):
        parts.append("Traceback (most recent call last):\n")
        parts.extend(traceback.format_tb(link.__traceback__))
        parts.append(_describe(link) + "\n")
        parts.append(joint)
    return "".join(parts).rstrip("\n")


class RedactingFormatter(logging.Formatter):
    def formatException(self, ei: ExcInfo) -> str:
        exc = ei[1]
        if exc is None:
            return super().formatException(ei)
        return format_exception_redacted(exc)
