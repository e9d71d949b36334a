"""Each kind of notification is sent where its event happens (after the commit), once per
occurrence and person even when its task runs again, not to who switched it off, and in each
person's language and time zone."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.core import mail
from django.db import connection
from django.utils import timezone

from rosbi_platform.accounts.models import Profile
from rosbi_platform.notifications.models import Kind, Notification
from rosbi_platform.notifications.services import set_notification_choices
from tests.tournaments.factories import ClubFactory, UserFactory
from tests.tournaments.helpers import PLENTY, open_event, organiser_of, random_sheet, start_now
from tournaments import announcements, entries, events, notify, results, rounds, scheduler, tasks
from tournaments.models import AuditLog, Entry, Round, RoundTable, Tournament

pytestmark = [pytest.mark.django_db(transaction=True)]


def told(tournament: Tournament, kind: str) -> list[int]:
    return sorted(
        Notification.objects.filter(tournament_id=tournament.pk, kind=kind).values_list(
            "user_id", flat=True
        )
    )


def mails_to(user, word: str) -> list:
    return [m for m in mail.outbox if m.to == [user.email] and word in m.subject]


def twice_at_once(call) -> None:
    errors: list[BaseException] = []
    barrier = threading.Barrier(2)

    def run() -> None:
        try:
            barrier.wait()
            call()
        except BaseException as error:  # noqa: BLE001 - re-raised below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []


def german_in_tokyo(user) -> None:
    Profile.objects.filter(user=user).update(language="de", time_zone="Asia/Tokyo")


def planned_event(slug: str = "thursday", **fields) -> tuple[Tournament, object]:
    """Registration open, check-in not yet; starts in an hour (18:30 UTC on a fixed day)."""
    club = ClubFactory()
    organiser = organiser_of(club)
    now = timezone.now()
    tournament = events.create_tournament(
        club=club,
        by=organiser,
        name="Thursday Swiss",
        slug=slug,
        starts_at=now + PLENTY,
        registration_opens_at=now - PLENTY,
        **fields,
    )
    scheduler.advance_tournament(tournament.pk)
    return Tournament.objects.get(pk=tournament.pk), organiser


def test_registration_is_confirmed_once_and_again_after_registering_anew(eager_celery):
    tournament, _organiser = planned_event()
    player = UserFactory()

    entry = entries.register_entry(tournament.pk, player)

    assert told(tournament, Kind.REGISTRATION_CONFIRMED) == [player.pk]
    assert len(mails_to(player, "registered")) == 1
    audit = AuditLog.objects.filter(tournament=tournament, action="register_entry").get()
    twice_at_once(lambda: tasks.notify_registration(entry.pk, audit.pk))
    assert len(told(tournament, Kind.REGISTRATION_CONFIRMED)) == 1
    assert len(mails_to(player, "registered")) == 1

    entries.withdraw_entry(tournament.pk, player)
    entries.register_entry(tournament.pk, player)
    assert told(tournament, Kind.REGISTRATION_CONFIRMED) == [player.pk, player.pk]


def test_the_confirmation_is_in_the_players_language_and_zone(eager_celery):
    tournament, _organiser = planned_event()
    player = UserFactory()
    german_in_tokyo(player)

    entries.register_entry(tournament.pk, player)

    tokyo = tournament.starts_at.astimezone(dt.timezone(dt.timedelta(hours=9)))
    (sent,) = mails_to(player, "Rosbi")
    assert sent.subject == "Rosbi: angemeldet für Thursday Swiss"
    assert f"{tokyo:%H:%M} Uhr (Asia/Tokyo)" in sent.body
    notice = Notification.objects.get(user=player)
    assert notice.message.startswith("Du bist für Thursday Swiss angemeldet")


def test_check_in_open_tells_the_registered_once(eager_celery):
    tournament, organiser = planned_event()
    waiting, also_waiting, quiet = UserFactory.create_batch(3)
    for user in (waiting, also_waiting, quiet):
        entries.register_entry(tournament.pk, user)
    set_notification_choices(quiet, {Kind.CHECK_IN_OPEN: (False, False)})
    mail.outbox.clear()

    assert events.open_check_in(tournament.pk, by=organiser) is True

    assert told(tournament, Kind.CHECK_IN_OPEN) == sorted([waiting.pk, also_waiting.pk])
    assert len(mail.outbox) == 2 and all("check in" in m.subject for m in mail.outbox)
    audit = AuditLog.objects.get(tournament=tournament, action="check_in_open")
    twice_at_once(lambda: tasks.notify_check_in_open(tournament.pk, audit.pk))
    assert len(told(tournament, Kind.CHECK_IN_OPEN)) == 2 and len(mail.outbox) == 2


def test_a_round_in_ten_minutes_is_told_once_per_start_time(eager_celery):
    tournament, organiser = open_event(4, slug="soon")
    players = sorted(Entry.objects.filter(tournament=tournament).values_list("user_id", flat=True))
    first = Round.objects.get(tournament=tournament, number=1)
    set_notification_choices(
        Entry.objects.filter(tournament=tournament).first().user, {Kind.ROUND_SOON: (False, True)}
    )

    assert scheduler.advance_tournament(tournament.pk, now=first.scheduled_at - PLENTY) == 0
    assert told(tournament, Kind.ROUND_SOON) == []
    in_five = first.scheduled_at - dt.timedelta(minutes=5)
    scheduler.advance_tournament(tournament.pk, now=in_five)
    scheduler.advance_tournament(tournament.pk, now=in_five + dt.timedelta(seconds=15))
    twice_at_once(lambda: scheduler.advance_tournament(tournament.pk, now=in_five))

    listed = Notification.objects.filter(tournament_id=tournament.pk, kind=Kind.ROUND_SOON)
    assert sorted(listed.values_list("user_id", flat=True)) == players  # one each
    assert listed.filter(on_site=False).count() == 1  # the one who wants it by e-mail only
    assert len([m for m in mail.outbox if "starts soon" in m.subject]) == 1
    assert "round 1 starts soon, at" in listed.first().message
    assert Round.objects.get(pk=first.pk).status == Round.Status.PENDING  # nothing else moved

    later = first.scheduled_at + dt.timedelta(minutes=30)
    rounds.reschedule_round(first.pk, later, by=organiser)
    scheduler.advance_tournament(tournament.pk, now=later - dt.timedelta(minutes=9))
    assert listed.count() == 8  # told again, for the new time


def test_a_round_that_starts_now_or_is_on_hold_gets_no_reminder(eager_celery):
    tournament, organiser = open_event(4, slug="now")
    start_now(tournament, organiser)
    scheduler.advance_tournament(tournament.pk)
    assert told(tournament, Kind.ROUND_SOON) == []
    assert len(told(tournament, Kind.TABLE_READY)) == 4


def test_your_table_is_ready_respects_the_switch(eager_celery):
    tournament, organiser = open_event(4, slug="ready", mode=Tournament.Mode.PHYSICAL)
    quiet = Entry.objects.filter(tournament=tournament).first().user
    set_notification_choices(quiet, {Kind.TABLE_READY: (False, False)})
    mail.outbox.clear()

    start_now(tournament, organiser)
    scheduler.advance_tournament(tournament.pk)
    round_one = Round.objects.get(tournament=tournament, number=1)
    twice_at_once(lambda: tasks.notify_table_ready(round_one.pk))

    assert len(told(tournament, Kind.TABLE_READY)) == 3 and quiet.pk not in told(
        tournament, Kind.TABLE_READY
    )
    assert len(mail.outbox) == 3


def test_results_are_posted_once_with_each_players_place(eager_celery):
    tournament, organiser = open_event(4, slug="posted", mode=Tournament.Mode.PHYSICAL, rounds=1)
    german_in_tokyo(Entry.objects.filter(tournament=tournament).first().user)
    start_now(tournament, organiser)
    scheduler.advance_tournament(tournament.pk)
    table = RoundTable.objects.get(round__tournament=tournament)
    sheet = results.submit_physical_result(table.pk, random_sheet(4, "posted"), by=organiser)
    player = table.seats.get(seat=1).entry.user
    results.confirm_physical_result(sheet.pk, by=player)
    scheduler.advance_tournament(tournament.pk)

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    posted = Notification.objects.filter(tournament_id=tournament.pk, kind=Kind.RESULTS_POSTED)
    assert posted.count() == 4
    round_one = Round.objects.get(tournament=tournament)
    twice_at_once(lambda: tasks.notify_results(round_one.pk))
    assert posted.count() == 4
    ranks = {s.entry.user_id: s.rank for s in tournament.standings.select_related("entry")}
    for notice in posted.select_related("user__profile"):
        if notice.user.profile.language == "de":
            assert notice.message.endswith(f"(dein Platz: {ranks[notice.user_id]}).")
        else:
            assert "final standings are posted" in notice.message
            assert notice.message.endswith(f"(your place: {ranks[notice.user_id]}).")
    assert not [m for m in mail.outbox if "results" in m.subject]  # on the site by default


def test_a_changed_start_is_told_in_each_players_zone(eager_celery):
    tournament, organiser = planned_event()
    german, english = UserFactory.create_batch(2)
    german_in_tokyo(german)
    for user in (german, english):
        entries.register_entry(tournament.pk, user)
    mail.outbox.clear()

    events.update_tournament(tournament.pk, organiser, description="Bring a pen")
    assert told(tournament, Kind.EVENT_CHANGED) == []

    new_start = tournament.starts_at + dt.timedelta(days=1)
    events.update_tournament(tournament.pk, organiser, starts_at=new_start)

    assert told(tournament, Kind.EVENT_CHANGED) == sorted([german.pk, english.pk])
    tokyo = new_start.astimezone(dt.timezone(dt.timedelta(hours=9)))
    (de_mail,) = mails_to(german, "Rosbi")
    assert de_mail.subject == "Rosbi: Neuigkeiten zu Thursday Swiss"
    assert f"{tokyo:%H:%M} Uhr (Asia/Tokyo)" in de_mail.body
    (en_mail,) = mails_to(english, "Rosbi")
    assert f"{new_start.astimezone(dt.UTC):%H:%M} (Europe/Berlin)" not in en_mail.body
    assert "(Europe/Berlin)" in en_mail.body  # the profile's default zone, named
    audit = AuditLog.objects.filter(tournament=tournament, action="update_tournament").first()
    twice_at_once(lambda: tasks.notify_event(tournament.pk, "event_changed", audit.pk))
    assert len(told(tournament, Kind.EVENT_CHANGED)) == 2 and len(mail.outbox) == 2


def test_a_player_who_switched_confirmations_off_gets_none(eager_celery):
    tournament, _organiser = planned_event()
    player = UserFactory()
    set_notification_choices(player, {Kind.REGISTRATION_CONFIRMED: (False, False)})

    entries.register_entry(tournament.pk, player)

    assert told(tournament, Kind.REGISTRATION_CONFIRMED) == [] and mail.outbox == []


def test_a_cancellation_is_told_once_even_when_its_task_runs_again(eager_celery):
    tournament, organiser = planned_event()
    players = UserFactory.create_batch(3)
    for user in players:
        entries.register_entry(tournament.pk, user)
    mail.outbox.clear()

    events.cancel_tournament(tournament.pk, by=organiser)
    twice_at_once(lambda: notify.notify_event(tournament.pk, "cancelled"))
    notify.notify_event(tournament.pk, "cancelled")

    assert told(tournament, Kind.CANCELLED) == sorted([organiser.pk, *(u.pk for u in players)])
    assert len([m for m in mail.outbox if "news" in m.subject]) == 4


def test_an_announcement_reaches_every_active_entrant_once(eager_celery):
    tournament, organiser = planned_event()
    german, english, gone = UserFactory.create_batch(3)
    german_in_tokyo(german)
    for user in (german, english, gone):
        entries.register_entry(tournament.pk, user)
    entries.withdraw_entry(tournament.pk, gone)

    mail.outbox.clear()

    announcement = announcements.announce_to_entrants(
        tournament.pk, "Doors open at 19:00.", organiser, token="doors"
    )
    twice_at_once(lambda: notify.notify_announcement(announcement.pk))
    notify.notify_announcement(announcement.pk)

    assert told(tournament, Kind.ANNOUNCEMENT) == sorted([german.pk, english.pk])
    by_user = {
        n.user_id: n.message
        for n in Notification.objects.filter(tournament_id=tournament.pk, kind=Kind.ANNOUNCEMENT)
    }
    assert by_user[english.pk] == "Thursday Swiss, from the organisers: Doors open at 19:00."
    assert by_user[german.pk] == "Thursday Swiss, von den Organisatoren: Doors open at 19:00."
    assert sorted(m.to[0] for m in mail.outbox) == sorted([german.email, english.email])
