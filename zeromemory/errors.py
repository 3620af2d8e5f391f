"""Django's error views for requests no view answered: JSON in the API's shape under /api/ and
/mcp/, Django's pages elsewhere (the admin)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse

from memories.agent.errors import error_body, server_error_body


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/") or request.path.startswith("/mcp")


def json_not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return JsonResponse(error_body("not_found", "No such endpoint."), status=404)


def handler404(request: HttpRequest, exception: Exception | None = None) -> Any:
    if _is_api(request):
        return json_not_found(request, exception)
    from django.views.defaults import page_not_found

    return page_not_found(request, exception or Exception())


def handler500(request: HttpRequest) -> Any:
    if _is_api(request):
        return JsonResponse(server_error_body(), status=500)
    from django.views.defaults import server_error

    return server_error(request)


def handler400(request: HttpRequest, exception: Exception | None = None) -> Any:
    if _is_api(request):
        return JsonResponse(error_body("bad_request", "The request could not be understood."), status=400)
    from django.views.defaults import bad_request

    return bad_request(request, exception or Exception())
