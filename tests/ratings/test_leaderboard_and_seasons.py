"""Leaderboard eligibility, the around-me view, and closing a season."""

from __future__ import annotations

import datetime as dt

import pytest

from ratings import elo, recording, seasons, selectors
from ratings.models import PlayerRating, Season, SeasonStanding
from tests.games.factories import UserFactory
from tests.ratings.factories import EPOCH, PlayerRatingFactory, finished_partie, outcome_of

pytestmark = pytest.mark.django_db

NOW = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)


def test_eligibility_needs_parties_recent_play_and_a_settled_rating(settings):
    settings.RATINGS_LEADERBOARD_MIN_PARTIES = 10
    settings.RATINGS_LEADERBOARD_ACTIVE_DAYS = 30
    recent = NOW - dt.timedelta(days=2)
    ok = PlayerRatingFactory(mu=1700, sigma=126, games=25, last_played=recent)
    few = PlayerRatingFactory(mu=1900, sigma=126, games=9, last_played=recent)
    gone = PlayerRatingFactory(
        mu=1800, sigma=126, games=40, last_played=NOW - dt.timedelta(days=31)
    )
    unsure = PlayerRatingFactory(mu=1750, sigma=270, games=12, last_played=recent)
    rows = {r.user_id: r for r in selectors.standings(now=NOW)}
    assert rows[ok.user_id].eligible and rows[ok.user_id].rank == 1
    assert rows[few.user_id].reason == "1 more rated Partie needed (9 of 10 played)"
    assert rows[gone.user_id].reason == "no rated Partie in the last 30 days"
    assert rows[unsure.user_id].reason == (
        f"rating still provisional (uncertainty above {round(elo.PROVISIONAL_SIGMA)} points)"
    )
    assert rows[unsure.user_id].display == "1750?"
    assert [r.user_id for r in selectors.leaderboard(now=NOW)] == [ok.user_id]


def test_inactivity_alone_can_make_a_rating_provisional_again():
    row = PlayerRatingFactory(mu=1600, sigma=180, games=50, last_played=NOW)
    assert selectors.display_for(row, NOW) == "1600"
    assert selectors.display_for(row, NOW + dt.timedelta(days=365)) == "1600?"  # a year away


def test_around_me_shows_the_ranks_next_to_mine():
    recent = NOW - dt.timedelta(days=1)
    rows = [
        PlayerRatingFactory(mu=2000 - 10 * i, sigma=126, games=30, last_played=recent)
        for i in range(20)
    ]
    me = rows[10].user
    around = selectors.around_me(me, now=NOW, radius=3)
    assert around.row.rank == 11
    assert [r.rank for r in around.neighbours] == [8, 9, 10, 11, 12, 13, 14]
    top = selectors.around_me(rows[0].user, now=NOW, radius=3)
    assert [r.rank for r in top.neighbours] == [1, 2, 3, 4]
    newcomer = PlayerRatingFactory(mu=1500, sigma=540, games=1, last_played=recent).user
    assert selectors.around_me(newcomer, now=NOW).neighbours == []
    assert selectors.around_me(UserFactory(), now=NOW).row is None


def test_close_season_archives_standings_and_soft_resets():
    recent = NOW - dt.timedelta(days=1)
    star = PlayerRatingFactory(mu=1900, sigma=117, games=40, last_played=recent)
    weak = PlayerRatingFactory(mu=1300, sigma=144, games=40, last_played=recent)
    fresh = PlayerRatingFactory(mu=1550, sigma=540, games=2, last_played=recent)
    season = seasons.current_season(now=NOW - dt.timedelta(days=90))
    closed = seasons.close_season(now=NOW, pull=0.5, sigma_bump=270)
    assert closed.pk == season.pk and closed.closed_at == NOW
    standings = {s.user_id: s for s in SeasonStanding.objects.filter(season=season)}
    assert standings[star.user_id].rank == 1 and standings[star.user_id].display == "1900"
    assert standings[weak.user_id].rank == 2
    assert standings[fresh.user_id].rank is None and standings[fresh.user_id].display == "1550?"
    star.refresh_from_db()
    weak.refresh_from_db()
    assert star.mu == pytest.approx(1700) and weak.mu == pytest.approx(1400)
    assert star.sigma == pytest.approx((117**2 + 270**2) ** 0.5)
    assert elo.is_provisional(star.as_rating())
    assert star.games == 40
    following = Season.objects.get(closed_at__isnull=True)
    assert following.started_at == NOW and following.number == 2 and following.name == ""
    assert following.title == "Season 2"


def test_close_season_applies_pending_parties_first_and_counts_season_games():
    users = UserFactory.create_batch(4)
    seasons.current_season(now=EPOCH - dt.timedelta(days=1))
    partie = finished_partie(users, [0, 5, 10, 20], EPOCH)
    recording.record_finished_partie(outcome_of(partie))
    season = seasons.close_season(now=EPOCH + dt.timedelta(days=1))
    assert PlayerRating.objects.filter(games=1).count() == 4
    assert {s.season_games for s in season.standings.all()} == {1}


def test_a_season_cannot_close_before_parties_already_rated():
    users = UserFactory.create_batch(3)
    partie = finished_partie(users, [0, 5, 10], EPOCH)
    recording.record_finished_partie(outcome_of(partie))
    with pytest.raises(ValueError):
        seasons.close_season(now=EPOCH - dt.timedelta(hours=1))
    assert not Season.objects.filter(closed_at__isnull=False).exists()
