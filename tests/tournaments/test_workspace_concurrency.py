"""The workspace's writes happen once even when the same request arrives twice at the same
moment (a double tap, a retried POST, two organisers at the door): one entry, one
announcement, one notice per entrant, one substitution."""

from __future__ import annotations

import pytest

from rosbi_platform.notifications.models import Notification
from tests.tournaments.factories import UserFactory
from tests.tournaments.helpers import audit_actions, open_event, run_at_once
from tournaments import announcements, entries, notify, rounds
from tournaments.models import Announcement, AnnouncementDelivery, Entry, Round, RoundSeat

pytestmark = [pytest.mark.django_db(transaction=True)]


def test_adding_the_same_player_twice_at_once_enters_them_once():
    tournament, organiser = open_event(3, slug="race-add")
    newcomer = UserFactory()
    errors = run_at_once(
        [lambda: entries.add_entry(tournament.pk, newcomer, organiser, check_in_now=True)],
        copies=3,
    )
    assert errors == []
    assert Entry.objects.filter(tournament=tournament, user=newcomer).count() == 1
    assert audit_actions(tournament).count("add_entry") == 1


def test_an_announcement_sent_twice_at_once_is_posted_and_delivered_once():
    tournament, organiser = open_event(3, slug="race-news")
    errors = run_at_once(
        [lambda: announcements.announce_to_entrants(tournament.pk, "Pizza!", organiser, token="k")],
        copies=3,
    )
    assert errors == []
    announcement = Announcement.objects.get(tournament=tournament)
    errors = run_at_once([lambda: notify.notify_announcement(announcement.pk)], copies=3)
    assert errors == []
    assert AnnouncementDelivery.objects.filter(announcement=announcement).count() == 3
    told = Notification.objects.filter(tournament_id=tournament.pk, kind="announcement")
    assert told.count() == 3


def test_a_substitution_sent_twice_at_once_is_made_once():
    tournament, organiser = open_event(8, slug="race-sub")
    round_ = Round.objects.get(tournament=tournament, number=1)
    rounds.seat_round(round_.pk, by=organiser)
    seat = RoundSeat.objects.filter(round=round_).first()
    substitute = UserFactory()
    errors = run_at_once(
        [lambda: rounds.substitute_player(round_.pk, seat.entry_id, substitute, organiser)],
        copies=2,
    )
    assert errors == []
    assert RoundSeat.objects.get(pk=seat.pk).entry.user == substitute
    assert audit_actions(tournament).count("substitute_player") == 1
