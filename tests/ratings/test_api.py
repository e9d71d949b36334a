"""API v1 for the ladder: ranks computed by PostgreSQL agree with the ladder page's rule, a
page is one read whatever the number of players, around-me, players and the ranked queue."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from ratings import elo, leaderboard, selectors
from ratings.models import LadderQueueEntry, PlayerRating
from rosbi_platform.accounts.services import mark_as_bot
from tests.api_clients import assert_error, session_client, token_client
from tests.games.factories import UserFactory
from tests.ratings.factories import PlayerRatingFactory

pytestmark = [pytest.mark.django_db]


def population() -> list[PlayerRating]:
    """Ranked players with ties, and each way of not being ranked."""
    now = timezone.now()
    days = dt.timedelta(days=1)
    away_limit = (elo.PROVISIONAL_SIGMA**2 - 25 * elo.INACTIVITY_C**2) ** 0.5
    rows = [
        PlayerRatingFactory(mu=1700, games=40),
        PlayerRatingFactory(mu=1650, games=12),
        PlayerRatingFactory(mu=1650, games=30),  # the tie: more Parties first
        PlayerRatingFactory(mu=1650, games=30),  # then the earlier account
        PlayerRatingFactory(mu=1800, games=3),  # too few Parties
        PlayerRatingFactory(mu=1750, games=50, last_played=now - 40 * days),  # away too long
        PlayerRatingFactory(mu=1720, games=50, sigma=270),  # provisional
        # 25 days away: one grows past the provisional limit, the other stays just below.
        PlayerRatingFactory(mu=1710, games=50, sigma=away_limit + 2, last_played=now - 25 * days),
        PlayerRatingFactory(mu=1600, games=50, sigma=away_limit - 2, last_played=now - 25 * days),
    ]
    for n in range(6):
        PlayerRatingFactory(mu=1500 - n, games=15)
    leaderboard.refresh_leaderboard()  # what beat and every rating change do
    return rows


def test_database_ranks_agree_with_the_ladder_rule():
    population()
    python = [(r.user_id, r.rank) for r in selectors.standings() if r.eligible]
    body = session_client().get("/api/v1/leaderboard?page_size=200").json()
    assert [(r["user_id"], r["rank"]) for r in body["results"]] == python
    assert body["count"] == len(python) == 11


def test_a_page_is_one_read_and_ranks_continue_across_pages(django_assert_max_num_queries):
    population()
    client = session_client()
    # The numbering's version, the count, the page's slice, its rows with users.
    with django_assert_max_num_queries(4):
        second = client.get("/api/v1/leaderboard?page=2&page_size=4").json()
    assert [r["rank"] for r in second["results"]] == [5, 6, 7, 8]


def test_around_me_shows_my_rank_and_my_neighbours():
    rows = population()
    me = rows[2].user
    body = token_client(me, ["read"]).get("/api/v1/leaderboard/around-me").json()
    assert body["rank"] == 2
    assert [r["rank"] for r in body["rows"]] == list(range(1, 8))
    assert body["rows"][1]["user_id"] == me.pk
    unranked = token_client(rows[4].user, ["read"]).get("/api/v1/leaderboard/around-me").json()
    assert unranked == {"rank": None, "rows": []}
    assert_error(session_client().get("/api/v1/leaderboard/around-me"), 401)


def test_a_player_their_rating_and_statistics():
    rows = population()
    user = rows[0].user
    client = session_client()
    player = client.get(f"/api/v1/players/{user.username}").json()
    assert player["user_id"] == user.pk and player["rating"]["rank"] == 1
    assert player["rating"]["display"] == "1700" and player["bot"] is False
    assert client.get(f"/api/v1/players/{user.username}/rating-history").json()["count"] == 0
    assert client.get(f"/api/v1/players/{user.username}/contracts").json() == []
    assert client.get(f"/api/v1/players/{user.username}/games").json()["count"] == 0
    assert_error(client.get("/api/v1/players/nobody-here"), 404)


def test_the_ranked_queue_over_the_api():
    user = UserFactory()
    client = token_client(user, ["read", "play"])
    assert client.get("/api/v1/queue").json()["waiting"] is False
    joined = client.post("/api/v1/queue/join", format="json").json()
    assert joined["waiting"] is True and joined["queue_size"] == 1
    assert LadderQueueEntry.objects.filter(user=user, status="waiting").count() == 1
    assert client.post("/api/v1/queue/leave", format="json").json()["waiting"] is False
    read_only = token_client(user, ["read"])
    assert_error(read_only.post("/api/v1/queue/join", format="json"), 403)
    assert not LadderQueueEntry.objects.filter(user=user, status="waiting").exists()


def test_bot_accounts_are_refused_by_the_ranked_queue():
    bot = UserFactory()
    mark_as_bot(bot)
    body = assert_error(token_client(bot).post("/api/v1/queue/join", format="json"), 400)
    assert "Bot accounts" in body["detail"]
    assert not LadderQueueEntry.objects.exists()
