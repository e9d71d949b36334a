""" "Your turn" at turn-based (correspondence) tables: one notification per turn on the site
and by e-mail, however often its task runs; none at tables with a short clock; the switch."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games import lobby, queue, tasks, turn_notices
from games.events import EMAIL_TURN_SECONDS
from games.models import Table
from rosbi_platform import celery_app
from rosbi_platform.notifications.models import Kind, Notification
from rosbi_platform.notifications.services import set_notification_choices
from tests.games.live.helpers import humans_table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


def test_the_player_on_turn_is_told_once_per_turn(mailoutbox):
    table, users = humans_table(3, seed=2, turn_seconds=EMAIL_TURN_SECONDS)
    table.refresh_from_db()
    on_turn = users[table.turn_seat]
    args = (table.pk, table.turn_seat, table.state_version)

    errors: list[BaseException] = []

    def run() -> None:
        try:
            tasks.send_turn_email(*args)
        except BaseException as error:  # noqa: BLE001 - re-raised below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []

    notices = Notification.objects.filter(kind=Kind.YOUR_TURN)
    assert list(notices.values_list("user_id", flat=True)) == [on_turn.pk]
    assert notices.get().url == f"/tables/{table.pk}/"
    assert [m.to for m in mailoutbox] == [[on_turn.email]]
    assert notices.get().tournament_id is None  # a notification without an event


def test_a_table_with_a_short_clock_is_not_turn_based(mailoutbox):
    table, _users = humans_table(3, seed=2, turn_seconds=EMAIL_TURN_SECONDS - 1)
    table.refresh_from_db()
    assert not turn_notices.is_turn_based(table)
    assert turn_notices.notify_turn(table.pk, table.turn_seat, table.state_version) is False
    assert not Notification.objects.exists() and mailoutbox == []


def test_a_turn_that_has_passed_is_not_told(mailoutbox):
    table, _users = humans_table(3, seed=2, turn_seconds=86400)
    table.refresh_from_db()
    Notification.objects.all().delete()
    mailoutbox.clear()
    Table.objects.filter(pk=table.pk).update(state_version=table.state_version + 1)
    assert turn_notices.notify_turn(table.pk, table.turn_seat, table.state_version) is False
    assert not Notification.objects.exists() and mailoutbox == []


def test_switched_off_by_e_mail_the_turn_shows_on_the_site_only(mailoutbox):
    table, users = humans_table(3, seed=None, turn_seconds=86400)
    for user in users:
        set_notification_choices(user, {Kind.YOUR_TURN: (True, False)})
    lobby.start_table(table.pk, users[0], seed=2)
    table.refresh_from_db()

    assert mailoutbox == []
    notice = Notification.objects.get(kind=Kind.YOUR_TURN)
    assert notice.user_id == users[table.turn_seat].pk and notice.on_site
    assert queue.SEND_TURN_EMAIL in celery_app.tasks


def test_the_turn_mail_is_in_the_players_language(mailoutbox):
    """Issue 16, defect 6: the "your turn" e-mail was English only."""
    from rosbi_platform.accounts.models import Profile

    table, users = humans_table(3, seed=None, turn_seconds=EMAIL_TURN_SECONDS)
    Profile.objects.filter(user__in=users).update(language="de")
    lobby.start_table(table.pk, users[0], seed=2)
    table.refresh_from_db()
    tasks.send_turn_email(table.pk, table.turn_seat, table.state_version)

    [mail] = mailoutbox
    assert mail.to == [users[table.turn_seat].email]
    assert mail.subject == f"Rosbi: Du bist am Zug an {table.name}"
    assert "Du bist am Zug" in mail.body and "your turn" not in mail.body
    assert Notification.objects.get(kind=Kind.YOUR_TURN).message.startswith("Du bist am Zug")
