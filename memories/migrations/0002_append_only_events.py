"""The lifecycle log is append-only, enforced by the database (SPEC §8: events are never
updated or deleted), whatever code or role touches the table."""

from django.db import migrations

FORBID = """
CREATE OR REPLACE FUNCTION zeromemory_forbid_event_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'memory events are append-only: % is not allowed', TG_OP
        USING ERRCODE = 'integrity_constraint_violation';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER memoryevent_append_only
    BEFORE UPDATE OR DELETE ON memories_memoryevent
    FOR EACH ROW EXECUTE FUNCTION zeromemory_forbid_event_change();
"""

ALLOW = """
DROP TRIGGER IF EXISTS memoryevent_append_only ON memories_memoryevent;
DROP FUNCTION IF EXISTS zeromemory_forbid_event_change();
"""


class Migration(migrations.Migration):
    dependencies = [("memories", "0001_initial")]

    operations = [migrations.RunSQL(FORBID, ALLOW)]
