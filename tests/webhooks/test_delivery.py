"""Signed webhooks, delivered by the real sender (``manage.py deliver_webhooks`` as a child
process on the session's database) to a real local receiver that is up, down, slow or failing,
and a sender killed mid-way and started again."""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.db import transaction
from django.test import Client

from memories import services, webhooks
from memories.choices import DeliveryState, Visibility
from memories.models import AccountEvent, FeedEvent, Project, WebhookAttempt, WebhookDelivery, WebhookEndpoint
from tests.factories import make_memory
from tests.platform.helpers import child_env, manage_in_background
from tests.platform.server import session_database_url
from tests.webhooks.receiver import Receiver

pytestmark = pytest.mark.django_db(transaction=True)

SENDER_ENV = {
    "ZEROMEMORY_WEBHOOK_TIMEOUT_SECONDS": "1",
    "ZEROMEMORY_WEBHOOK_RETRY_DELAYS": "0.3,0.3,0.3",
    "ZEROMEMORY_WEBHOOK_POLL_SECONDS": "0.2",
    # The receiver is on loopback, which is refused unless allow-listed (only this address).
    "ZEROMEMORY_WEBHOOK_ALLOWED_NETWORKS": "127.0.0.1/32",
}


@pytest.fixture(autouse=True)
def loopback_allowed(settings: Any) -> None:
    # The same allow-list in this process (endpoints saved, attempts made in-process).
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.1/32"]


@contextlib.contextmanager
def sender(log: Path) -> Iterator[subprocess.Popen[bytes]]:
    env = child_env(DATABASE_URL=session_database_url(), ZEROMEMORY_LOG_LEVEL="INFO", **SENDER_ENV)
    process = manage_in_background("deliver_webhooks", env=env, log=log)
    try:
        yield process
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=20)


def eventually(check: Callable[[], bool], *, within: float = 30, what: str = "") -> None:
    deadline = time.monotonic() + within
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {within}s: {what}")
        time.sleep(0.05)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    receiver = Receiver()
    receiver.start()
    yield receiver
    receiver.stop()


@pytest.fixture
def endpoint(acme: Project, dave: Any, receiver: Receiver) -> WebhookEndpoint:
    return services.webhook_endpoint_save(
        actor=dave.user, via="tests", endpoint=WebhookEndpoint(project=acme, url=receiver.url)
    )


def _state(delivery: WebhookDelivery) -> str:
    delivery.refresh_from_db()
    return delivery.state


def test_a_write_is_delivered_signed_with_the_memory(alice, endpoint, receiver, tmp_path):
    memory = make_memory(alice.user, "The on-call rota changes on Mondays.", project=endpoint.project)
    delivery = WebhookDelivery.objects.get()  # queued with the write, before any sender ran
    assert delivery.state == DeliveryState.PENDING

    with sender(tmp_path / "sender.log"):
        eventually(lambda: _state(delivery) == DeliveryState.DELIVERED, what="delivered")

    [received] = receiver.received
    event = FeedEvent.objects.get()
    assert received.headers["zeromemory-event-id"] == event.public_id
    assert received.headers["zeromemory-event-type"] == "memory.created"
    assert received.headers["content-type"] == "application/json"
    assert webhooks.verify(endpoint.secret, received.headers["zeromemory-signature"], received.body)
    assert not webhooks.verify("whsec_someone-else", received.headers["zeromemory-signature"], received.body)
    assert not webhooks.verify(endpoint.secret, received.headers["zeromemory-signature"], received.body + b" ")
    body = received.event
    assert body["id"] == event.public_id
    assert body["type"] == "memory.created"
    assert body["project"] == "acme"
    assert body["memory"] == memory.pk
    assert body["memories"][memory.pk]["content"] == "The on-call rota changes on Mondays."
    assert body["memories"][memory.pk]["state"] == "live"
    assert delivery.attempts == 1
    assert delivery.last_status == 204
    assert list(delivery.attempt_log.values_list("number", "status")) == [(1, 204)]


