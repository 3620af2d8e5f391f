"""The landing page at / (issue 34): what a person who opens the server's address, or clicks
"View site" in the console, meets. Before it, / answered 404."""

from __future__ import annotations

import re

from django.test import Client


def test_the_landing_page_says_what_the_server_is_and_links_every_door(db):
    client = Client()

    page = client.get("/")

    assert page.status_code == 200
    html = page.content.decode()
    assert "<h1>zeromemory</h1>" in html
    links = set(re.findall(r'href="([^"]+)"', html))
    assert {"/api/docs/", "/api/schema/", "/admin/", "/healthz", "/readyz"} <= links
    # The MCP address as this request reached the server, in a config block a client takes.
    assert '"url": "http://testserver/mcp/"' in html
    for link in ("/api/schema/", "/healthz"):
        assert client.get(link).status_code == 200, link
    # No asset from elsewhere: the page is whole offline.
    assert not re.search(r'(src|href)="(https?:)?//', html)


def test_view_site_in_the_console_points_to_the_landing_page(db):
    from django.contrib.auth.models import User

    User.objects.create_superuser("root", password="pw")
    client = Client()
    client.force_login(User.objects.get(username="root"))

    index = client.get("/admin/")

    assert index.status_code == 200
    found = re.search(r'<a href="([^"]+)">View site</a>', index.content.decode())
    assert found is not None
    assert found.group(1) == "/"
    landing = client.get(found.group(1))
    assert landing.status_code == 200  # was 404
    assert "<h1>zeromemory</h1>" in landing.content.decode()
