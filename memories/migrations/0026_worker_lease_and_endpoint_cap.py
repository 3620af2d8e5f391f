"""Outliving failures (issue 32, item 4): task leases and a per-endpoint cap on webhooks.

- ``WorkerHeartbeat``: each task worker's last sign of life; a task RUNNING under a worker whose
  heartbeat has gone stale is put back in the queue (manage.py task_worker).
- ``WebhookDelivery.claimed_until``: set while a sender holds a delivery, so the claim can count
  an endpoint's deliveries in flight across every sender process.
- Three partial indexes, built CONCURRENTLY (both tables keep every row ever written): the
  deliveries in flight per endpoint, and the RUNNING tasks the reaper looks at on
  django-tasks-db's table (its own indexes cover only the waiting ones).
"""

from django.contrib.postgres.operations import AddIndexConcurrently
from django.db import migrations, models


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("memories", "0025_sentence_hnsw_index"),
        ("django_tasks_database", "0021_conditional_partial_index_ordering"),
    ]

    operations = [
        migrations.CreateModel(
            name="WorkerHeartbeat",
            fields=[
                ("worker_id", models.CharField(max_length=64, primary_key=True, serialize=False)),
                ("seen_at", models.DateTimeField()),
            ],
        ),
        migrations.AddField(
            model_name="webhookdelivery",
            name="claimed_until",
            field=models.DateTimeField(blank=True, null=True),
        ),
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
