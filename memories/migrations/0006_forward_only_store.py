"""The store is forward-only, and the database keeps it so (SPEC §8, whatever code or role
touches the tables): memories and links are never deleted; a memory's identity, content,
owner and creation time never change; lifecycle moves only live → superseded | forgotten and
back to live (restore); a superseded memory's successor is never overwritten; a link only
ever goes from active to reverted."""

from django.db import migrations

FORWARD = """
CREATE OR REPLACE FUNCTION zeromemory_memory_forward_only() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'memories are never deleted (%), retire them instead', OLD.id
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    IF NEW.id <> OLD.id OR NEW.content IS DISTINCT FROM OLD.content OR NEW.owner_id <> OLD.owner_id
       OR NEW.created_at <> OLD.created_at THEN
        RAISE EXCEPTION 'a memory''s id, content, owner and creation time never change (%)', OLD.id
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    IF NEW.state <> OLD.state AND NOT (
        (OLD.state = 'live' AND NEW.state IN ('superseded', 'forgotten'))
        OR (OLD.state IN ('superseded', 'forgotten') AND NEW.state = 'live')
    ) THEN
        RAISE EXCEPTION 'lifecycle transition % -> % is not allowed (%)', OLD.state, NEW.state, OLD.id
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    IF OLD.state = 'superseded' AND NEW.state = 'superseded'
       AND NEW.superseded_by_id IS DISTINCT FROM OLD.superseded_by_id THEN
        RAISE EXCEPTION 'the successor of % is never overwritten', OLD.id
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER memory_forward_only
    BEFORE UPDATE OR DELETE ON memories_memory
    FOR EACH ROW EXECUTE FUNCTION zeromemory_memory_forward_only();

CREATE OR REPLACE FUNCTION zeromemory_link_forward_only() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'links are never deleted (%), they are marked reverted', OLD.id
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    IF NEW.id <> OLD.id OR NEW.src_id <> OLD.src_id OR NEW.dst_id <> OLD.dst_id OR NEW.type <> OLD.type
       OR NEW.origin <> OLD.origin OR NEW.created_at <> OLD.created_at OR (OLD.reverted AND NOT NEW.reverted) THEN
        RAISE EXCEPTION 'a link only changes from active to reverted (%)', OLD.id
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER link_forward_only
    BEFORE UPDATE OR DELETE ON memories_link
    FOR EACH ROW EXECUTE FUNCTION zeromemory_link_forward_only();
"""

BACKWARD = """
DROP TRIGGER IF EXISTS memory_forward_only ON memories_memory;
DROP FUNCTION IF EXISTS zeromemory_memory_forward_only();
DROP TRIGGER IF EXISTS link_forward_only ON memories_link;
DROP FUNCTION IF EXISTS zeromemory_link_forward_only();
"""


class Migration(migrations.Migration):
    dependencies = [("memories", "0005_embedding_hnsw_index")]

    operations = [migrations.RunSQL(FORWARD, BACKWARD)]
