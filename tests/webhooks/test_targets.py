"""Webhooks go to public addresses only (memories.platform.webhook_targets): refused when an
endpoint is saved and again at every delivery attempt, the connection made to the address that
was checked, redirects not followed. Receivers are real local servers; where a test needs a name
to resolve to a public address (there is no network here), it replaces the one resolver function
the sender calls, and ``connect`` records where the sender asked to go before reaching the local
receiver in its place."""

from __future__ import annotations

import shutil
import socket
import ssl
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from memories import services, webhooks
from memories.agent.errors import error_status
from memories.choices import AccountAction, DeliveryState
from memories.errors import ValidationFailed
from memories.models import AccountEvent, WebhookDelivery, WebhookEndpoint
from memories.platform import webhook_targets
from tests.factories import make_memory
from tests.platform.helpers import child_env, manage
from tests.webhooks.receiver import Receiver

PUBLIC = "93.184.216.34"  # a global address (example.com's); nothing connects to it here


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    receiver = Receiver()
    receiver.start()
    yield receiver
    receiver.stop()


class Connections:
    """Where the sender asked to connect; each connection really goes to ``instead`` when set
    (a local receiver standing in for a public address), else where it was asked to."""

    def __init__(self, instead: tuple[str, int] | None = None) -> None:
        self.asked: list[tuple[tuple[str, ...], int]] = []
        self.instead = instead

    def __call__(self, addresses: tuple[str, ...], port: int, timeout: float | None) -> socket.socket:
        self.asked.append((addresses, port))
        if self.instead is not None:
            return socket.create_connection(self.instead, timeout=timeout)
        return real_connect(addresses, port, timeout)


real_connect = webhook_targets.connect


@pytest.fixture
def connections(monkeypatch: pytest.MonkeyPatch) -> Connections:
    recorded = Connections()
    monkeypatch.setattr(webhook_targets, "connect", recorded)
    return recorded


def resolver(monkeypatch: pytest.MonkeyPatch, *answers: list[str]) -> list[str]:
    """Make the sender's resolver give these answers, one per call (the last one repeated);
    returns the log of names it was asked for."""
    asked: list[str] = []

    def resolve(host: str, port: int) -> list[str]:
        asked.append(host)
        return answers[min(len(asked), len(answers)) - 1]

    monkeypatch.setattr(webhook_targets, "resolve", resolve)
    return asked


def _queued(
    alice: Any, endpoint: WebhookEndpoint, content: str = "The deploy freeze starts Friday."
) -> WebhookDelivery:
    make_memory(alice.user, content, project=endpoint.project)
    return WebhookDelivery.objects.get(endpoint=endpoint)


# -- the rule, address by address ---------------------------------------------------------------

REFUSED = {
    "private IPv4": "10.0.0.1",
    "private IPv4 (192.168)": "192.168.1.10",
    "IPv4 loopback": "127.0.0.1",
    "IPv6 loopback": "::1",
    "link-local metadata service": "169.254.169.254",
    "shared address space (100.64/10)": "100.64.0.1",
    "unspecified": "0.0.0.0",
    "IPv6 unspecified": "::",
    "IPv6 link-local": "fe80::1",
    "IPv6 unique local": "fd00::1",
    "multicast": "224.0.0.1",
    "IPv6 multicast": "ff0e::1",
    "NAT64 of a private IPv4": "64:ff9b::a00:1",
    "NAT64 of the metadata service": "64:ff9b::a9fe:a9fe",
    "local-use NAT64 of a private IPv4": "64:ff9b:1::a00:1",
    "IPv4-mapped loopback": "::ffff:127.0.0.1",
    "IPv4-mapped metadata service": "::ffff:169.254.169.254",
    "6to4 of a private IPv4": "2002:a00:1::1",
    "IPv4-compatible private IPv4": "::a00:1",
    "Teredo": "2001:0:4136:e378:8000:63bf:3fff:fdd2",
}
ACCEPTED = {
    "public IPv4": "8.8.8.8",
    "public IPv6": "2606:4700::1111",
    "NAT64 of a public IPv4": "64:ff9b::808:808",
    "IPv4-mapped public IPv4": "::ffff:8.8.8.8",
    "6to4 of a public IPv4": "2002:808:808::1",
}


