from __future__ import annotations

from django.apps import AppConfig


class MemoriesConfig(AppConfig):
    name = "memories"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from memories.api import schema  # noqa: F401 - registers the OpenAPI auth extension

        # Every connection sends the settings its statements need with them, where a
        # transaction-mode pooler keeps them (memories.statement_settings).
        connection_created.connect(_install_statement_settings, dispatch_uid="zeromemory.statement_settings")


def _install_statement_settings(sender: object, connection: object, **kwargs: object) -> None:
    from memories.statement_settings import install

    install(connection)
