"""The conflict queue announces itself through the feed's own seam (issue 35): the trigger of
migration 0004 wrote into memories' table and named a column of it after review's conflicts;
it now calls ``zeromemory_feed_append()`` (memories migration 0033), which memories owns.
Same events, same data, same transaction (the row still takes ``txid_current()`` and the feed's
epoch), so readers and webhooks see nothing change. The conflict's id is the event's subject."""

from django.db import migrations

FORWARD = """
CREATE OR REPLACE FUNCTION zeromemory_feed_from_conflict() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM zeromemory_feed_append(
            'conflict.opened', NEW.newer_id, NEW.older_id, m.project_id, NEW.id,
            jsonb_build_object('conflict', NEW.id, 'older', NEW.older_id, 'newer', NEW.newer_id,
                               'relation', NEW.relation, 'confidence', NEW.confidence),
            NEW.opened_at)
        FROM memories_memory m WHERE m.id = NEW.newer_id;
    ELSIF OLD.status = 'pending' AND NEW.status <> 'pending' THEN
        PERFORM zeromemory_feed_append(
            'conflict.resolved', NEW.newer_id, NEW.older_id, m.project_id, NEW.id,
            jsonb_build_object('conflict', NEW.id, 'older', NEW.older_id, 'newer', NEW.newer_id,
                               'relation', NEW.relation, 'status', NEW.status,
                               'resolution', NEW.resolution),
            coalesce(NEW.resolved_at, now()))
        FROM memories_memory m WHERE m.id = NEW.newer_id;
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
"""

# Back to migration 0004's body, which writes the column by its old name: this migration is
# reversed before memories 0033 (it depends on it), whose reversal then renames the column back
# (PL/pgSQL resolves column names when the function runs, not when it is created).
BACKWARD = """
CREATE OR REPLACE FUNCTION zeromemory_feed_from_conflict() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO memories_feedevent
            (type, memory_id, other_memory_id, project_id, conflict_id, data, created_at, txid)
        SELECT 'conflict.opened', NEW.newer_id, NEW.older_id, m.project_id, NEW.id,
               jsonb_build_object('conflict', NEW.id, 'older', NEW.older_id, 'newer', NEW.newer_id,
                                  'relation', NEW.relation, 'confidence', NEW.confidence),
               NEW.opened_at, txid_current()
        FROM memories_memory m WHERE m.id = NEW.newer_id;
    ELSIF OLD.status = 'pending' AND NEW.status <> 'pending' THEN
        INSERT INTO memories_feedevent
            (type, memory_id, other_memory_id, project_id, conflict_id, data, created_at, txid)
        SELECT 'conflict.resolved', NEW.newer_id, NEW.older_id, m.project_id, NEW.id,
               jsonb_build_object('conflict', NEW.id, 'older', NEW.older_id, 'newer', NEW.newer_id,
                                  'relation', NEW.relation, 'status', NEW.status,
                                  'resolution', NEW.resolution),
               coalesce(NEW.resolved_at, now()), txid_current()
        FROM memories_memory m WHERE m.id = NEW.newer_id;
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
"""


class Migration(migrations.Migration):
    dependencies = [("review", "0006_conflict_slot"), ("memories", "0033_feed_subject")]

    operations = [migrations.RunSQL(FORWARD, BACKWARD)]
