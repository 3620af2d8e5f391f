"""Production settings: `check --deploy` passes behind a TLS proxy, and the server then answers
HTTPS-only with HSTS, secure cookies and the security headers."""

from __future__ import annotations

import json
import secrets

import pytest
from django.conf import settings
from django.db import connection

from tests.platform.helpers import child_env, manage
from zeromemory.embedded_db import EmbeddedServer

pytestmark = pytest.mark.django_db(transaction=True)

PROBE = """
import json
from django.test import Client
client = Client()
plain = client.get("/api/v1/memories/", HTTP_HOST="memory.example.com")
secure = client.get("/api/v1/memories/", HTTP_HOST="memory.example.com", HTTP_X_FORWARDED_PROTO="https")
print("RESULT " + json.dumps({
    "plain": [plain.status_code, plain.get("Location")],
    "secure": [secure.status_code, dict(secure.headers)],
}))
"""


def _production(**overrides: str) -> dict[str, str]:
    return child_env(
        DATABASE_URL=EmbeddedServer(settings.DATA_DIR).url(connection.settings_dict["NAME"]),
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(60),
        DJANGO_ALLOWED_HOSTS="memory.example.com",
        ZEROMEMORY_PRELOAD_EMBEDDER="false",
        **overrides,
    )


def test_check_deploy_passes_behind_a_tls_proxy_and_warns_without_it(db: None) -> None:
    behind = manage("check", "--deploy", "--fail-level", "WARNING", env=_production(ZEROMEMORY_BEHIND_TLS_PROXY="true"))
    bare = manage("check", "--deploy", "--fail-level", "WARNING", env=_production())

    assert behind.returncode == 0, behind.stderr
    assert "no issues" in behind.stdout
    assert bare.returncode != 0
    for code in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert code in bare.stderr


def test_behind_a_tls_proxy_plain_http_is_redirected_and_https_gets_hsts(db: None) -> None:
    result = manage("shell", "-c", PROBE, env=_production(ZEROMEMORY_BEHIND_TLS_PROXY="true"), timeout=300)

    assert result.returncode == 0, result.stderr
    answers = json.loads(result.stdout.split("RESULT ", 1)[1])
    assert answers["plain"] == [301, "https://memory.example.com/api/v1/memories/"]
    status, headers = answers["secure"]
    assert status == 401
    assert headers["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "same-origin"
