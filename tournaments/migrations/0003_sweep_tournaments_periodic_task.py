"""Register the tournament sweeper with django-celery-beat's DatabaseScheduler (every 15 s)."""

from django.db import migrations

TASK = "tournaments.tasks.sweep_tournaments"
NAME = "tournaments: advance due tournaments"


def create_periodic_task(apps, schema_editor):
    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    every_15s, _ = IntervalSchedule.objects.get_or_create(every=15, period="seconds")
    PeriodicTask.objects.update_or_create(
        name=NAME,
        defaults={
            "task": TASK,
            "interval": every_15s,
            "enabled": True,
            # A late sweep is pointless: the next one covers everything that is due.
            "expire_seconds": 30,
        },
    )


def remove_periodic_task(apps, schema_editor):
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    PeriodicTask.objects.filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0002_platform"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [migrations.RunPython(create_periodic_task, remove_periodic_task)]
