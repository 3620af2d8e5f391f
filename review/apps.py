from __future__ import annotations

from typing import Any

from django.apps import AppConfig


class ReviewConfig(AppConfig):
    name = "review"
    verbose_name = "Review"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # review builds on memories through the hooks memories offers; never the reverse.
        from memories import hooks
        from review import checks  # noqa: F401 - registers the hygiene queue's system check
        from review.forks import conflict_open_fork, forks_accounted, forks_follow_head
        from review.services import conflicts_close_declared, enqueue_hygiene, rationales_scrub

        registrations: list[tuple[list[Any], Any]] = [
            (hooks.on_undeclared_write_committed, enqueue_hygiene),
            (hooks.on_supersede_declared, conflicts_close_declared),
            (hooks.on_memories_purged, rationales_scrub),
            (hooks.on_fork, conflict_open_fork),
            (hooks.on_superseded, forks_follow_head),
            (hooks.fork_accounted, forks_accounted),
        ]
        for extension_point, handler in registrations:
            if handler not in extension_point:  # ready() may run twice (tests, reloads)
                extension_point.append(handler)
