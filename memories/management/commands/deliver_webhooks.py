"""manage.py deliver_webhooks: the sender of the webhooks' outbox (memories.webhooks)."""

from __future__ import annotations

import signal
import threading
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from memories.webhooks import Sender


class Command(BaseCommand):
    help = (
        "Send the webhooks' pending deliveries, signed, retrying failures with backoff until they are "
        "delivered or dead. Runs until stopped (./zm serve starts it beside the task worker); "
        "--until-idle sends what is due and exits."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--until-idle", action="store_true", help="Exit once nothing is due or in flight (for a one-off run)."
        )
        parser.add_argument(
            "--concurrency",
            type=int,
            default=settings.WEBHOOK_CONCURRENCY,
            help="Deliveries sent at once (ZEROMEMORY_WEBHOOK_CONCURRENCY).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        stop = threading.Event()
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: stop.set())
        sender = Sender(
            concurrency=max(1, options["concurrency"]), poll_seconds=settings.WEBHOOK_POLL_SECONDS, stop=stop
        )
        if options["verbosity"] >= 1 and not options["until_idle"]:
            self.stdout.write(f"sending webhooks, {sender.concurrency} at a time (Ctrl-C stops)")
        attempts = sender.run(until_idle=options["until_idle"])
        if options["verbosity"] >= 1:
            self.stdout.write(f"{attempts} delivery attempt{'s' if attempts != 1 else ''} made")
