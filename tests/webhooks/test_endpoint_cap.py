"""Each endpoint a concurrency cap (issue 32, item 4): a receiver that answers slowly held every
sender thread it was given, so four of them stalled every webhook. The claim now leaves an
endpoint's deliveries alone while WEBHOOK_ENDPOINT_CONCURRENCY of them are in flight, counted in
the database so the cap holds across sender threads and processes."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from memories import services, webhooks
from memories.choices import DeliveryState
from memories.models import Project, WebhookDelivery, WebhookEndpoint
from tests.factories import make_memory
from tests.platform.helpers import child_env, eventually, manage_in_background
from tests.platform.server import session_database_url
from tests.webhooks.receiver import Receiver

pytestmark = pytest.mark.django_db(transaction=True)

CAP = 2


@pytest.fixture(autouse=True)
def loopback_allowed_and_capped(settings: Any) -> None:
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    settings.WEBHOOK_ENDPOINT_CONCURRENCY = CAP


@pytest.fixture
def slow() -> Iterator[Receiver]:
    receiver = Receiver(mode="hold")
    receiver.start()
    yield receiver
    receiver.stop()


@pytest.fixture
def fast() -> Iterator[Receiver]:
    receiver = Receiver()
    receiver.start()
    yield receiver
    receiver.stop()


def endpoint_for(project: Project, maintainer: Any, receiver: Receiver) -> WebhookEndpoint:
    return services.webhook_endpoint_save(
        actor=maintainer.user, via="tests", endpoint=WebhookEndpoint(project=project, url=receiver.url)
    )


def in_flight(endpoint: WebhookEndpoint) -> list[int]:
    return sorted(
        WebhookDelivery.objects.filter(
            endpoint=endpoint, state=DeliveryState.PENDING, claimed_until__gt=timezone.now()
        ).values_list("pk", flat=True)
    )


def due_ids(endpoint: WebhookEndpoint) -> list[int]:
    return list(
        WebhookDelivery.objects.filter(endpoint=endpoint).order_by("next_attempt_at", "id").values_list("pk", flat=True)
    )


def test_the_claim_leaves_an_endpoint_at_its_cap_alone(alice, dave, acme, slow, fast):
    first, second = endpoint_for(acme, dave, slow), endpoint_for(acme, dave, fast)
    for number in range(5):
        make_memory(alice.user, f"Deploy note number {number} for the release train.", project=acme)
    first_ids, second_ids = due_ids(first), due_ids(second)

    claimed = webhooks.deliveries_claim(limit=10)

    # The cap of each endpoint, its earliest first; the limit is not the bound here.
    assert claimed == sorted(first_ids[:CAP] + second_ids[:CAP])
    assert in_flight(first) == first_ids[:CAP]
    assert webhooks.deliveries_claim(limit=10) == []
    # Nothing due for this sender but the leases' ends: it waits, it does not spin.
    assert webhooks.next_due_in(cap=5.0) > 5.0 - 1

    # An attempt recorded makes room for one more of that endpoint.
    fast.mode = "ok"
    assert webhooks.delivery_attempt(delivery_id=second_ids[0]) == DeliveryState.DELIVERED
    assert webhooks.next_due_in(cap=5.0) == 0.0
    assert webhooks.deliveries_claim(limit=10) == [second_ids[CAP]]

    # A crashed sender's claims free the room when their lease ends, and are taken again first.
    WebhookDelivery.objects.filter(pk__in=first_ids[:CAP]).update(
        claimed_until=timezone.now() - timedelta(seconds=1), next_attempt_at=timezone.now() - timedelta(seconds=1)
    )
    assert webhooks.deliveries_claim(limit=10) == first_ids[:CAP]


def claiming_together(count: int, *, limit: int) -> list[Any]:
    """``count`` claims in threads of their own, connected first and then released at once (a
    connection opened inside the race spreads the claims out, and the race is lost)."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count

    def claim(index: int) -> None:
        try:
            connection.ensure_connection()
            barrier.wait()
            results[index] = webhooks.deliveries_claim(limit=limit)
        except Exception as exc:  # noqa: BLE001 - reported to the test, which fails on it
            results[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=claim, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def test_senders_claiming_at_once_never_overfill_an_endpoint(alice, dave, acme, slow, fast):
    endpoints = [endpoint_for(acme, dave, slow), endpoint_for(acme, dave, fast)]
    for number in range(8):
        make_memory(alice.user, f"Incident timeline entry {number} from the pager.", project=acme)

    results = claiming_together(8, limit=3)

    assert all(isinstance(result, list) for result in results), results
    claimed = [delivery_id for result in results for delivery_id in result]
    assert len(claimed) == len(set(claimed))  # none claimed twice
    for endpoint in endpoints:
        assert len(set(claimed) & set(due_ids(endpoint))) <= CAP
    webhooks.deliveries_claim(limit=20)  # whatever the race left of the room
    assert [len(in_flight(endpoint)) for endpoint in endpoints] == [CAP, CAP]


@contextlib.contextmanager
def senders(tmp_path: Path, count: int, **overrides: str) -> Iterator[list[subprocess.Popen[bytes]]]:
    env = child_env(
        DATABASE_URL=session_database_url(),
        ZEROMEMORY_LOG_LEVEL="INFO",
        ZEROMEMORY_WEBHOOK_ALLOWED_NETWORKS="127.0.0.1/32",
        # Longer than the test holds the slow receiver: the stall is the receiver's, not a timeout.
        ZEROMEMORY_WEBHOOK_TIMEOUT_SECONDS="60",
        ZEROMEMORY_WEBHOOK_RETRY_DELAYS="0.3,0.3,0.3",
        ZEROMEMORY_WEBHOOK_POLL_SECONDS="0.2",
        ZEROMEMORY_WEBHOOK_CONCURRENCY="2",
        ZEROMEMORY_WEBHOOK_ENDPOINT_CONCURRENCY=str(CAP),
        **overrides,
    )
    processes = []
    for number in range(count):
        processes.append(manage_in_background("deliver_webhooks", env=env, log=tmp_path / f"sender-{number}.log"))
    try:
        yield processes
    finally:
        for process in processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)


def test_a_stalled_receiver_holds_its_cap_and_the_others_are_served(alice, dave, acme, slow, fast, tmp_path):
    stalled, served = endpoint_for(acme, dave, slow), endpoint_for(acme, dave, fast)
    for number in range(6):
        make_memory(alice.user, f"Runbook step {number}: drain the node before patching.", project=acme)
    owed = served.deliveries.count()  # the writes' events, and the conflicts hygiene opened
    assert owed == stalled.deliveries.count() >= 6

    # Two sender processes of two threads each: four threads, against a cap of two per endpoint.
    with senders(tmp_path, 2):
        eventually(lambda: len(fast.received) == owed, 30, "every delivery to the fast endpoint, during the stall")
        eventually(lambda: slow.in_flight == CAP, 10, "the stalled endpoint at its cap")
        assert slow.received == []
        assert slow.most_in_flight == CAP
        assert len(in_flight(stalled)) == CAP

        slow.release.set()
        eventually(lambda: len(slow.received) == owed, 30, "the stalled endpoint's deliveries, once it answers")

    assert slow.most_in_flight == CAP
    assert sorted(slow.event_ids()) == sorted(fast.event_ids())
    assert len(set(fast.event_ids())) == owed
    assert set(WebhookDelivery.objects.values_list("state", flat=True)) == {DeliveryState.DELIVERED}
    assert WebhookDelivery.objects.filter(claimed_until__isnull=False).count() == 0