@pytest.mark.parametrize("address", REFUSED.values(), ids=REFUSED.keys())
def test_every_non_global_address_is_refused_by_default(address, settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = []
    assert webhook_targets.address_refused(address) is True


@pytest.mark.parametrize("address", ACCEPTED.values(), ids=ACCEPTED.keys())
def test_global_addresses_are_accepted(address, settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = []
    assert webhook_targets.address_refused(address) is False


def test_the_allow_list_opens_its_networks_only_in_every_form(settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["10.20.0.0/16", "fd12:3456::/48"]
    assert not webhook_targets.address_refused("10.20.1.2")
    assert not webhook_targets.address_refused("::ffff:10.20.1.2")
    assert not webhook_targets.address_refused("64:ff9b::a14:102")  # NAT64 of 10.20.1.2
    assert not webhook_targets.address_refused("fd12:3456::9")
    assert webhook_targets.address_refused("10.21.0.1")
    assert webhook_targets.address_refused("169.254.169.254")
    assert webhook_targets.address_refused("fd12:3457::9")


# -- refused when saved: 400 with fields, nothing stored --------------------------------------

LITERAL_URLS = {
    "private IPv4": "http://10.0.0.1/hook",
    "IPv6 loopback": "http://[::1]:8080/hook",
    "metadata service": "http://169.254.169.254/latest/meta-data/",
    "100.64/10": "https://100.64.12.1/hook",
    "NAT64 of a private IPv4": "http://[64:ff9b::c0a8:101]/hook",
    "IPv4-mapped IPv6": "http://[::ffff:10.1.2.3]/hook",
}


@pytest.mark.django_db
@pytest.mark.parametrize("url", LITERAL_URLS.values(), ids=LITERAL_URLS.keys())
def test_an_endpoint_at_a_refused_literal_address_is_not_saved(url, acme, dave):
    with pytest.raises(ValidationFailed) as refused:
        services.webhook_endpoint_save(actor=dave.user, via="tests", endpoint=WebhookEndpoint(project=acme, url=url))

    assert (refused.value.code, error_status(refused.value)) == ("invalid", 400)
    assert list(refused.value.fields or {}) == ["url"]
    assert "not a public address" in refused.value.fields["url"][0]  # type: ignore[index]
    assert "ZEROMEMORY_WEBHOOK_ALLOWED_NETWORKS" in refused.value.message
    assert not WebhookEndpoint.objects.exists()
    assert not AccountEvent.objects.filter(action=AccountAction.WEBHOOK_ADDED).exists()


@pytest.mark.django_db
def test_an_endpoint_whose_name_resolves_to_a_private_address_is_not_saved(acme, dave, monkeypatch):
    asked = resolver(monkeypatch, [PUBLIC, "10.0.0.7"])

    with pytest.raises(ValidationFailed) as refused:
        services.webhook_endpoint_save(
            actor=dave.user, via="tests", endpoint=WebhookEndpoint(project=acme, url="https://hooks.acme.test/zm")
        )

    assert refused.value.fields == {"url": [refused.value.message]}
    assert refused.value.message.startswith("Refused: the host resolves to 10.0.0.7, not a public address.")
    assert asked == ["hooks.acme.test"]
    assert not WebhookEndpoint.objects.exists()


@pytest.mark.django_db
def test_changing_the_url_is_checked_but_deactivating_a_refused_one_is_not(acme, dave, monkeypatch):
    resolver(monkeypatch, [PUBLIC])
    endpoint = services.webhook_endpoint_save(
        actor=dave.user, via="tests", endpoint=WebhookEndpoint(project=acme, url="https://hooks.acme.test/zm")
    )
    endpoint.url = "http://169.254.169.254/latest/meta-data/"
    with pytest.raises(ValidationFailed):
        services.webhook_endpoint_save(actor=dave.user, via="tests", endpoint=endpoint)
    assert WebhookEndpoint.objects.get().url == "https://hooks.acme.test/zm"
    assert AccountEvent.objects.filter(action=AccountAction.WEBHOOK_CHANGED).count() == 0

    # Saved before the rule (or an allow-list since narrowed): it can still be switched off.
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(url="http://10.0.0.1/hook")
    stale = WebhookEndpoint.objects.get()
    stale.active = False
    services.webhook_endpoint_save(actor=dave.user, via="tests", endpoint=stale)
    assert WebhookEndpoint.objects.get().active is False


@pytest.mark.django_db
def test_the_admin_form_refuses_a_private_address(acme, dave):
    dave.user.is_staff = True
    dave.user.save()
    client = Client()
    client.force_login(dave.user)

    page = client.post(
        "/admin/memories/webhookendpoint/add/",
        {"project": acme.pk, "url": "http://169.254.169.254/latest/meta-data/", "active": "on"},
    )

    assert page.status_code == 200  # the form again, with the reason
    assert "the host resolves to 169.254.169.254, not a public address" in page.content.decode()
    assert not WebhookEndpoint.objects.exists()


# -- refused at delivery: DNS changes after the endpoint was saved ------------------------------

DELIVERY_URLS = {
    "private IPv4": ("http://10.0.0.1/hook", "10.0.0.1"),
    "IPv6 loopback": ("http://[::1]:9/hook", "::1"),
    "metadata service": ("http://169.254.169.254/latest/meta-data/", "169.254.169.254"),
    "100.64/10": ("http://100.64.0.1/hook", "100.64.0.1"),
    "NAT64 of a private IPv4": ("http://[64:ff9b::a00:1]/hook", "64:ff9b::a00:1"),
    "IPv4-mapped IPv6": ("http://[::ffff:10.0.0.1]/hook", "::ffff:10.0.0.1"),
}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("url", "address"), DELIVERY_URLS.values(), ids=DELIVERY_URLS.keys())
def test_a_delivery_to_a_refused_address_is_not_attempted(url, address, alice, acme, connections):
    # Written directly, as an endpoint saved before this rule was.
    endpoint = WebhookEndpoint.objects.create(project=acme, url=url)
    delivery = _queued(alice, endpoint)

    assert webhooks.delivery_attempt(delivery_id=delivery.pk) == DeliveryState.PENDING

    attempt = delivery.attempt_log.get()
    assert (attempt.status, attempt.error) == (None, f"refused: the host resolves to {address}, not a public address")
    assert connections.asked == []


@pytest.mark.django_db(transaction=True)
def test_ipv4_mapped_loopback_does_not_reach_a_loopback_receiver(alice, acme, receiver, connections):
    endpoint = WebhookEndpoint.objects.create(project=acme, url=f"http://[::ffff:127.0.0.1]:{receiver.port}/hook")
    delivery = _queued(alice, endpoint)

    webhooks.delivery_attempt(delivery_id=delivery.pk)

    assert delivery.attempt_log.get().error == "refused: the host resolves to ::ffff:127.0.0.1, not a public address"
    assert receiver.received == []
    assert connections.asked == []


@pytest.mark.django_db(transaction=True)
def test_a_name_that_resolves_elsewhere_after_it_was_saved_is_refused_at_delivery(
    alice, acme, dave, monkeypatch, connections
):
    asked = resolver(monkeypatch, [PUBLIC], ["10.0.0.7"])
    endpoint = services.webhook_endpoint_save(
        actor=dave.user, via="tests", endpoint=WebhookEndpoint(project=acme, url="https://hooks.acme.test/zm")
    )
    delivery = _queued(alice, endpoint)

    assert webhooks.delivery_attempt(delivery_id=delivery.pk) == DeliveryState.PENDING

    assert delivery.attempt_log.get().error == "refused: the host resolves to 10.0.0.7, not a public address"
    assert asked == ["hooks.acme.test", "hooks.acme.test"]
    assert connections.asked == []


@pytest.mark.django_db(transaction=True)
def test_one_private_answer_among_public_ones_refuses_the_delivery(alice, acme, monkeypatch, connections):
    resolver(monkeypatch, [PUBLIC, "169.254.169.254"])
    endpoint = WebhookEndpoint.objects.create(project=acme, url="http://hooks.acme.test/zm")
    delivery = _queued(alice, endpoint)

    webhooks.delivery_attempt(delivery_id=delivery.pk)

    assert delivery.attempt_log.get().error == "refused: the host resolves to 169.254.169.254, not a public address"
    assert connections.asked == []


@pytest.mark.django_db(transaction=True)
def test_a_dns_answer_that_changes_between_check_and_connect_does_not_move_the_connection(
    alice, acme, receiver, monkeypatch
):
    """DNS rebinding: the first lookup says public, any later one says the metadata service. The
    sender looks up once, and connects to the address it checked, naming the host in Host."""
    asked = resolver(monkeypatch, [PUBLIC], ["169.254.169.254"])
    connections = Connections(instead=("127.0.0.1", receiver.port))
    monkeypatch.setattr(webhook_targets, "connect", connections)
    endpoint = WebhookEndpoint.objects.create(project=acme, url=f"http://hooks.acme.test:{receiver.port}/zm")
    delivery = _queued(alice, endpoint)

    assert webhooks.delivery_attempt(delivery_id=delivery.pk) == DeliveryState.DELIVERED

    assert asked == ["hooks.acme.test"]  # one lookup, so no second answer to rebind to
    assert connections.asked == [((PUBLIC,), receiver.port)]
    [received] = receiver.received
    assert received.headers["host"] == f"hooks.acme.test:{receiver.port}"
    assert received.path == "/zm"


# -- no redirect followed --------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_redirect_is_an_answer_not_a_hop(alice, acme, receiver, connections, settings):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    receiver.mode = "redirect"
    endpoint = WebhookEndpoint.objects.create(project=acme, url=receiver.url)
    delivery = _queued(alice, endpoint)

    assert webhooks.delivery_attempt(delivery_id=delivery.pk) == DeliveryState.PENDING

    attempt = delivery.attempt_log.get()
    assert (attempt.status, attempt.error) == (307, f"HTTP 307: redirect to {receiver.redirect_to} not followed")
    assert [item.path for item in receiver.received] == ["/hooks/zeromemory"]  # never /elsewhere
    assert connections.asked == [(("127.0.0.1",), receiver.port)]


# -- TLS names the host, though the socket goes to the checked address -------------------------


@pytest.fixture
def certificate(tmp_path: Path) -> tuple[str, str]:
    if shutil.which("openssl") is None:
        pytest.skip("openssl is needed to make a test certificate")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"),
            *("-keyout", str(key), "-out", str(cert), "-subj", "/CN=hooks.acme.test"),
            *("-addext", "subjectAltName=DNS:hooks.acme.test"),
        ],
        check=True,
        capture_output=True,
    )
    return str(cert), str(key)


