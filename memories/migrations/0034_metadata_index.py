import django.contrib.postgres.indexes
from django.contrib.postgres.operations import AddIndexConcurrently
from django.db import migrations, models


class Migration(migrations.Migration):
    # Built without blocking writes (CONCURRENTLY cannot run inside a transaction).
    atomic = False

    dependencies = [
        ("memories", "0033_feed_subject"),
    ]

    operations = [
        AddIndexConcurrently(
            model_name="memory",
            index=django.contrib.postgres.indexes.GinIndex(
                condition=~models.Q(metadata={}),
                fields=["metadata"],
                name="memory_metadata_idx",
                opclasses=["jsonb_path_ops"],
            ),
        ),
    ]
