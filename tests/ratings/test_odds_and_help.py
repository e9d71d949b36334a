"""Show the odds (issue 17, rating item 5): the pre-start odds on a rated table page, the
latest rating changes explained opponent by opponent, and the help page with its chart."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from games.bots.ratings_table import BOT_RATING_SIGMAS, BOT_RATINGS
from games.models import Seat
from ratings import elo, recording, updates
from ratings import odds as rating_odds
from ratings.models import PlayerRating, RatingChange
from tests.games.factories import TableFactory, UserFactory
from tests.ratings.factories import BOT, PlayerRatingFactory, finished_partie, outcome_of
from tests.svg_numbers import problems_in_svg, svgs_in

pytestmark = pytest.mark.django_db


def seated_table(players, rated=True):
    """An open table of four with ``players`` (users or BOT) in the first seats."""
    table = TableFactory(rated=rated, size=4)
    for number, player in enumerate(players):
        Seat.objects.filter(table=table, number=number).update(
            user=None if player == BOT else player, bot_level="heuristic" if player == BOT else ""
        )
    return table


def test_a_seated_player_sees_the_odds_before_a_rated_table_starts(client):
    strong = PlayerRatingFactory(mu=1800.0, sigma=60.0).user
    weak = PlayerRatingFactory(mu=1300.0, sigma=60.0).user
    newcomer = UserFactory()
    table = seated_table([strong, weak, newcomer, BOT])
    client.force_login(weak)
    page = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert "Rated table: what the rating expects" in page
    odds = rating_odds.table_odds(table, weak)
    assert [row.seat for row in odds] == [0, 1, 2, 3]
    assert [row.is_you for row in odds] == [False, True, False, False]
    assert odds[0].expected_place < odds[3].expected_place < odds[1].expected_place
    assert all(row.change_if_first >= 0 for row in odds)
    # The same figures as the pure maths, the bot at its level's rating, the newcomer at 1500.
    pure = elo.table_odds(
        [
            elo.Rating(1800.0, 60.0),
            elo.Rating(1300.0, 60.0),
            elo.new_rating(),
            # a heuristic bot seat: its level's measured rating, as the update counts it
            elo.Rating(BOT_RATINGS["heuristic"], BOT_RATING_SIGMAS["heuristic"]),
        ]
    )
    assert [row.change_if_last for row in odds] == [round(o.change_if_last) for o in pure]
    mine = re.search(r'<tr class="is-you"[^>]*>(.*?)</tr>', page, re.S).group(1)
    assert f"{odds[1].change_if_first:+d}" in mine and "1300" in mine


def test_no_odds_at_an_unrated_table_for_spectators_or_once_started(client):
    a, b, c = UserFactory.create_batch(3)
    casual = seated_table([a, b, c], rated=False)
    client.force_login(a)
    page = client.get(reverse("games:table", args=[casual.pk])).content.decode()
    assert "what the rating expects" not in page
    rated = seated_table([a, b, c])
    assert rating_odds.table_odds(rated, UserFactory()) is None  # not seated
    assert rating_odds.table_odds(seated_table([a, b]), a) is None  # only two seated
    rated.status = rated.Status.PLAYING
    assert rating_odds.table_odds(rated, a) is None


def test_the_player_page_explains_the_latest_change_opponent_by_opponent(client):
    me, mate, other = UserFactory.create_batch(3)
    start = timezone.now() - dt.timedelta(days=1)
    partie = finished_partie([me, mate, other, BOT], [5, 25, 12, 40], start)
    recording.record_finished_partie(outcome_of(partie))
    updates.apply_pending_ratings()
    change = RatingChange.objects.get(partie=partie, user=me)
    explained = rating_odds.change_explained(change)
    assert [line.outcome for line in explained.lines] == ["won", "won", "won"]
    assert [line.margin for line in explained.lines] == [20, 7, 35]
    assert sum(line.contribution for line in explained.lines) == pytest.approx(
        change.mu_after - change.mu_before
    )
    # Beating the same-rated mate by 20 is worth more than beating the other by 7.
    assert explained.lines[0].contribution > explained.lines[1].contribution > 0
    page = client.get(reverse("ratings:player", args=[me.username])).content.decode()
    assert "Your latest rating changes explained" in page
    assert "beaten by 20 points" in page and "beaten by 7 points" in page
    loser = RatingChange.objects.get(partie=partie, user=mate)
    lines = rating_odds.change_explained(loser).lines
    assert [line.outcome for line in lines] == ["lost", "lost", "won"]
    assert lines[0].contribution < 0


def test_a_floored_winner_is_told_why_the_change_is_zero(client):
    favourite = PlayerRatingFactory(mu=2200.0, sigma=60.0, games=200).user
    a, b = (PlayerRatingFactory(mu=1400.0, sigma=60.0, games=200).user for _ in range(2))
    partie = finished_partie([favourite, a, b], [10, 11, 11], timezone.now())
    recording.record_finished_partie(outcome_of(partie))
    updates.apply_pending_ratings()
    change = RatingChange.objects.get(partie=partie, user=favourite)
    assert change.mu_after == change.mu_before
    explained = rating_odds.change_explained(change)
    assert explained.winner_floor and all(line.contribution == 0 for line in explained.lines)
    page = client.get(reverse("ratings:player", args=[favourite.username])).content.decode()
    assert "a winner never loses rating" in page


@pytest.mark.parametrize(
    ("language", "title", "rule"),
    [
        ("en", "How the rating works", "If you finish first alone, you never lose rating."),
        ("de", "So funktioniert die Wertung", "Wenn Du allein Erste"),
    ],
)
def test_the_help_page_explains_the_rating_with_a_chart_in_both_languages(
    client, language, title, rule
):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    ladder = client.get(reverse("ratings:ladder")).content.decode()
    assert 'href="/ladder/help/"' in ladder
    response = client.get("/ladder/help/")
    assert response.status_code == 200
    page = response.content.decode()
    assert title in page and rule in page
    svgs = svgs_in(page)
    assert len(svgs) == 1 and not problems_in_svg(svgs[0])
    settled = re.search(r'class="curve-settled"[^>]*points="([^"]+)"', page).group(1).split()
    assert len(settled) == 81
    # The curve is the prediction itself: rising, and 50 % at a gap of 0 (the middle point).
    ys = [float(point.split(",")[1]) for point in settled]
    assert all(a >= b for a, b in zip(ys, ys[1:], strict=False))
    chart = rating_odds.help_chart()
    assert settled[40].split(",")[1] == f"{chart.bottom - (chart.bottom - 12) * 0.5:.1f}"


def _history(results: list[list[int]]) -> list:
    """Four settled players 1800/1600/1400/1200 playing rated Parties with these totals."""
    players = [
        PlayerRatingFactory(mu=mu, sigma=elo.settled_sigma(), games=100).user
        for mu in (1800.0, 1600.0, 1400.0, 1200.0)
    ]
    start = timezone.now() - dt.timedelta(days=10)
    for k, totals in enumerate(results):
        partie = finished_partie(players, totals, start + dt.timedelta(hours=k))
        recording.record_finished_partie(outcome_of(partie))
    updates.apply_pending_ratings()
    return players


def test_the_pool_scale_is_the_bare_model_without_history():
    assert rating_odds.pool_scale() == 1.0


def test_the_odds_grow_bolder_when_favourites_keep_winning(django_assert_max_num_queries):
    players = _history([[0, 10, 20, 30]] * 30)  # always in rating order, by wide margins
    scale = rating_odds.pool_scale()
    assert scale > 1.0
    with django_assert_max_num_queries(1):  # the ledger only: the fit is cached
        assert rating_odds.pool_scale() == scale
    # The seated favourite is shown a better expected place than the bare model gives.
    table = seated_table(players)
    odds = rating_odds.table_odds(table, players[0])
    stored = [PlayerRating.objects.get(user=p).as_rating() for p in players]
    bare = elo.table_odds(stored, timezone.now().timestamp())
    assert odds[0].expected_place < bare[0].expected_place
    assert odds[3].expected_place > bare[3].expected_place


def test_the_odds_grow_cautious_when_results_ignore_the_ratings():
    # Half the Parties in rating order, half reversed: the ratings told nothing.
    _history([[0, 10, 20, 30], [30, 20, 10, 0]] * 15)
    assert rating_odds.pool_scale() < 1.0
