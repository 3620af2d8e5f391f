"""What the per-endpoint cap costs the webhook claim (memories.webhooks.deliveries_claim).

    python bench/webhook_claim.py [--endpoints 100] [--events 100] [--rounds 300]

Seeds a bench database with ``--endpoints`` endpoints in one project and ``--events`` writes,
so every endpoint has ``--events`` due deliveries, then times the claim of a sender with four
free threads (``limit=4``) the way it was before the cap (one SKIP LOCKED select of the earliest
due, pushed past the lease) and as it is now (the endpoints locked, each one's room filled),
back to back, putting the claimed deliveries back between rounds. Prints the median and 95th
percentile of each, in milliseconds.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.common import setup_django


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--endpoints", type=int, default=100)
    parser.add_argument("--events", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args()
    setup_django(fresh=True, database="zeromemory_bench_claim")

    from django.contrib.auth.models import User
    from django.db import transaction
    from django.utils import timezone

    from memories import webhooks
    from memories.choices import DeliveryState
    from memories.models import Membership, Project, WebhookDelivery, WebhookEndpoint
    from tests.factories import make_memory

    user = User.objects.create_user("alice")
    project = Project.objects.create(slug="acme", name="Acme")
    Membership.objects.create(project=project, user=user)
    WebhookEndpoint.objects.bulk_create(
        WebhookEndpoint(project=project, url=f"https://hooks{number}.example.com/in")
        for number in range(args.endpoints)
    )
    for number in range(args.events):
        make_memory(
            user, f"Bench note {number}: {number * 7919 % 10007} crates shipped to dock {number % 13}.", project=project
        )
    pending = WebhookDelivery.objects.filter(state=DeliveryState.PENDING).count()
    print(f"{args.endpoints} endpoints, {pending} due deliveries; claim limit 4, {args.rounds} rounds each")

    def before(limit: int) -> list[int]:
        # The claim as it was before the cap.
        now = timezone.now()
        with transaction.atomic():
            ids = list(
                WebhookDelivery.objects.select_for_update(skip_locked=True, of=("self",))
                .filter(state=DeliveryState.PENDING, next_attempt_at__lte=now, endpoint__active=True)
                .order_by("next_attempt_at", "id")
                .values_list("pk", flat=True)[:limit]
            )
            WebhookDelivery.objects.filter(pk__in=ids).update(next_attempt_at=now + webhooks._lease())
        return ids

    def now_claim(limit: int) -> list[int]:
        return webhooks.deliveries_claim(limit=limit)

    def timed(claim: Callable[[int], list[int]]) -> list[float]:
        took = []
        for _ in range(args.rounds):
            started = time.perf_counter()
            ids = claim(4)
            took.append((time.perf_counter() - started) * 1000)
            assert len(ids) == 4, ids
            WebhookDelivery.objects.filter(pk__in=ids).update(
                next_attempt_at=timezone.now() - timedelta(seconds=1), claimed_until=None
            )
        return took

    for name, claim in (("before (no cap)", before), ("now (cap 2)", now_claim)) * 2:
        took = sorted(timed(claim))
        print(f"{name:>16}: median {statistics.median(took):6.2f} ms, p95 {took[int(len(took) * 0.95)]:6.2f} ms")


if __name__ == "__main__":
    main()
