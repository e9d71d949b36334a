"""Register the clock sweeper with django-celery-beat's DatabaseScheduler (every second)."""

from django.db import migrations

TASK = "games.tasks.sweep_turn_clocks"
NAME = "games: sweep turn clocks"


def create_periodic_task(apps, schema_editor):
    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    every_second, _ = IntervalSchedule.objects.get_or_create(every=1, period="seconds")
    PeriodicTask.objects.update_or_create(
        name=NAME,
        defaults={
            "task": TASK,
            "interval": every_second,
            "enabled": True,
            # A sweep older than a few seconds is pointless: the next one covers it.
            "expire_seconds": 5,
        },
    )


def remove_periodic_task(apps, schema_editor):
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    PeriodicTask.objects.filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0001_initial"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [migrations.RunPython(create_periodic_task, remove_periodic_task)]
