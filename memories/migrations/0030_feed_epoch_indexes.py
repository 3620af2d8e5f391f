from django.contrib.postgres.operations import AddIndexConcurrently, RemoveIndexConcurrently
from django.db import migrations, models


class Migration(migrations.Migration):
    # The feed's order is now (epoch, txid, id). Built without blocking writes (CONCURRENTLY
    # cannot run inside a transaction): the feed grows with every change ever made.
    atomic = False

    dependencies = [
        ("memories", "0029_feed_epoch"),
    ]

    operations = [
        AddIndexConcurrently(
            model_name="feedevent",
            index=models.Index(fields=["epoch", "txid", "id"], name="feed_event_epoch_order_idx"),
        ),
        AddIndexConcurrently(
            model_name="feedevent",
            index=models.Index(fields=["project", "epoch", "txid", "id"], name="feed_event_epoch_project_idx"),
        ),
        RemoveIndexConcurrently(model_name="feedevent", name="feed_event_order_idx"),
        RemoveIndexConcurrently(model_name="feedevent", name="feed_event_project_idx"),
    ]
