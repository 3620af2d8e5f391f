from django.db import migrations


class Migration(migrations.Migration):
    """Keep a memory's row whole up to 4 kB, and its vector in the row beyond (storage MAIN).

    PostgreSQL moves a row over ~2 kB out to its TOAST table, largest column first. With
    pgvector's EXTERNAL storage the vector (1.5 kB at 384 dimensions) was that column for any
    memory a little longer than a note — a chat turn: 300 bytes of text, 350 of lexemes — so
    every exact scan of the owner's vectors (similar_existing, recall within a project) fetched
    each one from the TOAST table, and took twice as long on chat turns as on notes. Measured on
    10,000 chat turns (bench/longtext.py; docs/performance.md, "Long text"), per query:

    * as before (EXTERNAL, rows over 2 kB toasted): exact scan of 5,000 vectors 33.6 ms, the
      lexical side's top 100 71.8 ms;
    * vector MAIN only: 21.7 ms and 92.9 ms — the lexemes, moved out instead, are read back for
      every row the lexical side matches;
    * vector MAIN and rows whole up to 4 kB (toast_tuple_target): 25.2 ms and 58.6 ms.

    A longer memory still moves its text and lexemes out; its vector leaves the row only as a
    last resort (a row over a whole page).

    Catalog changes only: no row is rewritten and the lock is held for an instant. Rows stored
    before keep their layout until rewritten; ``VACUUM FULL memories_memory`` (locks the table)
    or pg_repack (online) rewrites them all.
    """

    dependencies = [
        ("memories", "0023_stale_versions"),
    ]

    operations = [
        migrations.RunSQL(
            "ALTER TABLE memories_memory ALTER COLUMN embedding SET STORAGE MAIN",
            reverse_sql="ALTER TABLE memories_memory ALTER COLUMN embedding SET STORAGE EXTERNAL",
        ),
        migrations.RunSQL(
            "ALTER TABLE memories_memory SET (toast_tuple_target = 4080)",
            reverse_sql="ALTER TABLE memories_memory RESET (toast_tuple_target)",
        ),
    ]
