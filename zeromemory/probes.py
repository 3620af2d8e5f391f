"""``/healthz`` and ``/readyz`` for load balancers and orchestrators (SPEC R-P2), and the door to
``/metrics`` (zeromemory.metrics).

They are answered by a middleware placed first, so a probe never reaches what would refuse or
count it: Django checks the ``Host`` header against ALLOWED_HOSTS only when something calls
``request.get_host()`` (CommonMiddleware, SecurityMiddleware's HTTPS redirect, CSRF), and a load
balancer probing ``10.1.2.3:8000`` by address would get 400 there; no token is asked for, no rate
limit applies, and the request log, written by the next middleware, never sees them (a probe every
few seconds per balancer would drown the log, and none of them is a 401).

- ``/healthz``: 200 while the process serves. No database access, so a database outage does not
  make an orchestrator restart every healthy app process.
- ``/readyz``: 200 when the database answers, no migration is left to apply and the embedder is
  loaded; otherwise 503 with what is missing (``{"ready": false, "missing": ["migrations"]}``).
  "Applied" is judged as ``migrate`` plans it: the graph on disk against django_migrations.
  The database is asked on a connection of its own, opened with a short connect timeout and
  outside the process's pool: a saturated pool must not take every replica out of the balancer at
  the busiest moment, and a database that is down answers in seconds, not after the pool's wait.
"""

from __future__ import annotations

import functools
import hmac
import logging
import threading
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import connections
from django.db.migrations.graph import MigrationGraph
from django.db.migrations.loader import MigrationLoader
from django.db.utils import load_backend
from django.http import HttpRequest, HttpResponse, JsonResponse

from memories import embedding
from memories.agent.errors import error_body

logger = logging.getLogger(__name__)

HEALTH_PATHS = frozenset({"/healthz", "/healthz/"})
READY_PATHS = frozenset({"/readyz", "/readyz/"})
METRICS_PATHS = frozenset({"/metrics", "/metrics/"})
# Seconds the readiness check waits for the database to accept a connection.
READY_CONNECT_TIMEOUT_SECONDS = 3

_embedder_loading = threading.Lock()


def _no_store(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "no-store"
    # Django's handler logs every 4xx/5xx once more on django.request ("Service Unavailable:
    # /readyz" at ERROR each time a balancer polls a replica that is not ready yet); the reason is
    # logged here already, once, so that line is skipped as Django skips responses it has logged.
    response._has_been_logged = True  # type: ignore[attr-defined]
    return response


def health() -> JsonResponse:
    return JsonResponse({"status": "ok"})


def _probe_connection() -> Any:
    """A new, unpooled connection to the default database, with a short connect timeout."""
    config = connections.configure_settings({"default": dict(settings.DATABASES["default"])})["default"]
    options = dict(config.get("OPTIONS") or {})
    options.pop("pool", None)
    options["connect_timeout"] = READY_CONNECT_TIMEOUT_SECONDS
    config = {**config, "OPTIONS": options, "CONN_MAX_AGE": 0, "CONN_HEALTH_CHECKS": False}
    return load_backend(config["ENGINE"]).DatabaseWrapper(config, alias="readyz")


@functools.cache
def _migration_graph() -> MigrationGraph:
    """The migrations on disk, read once: the code a process runs does not change under it."""
    return MigrationLoader(None, ignore_no_migrations=True).graph


def unapplied_migrations(connection: Any) -> list[tuple[str, str]]:
    """The migrations ``migrate`` would apply, in order: every node on the way to each leaf of the
    graph on disk that the database's django_migrations table does not hold, as Django's
    MigrationExecutor plans them. Read with SQL on the probe's own connection (Django's recorder
    would look the connection up by alias, and this one is not registered)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT app, name FROM django_migrations")
        applied = {(app, name) for app, name in cursor.fetchall()}
    graph = _migration_graph()
    plan: list[tuple[str, str]] = []
    for target in graph.leaf_nodes():
        for node in graph.forwards_plan(target):
            migration = graph.nodes[node]
            # A squashed migration counts as applied when everything it replaces is (as the loader does).
            replaces = migration.replaces if migration is not None else []
            done = node in applied or bool(replaces and all(tuple(r) in applied for r in replaces))
            if not done and node not in plan:
                plan.append(node)
    return plan


def _database_missing() -> list[str]:
    """[] when the database answers and every migration is applied, else what is missing."""
    connection = _probe_connection()
    try:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
        except Exception:  # any failure to reach it is "not ready", never a 500
            logger.warning("Readiness: the database does not answer.", exc_info=True)
            return ["database"]
        try:
            plan = unapplied_migrations(connection)
        except Exception:  # the migration table unreadable counts as unmigrated
            logger.warning("Readiness: could not read the applied migrations.", exc_info=True)
            return ["migrations"]
        if plan:
            logger.warning("Readiness: %d migration(s) not applied, first %s.%s.", len(plan), *plan[0])
            return ["migrations"]
        return []
    finally:
        connection.close()


def _load_embedder_in_background() -> None:
    """With ZEROMEMORY_PRELOAD_EMBEDDER=false the model loads on first use; a readiness probe
    would then wait for a request that the balancer never sends. The first probe starts it."""
    if not _embedder_loading.acquire(blocking=False):
        return

    def load() -> None:
        try:
            embedding.get_embedder()
        except Exception:  # logged; the probe keeps answering "embedder"
            logger.exception("Readiness: the embedding model did not load.")
        finally:
            _embedder_loading.release()

    threading.Thread(target=load, name="zeromemory-embedder-load", daemon=True).start()


def readiness_missing() -> list[str]:
    """What keeps this process from serving: any of "database", "migrations", "embedder"."""
    missing = _database_missing()
    if not embedding.embedder_loaded():
        if not settings.PRELOAD_EMBEDDER:
            _load_embedder_in_background()
        missing.append("embedder")
    return missing


def readiness() -> JsonResponse:
    missing = readiness_missing()
    if missing:
        return JsonResponse({"ready": False, "missing": missing}, status=503)
    return JsonResponse({"ready": True, "missing": []})


def metrics_token_matches(request: HttpRequest) -> bool:
    scheme, _, credential = request.headers.get("Authorization", "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(
        credential.strip().encode(), str(settings.METRICS_TOKEN).encode()
    )


class ProbeMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        path = request.path_info
        if path in HEALTH_PATHS:
            return _no_store(health())
        if path in READY_PATHS:
            return _no_store(readiness())
        if path in METRICS_PATHS and settings.METRICS_TOKEN:
            # Prometheus scrapes by address too; off (no token set), the path is not answered
            # here and gets the ordinary 404.
            if not metrics_token_matches(request):
                # The request log never sees this path: the one line for this 401 is here.
                logger.warning("Refused a /metrics request without the metrics token.")
                response = JsonResponse(
                    error_body("not_authenticated", "A valid metrics token is required."), status=401
                )
                response["WWW-Authenticate"] = 'Bearer realm="metrics"'
                return _no_store(response)
            from zeromemory.metrics import metrics_response

            return _no_store(metrics_response())
        return self.get_response(request)
