import pgvector.django.indexes
from django.contrib.postgres.operations import AddIndexConcurrently
from django.db import migrations


class Migration(migrations.Migration):
    # Built without blocking writes (CONCURRENTLY cannot run inside a transaction): a store of
    # 100,000 chat turns has some 400,000 sentence rows, minutes of building.
    atomic = False

    dependencies = [
        ("memories", "0024_long_rows_in_place"),
    ]

    operations = [
        # The graph is built in memory (pgvector slows down when it outgrows maintenance_work_mem).
        migrations.RunSQL("SET maintenance_work_mem = '1GB'", reverse_sql=migrations.RunSQL.noop),
        AddIndexConcurrently(
            model_name="memorysentence",
            index=pgvector.django.indexes.HnswIndex(
                ef_construction=64,
                fields=["embedding"],
                m=16,
                name="memory_sentence_hnsw_idx",
                opclasses=["vector_cosine_ops"],
            ),
        ),
        migrations.RunSQL("RESET maintenance_work_mem", reverse_sql=migrations.RunSQL.noop),
    ]
