"""No silent safety net (SPEC R-H10): when hygiene tasks wait and no worker takes them, `manage.py
check` warns and every admin page says so.

The tests queue through django-tasks-db's database backend (elsewhere tasks run inline), then move
the rows' times back as a queue left alone, or a worker's claim, would have left them.
"""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django_tasks_db.models import DBTaskResult, get_date_max

from review.health import HYGIENE_TASK_PATH, hygiene_queue_status
from review.tasks import hygiene_check_task

TABLE = DBTaskResult._meta.db_table


@pytest.fixture
def queue(db, settings) -> None:
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    settings.HYGIENE_STALL_SECONDS = 60


def _waiting(seconds: float) -> DBTaskResult:
    """A hygiene task enqueued ``seconds`` ago that no worker has taken."""
    result = hygiene_check_task.enqueue("mem_waiting")
    DBTaskResult.objects.filter(pk=result.id).update(enqueued_at=timezone.now() - timedelta(seconds=seconds))
    return DBTaskResult.objects.get(pk=result.id)


def _taken(seconds: float) -> DBTaskResult:
    """A hygiene task a worker took ``seconds`` ago and finished."""
    result = hygiene_check_task.enqueue("mem_taken")
    row = DBTaskResult.objects.get(pk=result.id)
    row.claim("worker-1")  # what db_worker does with the row it takes
    row.set_successful(0)
    started = timezone.now() - timedelta(seconds=seconds)
    DBTaskResult.objects.filter(pk=row.pk).update(enqueued_at=started, started_at=started)
    return DBTaskResult.objects.get(pk=row.pk)


def _check(*args: str) -> str:
    stdout, stderr = StringIO(), StringIO()
    call_command("check", *args, stdout=stdout, stderr=stderr)
    return stderr.getvalue() + stdout.getvalue()


@pytest.fixture
def admin_client(db) -> Client:
    client = Client()
    client.force_login(User.objects.create_superuser("root", password="correct horse battery"))
    return client


# -- manage.py check ---------------------------------------------------------------------------


def test_check_warns_when_a_task_has_waited_past_the_threshold_and_no_worker_took_one(queue):
    _waiting(seconds=300)
    _taken(seconds=3600)  # a worker ran, an hour ago

    output = _check()

    assert "review.W001" in output
    assert "1 hygiene task has been waiting since" in output
    assert "(5 minutes)" in output
    assert "a worker last took one at" in output
    assert "(1 hour ago)" in output
    assert "db_worker --queue-name '*'" in output  # the hint
    assert "./zm serve" in output


def test_check_names_how_many_wait_and_says_when_no_worker_ever_took_one(queue):
    _waiting(seconds=600)
    _waiting(seconds=120)
    _waiting(seconds=5)

    output = _check("--database", "default")

    assert "review.W001" in output
    assert "3 hygiene tasks have been waiting since" in output
    assert "(10 minutes)" in output
    assert "no worker has ever taken one" in output


def test_check_is_silent_when_nothing_waits(queue):
    _taken(seconds=3600)

    output = _check()

    assert "review.W001" not in output
    assert "no issues" in output


def test_check_is_silent_while_the_waiting_task_is_fresh(queue):
    _waiting(seconds=10)

    output = _check()

    status = hygiene_queue_status()
    assert status is not None
    assert status.waiting == 1
    assert "review.W001" not in output


def test_check_is_silent_when_a_worker_took_a_task_recently(queue):
    _waiting(seconds=300)
    _taken(seconds=20)  # the worker is busy: it took one twenty seconds ago

    output = _check()

    status = hygiene_queue_status()
    assert status is not None
    assert status.waiting == 1
    assert status.oldest_wait_seconds is not None
    assert status.oldest_wait_seconds >= 300
    assert "review.W001" not in output


def test_the_threshold_is_the_setting(queue, settings):
    _waiting(seconds=300)
    settings.HYGIENE_STALL_SECONDS = 600

    assert "review.W001" not in _check()

    settings.HYGIENE_STALL_SECONDS = 240
    assert "review.W001" in _check()


def test_a_deferred_task_waits_from_its_run_after_not_from_its_enqueueing(queue):
    now = timezone.now()
    ran_after = hygiene_check_task.using(run_after=now - timedelta(seconds=10)).enqueue("mem_due")
    hygiene_check_task.using(run_after=now + timedelta(hours=1)).enqueue("mem_later")
    DBTaskResult.objects.update(enqueued_at=now - timedelta(hours=2))

    status = hygiene_queue_status(now=now)

    assert status is not None
    assert status.waiting == 1  # the one deferred into the future is not waiting yet
    assert status.oldest_waiting_since == DBTaskResult.objects.get(pk=ran_after.id).run_after
    assert not status.stalled


