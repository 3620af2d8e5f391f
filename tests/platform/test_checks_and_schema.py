"""System checks, settings validation and the API's published schema."""

from __future__ import annotations

from django.core.management import call_command
from rest_framework.test import APIClient

from tests.factories import make_memory
from tests.helpers import assert_documented, remember, supersedes
from tests.platform.helpers import child_env, manage
from zeromemory.checks import check_pgvector, pgvector_version_problem


def test_pgvector_check_passes_on_the_real_database(db):
    assert check_pgvector(databases=["default"]) == []


def test_pgvector_older_than_0_8_is_an_error():
    assert pgvector_version_problem("default", "0.8.0") is None
    assert pgvector_version_problem("default", "0.10.1") is None
    problem = pgvector_version_problem("default", "0.7.4")
    assert problem is not None
    assert problem.id == "zeromemory.E004"


def test_database_checks_run_clean(db):
    call_command("check", "--database", "default")


def test_bad_settings_values_are_refused_at_start_up(tmp_path):
    result = manage("check", env=child_env(DJANGO_DEBUG="perhaps", ZEROMEMORY_DATA_DIR=str(tmp_path)))

    assert result.returncode != 0
    assert "DJANGO_DEBUG must be true or false" in result.stderr


def test_schema_and_docs_are_served_without_a_token(db):
    client = APIClient()

    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    docs = client.get("/api/docs/")

    assert schema.status_code == 200
    paths = schema.json()["paths"]
    assert set(paths) >= {
        "/api/v1/memories/",
        "/api/v1/memories/{memory_id}/",
        "/api/v1/memories/{memory_id}/forget/",
        "/api/v1/memories/{memory_id}/restore/",
        "/api/v1/memories/{memory_id}/history/",
        "/api/v1/links/",
        "/api/v1/recall/",
    }
    assert "examples" in str(paths["/api/v1/recall/"])
    assert "examples" in str(paths["/api/v1/memories/"]["post"])
    assert docs.status_code == 200
    assert b"swagger" in docs.content.lower()


def test_unknown_api_paths_answer_json_404(db):
    response = APIClient().get("/api/v1/nothing-here/")

    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_the_schema_generates_without_warnings_and_validates(db, tmp_path):
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yaml"))

    assert "bearerToken" in (tmp_path / "schema.yaml").read_text()


def test_pages_and_errors_are_answered_as_the_schema_documents(alice, bob, acme):
    old = make_memory(alice.user, "The standup is at 09:30.", project=acme)
    remember(alice, "The standup is at 09:45.", project="acme", links=supersedes(old.id))
    bobs = make_memory(bob.user, "Bob's note: the coffee machine is fixed.", project=acme).id
    feed, detail = "/api/v1/memories/", "/api/v1/memories/{memory_id}/"
    answers = [
        (alice.client.get(feed), "GET", feed),
        (alice.client.get(f"{feed}?state=nonsense"), "GET", feed),
        (alice.client.get(f"{feed}?project=nowhere"), "GET", feed),
        (APIClient().get(feed), "GET", feed),
        (alice.client.post(feed, {"content": ""}, format="json"), "POST", feed),
        (alice.client.post(feed, "just text", content_type="text/plain"), "POST", feed),
        (alice.client.get("/api/v1/memories/mem_nothing/"), "GET", detail),
        (alice.client.post(f"/api/v1/memories/{old.id}/forget/"), "POST", "/api/v1/memories/{memory_id}/forget/"),
        (alice.client.post(f"/api/v1/memories/{bobs}/forget/"), "POST", "/api/v1/memories/{memory_id}/forget/"),
        (alice.client.post("/api/v1/recall/", {"query": "x", "limit": 0}, format="json"), "POST", "/api/v1/recall/"),
        (alice.client.get("/api/v1/conflicts/"), "GET", "/api/v1/conflicts/"),
    ]

    statuses = [response.status_code for response, _, _ in answers]
    assert statuses == [200, 400, 404, 401, 400, 415, 404, 409, 403, 400, 200]
    for response, method, path in answers:
        assert_documented(response, method, path)


def test_the_lists_document_their_pagination(alice):
    document = APIClient().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    bad_cursor = alice.client.get("/api/v1/conflicts/?cursor=not-a-cursor")

    for path in ("/api/v1/memories/", "/api/v1/conflicts/"):
        assert {"cursor", "limit"} <= {p["name"] for p in document["paths"][path]["get"]["parameters"]}
    assert bad_cursor.status_code == 404
    assert_documented(bad_cursor, "GET", "/api/v1/conflicts/")


def test_the_interactive_docs_load_nothing_from_outside_the_server(client) -> None:
    """R-P4: Swagger UI's scripts, styles and icon come from the installed package, served here;
    every one the page names answers 200 from this server."""
    import re

    page = client.get("/api/docs/")

    assert page.status_code == 200
    html = page.content.decode()
    assets = re.findall(r"""(?:src|href)\s*=\s*["']([^"']+)["']""", html)
    assets += re.findall(r"""["'](/static/[^"']+)["']""", html)
    assert not [url for url in assets if re.match(r"^(?:[a-z]+:)?//", url)], assets
    assert "cdn.jsdelivr.net" not in html
    local = sorted({url for url in assets if url.startswith("/static/")})
    assert any(url.endswith("swagger-ui-bundle.js") for url in local), local
    assert any(url.endswith("swagger-ui.css") for url in local), local
    for url in local:
        asset = client.get(url)
        assert asset.status_code == 200, url
