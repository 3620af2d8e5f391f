"""Background tasks. Enqueued only after commit; safe to run twice.

A task can run twice: a worker killed mid-task leaves it RUNNING until its lease runs out, and
then another worker runs it again (memories.platform.task_lease). Why that is safe here:
``hygiene_check`` judges only a live memory, skips pairs judged already, and records each
verdict with what it does (a supersede, a queued conflict) in one transaction keyed on the
unique pair (older, newer). A first run cut off mid-way committed whole pairs or nothing, and a
second run that meets a pair the first recorded loses on the key and leaves it (IntegrityError,
nothing applied); a pending conflict is never queued twice (R-H9)."""

from __future__ import annotations

from django_tasks import task

from review.pipeline import hygiene_check


@task()
def hygiene_check_task(memory_id: str) -> int:
    """Judge a newly written memory against its neighbours; returns the judgments made."""
    return len(hygiene_check(memory_id))
