"""System checks that need the database (run by ``migrate`` and ``check --database default``)."""

from __future__ import annotations

from typing import Any

from django.core.checks import CheckMessage, Error, Tags, register
from django.db import connections

MINIMUM_PGVECTOR = (0, 8)
MINIMUM_POSTGRES = 150000


def _version_tuple(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split(".") if part.isdigit())


def pgvector_version_problem(alias: str, version: str) -> CheckMessage | None:
    if _version_tuple(version) >= MINIMUM_PGVECTOR:
        return None
    return Error(
        f"pgvector {version} on database {alias!r} is too old; zeromemory needs 0.8 or newer (iterative index scans).",
        hint="Upgrade the extension package, then run ALTER EXTENSION vector UPDATE.",
        id="zeromemory.E004",
    )


@register(Tags.database)
def check_pgvector(app_configs: Any = None, databases: Any = None, **kwargs: Any) -> list[CheckMessage]:
    errors: list[CheckMessage] = []
    for alias in databases or []:
        connection = connections[alias]
        if connection.vendor != "postgresql":
            errors.append(Error(f"Database {alias!r} is not PostgreSQL.", id="zeromemory.E001"))
            continue
        if connection.pg_version < MINIMUM_POSTGRES:  # type: ignore[attr-defined]
            errors.append(
                Error(
                    f"Database {alias!r} runs PostgreSQL {connection.pg_version}; zeromemory needs 15 or newer.",  # type: ignore[attr-defined]
                    id="zeromemory.E002",
                )
            )
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT default_version, installed_version FROM pg_available_extensions WHERE name = 'vector'"
            )
            row = cursor.fetchone()
        if row is None:
            errors.append(
                Error(
                    f"The pgvector extension is not available on database {alias!r}.",
                    hint="Install pgvector 0.8 or newer on the PostgreSQL server "
                    "(https://github.com/pgvector/pgvector#installation), or unset DATABASE_URL "
                    "to use the embedded server, which ships it.",
                    id="zeromemory.E003",
                )
            )
            continue
        default_version, installed_version = row
        problem = pgvector_version_problem(alias, installed_version or default_version)
        if problem is not None:
            errors.append(problem)
    return errors
