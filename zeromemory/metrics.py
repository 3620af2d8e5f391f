"""``/metrics``: Prometheus text format, written by ``prometheus_client`` (SPEC R-P2).

Off unless ZEROMEMORY_METRICS_TOKEN is set; then zeromemory.probes answers ``/metrics`` (before
ALLOWED_HOSTS, like the probes: Prometheus scrapes by address) for requests that carry the token.

Two kinds of figure, and why they behave differently across gunicorn's processes:

- Read from the database at scrape time (the hygiene queue, the webhook outbox): every process
  reads the same rows, so whichever process answers the scrape, the figure is exact.
- Counted in the process (request latency by route and status, embedding latency, the connection
  pool): each process has its own. With several processes behind one port a scrape reaches one of
  them, so set PROMETHEUS_MULTIPROC_DIR (an empty folder, emptied before each start) to have
  prometheus_client add up every process's histograms (its multiprocess mode; docs/scaling.md).
  The pool figure is always the answering process's own: psycopg's pool lives in one process.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Iterator
from typing import Any

from django.conf import settings
from django.db import connections
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

from memories import embedding
from memories.choices import DeliveryState
from memories.models import WebhookDelivery
from review.health import hygiene_queue_status

logger = logging.getLogger(__name__)

# Request latency by the URL pattern that answered (its route, a bounded set: never the raw path,
# which carries ids) and the status code. Buckets from 5 ms (a cached read) to 30 s (the statement
# timeout).
REQUEST_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
EMBED_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0)
UNMATCHED_ROUTE = "<unmatched>"

REGISTRY = CollectorRegistry(auto_describe=True)
REQUEST_SECONDS = Histogram(
    "zeromemory_http_request_duration_seconds",
    "Time to answer an HTTP request, by URL pattern and status code.",
    ["route", "status"],
    buckets=REQUEST_BUCKETS,
    registry=REGISTRY,
)
EMBED_SECONDS = Histogram(
    "zeromemory_embedding_duration_seconds",
    "Time of one call to the embedding model (one or more texts).",
    buckets=EMBED_BUCKETS,
    registry=REGISTRY,
)


class DatabaseCollector(Collector):
    """The figures read at scrape time: queue and outbox from the database, the pool from this process."""

    def describe(self) -> list[GaugeMetricFamily]:
        # Without it the registry would call collect() when the collector is registered, at
        # import: queries before anything asked, in every command that loads the middleware.
        return []

    def collect(self) -> Iterator[GaugeMetricFamily]:
        up = GaugeMetricFamily("zeromemory_metrics_database_up", "1 when the database answered this scrape.")
        try:
            families = list(_database_families())
        except Exception:  # a scrape during an outage says so instead of failing
            logger.warning("Metrics: the database did not answer.", exc_info=True)
            families = []
            up.add_metric([], 0)
        else:
            up.add_metric([], 1)
        yield up
        yield from families
        yield from _pool_families()


def _database_families() -> Iterator[GaugeMetricFamily]:
    status = hygiene_queue_status()
    waiting = GaugeMetricFamily(
        "zeromemory_hygiene_queue_waiting", "Hygiene tasks that could run now and wait for a worker."
    )
    oldest = GaugeMetricFamily(
        "zeromemory_hygiene_queue_oldest_wait_seconds",
        "How long the longest-waiting hygiene task has waited (0: none waits).",
    )
    # None: tasks run inline (ZEROMEMORY_TASKS_IMMEDIATE), so nothing can wait.
    waiting.add_metric([], status.waiting if status is not None else 0)
    oldest.add_metric([], (status.oldest_wait_seconds or 0.0) if status is not None else 0.0)
    counts = WebhookDelivery.objects.aggregate(
        pending=Count("pk", filter=Q(state=DeliveryState.PENDING)),
        dead=Count("pk", filter=Q(state=DeliveryState.DEAD)),
    )
    pending = GaugeMetricFamily(
        "zeromemory_webhook_outbox_pending", "Webhook deliveries not yet made (due now or waiting to retry)."
    )
    pending.add_metric([], counts["pending"])
    dead = GaugeMetricFamily(
        "zeromemory_webhook_deliveries_dead", "Webhook deliveries given up after the last retry (the admin can resend)."
    )
    dead.add_metric([], counts["dead"])
    yield from (waiting, oldest, pending, dead)


def _pool_families() -> Iterator[GaugeMetricFamily]:
    pool: Any = getattr(connections["default"], "pool", None)
    if pool is None:  # ZEROMEMORY_DB_POOL=false: a connection per request, nothing pooled
        return
    stats = pool.get_stats()
    size, available = stats.get("pool_size", 0), stats.get("pool_available", 0)
    in_use = GaugeMetricFamily(
        "zeromemory_db_pool_connections_in_use", "Pooled database connections lent out, in the answering process."
    )
    in_use.add_metric([], size - available)
    open_ = GaugeMetricFamily(
        "zeromemory_db_pool_connections_open", "Database connections the answering process's pool holds open."
    )
    open_.add_metric([], size)
    limit = GaugeMetricFamily(
        "zeromemory_db_pool_connections_max", "The pool's size limit (ZEROMEMORY_DB_POOL_MAX_SIZE)."
    )
    limit.add_metric([], pool.max_size)
    yield from (in_use, open_, limit)


_DATABASE_COLLECTOR = DatabaseCollector()
REGISTRY.register(_DATABASE_COLLECTOR)


def _scrape_registry() -> CollectorRegistry:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        # prometheus_client's multiprocess mode: the histograms of every process, from its folder.
        registry = CollectorRegistry()
        MultiProcessCollector(registry)
        registry.register(_DATABASE_COLLECTOR)
        return registry
    return REGISTRY


def metrics_text() -> bytes:
    return generate_latest(_scrape_registry())


def metrics_response() -> HttpResponse:
    return HttpResponse(metrics_text(), content_type=CONTENT_TYPE_LATEST)


def _route(request: HttpRequest) -> str:
    match = getattr(request, "resolver_match", None)
    return match.route if match is not None and match.route else UNMATCHED_ROUTE


class RequestMetricsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        # Always listening (a clock read per embedding call): the token can be set in a running
        # test; the histogram is only ever exported through /metrics.
        embedding.observe_embedding(EMBED_SECONDS.observe)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not settings.METRICS_TOKEN:
            return self.get_response(request)
        started = time.perf_counter()
        response = self.get_response(request)
        REQUEST_SECONDS.labels(route=_route(request), status=str(response.status_code)).observe(
            time.perf_counter() - started
        )
        return response
