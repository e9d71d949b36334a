"""Register the club seasons task with django-celery-beat's DatabaseScheduler (hourly): the
automatic seasons open on their first day and close after their last (idempotent)."""

from django.db import migrations

TASK = "tournaments.tasks.advance_club_seasons"
NAME = "tournaments: open and close the club seasons that are due"


def create_periodic_task(apps, schema_editor):
    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    hourly, _ = IntervalSchedule.objects.get_or_create(every=1, period="hours")
    PeriodicTask.objects.update_or_create(
        name=NAME,
        defaults={"task": TASK, "interval": hourly, "enabled": True, "expire_seconds": 3600},
    )


def remove_periodic_task(apps, schema_editor):
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    PeriodicTask.objects.filter(name=NAME).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0010_club_seasons"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [migrations.RunPython(create_periodic_task, remove_periodic_task)]
