"""``send_notification``: one notification and at most one e-mail per occurrence and person,
run twice or from several threads at once; the person's switches; their language and zone."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.core import mail
from django.db import connection
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from rosbi_platform.accounts.models import Profile
from rosbi_platform.notifications import selectors, services
from rosbi_platform.notifications.models import Kind, Notification
from rosbi_platform.notifications.services import Message
from tests.platform.factories import UserFactory

pytestmark = [pytest.mark.django_db(transaction=True)]

MOMENT = dt.datetime(2026, 12, 10, 18, 30, tzinfo=dt.UTC)


def build() -> Message:
    """Written in the recipient's language and zone (``as_recipient``)."""
    return Message(
        text=_("Check-in for %(event)s is open until %(when)s: confirm that you play.")
        % {"event": "Cup", "when": services.time_text(MOMENT)},
        subject=_("Rosbi: check in for %(event)s") % {"event": "Cup"},
    )


def send(user, key: str = "check_in_open:tournament:1:1"):
    return services.send_notification(user, Kind.CHECK_IN_OPEN, key, build, "/tournaments/cup/")


def test_sent_twice_it_is_stored_and_mailed_once():
    user = UserFactory()

    first = send(user)
    second = send(user)

    assert first is not None and second is None
    assert Notification.objects.filter(user=user).count() == 1
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == [user.email]
    assert "http" in mail.outbox[0].body and "/tournaments/cup/" in mail.outbox[0].body
    stored = Notification.objects.get(user=user)
    assert stored.emailed_at is not None and stored.read_at is None
    # Another occurrence is another notification.
    assert send(user, key="check_in_open:tournament:1:2") is not None
    assert len(mail.outbox) == 2


def test_from_four_threads_at_once_one_notification_and_one_mail():
    users = UserFactory.create_batch(2)
    barrier = threading.Barrier(8)
    errors: list[BaseException] = []

    def run(user) -> None:
        try:
            barrier.wait()
            send(user)
        except BaseException as error:  # noqa: BLE001 - re-raised below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(u,)) for u in users for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert errors == []
    for user in users:
        assert Notification.objects.filter(user=user).count() == 1
    assert sorted(m.to[0] for m in mail.outbox) == sorted(u.email for u in users)


def test_a_mail_that_did_not_go_out_goes_on_the_next_run_and_only_then():
    user = UserFactory()
    # As if a worker stored the notification and died before its e-mail.
    Notification.objects.create(
        user=user,
        kind=Kind.CHECK_IN_OPEN,
        key="check_in_open:tournament:1:1",
        message="Check-in is open",
        subject="Rosbi: check in",
        url="/",
        email_wanted=True,
    )

    assert send(user) is None
    assert send(user) is None

    assert len(mail.outbox) == 1
    assert services.email_notification(Notification.objects.get(user=user).pk) is False


def test_switched_off_on_the_site_it_is_mailed_but_not_listed_or_counted():
    user = UserFactory()
    services.set_notification_choices(user, {Kind.CHECK_IN_OPEN: (False, True)})

    send(user)

    assert len(mail.outbox) == 1
    assert selectors.unread_count(user) == 0
    assert list(selectors.visible_notifications(user)) == []


def test_switched_off_by_e_mail_it_is_listed_but_not_mailed():
    user = UserFactory()
    services.set_notification_choices(user, {Kind.CHECK_IN_OPEN: (True, False)})

    send(user)

    assert mail.outbox == []
    assert selectors.unread_count(user) == 1


def test_switched_off_everywhere_nothing_is_stored_or_sent():
    user = UserFactory()
    services.set_notification_choices(user, {Kind.CHECK_IN_OPEN: (False, False)})

    assert send(user) is None

    assert mail.outbox == [] and not Notification.objects.filter(user=user).exists()


def test_one_switch_covers_every_news_of_an_event():
    user = UserFactory()
    services.set_notification_choices(user, {Kind.EVENT_CHANGED: (False, False)})

    for kind in (Kind.CANCELLED, Kind.POSTPONED, Kind.ON_HOLD, Kind.EVENT_CHANGED):
        services.send_notification(user, kind, f"{kind}:1", build, "/")

    assert not Notification.objects.filter(user=user).exists() and mail.outbox == []


def test_defaults_mail_all_but_the_frequent_kinds():
    user = UserFactory()
    by_email = {c.kind: c.email for c in selectors.choices_of(user)}
    assert by_email[Kind.TABLE_READY] and by_email[Kind.YOUR_TURN]
    assert not by_email[Kind.ROUND_SOON] and not by_email[Kind.RESULTS_POSTED]
    assert all(c.on_site for c in selectors.choices_of(user))

    services.send_notification(user, Kind.RESULTS_POSTED, "results:1", build, "/")

    assert mail.outbox == [] and selectors.unread_count(user) == 1


def test_no_address_no_mail_but_the_notice_is_kept():
    user = UserFactory(email="")
    send(user)
    assert mail.outbox == [] and selectors.unread_count(user) == 1


def test_written_in_the_recipients_language_and_time_zone():
    german = UserFactory()
    english = UserFactory()
    Profile.objects.filter(user=german).update(language="de", time_zone="Asia/Tokyo")
    Profile.objects.filter(user=english).update(language="en", time_zone="America/New_York")
    german.refresh_from_db()
    english.refresh_from_db()

    with translation.override("en"), timezone.override("UTC"):
        send(german)
        send(english)
        # The worker's own language and zone are left as they were.
        assert translation.get_language() == "en"
        assert timezone.get_current_timezone_name() == "UTC"

    by_address = {m.to[0]: m for m in mail.outbox}
    de_mail, en_mail = by_address[german.email], by_address[english.email]
    # 18:30 UTC is 03:30 the next day in Tokyo, 13:30 in New York.
    assert de_mail.subject == "Rosbi: Einchecken für Cup"
    assert "11. Dezember 2026, 03:30 Uhr (Asia/Tokyo)" in de_mail.body
    assert "Wähle, welche Benachrichtigungen du bekommst" in de_mail.body
    assert en_mail.subject == "Rosbi: check in for Cup"
    assert "Dec. 10, 2026 13:30 (America/New_York)" in en_mail.body
    assert Notification.objects.get(user=german).message.startswith("Das Einchecken für Cup")


def test_an_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="kind"):
        services.send_notification(UserFactory(), "gossip", "k", build, "/")


def test_marking_read_touches_only_the_persons_own():
    me, other = UserFactory.create_batch(2)
    send(me, key="a")
    send(me, key="b")
    theirs = send(other, key="a")

    assert services.mark_notifications_read(me, [theirs.pk]) == 0
    first = Notification.objects.filter(user=me).order_by("pk").first()
    assert services.mark_notifications_read(me, [first.pk]) == 1
    assert selectors.unread_count(me) == 1
    assert services.mark_notifications_read(me) == 1
    assert selectors.unread_count(me) == 0 and selectors.unread_count(other) == 1


def test_a_switch_that_does_not_exist_is_refused():
    with pytest.raises(ValueError, match="switch"):
        services.set_notification_choices(UserFactory(), {Kind.CANCELLED: (False, False)})
