"""The deployed topology under faults, short form (``./zm bench --topology --short``, issue 33):
a standalone PostgreSQL with a streaming replica, PgBouncer in transaction mode, two app
servers, two workers and two senders started as deploy/ starts them, concurrent agents through
both app servers, and mid-run a SIGKILLed app server, worker and sender and a restarted primary.
Every write answered 2xx must be in the store once, the invariants must hold, every task must
finish, every event reach the receiver, and nothing answer 5xx outside the fault windows."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.platform.helpers import ROOT, child_env
from tests.platform.pgbouncer import require_pgbouncer

LAST_LINE = re.compile(
    r"^topology: acknowledged=(\d+) lost=(\d+) duplicated=(\d+) integrity=(\w+) "
    r"tasks_stuck=(\d+) webhooks_missing=(\d+) errors_5xx=(\d+)$"
)


def test_the_topology_keeps_every_acknowledged_write_through_the_faults(tmp_path: Path) -> None:
    require_pgbouncer()
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "suite.py"), "--topology", "--short", "--folder", str(tmp_path / "t")],
        cwd=ROOT,
        env=child_env(),
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    lines = done.stdout.strip().splitlines()
    assert lines, done.stderr[-4000:]
    found = LAST_LINE.match(lines[-1])
    assert found, f"{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    acknowledged, lost, duplicated, integrity, stuck, missing, errors = found.groups()
    assert int(acknowledged) > 50, done.stdout[-4000:]
    output = done.stdout[-4000:]
    assert (lost, duplicated, integrity, stuck, missing, errors) == ("0", "0", "clean", "0", "0", "0"), output
    assert done.returncode == 0, done.stderr[-4000:]
    # The faults happened: each announced, and the primary's restart cut requests in flight.
    for fault in ("SIGKILL web1", "SIGKILL worker1 and sender1", "pg_ctl restart -m fast"):
        assert fault in done.stdout