@pytest.fixture
def tls_receiver(certificate: tuple[str, str], monkeypatch: pytest.MonkeyPatch) -> Iterator[Receiver]:
    receiver = Receiver(tls=certificate)
    receiver.start()
    trusting = ssl.create_default_context(cafile=certificate[0])
    monkeypatch.setattr(webhook_targets, "tls_context", lambda: trusting)
    yield receiver
    receiver.stop()


@pytest.mark.django_db(transaction=True)
def test_https_sends_the_host_name_for_sni_and_checks_the_certificate_against_it(
    alice, acme, tls_receiver, monkeypatch, settings
):
    settings.WEBHOOK_ALLOWED_NETWORKS = ["127.0.0.1/32"]
    asked = resolver(monkeypatch, ["127.0.0.1"])
    named = WebhookEndpoint.objects.create(project=acme, url=f"https://hooks.acme.test:{tls_receiver.port}/zm")
    delivery = _queued(alice, named)

    assert webhooks.delivery_attempt(delivery_id=delivery.pk) == DeliveryState.DELIVERED
    assert asked == ["hooks.acme.test"]
    assert tls_receiver.server_names == ["hooks.acme.test"]
    assert tls_receiver.received[0].headers["host"] == f"hooks.acme.test:{tls_receiver.port}"

    # The same server by address: its certificate does not name 127.0.0.1, so nothing is sent.
    named.active = False
    named.save()
    by_address = WebhookEndpoint.objects.create(project=acme, url=f"https://127.0.0.1:{tls_receiver.port}/zm")
    second = _queued(alice, by_address, "The staging database is rebuilt every Sunday night.")
    assert webhooks.delivery_attempt(delivery_id=second.pk) == DeliveryState.PENDING
    assert "CERTIFICATE_VERIFY_FAILED" in second.attempt_log.get().error
    assert len(tls_receiver.received) == 1


