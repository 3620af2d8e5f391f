from __future__ import annotations

from django.apps import AppConfig
from django.conf import settings
from django.contrib.admin.apps import AdminConfig


class ZeromemoryAdminConfig(AdminConfig):
    """django.contrib.admin with the project's site (failed logins throttled)."""

    default_site = "zeromemory.admin_site.ZeromemoryAdminSite"


class ZeromemoryConfig(AppConfig):
    name = "zeromemory"
    verbose_name = "zeromemory"

    def ready(self) -> None:
        from zeromemory import checks  # noqa: F401 - registers the system checks

        if settings.EMBEDDED_DATABASE:
            from zeromemory.embedded_db import ensure_running

            # Every Django process (server, worker, management command, tests) joins the
            # embedded server here; the last one to exit stops it.
            ensure_running(settings.DATA_DIR)
