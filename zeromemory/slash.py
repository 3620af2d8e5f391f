"""An API path without its trailing slash is served as the path with it (SPEC R-V6).

Django's CommonMiddleware answers such a request with a 301 to the slashed path, and a client
that follows a 301 (or 302) sends a POST again as a GET: ``POST /api/v1/memories`` came back
as the feed, 200, with nothing stored. Serving the request in place keeps its method and body
and costs no round trip, for clients that follow redirects and for those that do not. The
admin's pages keep Django's redirect, which browsers follow.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.urls import is_valid_path

API_PREFIX = "/api/"


class ApiSlashMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        path = request.path_info
        if path.startswith(API_PREFIX) and not path.endswith("/"):
            urlconf = getattr(request, "urlconf", None)
            if not is_valid_path(path, urlconf) and is_valid_path(f"{path}/", urlconf):
                request.path_info = f"{path}/"
                request.path = f"{request.path}/"
        return self.get_response(request)
