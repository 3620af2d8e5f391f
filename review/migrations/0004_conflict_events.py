"""The review queue announces itself in the event feed (memories.FeedEvent): a trigger writes
``conflict.opened`` when a conflict is queued and ``conflict.resolved`` when it leaves
``pending`` (resolved or dismissed), in the same transaction, whichever path did it (the
pipeline, the sweep's bulk insert, a moderator, a declared supersede closing it)."""

from django.db import migrations

FORWARD = """
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

CREATE TRIGGER conflict_feed
    AFTER INSERT OR UPDATE OF status ON review_conflict
    FOR EACH ROW EXECUTE FUNCTION zeromemory_feed_from_conflict();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS conflict_feed ON review_conflict;
DROP FUNCTION IF EXISTS zeromemory_feed_from_conflict();
"""


class Migration(migrations.Migration):
    dependencies = [("review", "0003_choice_checks"), ("memories", "0016_events_and_webhooks")]

    operations = [migrations.RunSQL(FORWARD, BACKWARD)]
