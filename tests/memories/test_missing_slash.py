"""No lost writes on a missing slash (SPEC R-V6): an API path without its trailing slash is
served as the path with it, never redirected with a 301/302 that a client would follow as a GET."""

from __future__ import annotations

from typing import Any

import pytest
import requests

from memories.models import Memory, Project
from tests.conftest import Persona
from tests.factories import make_memory
from tests.memories.endpoints import REST_CASES, Objects, everything, fill


@pytest.mark.django_db(transaction=True)
def test_a_real_client_following_redirects_stores_a_post_without_the_slash_once(
    live_server: Any, alice: Persona
) -> None:
    response = requests.post(
        f"{live_server.url}/api/v1/memories",
        json={"content": "The staging database is db-4.", "project": "acme"},
        headers={"Authorization": f"Bearer {alice.token}"},
        allow_redirects=True,
        timeout=60,
    )

    assert response.history == []
    assert response.status_code == 201
    body = response.json()
    assert body["memory"]["content"] == "The staging database is db-4."
    assert list(Memory.objects.values_list("pk", "content")) == [(body["memory"]["id"], body["memory"]["content"])]


@pytest.mark.parametrize("route", sorted(REST_CASES))
def test_every_api_write_is_served_without_its_slash(route: str, dave: Persona, objects: Objects) -> None:
    path, body, _wrong = REST_CASES[route]
    before = everything()

    response = dave.client.post(fill(path, objects).rstrip("/"), fill(body, objects), format="json")

    assert response.status_code in (200, 201), response.content
    assert response["Content-Type"] == "application/json"
    assert (everything() != before) is (route not in {"recall", "context"})


@pytest.mark.parametrize("path", ["/api/v1/memories", "/api/v1/memories/{live}", "/api/v1/memories/{live}/history"])
def test_api_reads_are_served_without_their_slash_too(path: str, dave: Persona, objects: Objects) -> None:
    response = dave.client.get(fill(path, objects))

    assert response.status_code == 200
    assert response.json() == dave.client.get(fill(path, objects) + "/").json()


def test_a_feed_page_served_without_the_slash_links_to_the_slashed_path(alice: Persona, acme: Project) -> None:
    for n in range(3):
        make_memory(alice.user, f"Fact number {n} about the deploy.", project=acme)

    page = alice.client.get("/api/v1/memories?limit=2").json()

    assert page["next"].startswith("http://testserver/api/v1/memories/?")
    assert len(alice.client.get(page["next"]).json()["results"]) == 1


def test_a_path_that_is_not_an_api_route_with_or_without_the_slash_is_a_json_404(alice: Persona) -> None:
    response = alice.client.post("/api/v1/memorie", {"content": "x"}, format="json")

    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_the_admin_keeps_djangos_redirect(db: None) -> None:
    from django.test import Client

    assert Client().get("/admin")["Location"] == "/admin/"
