"""The landing page at ``/``: what this server is and where each door is (the admin's "View
site" leads here; before it, ``/`` answered 404)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse


def home(request: HttpRequest) -> HttpResponse:
    # The MCP address as this request reached the server, so the example works where it is read.
    return render(request, "home.html", {"mcp_url": request.build_absolute_uri(reverse("mcp")).rstrip("/") + "/"})