def test_private_memories_other_projects_and_unasked_types_are_not_sent(alice, carol, endpoint, acme):
    make_memory(alice.user, "My private note in acme.", project=acme, visibility=Visibility.PRIVATE)
    make_memory(alice.user, "My personal note.")
    make_memory(carol.user, "Globex's own news.", project=Project.objects.get(slug="globex"))
    assert not WebhookDelivery.objects.exists()

    endpoint.events = ["memory.forgotten"]
    services.webhook_endpoint_save(actor=None, via="tests", endpoint=endpoint)
    shared = make_memory(alice.user, "A shared fact, created.", project=acme)
    assert not WebhookDelivery.objects.exists()
    services.memory_forget(user=alice.user, credential=None, memory_id=shared.pk)
    assert list(WebhookDelivery.objects.values_list("event__type", flat=True)) == ["memory.forgotten"]

    endpoint.active = False
    services.webhook_endpoint_save(actor=None, via="tests", endpoint=endpoint)
    services.memory_restore(user=alice.user, credential=None, memory_id=shared.pk)
    services.memory_forget(user=alice.user, credential=None, memory_id=shared.pk)
    assert WebhookDelivery.objects.count() == 1


def test_the_outbox_row_commits_or_rolls_back_with_the_write(alice, endpoint, acme):
    class Boom(Exception):
        pass

    def write_and_fail() -> None:
        with transaction.atomic():
            make_memory(alice.user, "Rolled back with its delivery.", project=acme)
            assert WebhookDelivery.objects.count() == 1  # written inside the write's transaction
            raise Boom

    with pytest.raises(Boom):
        write_and_fail()
    assert not WebhookDelivery.objects.exists()
    assert not FeedEvent.objects.exists()


def test_a_receiver_that_is_down_then_up_gets_the_event(alice, endpoint, receiver, tmp_path):
    receiver.stop()  # nothing listens on its port
    make_memory(alice.user, "Sent while the receiver was down.", project=endpoint.project)
    delivery = WebhookDelivery.objects.get()

    with sender(tmp_path / "sender.log"):
        eventually(lambda: WebhookAttempt.objects.count() >= 2, what="two failed attempts")
        receiver.start()
        eventually(lambda: _state(delivery) == DeliveryState.DELIVERED, what="delivered once up")

    attempts = list(delivery.attempt_log.all())
    assert all(attempt.status is None and "refused" in attempt.error.lower() for attempt in attempts[:-1])
    assert attempts[-1].status == 204
    assert receiver.event_ids() == [FeedEvent.objects.get().public_id]


def test_a_slow_receiver_times_out_is_retried_and_dedupes_by_event_id(alice, endpoint, receiver, tmp_path):
    receiver.mode = "slow"
    receiver.slow_seconds = 2.5  # the sender waits 1 s
    make_memory(alice.user, "Sent to a slow receiver.", project=endpoint.project)
    delivery = WebhookDelivery.objects.get()

    with sender(tmp_path / "sender.log"):
        eventually(lambda: WebhookAttempt.objects.filter(status__isnull=True).exists(), what="a timed-out attempt")
        receiver.mode = "ok"
        eventually(lambda: _state(delivery) == DeliveryState.DELIVERED, what="delivered once fast")
        # The slow handler finishes its copy too: the receiver holds duplicates of one event.
        eventually(lambda: len(receiver.received) >= 2, within=10, what="the slow copy")

    timed_out = delivery.attempt_log.first()
    assert timed_out is not None
    assert timed_out.error == "no answer within 1 s"
    assert set(receiver.event_ids()) == {FeedEvent.objects.get().public_id}
    assert len({item.headers["zeromemory-attempt"] for item in receiver.received}) >= 2


