"""A real PgBouncer (Debian's package, /usr/sbin/pgbouncer) in front of a test's PostgreSQL.

``pgbouncer(server, database)`` starts one listening on 127.0.0.1:<free port> in
``pool_mode=transaction`` with a small pool (``default_pool_size=2``: several clients share one
server connection, which is what makes a setting leaked from one client to the next visible), and
stops it when the block ends. The embedded server trusts local connections, so PgBouncer does
too (``auth_type=trust``). PgBouncer refuses to run as root; as root it runs as the embedded
server's own system user (zeromemory.embedded_db.SYSTEM_USER).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.platform.helpers import free_port
from zeromemory.embedded_db import DATABASE_USER, SYSTEM_USER, EmbeddedServer

PGBOUNCER = "/usr/sbin/pgbouncer"


@dataclass(frozen=True)
class Bouncer:
    port: int
    folder: Path

    def url(self, database: str) -> str:
        return f"postgresql://{DATABASE_USER}@127.0.0.1:{self.port}/{database}"

    def transactions(self, database: str) -> int:
        """How many transactions PgBouncer has passed to ``database`` (its admin console's
        SHOW STATS): whether a process went through the pooler or around it."""
        import psycopg

        # The admin console speaks the simple query protocol only: a client-side cursor.
        with psycopg.connect(self.url("pgbouncer"), autocommit=True) as conn:
            cursor = psycopg.ClientCursor(conn)
            cursor.execute("SHOW STATS")
            columns = [column.name for column in cursor.description or []]
            for row in cursor.fetchall():
                stats = dict(zip(columns, row, strict=True))
                if stats["database"] == database:
                    return int(stats["total_xact_count"])
        return 0

    @property
    def log(self) -> str:
        path = self.folder / "pgbouncer.log"
        return path.read_text(errors="replace") if path.exists() else ""


def require_pgbouncer() -> None:
    if not Path(PGBOUNCER).exists():
        pytest.skip("PgBouncer is not installed (apt-get install pgbouncer; ./zm test installs it)")


def _answers(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0


@contextmanager
def pgbouncer(
    server: EmbeddedServer, database: str, *, pool_size: int = 2, pool_mode: str = "transaction"
) -> Iterator[Bouncer]:
    """PgBouncer on a free port in front of ``server`` (which must listen on TCP), serving
    ``database`` under the same name."""
    require_pgbouncer()
    assert server.port is not None, "start the server with a TCP port"
    folder = Path(tempfile.mkdtemp(prefix="zm-pgbouncer-"))
    port = free_port()
    config = folder / "pgbouncer.ini"
    config.write_text(
        "[databases]\n"
        f"{database} = host=127.0.0.1 port={server.port} dbname={database}\n"
        "[pgbouncer]\n"
        f"listen_addr = 127.0.0.1\nlisten_port = {port}\nunix_socket_dir =\n"
        f"auth_type = trust\nauth_file = {folder / 'users.txt'}\n"
        f"pool_mode = {pool_mode}\ndefault_pool_size = {pool_size}\nmin_pool_size = 0\n"
        f"max_client_conn = 200\nserver_reset_query =\nadmin_users = {DATABASE_USER}\n"
        # Startup options dropped without a word, as Neon's pooler does and as PgBouncer is often
        # configured so that clients sending them connect at all (by default it refuses them:
        # "unsupported startup parameter: options"): the settings a client put there are lost
        # silently, the case the pooler tests guard against.
        "ignore_startup_parameters = extra_float_digits,options\n"
        f"logfile = {folder / 'pgbouncer.log'}\npidfile = {folder / 'pgbouncer.pid'}\n"
    )
    (folder / "users.txt").write_text(f'"{DATABASE_USER}" ""\n')
    kwargs: dict[str, object] = {}
    if os.geteuid() == 0:
        import pwd

        owner = pwd.getpwnam(SYSTEM_USER)
        os.chown(folder, owner.pw_uid, owner.pw_gid)
        for path in folder.iterdir():
            os.chown(path, owner.pw_uid, owner.pw_gid)
        kwargs = {"user": SYSTEM_USER, "group": SYSTEM_USER}
    # Its stderr to a file, not a pipe: PgBouncer logs every line there as well as to its log
    # file, and with nobody reading a pipe it blocked once 64 kB had piled up — for good, every
    # client with it (./zm bench --topology, after the burst of log lines a primary restart makes).
    stderr_path = folder / "pgbouncer.stderr"
    with open(stderr_path, "wb") as stderr:
        process = subprocess.Popen(
            [PGBOUNCER, str(config)],
            stdout=subprocess.DEVNULL,
            stderr=stderr,
            **kwargs,  # type: ignore[call-overload]
        )
    bouncer = Bouncer(port=port, folder=folder)
    try:
        deadline = time.monotonic() + 15
        while not _answers(port):
            if process.poll() is not None or time.monotonic() > deadline:
                error = stderr_path.read_text(errors="replace")
                raise RuntimeError(f"PgBouncer did not start: {error}\n{bouncer.log}")
            time.sleep(0.05)
        yield bouncer
    finally:
        process.send_signal(signal.SIGINT)  # PgBouncer's immediate shutdown
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(folder, ignore_errors=True)
