"""Rating version 3: a bot seat counts as its level's measured rating (docs/ratings.md, "Bot
seats and farming").

Every rated Partie already recorded its bot seats' level (``participants[i]["bot_level"]``), so
each bot seat of a known level gets the rating and sigma its level had when this version was
adopted (``games/bots/ratings_table.py`` of 2 December 2026, copied here so the migration
never changes with a later re-measure); a bot seat without a known level keeps counting as
the fixed ``RATINGS_BOT_MU`` (1500). Existing ledgers keep version 2, so each pool is
recomputed from its history under the new rule on its next update; new ledgers start at 3.
"""

from django.db import migrations, models

# Level -> (rating, sigma) as measured by bench/bot_ratings.py (rating version 2 units).
MEASURED = {
    "random": (1332.0, 211.0),
    "beginner": (1482.0, 204.0),
    "heuristic": (1569.0, 204.0),
    "strong": (1684.0, 207.0),
    "expert": (1691.0, 206.0),
}
BATCH = 2000


def _rewrite(apps, change) -> None:
    RatedPartie = apps.get_model("ratings", "RatedPartie")
    batch = []
    for job in RatedPartie.objects.only("pk", "participants").iterator(chunk_size=BATCH):
        if change(job.participants):
            batch.append(job)
        if len(batch) >= BATCH:
            RatedPartie.objects.bulk_update(batch, ["participants"])
            batch = []
    if batch:
        RatedPartie.objects.bulk_update(batch, ["participants"])


def rate_bot_seats_at_their_level(apps, schema_editor):
    def change(people: list) -> bool:
        changed = False
        for person in people:
            measured = MEASURED.get(person.get("bot_level") or "")
            if person.get("user_id") is None and measured and person.get("bot_mu") is None:
                person["bot_mu"], person["bot_sigma"] = measured
                changed = True
        return changed

    _rewrite(apps, change)


def forget_bot_seat_ratings(apps, schema_editor):
    def change(people: list) -> bool:
        changed = False
        for person in people:
            if "bot_mu" in person or "bot_sigma" in person:
                person.pop("bot_mu", None)
                person.pop("bot_sigma", None)
                changed = True
        return changed

    _rewrite(apps, change)


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0012_rating_units_after_margin_32"),
    ]

    operations = [
        migrations.AlterField(
            model_name="ratingledger",
            name="model_version",
            field=models.PositiveSmallIntegerField(default=3),
        ),
        migrations.RunPython(rate_bot_seats_at_their_level, forget_bot_seat_ratings),
    ]
