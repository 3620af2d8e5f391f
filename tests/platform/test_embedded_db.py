"""The embedded PostgreSQL: started by the first process, shared, stopped by the last one,
and clear about what to do when its folder is not right."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil
import pytest

from tests.platform.helpers import ROOT, child_env, manage
from zeromemory.embedded_db import EmbeddedServer

HOLDER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from zeromemory.embedded_db import ensure_running
    server = ensure_running(Path(sys.argv[1]))
    print("ready", flush=True)
    sys.stdin.readline()
    """
)


def _holder(data_dir: Path) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(data_dir)],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "ready"
    return process


def _user_once(data_dir: Path) -> None:
    subprocess.run(
        [sys.executable, "-c", HOLDER, str(data_dir)],
        cwd=ROOT,
        input="\n",
        text=True,
        check=True,
        capture_output=True,
    )


@pytest.fixture
def data_dir(tmp_path: Path):
    folder = tmp_path / "zm-data"
    yield folder
    EmbeddedServer(folder).destroy()


def test_the_server_is_shared_and_stopped_by_its_last_user(data_dir):
    server = EmbeddedServer(data_dir)
    first = _holder(data_dir)
    assert server.is_running()

    _user_once(data_dir)  # a second process joins and leaves
    assert server.is_running()

    first.communicate("\n", timeout=60)
    assert first.returncode == 0
    assert not server.is_running()
    assert list((data_dir / "run" / "clients").iterdir()) == []


def _wait_until_stopped(server: EmbeddedServer, seconds: float = 20) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not server.is_running():
            return True
        time.sleep(0.2)
    return False


def test_a_killed_user_does_not_keep_the_server_alive_for_ever(data_dir):
    server = EmbeddedServer(data_dir)
    crashed = _holder(data_dir)
    survivor = _holder(data_dir)
    crashed.send_signal(signal.SIGKILL)
    crashed.wait(timeout=30)
    time.sleep(3)  # longer than the watchdog's interval
    assert server.is_running()  # the survivor still uses it

    survivor.send_signal(signal.SIGKILL)  # no clean exit at all: the watchdog must notice
    survivor.wait(timeout=30)

    assert _wait_until_stopped(server)
    assert list((data_dir / "run" / "clients").iterdir()) == []


def test_a_destroyed_server_stays_gone_when_its_watchdog_wakes(data_dir):
    server = EmbeddedServer(data_dir)
    server.acquire("zeromemory")
    watchdog = psutil.Process(int((data_dir / "run" / "watchdog.pid").read_text()))

    server.destroy()

    watchdog.wait(timeout=30)  # it wakes within its interval and leaves
    assert not data_dir.exists()  # and left nothing behind (it had recreated run/lock)


def test_multiprocessing_workers_release_the_server_when_they_exit(data_dir, tmp_path):
    script = textwrap.dedent(
        """
        import multiprocessing, sys
        from pathlib import Path

        def work(folder):
            from zeromemory.embedded_db import ensure_running
            ensure_running(Path(folder))

        if __name__ == "__main__":
            context = multiprocessing.get_context("fork")  # exits through os._exit
            worker = context.Process(target=work, args=(sys.argv[1],))
            worker.start()
            worker.join()
            print(worker.exitcode)
        """
    )
    program = tmp_path / "spawn_worker.py"
    program.write_text(script)
    result = subprocess.run(
        [sys.executable, str(program), str(data_dir)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )

    assert result.stdout.strip() == "0"
    assert not EmbeddedServer(data_dir).is_running()  # released at once, not by the watchdog


def test_a_stale_pid_file_from_a_crashed_server_is_cleared(data_dir):
    _user_once(data_dir)
    pid_file = data_dir / "pg" / "postmaster.pid"
    pid_file.write_text("999999\n" + str(data_dir / "pg") + "\n")

    holder = _holder(data_dir)
    try:
        assert EmbeddedServer(data_dir).is_running()
    finally:
        holder.communicate("\n", timeout=60)


def test_a_damaged_data_folder_gets_a_clear_message_not_a_traceback(data_dir):
    (data_dir / "pg").mkdir(parents=True)
    (data_dir / "pg" / "something.txt").write_text("not a database")

    result = manage("showmigrations", env=child_env(ZEROMEMORY_DATA_DIR=str(data_dir)))

    assert result.returncode == 2
    assert "looks damaged" in result.stderr
    assert "Move it aside" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_data_folder_from_another_major_version_gets_a_clear_message(data_dir):
    (data_dir / "pg").mkdir(parents=True)
    (data_dir / "pg" / "PG_VERSION").write_text("12\n")

    result = manage("showmigrations", env=child_env(ZEROMEMORY_DATA_DIR=str(data_dir)))

    assert result.returncode == 2
    assert "created by PostgreSQL 12" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_runserver_autoreloader_keeps_the_server_and_stops_it_on_exit(data_dir):
    from tests.platform.helpers import free_port

    env = child_env(ZEROMEMORY_DATA_DIR=str(data_dir))
    assert manage("migrate", "--noinput", env=env).returncode == 0
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}/api/v1/memories/"
    headers = {"Authorization": "Bearer zm_AAAAAAAA_" + "B" * 40}
    try:
        assert _status(url, headers) == 401  # the token lookup reached the database
        touched = ROOT / "zeromemory" / "urls.py"
        os.utime(touched)  # the reloader restarts its child process
        time.sleep(3)
        assert _status(url, headers) == 401
        assert EmbeddedServer(data_dir).is_running()
    finally:
        os.killpg(server.pid, signal.SIGINT)
        server.wait(timeout=60)
    assert not EmbeddedServer(data_dir).is_running()


def _status(url: str, headers: dict[str, str], attempts: int = 60) -> int:
    import urllib.error
    import urllib.request

    for _ in range(attempts):
        try:
            with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=5) as response:
                return int(response.status)
        except urllib.error.HTTPError as error:
            return int(error.code)
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.5)
    raise AssertionError(f"{url} never answered")


def test_the_socket_is_private_to_the_servers_user(data_dir):
    """The cluster trusts local connections, so reaching its socket is being its superuser: the
    socket and its folder are the server user's alone (and root's); another user is refused."""
    import stat

    holder = _holder(data_dir)
    try:
        server = EmbeddedServer(data_dir)
        [socket_file] = list(server.socket_dir.glob(".s.PGSQL.*[0-9]"))
        assert stat.S_IMODE(server.socket_dir.stat().st_mode) & 0o077 == 0
        assert stat.S_IMODE(socket_file.stat().st_mode) & 0o077 == 0
        psql = [str(Path(server_bin()) / "psql"), "-h", str(server.socket_dir), "-U", "postgres", "-c", "SELECT 1"]
        if os.geteuid() == 0:
            # Another user of the machine: nobody, without root's bypass of file permissions.
            outsider = subprocess.run(
                ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", *psql],
                capture_output=True,
                text=True,
                check=False,
            )
            assert outsider.returncode != 0
            assert "Permission denied" in outsider.stderr
        owner = subprocess.run(psql, capture_output=True, text=True, check=False)
        assert owner.returncode == 0, owner.stderr
    finally:
        holder.communicate("\n", timeout=60)


def server_bin() -> Path:
    from zeromemory.embedded_db import _bin_dir

    return _bin_dir()