# -- the settings -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"ZEROMEMORY_WEBHOOK_PRIVATE_TARGETS": "true"}, "ZEROMEMORY_WEBHOOK_PRIVATE_TARGETS is no longer supported"),
        (
            {"ZEROMEMORY_WEBHOOK_ALLOWED_NETWORKS": "10.0.0.0/8,intranet"},
            "ZEROMEMORY_WEBHOOK_ALLOWED_NETWORKS must be networks (CIDR) separated by commas, not 'intranet'",
        ),
    ],
    ids=["the old boolean set true", "a network that is not one"],
)
def test_a_setting_that_would_mislead_stops_the_start(env, message, tmp_path):
    result = manage("check", env=child_env(ZEROMEMORY_DATA_DIR=str(tmp_path), **env))
    assert result.returncode != 0
    assert message in result.stderr


def test_the_allow_list_setting_is_read_normalised_and_empty_by_default(tmp_path):
    def allowed(**env: str) -> list[str]:
        result = manage("diffsettings", env=child_env(ZEROMEMORY_DATA_DIR=str(tmp_path), **env))
        assert result.returncode == 0, result.stderr
        # diffsettings marks a setting Django does not define with "###".
        lines = result.stdout.splitlines()
        return [line.removesuffix("  ###") for line in lines if line.startswith("WEBHOOK_ALLOWED_NETWORKS")]

    assert allowed(ZEROMEMORY_WEBHOOK_ALLOWED_NETWORKS="") == ["WEBHOOK_ALLOWED_NETWORKS = []"]
    assert allowed(
        ZEROMEMORY_WEBHOOK_ALLOWED_NETWORKS=" 10.20.3.4/16 , fd12:3456::/48,",
        ZEROMEMORY_WEBHOOK_PRIVATE_TARGETS="false",
    ) == ["WEBHOOK_ALLOWED_NETWORKS = ['10.20.0.0/16', 'fd12:3456::/48']"]
