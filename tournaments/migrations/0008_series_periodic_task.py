"""Register the series task with django-celery-beat's DatabaseScheduler (hourly): every active
series creates the events of its next weeks (idempotent, one event per occurrence)."""

from django.db import migrations

TASK = "tournaments.tasks.create_series_events"
NAME = "tournaments: create the upcoming events of every series"


def create_periodic_task(apps, schema_editor):
    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    hourly, _ = IntervalSchedule.objects.get_or_create(every=1, period="hours")
    PeriodicTask.objects.update_or_create(
        name=NAME,
        defaults={
            "task": TASK,
            "interval": hourly,
            "enabled": True,
            # A late run is harmless but pointless once the next one is due.
            "expire_seconds": 3600,
        },
    )


def remove_periodic_task(apps, schema_editor):
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    PeriodicTask.objects.filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0007_series"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [migrations.RunPython(create_periodic_task, remove_periodic_task)]
