"""The indexes of 0026, built CONCURRENTLY (both tables keep every row ever written): an
endpoint's deliveries in flight and its due ones (the webhook claim), and the RUNNING tasks
the task lease's reaper looks at, on django-tasks-db's table (its own indexes cover only the
waiting ones). A failed concurrent build leaves an invalid index: drop it and migrate again
(docs/scaling.md)."""

from django.contrib.postgres.operations import AddIndexConcurrently
from django.db import migrations, models


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("memories", "0026_worker_lease_and_endpoint_cap"),
        ("django_tasks_database", "0021_conditional_partial_index_ordering"),
    ]

    operations = [
        AddIndexConcurrently(
            model_name="webhookdelivery",
            index=models.Index(
                condition=models.Q(("claimed_until__isnull", False), ("state", "pending")),
                fields=["endpoint", "claimed_until"],
                name="delivery_in_flight_idx",
            ),
        ),
        AddIndexConcurrently(
            model_name="webhookdelivery",
            index=models.Index(
                condition=models.Q(("state", "pending")),
                fields=["endpoint", "next_attempt_at", "id"],
                name="delivery_endpoint_due_idx",
            ),
        ),
        migrations.RunSQL(
            sql=(
                "CREATE INDEX CONCURRENTLY IF NOT EXISTS memories_task_running_idx "
                "ON django_tasks_database_dbtaskresult (started_at) WHERE status = 'RUNNING'"
            ),
            reverse_sql="DROP INDEX CONCURRENTLY IF EXISTS memories_task_running_idx",
        ),
    ]
