import django.db.models.expressions
from django.db import migrations, models

# The feed's epoch (memories.models.FeedEpoch): one row, and a function the feed's new rows take
# their epoch from. The cluster's identity is read where the role may read it: managed services
# can refuse pg_control_*() to the application's role, and then the epoch is only changed by
# ./zm restore and the feed_epoch command (docs/operations.md).
EPOCH = """
CREATE OR REPLACE FUNCTION zeromemory_cluster_identity(OUT system_identifier bigint, OUT timeline integer) AS $$
BEGIN
    SELECT s.system_identifier INTO system_identifier FROM pg_control_system() s;
    SELECT c.timeline_id INTO timeline FROM pg_control_checkpoint() c;
EXCEPTION WHEN insufficient_privilege THEN
    system_identifier := NULL;
    timeline := NULL;
END;
$$ LANGUAGE plpgsql STABLE;

CREATE OR REPLACE FUNCTION zeromemory_feed_epoch() RETURNS bigint AS $$
    SELECT coalesce((SELECT epoch FROM memories_feedepoch WHERE id = 1), 0)
$$ LANGUAGE sql STABLE;

INSERT INTO memories_feedepoch (id, epoch, system_identifier, timeline, changed_at, reason)
SELECT 1, 0, i.system_identifier, i.timeline, now(), 'created' FROM zeromemory_cluster_identity() i;
"""

UNEPOCH = """
DROP FUNCTION zeromemory_feed_epoch();
DROP FUNCTION zeromemory_cluster_identity();
"""

# The events already written are epoch 0 (a constant default: no table rewrite); later rows take
# the current epoch. Cursors given out before this migration name no epoch and are read as 0.
COLUMN = """
ALTER TABLE memories_feedevent ADD COLUMN epoch bigint NOT NULL DEFAULT 0;
ALTER TABLE memories_feedevent ALTER COLUMN epoch SET DEFAULT zeromemory_feed_epoch();
"""


class Migration(migrations.Migration):
    dependencies = [
        ("memories", "0028_credential_read_after_lsn"),
    ]

    operations = [
        migrations.CreateModel(
            name="FeedEpoch",
            fields=[
                ("id", models.PositiveSmallIntegerField(default=1, primary_key=True, serialize=False)),
                ("epoch", models.BigIntegerField()),
                ("system_identifier", models.BigIntegerField(blank=True, null=True)),
                ("timeline", models.IntegerField(blank=True, null=True)),
                ("changed_at", models.DateTimeField()),
                ("reason", models.CharField(max_length=200)),
            ],
            options={
                "constraints": [models.CheckConstraint(condition=models.Q(("id", 1)), name="feed_epoch_single_row")],
            },
        ),
        migrations.RunSQL(EPOCH, reverse_sql=UNEPOCH),
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(COLUMN, reverse_sql="ALTER TABLE memories_feedevent DROP COLUMN epoch"),
            ],
            state_operations=[
                migrations.AddField(
                    model_name="feedevent",
                    name="epoch",
                    field=models.BigIntegerField(
                        db_default=django.db.models.expressions.RawSQL("zeromemory_feed_epoch()", ()), editable=False
                    ),
                ),
            ],
        ),
    ]
