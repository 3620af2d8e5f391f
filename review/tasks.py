"""Background tasks. Enqueued only after commit; safe to run twice."""

from __future__ import annotations

from django_tasks import task

from review.pipeline import hygiene_check


@task()
def hygiene_check_task(memory_id: str) -> int:
    """Judge a newly written memory against its neighbours; returns the judgments made."""
    return len(hygiene_check(memory_id))
