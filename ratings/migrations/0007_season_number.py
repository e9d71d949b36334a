"""Seasons get a number; "Season N" is worded at display time in the reader's language, so the
names stored in English by earlier versions are cleared (an organiser's own name is kept)."""

import re

from django.db import migrations, models

DEFAULT_NAME = re.compile(r"^Season (\d+)$")


def number_seasons(apps, schema_editor):
    Season = apps.get_model("ratings", "Season")
    counters: dict[str, int] = {}
    for season in Season.objects.order_by("pool", "started_at", "pk"):
        counters[season.pool] = counters.get(season.pool, 0) + 1
        season.number = counters[season.pool]
        match = DEFAULT_NAME.match(season.name)
        if match:
            season.number = int(match.group(1))
            season.name = ""
        season.save(update_fields=["number", "name"])


def name_seasons(apps, schema_editor):
    Season = apps.get_model("ratings", "Season")
    for season in Season.objects.filter(name=""):
        season.name = f"Season {season.number}"
        season.save(update_fields=["name"])


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0006_collusion_report_permission"),
    ]

    operations = [
        migrations.AddField(
            model_name="season",
            name="number",
            field=models.PositiveIntegerField(default=1, verbose_name="number"),
        ),
        migrations.AlterField(
            model_name="season",
            name="name",
            field=models.CharField(
                blank=True,
                help_text="Leave empty to show “Season N” in each reader's language.",
                max_length=80,
                verbose_name="name",
            ),
        ),
        migrations.RunPython(number_seasons, name_seasons),
    ]
