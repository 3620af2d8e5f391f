"""Structured request logs: one JSON line per request with an id, never a secret or content."""

from __future__ import annotations

import io
import json
import logging
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from memories.agent import verbs
from tests.conftest import Persona
from tests.factories import make_memory
from zeromemory.embedded_db import EmbeddedServer
from zeromemory.log_format import RedactingFormatter


def _lines(caplog: pytest.LogCaptureFixture) -> list[dict[str, object]]:
    return [json.loads(record.getMessage()) for record in caplog.records if record.name == "zeromemory.requests"]


def test_a_request_is_logged_once_with_its_id_and_no_token_or_content(
    alice: Persona, caplog: pytest.LogCaptureFixture
) -> None:
    secret_text = "The vault combination is 31-07-19."
    with caplog.at_level(logging.INFO, logger="zeromemory.requests"):
        response = alice.client.post("/api/v1/memories/?q=hidden-words", {"content": secret_text}, format="json")

    [line] = _lines(caplog)
    assert response.status_code == 201
    assert line["request_id"] == response["X-Request-ID"]
    assert line["method"] == "POST"
    assert line["path"] == "/api/v1/memories/"
    assert line["status"] == 201
    assert line["user"] == "alice"
    assert line["token"] == alice.credential.prefix
    assert isinstance(line["ms"], float)
    logged = " ".join(record.getMessage() for record in caplog.records)
    assert alice.token not in logged
    assert secret_text not in logged
    assert "hidden-words" not in logged


def test_a_proxys_request_id_is_kept_and_a_bad_one_replaced(alice: Persona) -> None:
    kept = alice.client.get("/api/v1/memories/", HTTP_X_REQUEST_ID="edge-7f3a9c21")
    replaced = alice.client.get("/api/v1/memories/", HTTP_X_REQUEST_ID="bad id\nwith newline")
    anonymous = alice.client.get("/no/such/page/")

    assert kept["X-Request-ID"] == "edge-7f3a9c21"
    assert len(replaced["X-Request-ID"]) == 32
    assert replaced["X-Request-ID"] != "bad id\nwith newline"
    assert len(anonymous["X-Request-ID"]) == 32


def test_a_database_error_is_logged_without_the_row_values_it_quotes(alice: Persona, monkeypatch: Any) -> None:
    secret_text = "The vault combination is 31-07-19."

    def failing(**_: Any) -> Any:
        # A real PostgreSQL error whose DETAIL quotes the failing row: "Failing row contains (…)".
        with connection.cursor() as cursor:
            cursor.execute("CREATE TEMP TABLE note (body text CHECK (length(body) < 5))")
            cursor.execute("INSERT INTO note VALUES (%s)", [secret_text])

    memory = make_memory(alice.user, "Anything at all.")
    monkeypatch.setattr(verbs, "history", failing)
    [console] = [h for h in logging.getLogger().handlers if isinstance(h.formatter, RedactingFormatter)]
    assert isinstance(console, logging.StreamHandler)
    server_log = EmbeddedServer(settings.DATA_DIR).log_file
    logged_before = server_log.stat().st_size
    captured = io.StringIO()
    previous = console.setStream(captured)
    try:
        response = alice.client.get(f"/api/v1/memories/{memory.pk}/history/")
    finally:
        console.setStream(previous)

    logged = captured.getvalue()
    assert response.status_code == 503
    assert 'violates check constraint "note_body_check" [SQLSTATE 23514] (details withheld' in logged
    assert "test_request_log.py" in logged  # the traceback's frames are kept
    assert "Failing row" not in logged
    assert secret_text not in logged
    # The embedded server's own log records the error, but neither the row nor the statement.
    with server_log.open("rb") as log:
        log.seek(logged_before)
        server_logged = log.read().decode(errors="replace")
    assert 'violates check constraint "note_body_check"' in server_logged
    assert secret_text not in server_logged


@pytest.mark.django_db
def test_a_refused_token_is_one_log_line(client: Any, caplog: pytest.LogCaptureFixture) -> None:
    """A 401 is the request's own JSON line, not that and Django's "Unauthorized: …" warning
    besides: a burst of bad tokens doubles no log volume."""
    with caplog.at_level(logging.INFO):
        response = client.get("/api/v1/memories/", HTTP_AUTHORIZATION="Bearer zm_wrongwro_" + "x" * 40)

    assert response.status_code == 401
    assert [record.name for record in caplog.records if record.levelno >= logging.INFO] == ["zeromemory.requests"]
    [line] = _lines(caplog)
    assert line["status"] == 401
