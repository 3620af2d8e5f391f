"""Structured request logs: one JSON line per request with an id, never a secret or content."""

from __future__ import annotations

import json
import logging

import pytest

from tests.conftest import Persona


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