def test_check_is_silent_when_tasks_run_inline(queue, settings):
    _waiting(seconds=300)
    assert "review.W001" in _check()

    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}

    assert "review.W001" not in _check()


def test_check_does_not_fail_before_the_task_table_exists(queue):
    _waiting(seconds=300)
    with connection.cursor() as cursor:  # undone with the test's transaction
        cursor.execute(f"ALTER TABLE {TABLE} RENAME TO zm_not_migrated_yet")

    output = _check()

    assert "review.W00" not in output
    assert "no issues" in output


def test_other_management_commands_do_not_read_the_queue(queue):
    """Only `check` asks: the worker's own start-up, migrate or a shell print nothing about it."""
    from django.core import checks

    _waiting(seconds=300)

    messages = checks.run_checks(databases=["default"])

    assert [message.id for message in messages if message.id and message.id.startswith("review.")] == []


def test_the_task_path_watched_is_the_hygiene_tasks(queue):
    assert hygiene_check_task.module_path == HYGIENE_TASK_PATH
    _waiting(seconds=300)
    assert DBTaskResult.objects.get().task_path == HYGIENE_TASK_PATH


# -- the admin banner ---------------------------------------------------------------------------


def test_every_admin_page_shows_the_banner_while_the_queue_is_stalled(queue, admin_client):
    _waiting(seconds=300)

    for url in ("/admin/", "/admin/review/conflict/", "/admin/memories/memory/"):
        page = admin_client.get(url)
        assert page.status_code == 200, url
        body = page.content.decode()
        assert 'id="zm-hygiene-stalled"' in body, url
        assert "Hygiene tasks are waiting and no worker is running." in body
        assert "1 hygiene task has been waiting since" in body
        assert "db_worker --queue-name" in body


@pytest.mark.parametrize(
    "setup",
    [
        pytest.param(lambda: None, id="nothing waits"),
        pytest.param(lambda: _waiting(seconds=10), id="the task is fresh"),
        pytest.param(lambda: (_waiting(seconds=300), _taken(seconds=20)), id="a worker took one recently"),
    ],
)
def test_the_admin_shows_no_banner_when_the_queue_is_not_stalled(queue, admin_client, setup):
    setup()

    page = admin_client.get("/admin/")

    assert page.status_code == 200
    assert "zm-hygiene-stalled" not in page.content.decode()


def test_the_login_page_shows_no_banner(queue):
    _waiting(seconds=300)

    page = Client().get("/admin/login/")

    assert page.status_code == 200
    assert "zm-hygiene-stalled" not in page.content.decode()


def test_the_banner_costs_one_query_per_page(queue, admin_client):
    _waiting(seconds=300)
    _taken(seconds=3600)

    with CaptureQueriesContext(connection) as queries:
        page = admin_client.get("/admin/")

    assert 'id="zm-hygiene-stalled"' in page.content.decode()
    assert len([query for query in queries if TABLE in query["sql"]]) == 1


def test_the_status_query_reads_the_two_indexes_not_the_table(queue):
    """However many tasks the table keeps, the waiting side reads the READY rows' partial index and
    the last start the started_at index (review migration 0002), not every task ever run."""
    finished = timezone.now() - timedelta(days=1)
    DBTaskResult.objects.bulk_create(
        DBTaskResult(
            status="SUCCESSFUL",
            args_kwargs={"args": [f"mem_{number}"], "kwargs": {}},
            task_path=HYGIENE_TASK_PATH,
            backend_name="default",
            run_after=get_date_max(),
            started_at=finished,
            finished_at=finished,
            return_value=0,
        )
        for number in range(5000)
    )
    _waiting(seconds=300)
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {TABLE}")
    with CaptureQueriesContext(connection) as queries:
        hygiene_queue_status()
    (statement,) = [query["sql"] for query in queries if TABLE in query["sql"]]

    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN {statement}")
        plan = "\n".join(row[0] for row in cursor.fetchall())

    assert "Index Scan using tasks_db_new_ordering_idx" in plan, plan
    assert "Index Scan Backward using review_task_started_at_idx" in plan, plan
    assert "Seq Scan" not in plan, plan
