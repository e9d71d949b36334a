"""Keep the tournaments' notices: each becomes a notification with the key the services use
now ("table_ready:table:<id>"; event notices, which had no dedupe key, get one of their own).

Reversible: going back moves the notifications about an event of the old kinds back."""

from django.db import migrations

OLD_KINDS = ("table_ready", "on_hold", "postponed", "cancelled", "announcement")


def key_of(notice) -> str:
    if notice.table_id is not None:
        return f"{notice.kind}:table:{notice.table_id}"
    return f"{notice.kind}:tournament:{notice.tournament_id}:notice-{notice.pk}"


def forwards(apps, schema_editor):
    Notice = apps.get_model("tournaments", "Notice")
    Notification = apps.get_model("notifications", "Notification")
    for notice in Notice.objects.all().order_by("pk").iterator():
        notification = Notification.objects.create(
            user_id=notice.user_id,
            kind=notice.kind,
            key=key_of(notice),
            message=notice.message,
            url=notice.url,
            tournament_id=notice.tournament_id,
            on_site=True,
            email_wanted=notice.emailed_at is not None,
            emailed_at=notice.emailed_at,
            read_at=notice.read_at,
        )
        # ``created`` is set on insert (auto_now_add): keep the notice's own time.
        Notification.objects.filter(pk=notification.pk).update(created=notice.created)


def backwards(apps, schema_editor):
    """Move the notifications about an event of the old kinds back into notices (the other
    kinds had no place there and stay)."""
    Notice = apps.get_model("tournaments", "Notice")
    Notification = apps.get_model("notifications", "Notification")
    Tournament = apps.get_model("tournaments", "Tournament")
    moved = Notification.objects.filter(
        tournament_id__in=Tournament.objects.values("pk"), kind__in=OLD_KINDS
    )
    for row in moved.order_by("pk").iterator():
        table_id = None
        if row.key.startswith("table_ready:table:"):
            table_id = int(row.key.rsplit(":", 1)[1])
        notice = Notice.objects.create(
            user_id=row.user_id,
            tournament_id=row.tournament_id,
            table_id=table_id,
            kind=row.kind,
            message=row.message,
            url=row.url,
            emailed_at=row.emailed_at,
            read_at=row.read_at,
        )
        Notice.objects.filter(pk=notice.pk).update(created=row.created)
    moved.delete()


class Migration(migrations.Migration):
    dependencies = [
        ("notifications", "0001_initial"),
        ("tournaments", "0011_club_seasons_periodic_task"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
