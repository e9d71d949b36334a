"""The tournaments' notices move into notifications with their data (reads, e-mails, times,
dedupe keys) and move back when the migration is reversed."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from rosbi_platform.notifications.models import Notification
from rosbi_platform.notifications.services import Message, send_notification

pytestmark = [pytest.mark.django_db(transaction=True)]

BEFORE = [("tournaments", "0011_club_seasons_periodic_task"), ("notifications", "0001_initial")]
AFTER = [
    ("tournaments", "0012_round_reminded_for_delete_notice"),
    ("notifications", "0002_from_tournament_notices"),
]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


def test_notices_move_to_notifications_and_back():
    try:
        old = migrate(BEFORE)
        user = old.get_model("accounts", "User").objects.create(username="ada", email="a@x.org")
        club = old.get_model("accounts", "Club").objects.create(name="Hirschen", slug="hirschen")
        tournament = old.get_model("tournaments", "Tournament").objects.create(
            club=club, name="Cup", slug="cup", starts_at=timezone.now()
        )
        round_ = old.get_model("tournaments", "Round").objects.create(
            tournament=tournament, number=1
        )
        table = old.get_model("tournaments", "RoundTable").objects.create(
            round=round_, number=1, size=4
        )
        Notice = old.get_model("tournaments", "Notice")
        sent = timezone.now() - dt.timedelta(days=2)
        ready = Notice.objects.create(
            user=user,
            tournament=tournament,
            table=table,
            message="Your table",
            url="/t/1/",
            emailed_at=sent,
            read_at=sent,
        )
        Notice.objects.filter(pk=ready.pk).update(created=sent)
        for _ in range(2):  # the old hole: event notices were never deduplicated
            Notice.objects.create(
                user=user, tournament=tournament, kind="cancelled", message="Off", url="/c/"
            )

        migrate(AFTER)

        moved = list(Notification.objects.order_by("pk"))
        assert [(n.kind, n.message, n.tournament_id) for n in moved] == [
            ("table_ready", "Your table", tournament.pk),
            ("cancelled", "Off", tournament.pk),
            ("cancelled", "Off", tournament.pk),
        ]
        assert moved[0].key == f"table_ready:table:{table.pk}"
        assert moved[0].created == sent and moved[0].read_at == sent
        assert moved[0].emailed_at == sent and moved[0].email_wanted
        assert moved[1].emailed_at is None and not moved[1].email_wanted
        # A rerun of the old "your table is ready" task finds the moved notice: told once.
        assert (
            send_notification(
                moved[0].user,
                "table_ready",
                f"table_ready:table:{table.pk}",
                lambda: Message("Your table", "Ready"),
                "/t/1/",
            )
            is None
        )

        back = migrate(BEFORE)
        restored = back.get_model("tournaments", "Notice").objects.order_by("pk")
        assert [(n.kind, n.table_id, n.read_at) for n in restored] == [
            ("table_ready", table.pk, sent),
            ("cancelled", None, None),
            ("cancelled", None, None),
        ]
        assert not Notification.objects.exists()  # moved back, not copied
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
