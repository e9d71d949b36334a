"""A season's planned end (``Season.ends_at``) and the beat entry that closes due seasons.

``ratings.tasks.close_due_seasons`` runs every minute under django-celery-beat's
DatabaseScheduler (like the tasks of 0002) and closes, through ``ratings.seasons.close_season``,
every open season whose ``ends_at`` has passed; an empty ``ends_at`` closes only by hand.
"""

from django.db import migrations, models

NAME = "ratings: close due seasons"
TASK = "ratings.tasks.close_due_seasons"
SECONDS = 60


def create_periodic_task(apps, schema_editor):
    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    schedule, _ = IntervalSchedule.objects.get_or_create(every=SECONDS, period="seconds")
    PeriodicTask.objects.update_or_create(
        name=NAME,
        defaults={
            "task": TASK,
            "interval": schedule,
            "enabled": True,
            # A run older than its interval is pointless: the next one covers it.
            "expire_seconds": SECONDS,
        },
    )


def remove_periodic_task(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0013_bot_seats_at_their_level_rating"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [
        migrations.AddField(
            model_name="season",
            name="ends_at",
            field=models.DateTimeField(
                blank=True,
                help_text=(
                    "The season closes on its own at this time; leave empty to close it by hand."
                ),
                null=True,
                verbose_name="ends at",
            ),
        ),
        migrations.RunPython(create_periodic_task, remove_periodic_task),
    ]
