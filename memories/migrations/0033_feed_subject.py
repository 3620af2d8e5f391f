"""The feed learns of other apps' events through a seam it owns (issue 35): the column that
named review's conflicts becomes a generic ``subject_id`` (the id of the thing an app's event is
about, in that app's own table; the data is kept), and ``zeromemory_feed_append()`` is the one
way a database trigger of another app writes a feed row. The function stamps the transaction id
like every feed row (FeedEvent's docstring) and the epoch comes from the column's default, so a
row appended through it sorts in the same (epoch, txid, id) order and reaches the webhooks'
outbox through the same trigger (migration 0016) as the memories' own rows."""

from django.db import migrations

APPEND = """
CREATE OR REPLACE FUNCTION zeromemory_feed_append(
    event_type text, memory text, other_memory text, project bigint, subject bigint, data jsonb,
    created_at timestamptz
) RETURNS void AS $$
    INSERT INTO memories_feedevent
        (type, memory_id, other_memory_id, project_id, subject_id, data, created_at, txid)
    VALUES (event_type, memory, other_memory, project, subject, data, created_at, txid_current());
$$ LANGUAGE sql VOLATILE;
"""

UNAPPEND = """
DROP FUNCTION IF EXISTS zeromemory_feed_append(text, text, text, bigint, bigint, jsonb, timestamptz);
"""


class Migration(migrations.Migration):
    dependencies = [
        ("memories", "0032_memory_retired_while_pending"),
    ]

    operations = [
        migrations.RenameField(model_name="feedevent", old_name="conflict_id", new_name="subject_id"),
        migrations.RunSQL(APPEND, UNAPPEND),
    ]
