from django.db import migrations, models

# Restore read whether a memory was retired while pending review from its last retirement
# event's data ({"review": "rejected" | "withdrawn" | "replaced"}); the row now says so itself
# (Memory.retired_while_pending). Existing retired memories are carried over from that data: the
# latest superseded/forgotten event of each, in the order restore read it (created_at, id).
CARRY_OVER = """
UPDATE memories_memory AS memory
   SET retired_while_pending = true
 WHERE memory.state IN ('superseded', 'forgotten')
   AND (
       SELECT event.data ? 'review'
         FROM memories_memoryevent AS event
        WHERE event.memory_id = memory.id AND event.action IN ('superseded', 'forgotten')
        ORDER BY event.created_at DESC, event.id DESC
        LIMIT 1
   )
"""


class Migration(migrations.Migration):
    dependencies = [
        ("memories", "0031_retention"),
    ]

    operations = [
        migrations.AddField(
            model_name="memory",
            name="retired_while_pending",
            field=models.BooleanField(db_default=False, default=False),
        ),
        migrations.RunSQL(CARRY_OVER, reverse_sql=migrations.RunSQL.noop),
        migrations.AddConstraint(
            model_name="memory",
            constraint=models.CheckConstraint(
                condition=models.Q(("retired_while_pending", False), ("state__in", ["superseded", "forgotten"]), _connector="OR"),
                name="memory_retired_while_pending_is_retired",
            ),
        ),
    ]
