"""Webhook delivery under failure: the real sender (manage.py deliver_webhooks, a child process)
and a local receiver that is healthy, down, slow or failing, and a sender killed mid-delivery.

    python bench/webhooks.py [--events 20]

For each case: events written (each its own transaction, through the write service), how many
reached the receiver, duplicates, attempts per delivery, dead ones, and the time from a write's
commit to its first successful receipt (p50 / max). The sender runs with a 2 s timeout and retry
delays of 1, 2, 4 and 8 s (the defaults are 10 s … 6 h; the mechanism is the same).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from statistics import median
from typing import Any

os.environ.setdefault("ZEROMEMORY_LOG_LEVEL", "WARNING")
os.environ.setdefault("ZEROMEMORY_TASKS_IMMEDIATE", "true")
# The receiver listens on loopback, which webhooks refuse unless allow-listed.
os.environ.setdefault("ZEROMEMORY_WEBHOOK_ALLOWED_NETWORKS", "127.0.0.1/32")

from common import setup_django

ROOT = Path(__file__).resolve().parents[1]
SENDER_ENV = {
    "ZEROMEMORY_WEBHOOK_TIMEOUT_SECONDS": "2",
    "ZEROMEMORY_WEBHOOK_RETRY_DELAYS": "1,2,4,8",
    "ZEROMEMORY_WEBHOOK_POLL_SECONDS": "0.5",
    "ZEROMEMORY_WEBHOOK_ALLOWED_NETWORKS": "127.0.0.1/32",
    # Each failed attempt is a WARNING; the table says what they add up to.
    "ZEROMEMORY_LOG_LEVEL": "ERROR",
}


class Receiver:
    def __init__(self) -> None:
        self.mode = "ok"
        self.slow_seconds = 3.0
        self.arrivals: list[tuple[str, float]] = []  # (event id, time received)
        self.lock = threading.Lock()
        self.server: ThreadingHTTPServer | None = None
        self.port = 0

    def start(self) -> None:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                if receiver.mode == "slow":
                    time.sleep(receiver.slow_seconds)
                status = 500 if receiver.mode == "fail" else 204
                if status == 204:
                    with receiver.lock:
                        receiver.arrivals.append((json.loads(body)["id"], time.time()))
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.server = None


@contextmanager
def sender(database_url: str) -> Iterator[subprocess.Popen[bytes]]:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "ZEROMEMORY_TASKS_IMMEDIATE"}}
    env |= SENDER_ENV | {"DATABASE_URL": database_url}
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "manage.py"), "deliver_webhooks", "--verbosity", "0"],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )
    try:
        yield process
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=30)


def wait_until(check: Callable[[], bool], within: float) -> float:
    started = time.monotonic()
    while not check():
        if time.monotonic() - started > within:
            raise SystemExit(f"not within {within} s")
        time.sleep(0.05)
    return time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=20)
    args = parser.parse_args()
    database_url = setup_django(fresh=True, database="zm_bench_webhooks")

    from django.contrib.auth.models import User
    from django.db.models import Count

    from memories import services
    from memories.choices import DeliveryState, Role
    from memories.models import FeedEvent, WebhookDelivery, WebhookEndpoint

    user = User.objects.create_user("bench")
    project, _ = services.project_create(actor=None, via="bench", slug="bench")
    services.membership_set(actor=None, via="bench", project=project, user=user, role=Role.MAINTAINER)
    receiver = Receiver()
    receiver.start()
    endpoint = services.webhook_endpoint_save(
        actor=None,
        via="bench",
        endpoint=WebhookEndpoint(project=project, url=f"http://127.0.0.1:{receiver.port}/hook"),
    )
    counter = iter(range(1_000_000))

    def write(count: int) -> dict[str, float]:
        """Write ``count`` memories; their events' ids and commit times."""
        committed: dict[str, float] = {}
        for _ in range(count):
            n = next(counter)
            memory = services.memory_remember(
                user=user,
                credential=None,
                content=f"Bench fact {n}: service {n} listens on port {9000 + n}.",
                kind="fact",
                project_slug="bench",
            ).memory
            event = FeedEvent.objects.get(memory=memory, type="memory.created")
            committed[event.public_id] = time.time()
        return committed

    def report(case: str, committed: dict[str, float]) -> None:
        ids = [int(event_id[4:]) for event_id in committed]
        deliveries = WebhookDelivery.objects.filter(endpoint=endpoint, event_id__in=ids)
        states = dict(deliveries.values_list("state").annotate(n=Count("id")).values_list("state", "n"))
        attempts = sorted(deliveries.values_list("attempts", flat=True))
        with receiver.lock:
            arrivals = [(event_id, at) for event_id, at in receiver.arrivals if event_id in committed]
        first: dict[str, float] = {}
        for event_id, at in arrivals:
            first.setdefault(event_id, at)
        lags = sorted((first[event_id] - committed[event_id]) * 1000 for event_id in first)
        print(
            f"| {case} | {len(committed)} | {len(first)} | {len(arrivals) - len(first)} | "
            f"{median(attempts) if attempts else 0:g} (max {max(attempts) if attempts else 0}) | "
            f"{states.get(DeliveryState.DEAD, 0)} | "
            + (f"{median(lags):,.0f} / {max(lags):,.0f}" if lags else "-")
            + " |"
        )

    def all_done(committed: dict[str, float]) -> Callable[[], bool]:
        ids = [int(event_id[4:]) for event_id in committed]

        def check() -> bool:
            return not WebhookDelivery.objects.filter(
                endpoint=endpoint, event_id__in=ids, state=DeliveryState.PENDING
            ).exists()

        return check

    print("| case | events | received | duplicates | attempts (median, max) | dead | commit → receipt ms, p50 / max |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    with sender(database_url):
        time.sleep(2)  # the sender's start
        committed = write(args.events)
        wait_until(all_done(committed), 60)
        report("healthy receiver", committed)

        receiver.stop()
        committed = write(args.events)
        time.sleep(5)
        receiver.start()
        wait_until(all_done(committed), 60)
        report("receiver down 5 s, then up", committed)

        receiver.mode, receiver.slow_seconds = "slow", 3.0
        committed = write(args.events)
        time.sleep(4)
        receiver.mode = "ok"
        wait_until(all_done(committed), 60)
        time.sleep(3.5)  # the slow handlers' late copies
        report("receiver slower than the 2 s timeout for 4 s", committed)

        receiver.mode = "fail"
        committed = write(args.events)
        wait_until(all_done(committed), 60)
        report("receiver answers 500 (then dead)", committed)
        receiver.mode = "ok"
        dead = list(WebhookDelivery.objects.filter(state=DeliveryState.DEAD).values_list("pk", flat=True))
        resent_at = time.time()
        services_resend(dead)
        wait_until(all_done(committed), 60)
        report("… the dead ones sent again by an admin", dict.fromkeys(committed, resent_at))

    receiver.mode, receiver.slow_seconds = "slow", 1.5
    with sender(database_url) as first_sender:
        time.sleep(2)
        committed = write(args.events)
        time.sleep(0.5)
        os.killpg(first_sender.pid, signal.SIGKILL)
        first_sender.wait(timeout=30)
    receiver.mode = "ok"
    with sender(database_url):
        took = wait_until(all_done(committed), 120)
        report(f"sender SIGKILLed mid-delivery, restarted (waited out the lease: {took:.0f} s)", committed)
    receiver.stop()


def services_resend(ids: list[int]) -> None:
    from memories.webhooks import deliveries_resend

    deliveries_resend(actor=None, delivery_ids=ids)


if __name__ == "__main__":
    main()
