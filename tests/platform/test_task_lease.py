"""The reaper of the task lease (memories.platform.task_lease): which RUNNING tasks go back to the
queue, and that two reapers at once put a task back once. The whole story with real worker
processes is tests/platform/test_worker_lease.py."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from django_tasks_db.models import DBTaskResult, get_date_max

from memories.models import WorkerHeartbeat
from memories.platform.task_lease import tasks_requeue_abandoned, tasks_requeue_own, worker_beat
from tests.memories.test_remember_concurrency import run_together

pytestmark = pytest.mark.django_db(transaction=True)

LEASE = 30.0


def running(worker_ids: list[str], started_seconds_ago: float, backend: str = "default") -> DBTaskResult:
    return DBTaskResult.objects.create(
        status="RUNNING",
        args_kwargs={"args": ["m_1"], "kwargs": {}},
        task_path="review.tasks.hygiene_check_task",
        backend_name=backend,
        run_after=get_date_max(),
        started_at=timezone.now() - timedelta(seconds=started_seconds_ago),
        worker_ids=worker_ids,
    )


def beat(worker_id: str, seconds_ago: float) -> None:
    WorkerHeartbeat.objects.create(worker_id=worker_id, seen_at=timezone.now() - timedelta(seconds=seconds_ago))


def state(task: DBTaskResult) -> tuple[str, bool, list[str]]:
    task.refresh_from_db()
    return task.status, task.started_at is not None, task.worker_ids


def test_only_the_tasks_of_silent_workers_go_back_to_the_queue() -> None:
    beat("alive", 1)
    beat("silent", LEASE + 5)
    beat("was-silent-now-again", LEASE + 5)
    slow_but_alive = running(["alive"], LEASE * 10)
    abandoned = running(["silent"], LEASE + 10)
    never_beat = running(["gone-before-heartbeats"], LEASE + 10)
    just_claimed = running(["unknown-yet"], 1)  # its worker has had no time to beat yet
    retaken = running(["silent", "alive"], LEASE * 3)  # the last worker counts
    other_backend = running(["silent"], LEASE + 10, backend="other")
    finished = DBTaskResult.objects.create(
        status="SUCCESSFUL",
        args_kwargs={"args": [], "kwargs": {}},
        task_path="review.tasks.hygiene_check_task",
        backend_name="default",
        run_after=get_date_max(),
        started_at=timezone.now() - timedelta(hours=1),
        worker_ids=["silent"],
    )
    worker_beat(worker_id="was-silent-now-again")  # upserted to the database's now

    requeued = tasks_requeue_abandoned(backend_name="default", lease_seconds=LEASE)

    assert sorted(requeued) == sorted([str(abandoned.pk), str(never_beat.pk)])
    assert state(abandoned) == ("READY", False, ["silent"])
    assert state(never_beat) == ("READY", False, ["gone-before-heartbeats"])
    assert state(slow_but_alive) == ("RUNNING", True, ["alive"])
    assert state(just_claimed) == ("RUNNING", True, ["unknown-yet"])
    assert state(retaken) == ("RUNNING", True, ["silent", "alive"])
    assert state(other_backend) == ("RUNNING", True, ["silent"])
    assert state(finished) == ("SUCCESSFUL", True, ["silent"])
    assert WorkerHeartbeat.objects.get(worker_id="was-silent-now-again").seen_at > timezone.now() - timedelta(seconds=5)
    # A requeued task is taken like any other waiting one.
    assert set(DBTaskResult.objects.ready().values_list("pk", flat=True)) == {abandoned.pk, never_beat.pk}
    # And a second pass finds nothing more to do.
    assert tasks_requeue_abandoned(backend_name="default", lease_seconds=LEASE) == []


def test_eight_reapers_at_once_put_each_task_back_once() -> None:
    beat("silent", LEASE + 5)
    tasks = [running(["silent"], LEASE + 10) for _ in range(5)]

    results = run_together([lambda: tasks_requeue_abandoned(backend_name="default", lease_seconds=LEASE)] * 8)

    assert all(isinstance(result, list) for result in results), results
    requeued = [task_id for result in results for task_id in result]
    assert sorted(requeued) == sorted(str(task.pk) for task in tasks)
    assert [state(task)[0] for task in tasks] == ["READY"] * 5


def test_heartbeats_of_workers_gone_a_day_are_forgotten() -> None:
    beat("long-gone", 86400 + 60)
    beat("gone-an-hour", 3600)

    tasks_requeue_abandoned(backend_name="default", lease_seconds=LEASE)

    assert list(WorkerHeartbeat.objects.values_list("worker_id", flat=True)) == ["gone-an-hour"]


def test_a_worker_that_lost_the_database_puts_back_only_its_own_running_tasks() -> None:
    # The worker is alive and beats, so the lease never touches its task: it puts it back itself.
    beat("survivor", 1)
    beat("other", 1)
    mine = running(["survivor"], 1)
    retaken_by_other = running(["survivor", "other"], 1)
    others = running(["other"], 1)
    other_backend = running(["survivor"], 1, backend="other")
    assert tasks_requeue_abandoned(backend_name="default", lease_seconds=LEASE) == []

    requeued = tasks_requeue_own(worker_id="survivor", backend_name="default")

    assert requeued == [str(mine.pk)]
    assert state(mine) == ("READY", False, ["survivor"])
    assert state(retaken_by_other) == ("RUNNING", True, ["survivor", "other"])
    assert state(others) == ("RUNNING", True, ["other"])
    assert state(other_backend) == ("RUNNING", True, ["survivor"])
    assert tasks_requeue_own(worker_id="survivor", backend_name="default") == []
