"""Register the ratings tasks with django-celery-beat's DatabaseScheduler.

Matchmaking runs every 5 seconds; applying pending ratings runs every minute as a safety net
for a job whose after-commit task was lost (the receiver normally queues it at once).
"""

from django.db import migrations

TASKS = [
    # (name, task, seconds, expire_seconds)
    ("ratings: form ladder tables", "ratings.tasks.form_ladder_tables", 5, 5),
    ("ratings: apply pending ratings", "ratings.tasks.apply_pending_ratings", 60, 60),
]


def create_periodic_tasks(apps, schema_editor):
    IntervalSchedule = apps.get_model("django_celery_beat", "IntervalSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    for name, task, seconds, expire in TASKS:
        schedule, _ = IntervalSchedule.objects.get_or_create(every=seconds, period="seconds")
        PeriodicTask.objects.update_or_create(
            name=name,
            defaults={
                "task": task,
                "interval": schedule,
                "enabled": True,
                # A round older than its interval is pointless: the next one covers it.
                "expire_seconds": expire,
            },
        )


def remove_periodic_tasks(apps, schema_editor):
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    PeriodicTask.objects.filter(name__in=[name for name, *_ in TASKS]).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0001_initial"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [migrations.RunPython(create_periodic_tasks, remove_periodic_tasks)]
