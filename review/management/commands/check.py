"""Django's ``check``, which here also reads the hygiene task queue (review.checks, SPEC R-H10)."""

from __future__ import annotations

from typing import Any

from django.core.management.commands import check

from review.checks import hygiene_queue_checked


class Command(check.Command):
    help = (
        "Django's system check framework, plus the hygiene task queue: a warning (review.W001) when "
        "hygiene tasks have waited longer than ZEROMEMORY_HYGIENE_STALL_SECONDS and no worker has "
        "taken one within it."
    )

    def handle(self, *app_labels: Any, **options: Any) -> None:
        with hygiene_queue_checked():
            super().handle(*app_labels, **options)
