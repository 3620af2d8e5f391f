from __future__ import annotations

from django.apps import AppConfig
from django.contrib.admin.apps import AdminConfig


class ZeromemoryAdminConfig(AdminConfig):
    """django.contrib.admin with the project's site (failed logins throttled)."""

    default_site = "zeromemory.admin_site.ZeromemoryAdminSite"


class ZeromemoryConfig(AppConfig):
    name = "zeromemory"
    verbose_name = "zeromemory"

    def ready(self) -> None:
        # No database here: the embedded server is joined by the first connection
        # (zeromemory.embedded_postgresql) or by a server process as it starts.
        from zeromemory import checks  # noqa: F401 - registers the system checks
