from __future__ import annotations

from django.contrib import admin
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from memories.mcp.views import mcp_endpoint
from zeromemory.views import home

urlpatterns = [
    path("", home, name="home"),
    path("admin/", admin.site.urls),
    path("api/v1/", include("memories.api.urls")),
    path("api/v1/", include("review.api.urls")),
    # Both spellings answer directly: a redirect would turn an MCP client's POST into a GET.
    re_path(r"^mcp/?$", mcp_endpoint, name="mcp"),
    path("api/schema/", SpectacularAPIView.as_view(authentication_classes=[], permission_classes=[]), name="schema"),
    path(
        "api/docs/",
        SpectacularSwaggerView.as_view(url_name="schema", authentication_classes=[], permission_classes=[]),
        name="api-docs",
    ),
]

handler400 = "zeromemory.errors.handler400"
handler404 = "zeromemory.errors.handler404"
handler500 = "zeromemory.errors.handler500"
