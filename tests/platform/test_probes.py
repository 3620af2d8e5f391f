"""/healthz and /readyz (SPEC R-P2): no token, any Host header, a 503 naming what is missing."""

from __future__ import annotations

import json
import logging
import socket
import time

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db.migrations.recorder import MigrationRecorder
from django.test import Client

from memories import embedding

# Not in ALLOWED_HOSTS: a load balancer probing the app by its address.
PROBE_HOST = "10.1.2.3:8000"


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def client() -> Client:
    return Client(HTTP_HOST=PROBE_HOST)


@pytest.fixture
def embedder_loaded() -> None:
    embedding.get_embedder()


@pytest.fixture
def database_down(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default database's settings point at a port nothing listens on (the probe reads them anew)."""
    monkeypatch.setitem(settings.DATABASES["default"], "HOST", "127.0.0.1")
    monkeypatch.setitem(settings.DATABASES["default"], "PORT", str(_closed_port()))


def _body(response) -> dict:
    return json.loads(response.content)


def test_the_probe_host_is_refused_by_every_other_path(client, db):
    # The control: without the probe middleware this host gets Django's 400 (DisallowedHost).
    assert client.get("/api/v1/memories/").status_code == 400
    assert client.get("/admin/login/").status_code == 400


def test_healthz_answers_200_by_address_without_touching_the_database(
    client, db, database_down, django_assert_num_queries
):
    with django_assert_num_queries(0):
        response = client.get("/healthz")

    assert response.status_code == 200
    assert _body(response) == {"status": "ok"}
    assert response["Cache-Control"] == "no-store"


def test_readyz_answers_200_when_the_database_migrations_and_embedder_are_there(
    client, transactional_db, embedder_loaded
):
    response = client.get("/readyz")

    assert response.status_code == 200
    assert _body(response) == {"ready": True, "missing": []}


def test_readyz_names_the_database_when_it_does_not_answer_never_a_500(
    client, db, database_down, embedder_loaded, caplog
):
    with caplog.at_level(logging.INFO):
        response = client.get("/readyz")

    assert response.status_code == 503
    assert _body(response) == {"ready": False, "missing": ["database"]}
    # One line with the cause; not Django's "Service Unavailable" besides it at every poll.
    assert [(record.name, record.getMessage()) for record in caplog.records] == [
        ("zeromemory.probes", "Readiness: the database does not answer.")
    ]


def test_readyz_names_an_unapplied_migration(client, transactional_db, embedder_loaded):
    # A real rollback of one app's migrations, on the database the server uses, then forward again.
    call_command("migrate", "sessions", "zero", verbosity=0)
    try:
        assert ("sessions", "0001_initial") not in MigrationRecorder.Migration.objects.values_list("app", "name")
        response = client.get("/readyz")
    finally:
        call_command("migrate", "sessions", verbosity=0)

    assert response.status_code == 503
    assert _body(response) == {"ready": False, "missing": ["migrations"]}
    assert client.get("/readyz").status_code == 200  # applied again: ready again


def test_readyz_names_the_embedder_until_it_is_loaded(client, transactional_db, monkeypatch, settings):
    settings.PRELOAD_EMBEDDER = True  # the server loads it at start; until then, not ready
    monkeypatch.setattr(embedding, "_embedder", None)

    response = client.get("/readyz")

    assert response.status_code == 503
    assert _body(response) == {"ready": False, "missing": ["embedder"]}
    assert embedding.embedder_loaded() is False  # the probe itself does not load it when preloading is on


def test_without_preloading_the_first_readiness_probe_loads_the_embedder(
    client, transactional_db, monkeypatch, settings
):
    settings.PRELOAD_EMBEDDER = False  # loaded on first use: the probe must not wait for a write
    monkeypatch.setattr(embedding, "_embedder", None)

    first = client.get("/readyz")
    deadline = time.monotonic() + 120
    while not embedding.embedder_loaded() and time.monotonic() < deadline:
        time.sleep(0.05)

    assert first.status_code == 503
    assert _body(first) == {"ready": False, "missing": ["embedder"]}
    assert embedding.embedder_loaded() is True
    assert _body(client.get("/readyz")) == {"ready": True, "missing": []}


def test_readyz_lists_everything_missing(client, db, database_down, monkeypatch, settings):
    settings.PRELOAD_EMBEDDER = True
    monkeypatch.setattr(embedding, "_embedder", None)

    response = client.get("/readyz")

    assert response.status_code == 503
    assert _body(response) == {"ready": False, "missing": ["database", "embedder"]}


def test_probes_need_no_token_are_not_logged_and_not_rate_limited(
    client, transactional_db, embedder_loaded, settings, caplog
):
    settings.RATE_LIMIT_PER_MINUTE = 1
    with caplog.at_level(logging.INFO, logger="zeromemory.requests"):
        statuses = [client.get(path).status_code for path in ["/healthz", "/readyz"] * 5]

    assert statuses == [200] * 10
    assert [record for record in caplog.records if record.name == "zeromemory.requests"] == []


def test_probes_bypass_the_https_redirect_behind_a_tls_proxy(client, db, settings):
    settings.SECURE_SSL_REDIRECT = True  # what ZEROMEMORY_BEHIND_TLS_PROXY turns on

    assert client.get("/healthz").status_code == 200
    assert client.get("/api/v1/memories/", HTTP_HOST="localhost").status_code == 301  # the control
