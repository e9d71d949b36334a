"""Rating rules version 2 (margin scale 32 in units 1.8 times larger, docs/ratings.md).

Existing ledgers hold ratings computed under version 1, so they are added with 1 and their
pool is recomputed from its history on its next update; new ledgers start at 2. A closed
season's ``reset_sigma`` is in rating points, so it is converted to the new units (the
recompute replays those resets).
"""

from django.db import migrations, models
from django.db.models import F

UNITS = 1.8  # rating points of version 2 per rating point of version 1


def seasons_to_new_units(apps, schema_editor):
    apps.get_model("ratings", "Season").objects.update(reset_sigma=F("reset_sigma") * UNITS)


def seasons_to_old_units(apps, schema_editor):
    apps.get_model("ratings", "Season").objects.update(reset_sigma=F("reset_sigma") / UNITS)


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0011_leaderboard_digest"),
    ]

    operations = [
        migrations.AddField(
            model_name="ratingledger",
            name="model_version",
            field=models.PositiveSmallIntegerField(default=1),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name="ratingledger",
            name="model_version",
            field=models.PositiveSmallIntegerField(default=2),
        ),
        migrations.AlterField(
            model_name="playerrating",
            name="sigma",
            field=models.FloatField(default=630.0),
        ),
        migrations.AlterField(
            model_name="season",
            name="reset_sigma",
            field=models.FloatField(default=270.0),
        ),
        migrations.RunPython(seasons_to_new_units, seasons_to_old_units),
    ]
