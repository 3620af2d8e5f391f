"""The webhook sender outlives a database restart (SPEC R-P3): it used to exit on the lost
connection, and the outbox filled with nothing to send it. Here on a server of its own, over TCP
like a managed database, restarted under a running sender. And it stops on SIGTERM within R-P1's
30 seconds whatever its poll interval."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

from bench.zm_serve import share_exported_model
from tests.platform.helpers import (
    WEBHOOK_SETUP,
    WRITE_IN_ACME,
    child_env,
    eventually,
    free_port,
    manage,
    manage_in_background,
)
from tests.webhooks.receiver import Receiver
from zeromemory.embedded_db import EmbeddedServer

SETUP = WEBHOOK_SETUP


def test_the_sender_keeps_sending_after_the_database_restarts(tmp_path: Path) -> None:
    database = EmbeddedServer(tmp_path / "pg", port=free_port())
    database.acquire("zm_sender")
    receiver = Receiver()
    receiver.start()
    share_exported_model(tmp_path / "data")
    env = child_env(
        DATABASE_URL=database.url("zm_sender"),
        ZEROMEMORY_DATA_DIR=str(tmp_path / "data"),
        ZEROMEMORY_DB_POOL="false",
        ZEROMEMORY_LOG_LEVEL="INFO",
        ZEROMEMORY_WEBHOOK_ALLOWED_NETWORKS="127.0.0.1/32",
        ZEROMEMORY_WEBHOOK_POLL_SECONDS="0.2",
        ZEROMEMORY_WEBHOOK_TIMEOUT_SECONDS="2",
        ZEROMEMORY_WEBHOOK_RETRY_DELAYS="0.3,0.3,0.3,0.3,0.3",
    )
    log = tmp_path / "sender.log"
    sender = None
    try:
        for step in (("migrate", "--noinput"), ("shell", "-c", SETUP.format(url=receiver.url))):
            done = manage(*step, env=env, timeout=300)
            assert done.returncode == 0, done.stderr[-3000:]
        sender = manage_in_background("deliver_webhooks", env=env, log=log)
        assert manage("shell", "-c", WRITE_IN_ACME.format(text="Before the restart."), env=env).returncode == 0
        eventually(lambda: len(receiver.received) == 1, 30, "the first event delivered")

        database.stop()  # fast shutdown: every connection cut, as in a failover
        time.sleep(1.5)  # the sender meets the lost database, then finds it down for a while
        database.acquire("zm_sender")
        assert manage("shell", "-c", WRITE_IN_ACME.format(text="After the restart."), env=env).returncode == 0

        eventually(lambda: len(receiver.received) == 2, 60, "the event written after the restart delivered")
        assert sender.poll() is None, log.read_text()
        assert "webhook sender lost the database" in log.read_text()
        os.killpg(sender.pid, signal.SIGTERM)
        sender.wait(timeout=30)

        # On the same migrated database (a second one costs CI its migrations): a sender whose
        # timer is two minutes away, waiting for a NOTIFY, stops on SIGTERM. A signal does not end
        # the wait (Python resumes the interrupted select): it used to run until the timer did.
        patient_log = tmp_path / "patient.log"
        patient_env = {**env, "ZEROMEMORY_WEBHOOK_POLL_SECONDS": "120", "PYTHONUNBUFFERED": "1"}
        sender = manage_in_background("deliver_webhooks", env=patient_env, log=patient_log)
        eventually(lambda: "sending webhooks" in patient_log.read_text(), 60, "the second sender started")
        time.sleep(2)  # past its first claim, into the wait for a NOTIFY
        os.killpg(sender.pid, signal.SIGTERM)
        try:
            sender.wait(timeout=30)
        except subprocess.TimeoutExpired:
            raise AssertionError("the sender still ran 30 s after SIGTERM (R-P1)") from None
        assert "delivery attempt" in patient_log.read_text()  # it ended its own way, not killed
    finally:
        if sender is not None and sender.poll() is None:
            os.killpg(sender.pid, signal.SIGTERM)
            sender.wait(timeout=30)
        receiver.stop()
        database.destroy()
