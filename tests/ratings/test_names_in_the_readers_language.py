"""Names the ladder pages show are worded in the reader's language when the page is drawn:
contract names come from the engine's identifiers (not its German names), seasons are numbered
and called "Season N" / "Saison N", and a provisional rating says what its "?" means."""

from __future__ import annotations

import datetime as dt
import html

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation

from ratings import recording, seasons, updates
from ratings.models import Season
from tests.games.factories import UserFactory
from tests.ratings.factories import BOT, PlayerRatingFactory, finished_partie, outcome_of

pytestmark = pytest.mark.django_db


def page_in(client, language: str, url: str) -> str:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return html.unescape(client.get(url).content.decode())


def test_contract_names_on_the_player_page_follow_the_readers_language(client):
    me, mate = UserFactory.create_batch(2)
    partie = finished_partie([me, mate, BOT], [9, 17, 4], timezone.now() - dt.timedelta(hours=1))
    recording.record_finished_partie(outcome_of(partie))
    updates.apply_pending_ratings()
    url = reverse("ratings:player", args=[me.username])

    english = page_in(client, "en", url)
    german = page_in(client, "de", url)

    assert "No tricks" in english and "Beware the King of Hearts" in english
    for german_name in ("Keinen Stich", "Keine Herzen", "Achtung, Herz-König!", "Hundert"):
        assert german_name not in english
        assert german_name in german


def test_seasons_are_numbered_and_named_in_the_readers_language(client):
    first = seasons.current_season(now=timezone.now() - dt.timedelta(days=30))
    closed = seasons.close_season()
    following = Season.objects.get(closed_at__isnull=True)

    assert (closed.pk, closed.number, closed.name) == (first.pk, 1, "")
    assert (following.number, following.name) == (2, "")
    with translation.override("de"):
        assert following.title == "Saison 2"
    with translation.override("en"):
        assert following.title == "Season 2"
    ladder = reverse("ratings:ladder")
    assert "Saison 2" in page_in(client, "de", ladder) and "Saison 1" in page_in(
        client, "de", ladder
    )
    assert "Season 2" in page_in(client, "en", ladder)
    season_page = page_in(client, "de", reverse("ratings:season", args=[closed.pk]))
    assert "<h1>Saison 1</h1>" in season_page and "Season" not in season_page


def test_an_organisers_own_season_name_is_kept():
    seasons.current_season(now=timezone.now() - dt.timedelta(days=30))
    seasons.close_season(next_name="Winterliga")
    following = Season.objects.get(closed_at__isnull=True)
    with translation.override("en"):
        assert following.title == "Winterliga"


@pytest.mark.parametrize(("language", "word"), [("en", "provisional"), ("de", "vorläufig")])
def test_a_provisional_rating_is_explained_where_it_is_shown(client, language, word):
    fresh = PlayerRatingFactory(mu=1500, sigma=300, games=2, last_played=timezone.now())
    ladder = reverse("ratings:ladder")
    pages = {
        "player": page_in(client, language, reverse("ratings:player", args=[fresh.user.username])),
        "ladder": page_in(client, language, ladder),
    }
    client.force_login(fresh.user)
    pages["queue widget"] = page_in(client, language, reverse("games:lobby"))

    for where, page in pages.items():
        assert "1500?</abbr>" in page, where
        start = page.index("1500?</abbr>")
        note = page[start : start + 200]
        assert f'href="{ladder}#ratings-explained"' in note and word in note, where
        abbr = page[page.rindex("<abbr", 0, start) : start]
        assert 'title="' in abbr, where
    assert 'id="ratings-explained"' in pages["ladder"]


def test_a_settled_rating_has_no_note(client):
    settled = PlayerRatingFactory(mu=1623, sigma=60, games=40, last_played=timezone.now())
    page = page_in(client, "en", reverse("ratings:player", args=[settled.user.username]))
    assert "1623" in page and "provisional-note" not in page