def test_a_failing_receiver_is_retried_with_backoff_then_dead_and_an_admin_sends_it_again(
    alice, dave, endpoint, receiver, tmp_path
):
    receiver.mode = "fail"
    make_memory(alice.user, "Sent to a failing receiver.", project=endpoint.project)
    delivery = WebhookDelivery.objects.get()

    with sender(tmp_path / "sender.log"):
        eventually(lambda: _state(delivery) == DeliveryState.DEAD, what="dead after the retries")
        attempts = list(delivery.attempt_log.all())
        assert [(attempt.number, attempt.status) for attempt in attempts] == [(1, 500), (2, 500), (3, 500), (4, 500)]
        gaps = [(later.at - earlier.at).total_seconds() for earlier, later in itertools.pairwise(attempts)]
        assert all(gap >= 0.3 for gap in gaps), gaps  # each retry waited its backoff
        time.sleep(1)
        assert delivery.attempt_log.count() == 4  # dead means no more tries

        receiver.mode = "ok"
        dave.user.is_staff = True
        dave.user.save()
        client = Client()
        client.force_login(dave.user)
        answer = client.post(
            "/admin/memories/webhookdelivery/",
            {"action": "send_again", "_selected_action": [str(delivery.pk)]},
            follow=True,
        )
        assert answer.status_code == 200
        assert "1 delivery queued to be sent again" in answer.content.decode()
        eventually(lambda: _state(delivery) == DeliveryState.DELIVERED, what="delivered after the resend")

    assert delivery.attempt_log.count() == 5
    assert len(receiver.received) == 5


def test_a_sender_killed_mid_delivery_leaves_it_to_the_next_one(alice, endpoint, receiver, tmp_path):
    receiver.mode = "slow"
    receiver.slow_seconds = 0.8  # within the 1 s timeout: the kill lands while it is in flight
    make_memory(alice.user, "Sent across a sender restart.", project=endpoint.project)
    delivery = WebhookDelivery.objects.get()

    with sender(tmp_path / "first.log") as first:
        eventually(lambda: len(receiver.received) == 0 and _claimed(delivery), what="claimed")
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(timeout=20)
    assert _state(delivery) == DeliveryState.PENDING
    assert delivery.attempts == 0

    # The claim's lease (timeout + 30 s) is what a restarted sender waits out; end it now rather
    # than wait in a test.
    WebhookDelivery.objects.filter(pk=delivery.pk).update(next_attempt_at=delivery.created_at)
    receiver.mode = "ok"
    with sender(tmp_path / "second.log"):
        eventually(lambda: _state(delivery) == DeliveryState.DELIVERED, what="delivered by the restarted sender")
    assert receiver.event_ids()[-1] == FeedEvent.objects.get().public_id
    assert delivery.attempts == 1


def _claimed(delivery: WebhookDelivery) -> bool:
    delivery.refresh_from_db()
    return delivery.next_attempt_at > delivery.created_at + timedelta(seconds=5)  # pushed by a lease


def test_a_staff_team_admin_manages_only_his_projects_endpoints(alice, dave, carol, acme, endpoint):
    globex = Project.objects.get(slug="globex")
    theirs = WebhookEndpoint.objects.create(project=globex, url="https://globex.example/hooks")
    for persona in (dave, alice):
        persona.user.is_staff = True
        persona.user.save()
    client = Client()
    client.force_login(dave.user)

    listing = client.get("/admin/memories/webhookendpoint/").content.decode()
    assert endpoint.url in listing
    assert theirs.url not in listing
    assert client.get(f"/admin/memories/webhookendpoint/{theirs.pk}/change/").status_code in (302, 404)
    page = client.get(f"/admin/memories/webhookendpoint/{endpoint.pk}/change/").content.decode()
    assert endpoint.secret in page

    # alice is staff but maintains nothing: no webhooks for her.
    member = Client()
    member.force_login(alice.user)
    assert member.get("/admin/memories/webhookendpoint/").status_code == 403
    before = WebhookEndpoint.objects.count()
    assert (
        member.post(
            "/admin/memories/webhookendpoint/add/", {"project": acme.pk, "url": "https://x.example"}
        ).status_code
        == 403
    )
    assert WebhookEndpoint.objects.count() == before

    added = client.post(
        "/admin/memories/webhookendpoint/add/",
        {
            "project": acme.pk,
            "url": "https://hooks.acme.example/zm",
            "description": "",
            "active": "on",
            "events": ["conflict.opened"],
        },
    )
    assert added.status_code == 302
    new = WebhookEndpoint.objects.get(url="https://hooks.acme.example/zm")
    assert new.events == ["conflict.opened"]
    assert new.secret.startswith("whsec_")
    assert new.created_by == dave.user
    refused = client.post(
        "/admin/memories/webhookendpoint/add/",
        {"project": globex.pk, "url": "https://hooks.acme.example/other", "active": "on"},
    )
    assert refused.status_code == 200  # the form again: globex is not his to choose
    assert not WebhookEndpoint.objects.filter(url="https://hooks.acme.example/other").exists()
    assert AccountEvent.objects.filter(action="webhook_added", project_slug="acme").count() == 2


