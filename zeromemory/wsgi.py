from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "zeromemory.settings")
# Only server processes get the per-statement time bound (settings.STATEMENT_TIMEOUT_SECONDS).
os.environ.setdefault("ZEROMEMORY_SERVING", "true")

application = get_wsgi_application()

from zeromemory.embedded_db import join_configured_server  # noqa: E402 - needs Django set up first
from zeromemory.warmup import warm_up  # noqa: E402

# A server process joins the embedded database as it starts (a broken data folder stops it here,
# not on a request) and loads the embedding model before its first request.
join_configured_server()
warm_up()
