"""Outliving failures (issue 32, item 4): task leases and a per-endpoint cap on webhooks.

- ``WorkerHeartbeat``: each task worker's last sign of life; a task RUNNING under a worker whose
  heartbeat has gone stale is put back in the queue (manage.py task_worker).
- ``WebhookDelivery.claimed_until``: set while a sender holds a delivery, so the claim can count
  an endpoint's deliveries in flight across every sender process.

Their indexes are built CONCURRENTLY in 0027 (outside a transaction): kept apart, so that a
failed build leaves this one applied whole and only 0027 to run again.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("memories", "0025_sentence_hnsw_index"),
    ]

    operations = [
        migrations.CreateModel(
            name="WorkerHeartbeat",
            fields=[
                ("worker_id", models.CharField(max_length=64, primary_key=True, serialize=False)),
                ("seen_at", models.DateTimeField()),
            ],
        ),
        migrations.AddField(
            model_name="webhookdelivery",
            name="claimed_until",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
