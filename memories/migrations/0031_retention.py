from django.contrib.postgres.operations import AddIndexConcurrently
from django.db import migrations, models

# django-tasks-db's results table is not ours, so its index is plain SQL: the finished ones by
# when they finished, which is what the retention's batches read oldest first.
TASKS_FINISHED_INDEX = (
    "CREATE INDEX CONCURRENTLY IF NOT EXISTS memories_task_finished_idx"
    " ON django_tasks_database_dbtaskresult (finished_at) WHERE status IN ('SUCCESSFUL', 'FAILED')"
)


class Migration(migrations.Migration):
    # Retention (memories.platform.retention). The indexes are built without blocking writes
    # (CONCURRENTLY cannot run inside a transaction): the tables they cover are the ones that
    # have grown, unpruned, until now.
    atomic = False

    dependencies = [
        ("memories", "0030_feed_epoch_indexes"),
        ("django_tasks_database", "0021_conditional_partial_index_ordering"),
    ]

    operations = [
        migrations.CreateModel(
            name="MaintenanceRun",
            fields=[
                ("name", models.CharField(max_length=32, primary_key=True, serialize=False)),
                ("ran_at", models.DateTimeField()),
            ],
        ),
        AddIndexConcurrently(
            model_name="webhookdelivery",
            index=models.Index(
                condition=models.Q(("state", "delivered")), fields=["delivered_at"], name="delivery_delivered_idx"
            ),
        ),
        AddIndexConcurrently(
            model_name="webhookdelivery",
            index=models.Index(
                condition=models.Q(("state", "dead")), fields=["last_attempt_at"], name="delivery_dead_idx"
            ),
        ),
        migrations.RunSQL(TASKS_FINISHED_INDEX, "DROP INDEX CONCURRENTLY IF EXISTS memories_task_finished_idx"),
    ]
