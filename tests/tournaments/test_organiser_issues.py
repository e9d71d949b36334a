"""The organisers' report: a registration after check-in has closed, and what the event page
says (register button, seat numbers, provisional standings, registration feedback)."""

from __future__ import annotations

import re

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.factories import ClubFactory, UserFactory
from tests.tournaments.helpers import (
    PLENTY,
    enter_and_confirm,
    open_event,
    organiser_of,
    start_now,
)
from tournaments import entries, events, scheduler, selectors
from tournaments.common import TournamentError
from tournaments.models import Entry, RoundTable, Tournament

pytestmark = [pytest.mark.django_db(transaction=True)]


# --------------------------------------------------------------------------- 7. late registration


def test_registration_after_check_in_has_closed_is_refused_with_a_reason(eager_celery, client):
    tournament, organiser = open_event(4, slug="closed-check-in")
    events.close_check_in(tournament.pk, by=organiser)
    latecomer = UserFactory()

    with pytest.raises(TournamentError, match="Check-in has closed"):
        entries.register_entry(tournament.pk, latecomer)
    assert not Entry.objects.filter(tournament=tournament, user=latecomer).exists()

    client.force_login(latecomer)
    response = client.post(reverse("tournaments:action", args=[tournament.slug, "register"]))
    said = [str(m) for m in get_messages(response.wsgi_request)]
    assert any("Check-in has closed" in m for m in said)
    page = client.get(reverse("tournaments:detail", args=[tournament.slug])).content.decode()
    assert "tournaments/closed-check-in/register/" not in page


# --------------------------------------------------------------------------- 9. the event page


def test_register_is_hidden_while_registration_is_not_open_to_newcomers(eager_celery, client):
    tournament, organiser = open_event(4, slug="r2", mode=Tournament.Mode.PHYSICAL, rounds=2)
    start_now(tournament, organiser)
    scheduler.advance_tournament(tournament.pk)
    enter_and_confirm(RoundTable.objects.get(round__number=1), organiser, "r2-1")
    tournament.refresh_from_db()
    assert tournament.registration == Tournament.Window.OPEN  # the window itself never closed
    client.force_login(UserFactory())

    page = client.get(reverse("tournaments:detail", args=[tournament.slug])).content.decode()

    assert "/r2/register/" not in page
    assert "Registration: Closed" in re.sub(r"\s+", " ", page)


def test_seats_are_numbered_from_one_for_people(eager_celery, client):
    tournament, organiser = open_event(4, slug="seats", mode=Tournament.Mode.PHYSICAL)
    start_now(tournament, organiser)
    scheduler.advance_tournament(tournament.pk)

    page = client.get(reverse("tournaments:detail", args=[tournament.slug])).content.decode()
    printed = client.get(reverse("tournaments:print", args=[tournament.slug, 1])).content.decode()

    assert 'start="0"' not in page
    seat_cells = re.findall(r"<tr><td>1[^<]*</td><td>(\d+)</td>", printed)
    assert sorted(int(n) for n in seat_cells) == [1, 2, 3, 4]
    sheet_heads = re.findall(r"<th>(\d+): ", printed)
    assert sorted(int(n) for n in sheet_heads) == [1, 2, 3, 4]


def test_live_standings_mark_players_whose_table_is_still_playing(eager_celery, client):
    tournament, organiser = open_event(8, slug="live-rank", mode=Tournament.Mode.PHYSICAL)
    start_now(tournament, organiser)
    scheduler.advance_tournament(tournament.pk)
    done, playing = RoundTable.objects.filter(round__tournament=tournament).order_by("number")
    enter_and_confirm(done, organiser, "live-1")

    page = client.get(reverse("tournaments:detail", args=[tournament.slug])).content.decode()
    rows = re.findall(r'<tr class="([^"]*)"><td>\d+</td><td>([^<]+?) ?(?:<span|</td>)', page)
    provisional = {name for classes, name in rows if "provisional" in classes}
    names = {s.entry.user.profile.public_name for s in playing.seats.all()}
    assert provisional == names
    assert "still playing" in page
    payload = selectors.standings_payload(tournament)
    marked = {row["name"] for row in payload["rows"] if row["provisional"]}
    assert marked == names


def test_registration_feedback_says_what_happened(eager_celery, client):
    club = ClubFactory()
    now = timezone.now()
    tournament = events.create_tournament(
        club=club,
        by=organiser_of(club),
        name="Winter Cup",
        slug="winter",
        starts_at=now + 3 * PLENTY,
        registration_opens_at=now - PLENTY,
        check_in_opens_at=now + 2 * PLENTY,
        time_zone="Europe/Berlin",
    )
    scheduler.advance_tournament(tournament.pk)
    client.force_login(UserFactory())

    response = client.post(reverse("tournaments:action", args=[tournament.slug, "register"]))

    said = [str(m) for m in get_messages(response.wsgi_request)]
    opens = selectors.event_time_text(tournament.check_in_opens_at, "Europe/Berlin")
    assert said == [
        f"You are registered for Winter Cup. Check-in opens at {opens} (Europe/Berlin)."
    ]


def test_standings_rows_are_built_once_per_version_and_provisional_is_always_fresh(
    eager_celery, django_assert_num_queries
):
    """A 1,000-entrant event's rows cost ~0.1 s: they are cached under the standings version,
    while which players are still playing (it changes when a round starts) is read each time."""
    tournament, organiser = open_event(8, slug="cached-rank", mode=Tournament.Mode.PHYSICAL)
    start_now(tournament, organiser)
    scheduler.advance_tournament(tournament.pk)
    done, playing = RoundTable.objects.filter(round__tournament=tournament).order_by("number")
    enter_and_confirm(done, organiser, "cached-1")
    tournament.refresh_from_db()
    first = selectors.standings_payload(tournament)

    with django_assert_num_queries(1):  # only the still-playing players
        again = selectors.standings_payload(tournament)
    assert again == first

    enter_and_confirm(playing, organiser, "cached-2")  # a recompute: a new version
    tournament.refresh_from_db()
    after = selectors.standings_payload(tournament)
    assert after["version"] > first["version"]
    points = {row["name"]: row["points"] for row in after["rows"]}
    assert points != {row["name"]: row["points"] for row in first["rows"]}
