from __future__ import annotations

from typing import Any

from django.apps import AppConfig
from django.db.models.signals import post_migrate


def _check_feed_epoch(sender: Any, using: str, plan: Any = None, **kwargs: Any) -> None:
    # Every deploy and every ./zm serve migrates: a database that turned up in another cluster
    # (restored by other means than ./zm restore) moves its feed to a new epoch before anything
    # is written there (memories.services.feed_epoch). Not on a migration back to before the
    # epoch existed.
    from django.db import connections
    from django.db.migrations.recorder import MigrationRecorder

    if not MigrationRecorder(connections[using]).migration_qs.filter(app="memories", name="0029_feed_epoch").exists():
        return
    from memories.services.feed_epoch import feed_epoch_check

    feed_epoch_check(using=using)


class MemoriesConfig(AppConfig):
    name = "memories"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from memories.api import schema  # noqa: F401 - registers the OpenAPI auth extension

        # Every connection sends the settings its statements need with them, where a
        # transaction-mode pooler keeps them (memories.statement_settings).
        connection_created.connect(_install_statement_settings, dispatch_uid="zeromemory.statement_settings")

        post_migrate.connect(_check_feed_epoch, sender=self, dispatch_uid="memories.feed_epoch_check")


def _install_statement_settings(sender: object, connection: object, **kwargs: object) -> None:
    from memories.statement_settings import install

    install(connection)
