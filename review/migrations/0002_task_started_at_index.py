"""An index on django-tasks-db's task table for "when did a worker last take a task" (review.health).

The table is django-tasks-db's and keeps every task ever run; without this index that question
was a scan of all of them (0.3 s on a million rows) on every admin page while the queue is stalled.
Partial: waiting tasks (no start yet) stay out of it.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("review", "0001_initial"),
        ("django_tasks_database", "0021_conditional_partial_index_ordering"),
    ]

    operations = [
        migrations.RunSQL(
            sql=(
                "CREATE INDEX IF NOT EXISTS review_task_started_at_idx "
                "ON django_tasks_database_dbtaskresult (started_at) WHERE started_at IS NOT NULL"
            ),
            reverse_sql="DROP INDEX IF EXISTS review_task_started_at_idx",
        ),
    ]
