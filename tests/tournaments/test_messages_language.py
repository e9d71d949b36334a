"""Refusals, confirmations and "your table is ready" notices reach people in their language:
German from the catalogue when German is active (cookie, profile), English otherwise."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.messages import get_messages
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from rosbi_platform.accounts.models import ClubMembership, Profile
from rosbi_platform.notifications.models import Notification
from tests.tournaments.factories import ClubFactory, UserFactory
from tests.tournaments.helpers import PLENTY, open_event, organiser_of, start_now
from tournaments import entries, events, scheduler
from tournaments.common import TournamentError
from tournaments.models import Entry, Tournament

pytestmark = [pytest.mark.django_db(transaction=True)]


def event_not_open_yet() -> Tournament:
    club = ClubFactory()
    return events.create_tournament(
        club=club,
        by=organiser_of(club),
        name="Herbstcup",
        slug="herbstcup",
        starts_at=timezone.now() + PLENTY,
    )


def client_in(language: str | None, user) -> Client:
    """A logged-in browser; ``language`` is the cookie the site's language switch sets."""
    client = Client()
    client.force_login(user)
    if language is not None:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


@pytest.mark.parametrize(
    ("language", "expected"),
    [("de", "Die Anmeldung ist nicht geöffnet."), ("en", "Registration is not open.")],
)
def test_a_service_refusal_is_worded_in_the_active_language(eager_celery, language, expected):
    tournament = event_not_open_yet()

    with translation.override(language), pytest.raises(TournamentError) as refused:
        entries.register_entry(tournament.pk, UserFactory())

    assert str(refused.value) == expected


def test_placeholders_keep_their_values_in_german(eager_celery):
    club = ClubFactory()
    tournament = events.create_tournament(
        club=club,
        by=organiser_of(club),
        name="Meistercup",
        slug="meistercup",
        starts_at=timezone.now() + PLENTY,
        registration_opens_at=timezone.now() - PLENTY,
        min_rating=1600,
    )
    scheduler.advance_tournament(tournament.pk)

    with translation.override("de"), pytest.raises(TournamentError) as refused:
        entries.register_entry(tournament.pk, UserFactory())  # no stored rating: 1500

    assert str(refused.value) == "Deine Wertung 1500 liegt unter 1600."
    assert not Entry.objects.filter(tournament=tournament).exists()


@pytest.mark.parametrize(
    ("language", "expected"),
    [("de", "Die Anmeldung ist nicht geöffnet."), (None, "Registration is not open.")],
)
def test_the_event_page_shows_a_refusal_in_the_visitors_language(eager_celery, language, expected):
    tournament = event_not_open_yet()
    client = client_in(language, UserFactory())

    response = client.post(reverse("tournaments:action", args=[tournament.slug, "register"]))

    assert response.status_code == 302
    assert [str(m) for m in get_messages(response.wsgi_request)] == [expected]


@pytest.mark.parametrize(
    ("language", "expected"),
    [("de", "Das können nur die Organisatoren des Vereins."), ("en", "Only the club's organisers")],
)
def test_organiser_actions_are_refused_in_the_visitors_language(eager_celery, language, expected):
    tournament = event_not_open_yet()
    client = client_in(language, UserFactory())

    response = client.post(
        reverse("tournaments:action", args=[tournament.slug, "open-registration"])
    )

    assert response.status_code == 403
    assert expected in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.registration == Tournament.Window.NOT_OPEN


def test_a_success_message_is_german_for_a_german_visitor(eager_celery):
    club = ClubFactory()
    tournament = events.create_tournament(
        club=club,
        by=organiser_of(club),
        name="Wintercup",
        slug="wintercup",
        starts_at=timezone.now() + PLENTY,
        registration_opens_at=timezone.now() - PLENTY,
    )
    scheduler.advance_tournament(tournament.pk)
    organiser = ClubMembership.objects.get(club=club).user

    # An organiser action still answers "Done." (a player's registration now says what
    # happened, in words whose German the catalogue gets with this change).
    response = client_in("de", organiser).post(
        reverse("tournaments:action", args=[tournament.slug, "open-check-in"])
    )

    assert [str(m) for m in get_messages(response.wsgi_request)] == ["Erledigt."]
    tournament.refresh_from_db()
    assert tournament.check_in == Tournament.Window.OPEN


def test_table_ready_notices_and_mails_follow_each_players_profile_language(eager_celery):
    tournament, organiser = open_event(4, slug="stammtisch", mode=Tournament.Mode.PHYSICAL)
    players = [entry.user for entry in Entry.objects.filter(tournament=tournament)]
    german, english = players[0], players[1]
    Profile.objects.filter(user=german).update(language="de")
    mail.outbox.clear()

    start_now(tournament, organiser)
    scheduler.advance_tournament(tournament.pk)

    ready = Notification.objects.filter(tournament_id=tournament.pk, kind="table_ready")
    notice_of = {n.user_id: n.message for n in ready}
    assert notice_of[german.pk] == (
        "Event stammtisch, Runde 1: Dein Tisch ist bereit (Tisch 1 vor Ort)."
    )
    assert notice_of[english.pk] == (
        "Event stammtisch, round 1: your table is ready (physical table 1)."
    )
    subjects = {m.to[0]: m.subject for m in mail.outbox}
    assert subjects[german.email] == "Rosbi: Dein Tisch ist bereit (Event stammtisch)"
    assert subjects[english.email] == "Rosbi: your table is ready (Event stammtisch)"
    assert len(mail.outbox) == 4
