"""A new club's ladder is not empty: players with fewer than the minimum of rated Parties are
listed as provisional, each with their count and why they are not ranked yet."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from ratings import elo, recording, selectors, updates
from tests.games.factories import UserFactory
from tests.ratings.factories import PlayerRatingFactory, finished_partie, outcome_of

pytestmark = pytest.mark.django_db


def section(page: str, heading_id: str) -> str:
    match = re.search(rf'<section[^>]*aria-labelledby="{heading_id}".*?</section>', page, re.DOTALL)
    assert match, f"no section {heading_id}"
    return match.group(0)


def rows_of(html: str) -> list[list[str]]:
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", html, re.DOTALL)
    cells = [re.findall(r"<td[^>]*>(.*?)</td>", row, re.DOTALL) for row in rows]
    return [[re.sub(r"<[^>]+>", "", c).strip() for c in row] for row in cells if row]


def three_rated_parties():
    players = UserFactory.create_batch(4)
    start = timezone.now() - dt.timedelta(days=1)
    for i in range(3):
        partie = finished_partie(players, [5 + i, 12, 20, 30 - i], start + dt.timedelta(hours=i))
        recording.record_finished_partie(outcome_of(partie))
    updates.apply_pending_ratings()
    return players


def test_after_three_rated_parties_the_players_are_listed_as_provisional(client):
    players = three_rated_parties()
    veteran = PlayerRatingFactory(
        mu=1640, sigma=135, games=12, last_played=timezone.now() - dt.timedelta(days=2)
    )

    page = client.get(reverse("ratings:ladder")).content.decode()

    assert "No rated games have been recorded yet." not in page
    provisional = section(page, "provisional-heading")
    assert "Provisional: fewer than 10 rated Parties" in provisional
    listed = {row[0]: row for row in rows_of(provisional)}
    for player in players:
        name, _rating, parties, reason = listed[player.profile.display_name]
        assert parties == "3"
        assert "7 more rated Parties needed" in reason
        assert "rating still provisional" in reason
    assert veteran.user.profile.display_name not in provisional
    ranked = section(page, "top-heading")
    assert rows_of(ranked) == [["1", veteran.user.profile.display_name, "1640", "12"]]


def test_each_reason_is_said_exactly():
    now = timezone.now()
    one_short = PlayerRatingFactory(games=9, sigma=144, last_played=now)
    away = PlayerRatingFactory(games=40, sigma=126, last_played=now - dt.timedelta(days=45))
    unsettled = PlayerRatingFactory(games=14, sigma=252, last_played=now)
    ranked = PlayerRatingFactory(games=10, sigma=144, last_played=now)

    rows = {row.user_id: row for row in selectors.standings(now=now)}

    assert rows[one_short.user_id].reason == "1 more rated Partie needed (9 of 10 played)"
    assert rows[away.user_id].reason == "no rated Partie in the last 30 days"
    assert rows[unsettled.user_id].reason == (
        f"rating still provisional (uncertainty above {round(elo.PROVISIONAL_SIGMA)} points)"
    )
    assert rows[ranked.user_id].eligible and rows[ranked.user_id].reason == ""
    assert [r.user_id for r in selectors.provisional(now=now)] == [one_short.user_id]
    assert {r.user_id for r in selectors.not_ranked(now=now)} == {away.user_id, unsettled.user_id}


def test_my_own_line_says_why_i_am_not_ranked(client):
    players = three_rated_parties()
    client.force_login(players[0])

    page = client.get(reverse("ratings:ladder")).content.decode()

    mine = section(page, "me-heading")
    assert "not ranked yet" in mine and "7 more rated Parties needed (3 of 10 played)" in mine


def test_the_german_ladder_says_why_in_german(client):
    """Issue 16, defect 6: "fewer than 10 rated Parties" was English on the German ladder."""
    from django.conf import settings

    players = three_rated_parties()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"

    page = client.get(reverse("ratings:ladder")).content.decode()

    provisional = section(page, "provisional-heading")
    assert "Vorläufig: weniger als 10 gewertete Partien" in provisional
    assert "fewer than" not in provisional and "rated Parties" not in provisional
    reason = {row[0]: row for row in rows_of(provisional)}[players[0].profile.display_name][3]
    assert "noch 7 gewertete Partien nötig" in reason and "vorläufig" in reason
