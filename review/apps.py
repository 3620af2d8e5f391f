from __future__ import annotations

from django.apps import AppConfig


class ReviewConfig(AppConfig):
    name = "review"
    verbose_name = "review"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # review builds on memories through the hooks memories offers; never the reverse.
        from memories import hooks
        from review import checks  # noqa: F401 - registers the hygiene queue's system check
        from review.forks import conflict_open_fork, forks_accounted, forks_follow_head
        from review.services import conflicts_close_declared, enqueue_hygiene, rationales_scrub

        if enqueue_hygiene not in hooks.on_undeclared_write_committed:
            hooks.on_undeclared_write_committed.append(enqueue_hygiene)
        if conflicts_close_declared not in hooks.on_supersede_declared:
            hooks.on_supersede_declared.append(conflicts_close_declared)
        if rationales_scrub not in hooks.on_memories_purged:
            hooks.on_memories_purged.append(rationales_scrub)
        if conflict_open_fork not in hooks.on_fork:
            hooks.on_fork.append(conflict_open_fork)
        if forks_follow_head not in hooks.on_superseded:
            hooks.on_superseded.append(forks_follow_head)
        if forks_accounted not in hooks.fork_accounted:
            hooks.fork_accounted.append(forks_accounted)