def test_loopback_is_refused_by_default_and_delivered_once_allow_listed(alice, endpoint, receiver, settings):
    make_memory(alice.user, "Not sent to a loopback address.", project=endpoint.project)
    delivery = WebhookDelivery.objects.get()
    settings.WEBHOOK_ALLOWED_NETWORKS = []  # the default

    assert webhooks.delivery_attempt(delivery_id=delivery.pk) == DeliveryState.PENDING

    attempt = delivery.attempt_log.get()
    assert attempt.status is None
    assert attempt.error == "refused: the host resolves to 127.0.0.1, not a public address"
    assert receiver.received == []
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    WebhookDelivery.objects.filter(pk=delivery.pk).update(next_attempt_at=delivery.created_at)
    assert webhooks.delivery_attempt(delivery_id=delivery.pk) == DeliveryState.DELIVERED
    assert len(receiver.received) == 1


def test_the_log_names_the_endpoint_by_host_never_its_path_or_query(alice, acme, dave, receiver, caplog):
    """A receiver's URL path and query are often its credential: the delivery log line shows the
    endpoint's id, scheme, host and port only."""
    endpoint = services.webhook_endpoint_save(
        actor=dave.user,
        via="tests",
        endpoint=WebhookEndpoint(project=acme, url=f"{receiver.url}/T0/B0/hooksecret?token=qsecret"),
    )
    make_memory(alice.user, "Logged without the hook's secret.", project=acme)
    delivery = WebhookDelivery.objects.get()

    with caplog.at_level(logging.INFO, logger="memories.webhooks"):
        assert webhooks.delivery_attempt(delivery_id=delivery.pk) == DeliveryState.DELIVERED

    [line] = [record.getMessage() for record in caplog.records if record.name == "memories.webhooks"]
    assert f"to endpoint {endpoint.pk} (http://127.0.0.1:{receiver.port}/…)" in line
    assert "hooksecret" not in line
    assert "qsecret" not in line


def test_a_receiver_that_trickles_its_answer_is_cut_off_at_the_deadline(alice, endpoint, receiver, settings):
    """The timeout bounds the whole attempt: a byte every 0.2 s never lets a read time out, and
    the attempt still ends at the limit, recorded as no answer, to be retried."""
    settings.WEBHOOK_TIMEOUT_SECONDS = 1.0
    receiver.mode = "trickle"
    make_memory(alice.user, "Sent to a receiver that never finishes.", project=endpoint.project)
    delivery = WebhookDelivery.objects.get()

    started = time.monotonic()
    state = webhooks.delivery_attempt(delivery_id=delivery.pk)
    took = time.monotonic() - started

    assert state == DeliveryState.PENDING
    attempt = delivery.attempt_log.get()
    assert attempt.status is None
    assert attempt.error == "no answer within 1 s"
    assert len(receiver.received) == 1
    assert took < 10  # the trickle alone would take 200 s
