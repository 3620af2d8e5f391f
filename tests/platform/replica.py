"""A real streaming replica of the test database's server, for tests that need one.

A second PostgreSQL server from the same embedded binaries: ``pg_basebackup -R`` copies the
primary's cluster and writes ``standby.signal`` plus ``primary_conninfo``, and the copy starts as
a hot standby on a TCP port of its own, streaming WAL from the primary over its Unix socket
(initdb's default pg_hba trusts local replication connections). As root it runs as the same
system user as the primary (zeromemory.embedded_db). Used by tests/platform/test_read_replica.py;
meant for reuse wherever a test needs a standby (failover, backups from a replica).
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psycopg

from tests.platform.helpers import free_port
from zeromemory.embedded_db import DATABASE_USER, EmbeddedServer, _bin_dir


@dataclass
class Replica:
    server: EmbeddedServer
    database: str

    @property
    def url(self) -> str:
        return self.server.url(self.database)

    def execute(self, sql: str) -> object:
        """One statement on the replica (autocommit), its first column of the first row."""
        with psycopg.connect(self.url, autocommit=True) as conn:
            row = conn.execute(sql).fetchone()
        return row[0] if row else None

    def pause(self) -> None:
        """Stop applying WAL (it is still received): the replica's data stands still."""
        self.execute("SELECT pg_wal_replay_pause()")

    def resume(self) -> None:
        self.execute("SELECT pg_wal_replay_resume()")

    def stop(self) -> None:
        self.server.stop()


def primary_lsn(primary_url: str) -> str:
    with psycopg.connect(primary_url, autocommit=True) as conn:
        row = conn.execute("SELECT pg_current_wal_lsn()::text").fetchone()
    assert row is not None
    return str(row[0])


def wait_caught_up(replica: Replica, primary_url: str, within: float = 30) -> None:
    """Until the replica has replayed everything the primary had written when this was called."""
    target = primary_lsn(primary_url)
    deadline = time.monotonic() + within
    while True:
        behind = replica.execute(f"SELECT pg_wal_lsn_diff('{target}', pg_last_wal_replay_lsn()) > 0")
        if behind is False:
            return
        assert time.monotonic() < deadline, f"the replica did not replay up to {target} within {within} s"
        time.sleep(0.05)


def start_replica(primary: EmbeddedServer, folder: Path, database: str) -> Replica:
    """A hot standby of ``primary`` in ``folder`` (emptied first), listening on a free port."""
    shutil.rmtree(folder, ignore_errors=True)
    server = EmbeddedServer(folder, port=free_port())
    server.pgdata.mkdir(parents=True, mode=0o700)
    # The folders as the primary's are: private socket folder, owned by the server user as root.
    server._private_socket_dir()
    server._prepare_root()
    backup = server._run_as_server_user(
        [
            str(_bin_dir() / "pg_basebackup"),
            "-D",
            str(server.pgdata),
            "-h",
            primary.host,
            "-p",
            str(primary.effective_port),
            "-U",
            DATABASE_USER,
            "-R",  # standby.signal and primary_conninfo: start as a streaming standby
            "-X",
            "stream",
            "-c",
            "fast",
        ],
        timeout=300,
    )
    assert backup.returncode == 0, backup.stderr
    server._start()
    replica = Replica(server=server, database=database)
    assert replica.execute("SELECT pg_is_in_recovery()") is True
    return replica


@contextmanager
def streaming_replicas(primary: EmbeddedServer, folder: Path, database: str, count: int = 1) -> Iterator[list[Replica]]:
    """``count`` streaming replicas of ``primary``, stopped (and their folders removed) after."""
    replicas: list[Replica] = []
    try:
        for number in range(1, count + 1):
            replicas.append(start_replica(primary, folder / f"replica{number}", database))
        yield replicas
    finally:
        for replica in replicas:
            replica.stop()
        shutil.rmtree(folder, ignore_errors=True)
