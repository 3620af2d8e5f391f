"""A conflict's slot (the subject and attribute both memories state, review.judges.slots), so
that the queue shows the conflicts of one slot as one decision; and the resolution a group's
"this one stands" records. Pending conflicts already queued get their slot here: a queue
upgraded in place groups like a new one."""

from django.conf import settings
from django.db import migrations, models


def backfill_slots(apps, schema_editor):
    from review.judges.slots import slot_key

    conflict_model = apps.get_model("review", "Conflict")
    pending = (
        conflict_model.objects.filter(status="pending", stale_version__isnull=True)
        .values_list("pk", "older__content", "newer__content", "older__kind", "newer__kind")
        .iterator(chunk_size=2000)
    )
    for pk, older, newer, kind_older, kind_newer in pending:
        slot = slot_key(older, newer, kind_older, kind_newer)
        if slot:
            conflict_model.objects.filter(pk=pk).update(slot=slot)


class Migration(migrations.Migration):
    dependencies = [
        ("memories", "0023_stale_versions"),
        ("review", "0005_fork_conflicts"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="conflict",
            name="conflict_resolution_valid",
        ),
        migrations.AddField(
            model_name="conflict",
            name="slot",
            field=models.CharField(blank=True, default="", max_length=200),
        ),
        migrations.AlterField(
            model_name="conflict",
            name="resolution",
            field=models.CharField(
                blank=True,
                choices=[
                    ("newer_supersedes", "Newer Supersedes"),
                    ("older_stands", "Older Stands"),
                    ("keep_both", "Keep Both"),
                    ("dismiss", "Dismiss"),
                    ("declared", "Declared"),
                    ("retired", "Retired"),
                    ("group_stands", "Group Stands"),
                ],
                default="",
                max_length=16,
            ),
        ),
        migrations.AddIndex(
            model_name="conflict",
            index=models.Index(
                condition=models.Q(("slot", ""), _negated=True),
                fields=["status", "slot"],
                name="conflict_status_slot_idx",
            ),
        ),
        migrations.AddConstraint(
            model_name="conflict",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("resolution", ""),
                    (
                        "resolution__in",
                        [
                            "newer_supersedes",
                            "older_stands",
                            "keep_both",
                            "dismiss",
                            "declared",
                            "retired",
                            "group_stands",
                        ],
                    ),
                    _connector="OR",
                ),
                name="conflict_resolution_valid",
            ),
        ),
        migrations.RunPython(backfill_slots, migrations.RunPython.noop),
    ]
