from django.db import migrations, models


class Migration(migrations.Migration):
    # A nullable column without a default: a catalog change, no table rewrite.
    dependencies = [
        ("memories", "0027_lease_and_cap_indexes"),
    ]

    operations = [
        migrations.AddField(
            model_name="credential",
            name="read_after_lsn",
            field=models.BigIntegerField(blank=True, editable=False, null=True),
        ),
    ]
