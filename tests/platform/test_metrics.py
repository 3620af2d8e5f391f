"""/metrics (SPEC R-P2): Prometheus text format, off unless a token is set, then only with it."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from prometheus_client.parser import text_string_to_metric_families

from memories import embedding
from memories.choices import DeliveryState
from memories.models import Project, WebhookDelivery, WebhookEndpoint
from review.tasks import hygiene_check_task
from tests.conftest import Persona
from tests.factories import make_memory

TOKEN = "metrics-token-for-tests-0123456789"
PROBE_HOST = "10.1.2.3:8000"  # Prometheus scrapes by address: not in ALLOWED_HOSTS


@pytest.fixture
def metrics_on(settings) -> None:
    settings.METRICS_TOKEN = TOKEN


def _scrape() -> str:
    response = Client(HTTP_HOST=PROBE_HOST).get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; version=1.0.0; charset=utf-8"
    return response.content.decode()


def _samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def _gauge_lines(text: str) -> list[str]:
    prefixes = ("zeromemory_metrics_database_up", "zeromemory_hygiene_", "zeromemory_webhook_")
    return [line for line in text.splitlines() if line.startswith(prefixes)]


def test_metrics_are_off_unless_a_token_is_set(db, settings):
    settings.METRICS_TOKEN = ""

    response = Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")

    assert response.status_code == 404


@pytest.mark.parametrize("authorization", [None, "Bearer wrong-token", f"Basic {TOKEN}", f"Bearer {TOKEN}x"])
def test_metrics_refuse_a_missing_or_wrong_token(db, metrics_on, authorization, caplog):
    headers = {"HTTP_AUTHORIZATION": authorization} if authorization else {}

    with caplog.at_level(logging.INFO):
        response = Client(HTTP_HOST=PROBE_HOST).get("/metrics", **headers)

    assert response.status_code == 401
    assert response["WWW-Authenticate"] == 'Bearer realm="metrics"'
    assert response.json() == {"error": {"code": "not_authenticated", "message": "A valid metrics token is required."}}
    assert b"zeromemory_" not in response.content
    # One log line for the refusal, without the token that was tried.
    assert [(record.name, record.getMessage()) for record in caplog.records] == [
        ("zeromemory.probes", "Refused a /metrics request without the metrics token.")
    ]


def test_the_database_gauges_are_exact(acme: Project, alice: Persona, metrics_on, settings, monkeypatch):
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    assert _gauge_lines(_scrape()) == [
        "zeromemory_metrics_database_up 1.0",
        "zeromemory_hygiene_queue_waiting 0.0",
        "zeromemory_hygiene_queue_oldest_wait_seconds 0.0",
        "zeromemory_webhook_outbox_pending 0.0",
        "zeromemory_webhook_deliveries_dead 0.0",
    ]

    # Two hygiene tasks waiting, the older for 300 s; three deliveries owed, one of them dead.
    now = timezone.now()
    for seconds in (300, 20):
        result = hygiene_check_task.enqueue("mem_waiting")
        DBTaskResult.objects.filter(pk=result.id).update(enqueued_at=now - timedelta(seconds=seconds))
    WebhookEndpoint.objects.create(project=acme, url="https://hooks.example.com/zeromemory")
    for number in range(3):
        make_memory(alice.user, f"Owed to the endpoint, number {number}.", project=acme)
    dead = WebhookDelivery.objects.order_by("pk").first()
    assert dead is not None
    WebhookDelivery.objects.filter(pk=dead.pk).update(state=DeliveryState.DEAD)
    monkeypatch.setattr(timezone, "now", lambda: now)

    assert _gauge_lines(_scrape()) == [
        "zeromemory_metrics_database_up 1.0",
        "zeromemory_hygiene_queue_waiting 2.0",
        "zeromemory_hygiene_queue_oldest_wait_seconds 300.0",
        "zeromemory_webhook_outbox_pending 2.0",
        "zeromemory_webhook_deliveries_dead 1.0",
    ]


def test_request_latency_is_counted_by_route_and_status_never_by_raw_path(alice: Persona, metrics_on):
    memory = make_memory(alice.user, "The deploy key lives in the vault.")
    before = _samples(_scrape())

    for _ in range(2):
        assert alice.client.get("/api/v1/memories/").status_code == 200
    assert alice.client.get(f"/api/v1/memories/{memory.id}/").status_code == 200
    assert alice.client.get("/api/v1/memories/mem_00000000000000000000000000/").status_code == 404
    assert alice.client.get("/no/such/page/").status_code == 404
    after = _scrape()

    def count_delta(route: str, status: str) -> float:
        key = ("zeromemory_http_request_duration_seconds_count", (("route", route), ("status", status)))
        return _samples(after).get(key, 0.0) - before.get(key, 0.0)

    detail = "api/v1/memories/<str:memory_id>/"
    assert count_delta("api/v1/memories/", "200") == 2
    assert count_delta(detail, "200") == 1
    assert count_delta(detail, "404") == 1
    assert count_delta("<unmatched>", "404") == 1
    assert memory.id not in after  # the id never becomes a label
    assert "/no/such/page/" not in after
    # The histogram's buckets, in the order Prometheus expects, for one of the routes.
    buckets = [
        line.split("le=")[1].split('"')[1]
        for line in after.splitlines()
        if line.startswith("zeromemory_http_request_duration_seconds_bucket{")
        and 'route="api/v1/memories/",status="200"' in line
    ]
    assert buckets == [
        "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1.0", "2.5", "5.0", "10.0", "30.0", "+Inf"
    ]  # fmt: skip


def test_embedding_latency_is_counted_per_call(db, metrics_on):
    key = ("zeromemory_embedding_duration_seconds_count", ())
    before = _samples(_scrape()).get(key, 0.0)

    embedding.get_embedder().embed(["one text", "and another"])
    embedding.get_embedder().embed(["a third"])

    assert _samples(_scrape())[key] - before == 2


def test_the_pool_gauges_show_this_process_pool(db, metrics_on, settings):
    samples = _samples(_scrape())

    assert settings.DATABASES["default"]["OPTIONS"]["pool"]  # the default: ZEROMEMORY_DB_POOL=true
    # The test's own connection (its transaction) is lent out from the pool while it runs.
    assert samples[("zeromemory_db_pool_connections_in_use", ())] == 1
    assert samples[("zeromemory_db_pool_connections_max", ())] == settings.DB_POOL_MAX_SIZE


def test_a_scrape_while_the_database_is_down_says_so_instead_of_failing(db, metrics_on, monkeypatch):
    def down(**_: object) -> None:
        from django.db import OperationalError

        raise OperationalError("connection refused")

    monkeypatch.setattr("zeromemory.metrics.hygiene_queue_status", down)

    text = _scrape()

    assert _gauge_lines(text) == ["zeromemory_metrics_database_up 0.0"]


@pytest.mark.django_db(transaction=True)
def test_under_gunicorn_every_scrape_adds_up_every_worker_in_multiprocess_mode(alice: Persona, tmp_path):
    """Two worker processes behind one port: a scrape reaches one of them, and with
    PROMETHEUS_MULTIPROC_DIR each answers the sum of both (without it, each scrape said 12 of the 24).
    The probes answer by address there too."""
    from tests.platform.server import gunicorn_server, request

    folder = tmp_path / "prometheus"
    folder.mkdir()
    requests = 24
    with gunicorn_server(
        workers=2, threads=2, ZEROMEMORY_METRICS_TOKEN=TOKEN, PROMETHEUS_MULTIPROC_DIR=str(folder)
    ) as server:
        assert request(server.port, "GET", "/healthz", Host=PROBE_HOST).status == 200
        assert request(server.port, "GET", "/readyz", Host=PROBE_HOST).body == {"ready": True, "missing": []}
        statuses = [request(server.port, "GET", "/api/v1/memories/", alice.token).status for _ in range(requests)]
        scrapes = [request(server.port, "GET", "/metrics", TOKEN, Host=PROBE_HOST) for _ in range(6)]
        histogram_files = sorted(path.name for path in folder.iterdir() if path.name.startswith("histogram_"))

    assert statuses == [200] * requests
    key = ("zeromemory_http_request_duration_seconds_count", (("route", "api/v1/memories/"), ("status", "200")))
    assert [answer.status for answer in scrapes] == [200] * 6
    assert [_samples(answer.body)[key] for answer in scrapes] == [requests] * 6
    assert len(histogram_files) == 2  # one file per worker process
