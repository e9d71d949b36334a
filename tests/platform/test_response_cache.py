"""The API's hot reads are rendered once per data version: a repeat is served from the cache
(and a client holding the answer gets a 304), and any change of the data the answer was built
from is seen at once, never the old answer."""

from __future__ import annotations

import pytest
from django.test import RequestFactory
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request

from ratings import leaderboard
from ratings.models import PlayerRating
from rosbi_platform.response_cache import cached_json
from tests.api_clients import session_client, token_client
from tests.games.factories import UserFactory
from tests.games.test_api import finished_partie
from tests.ratings.factories import PlayerRatingFactory
from tests.tournaments.factories import TournamentFactory
from tournaments import results
from tournaments.models import Entry

pytestmark = [pytest.mark.django_db]


def request(**headers: str) -> Request:
    return Request(RequestFactory().get("/api/v1/anything", **headers))


def test_an_answer_is_built_once_per_version_and_a_held_one_is_a_304():
    built = []

    def build(version: int):
        def make():
            built.append(version)
            return {"version": version, "name": "Zoë"}

        return make

    first = cached_json(request(), ("unit", 1), build(1), seconds=60)
    again = cached_json(request(), ("unit", 1), build(1), seconds=60)
    assert built == [1]
    assert first.content == again.content == JSONRenderer().render({"version": 1, "name": "Zoë"})
    assert first["Content-Type"] == "application/json" and first["ETag"] == again["ETag"]

    held = cached_json(request(HTTP_IF_NONE_MATCH=first["ETag"]), ("unit", 1), build(1), 60)
    assert held.status_code == 304 and held.content == b""
    newer = cached_json(request(HTTP_IF_NONE_MATCH=first["ETag"]), ("unit", 2), build(2), 60)
    assert newer.status_code == 200 and built == [1, 2] and newer["ETag"] != first["ETag"]


def test_a_leaderboard_page_follows_each_renumbering():
    best = PlayerRatingFactory(mu=1700, games=40)
    second = PlayerRatingFactory(mu=1650, games=40)
    leaderboard.refresh_leaderboard()
    client = session_client()
    before = client.get("/api/v1/leaderboard").json()
    assert [r["user_id"] for r in before["results"]] == [best.user_id, second.user_id]

    PlayerRating.objects.filter(pk=second.pk).update(mu=1800)
    leaderboard.refresh_leaderboard()
    after = client.get("/api/v1/leaderboard").json()
    assert [r["user_id"] for r in after["results"]] == [second.user_id, best.user_id]


def test_a_renumbering_that_changes_nothing_keeps_the_cached_page(django_assert_num_queries):
    PlayerRatingFactory(mu=1700, games=40)
    PlayerRatingFactory(mu=1650, games=40)
    leaderboard.refresh_leaderboard()
    client = session_client()
    first = client.get("/api/v1/leaderboard")
    leaderboard.refresh_leaderboard()  # beat's minute: the same order and ratings
    # Only the version is read (no page rows, no users): the cached answer is served.
    with django_assert_num_queries(1):
        again = client.get("/api/v1/leaderboard")
    assert again.content == first.content and again["ETag"] == first["ETag"]


def test_a_rating_change_that_keeps_the_order_is_seen_at_once():
    best = PlayerRatingFactory(mu=1700, games=40)
    second = PlayerRatingFactory(mu=1650, games=40)
    leaderboard.refresh_leaderboard()
    client = session_client()
    client.get("/api/v1/leaderboard")

    PlayerRating.objects.filter(pk=second.pk).update(mu=1660, games=41)
    leaderboard.refresh_leaderboard()
    rows = client.get("/api/v1/leaderboard").json()["results"]
    assert [(r["user_id"], r["rating"], r["games"]) for r in rows] == [
        (best.user_id, 1700, 40),
        (second.user_id, 1660, 41),
    ]


def test_a_newly_finished_partie_is_listed_at_once_and_private_ones_stay_private():
    player = UserFactory()
    private = finished_partie(public=False, player=player)
    mine = token_client(player, ["read"])
    assert [p["id"] for p in mine.get("/api/v1/parties").json()["results"]] == [private.pk]
    assert session_client().get("/api/v1/parties").json()["count"] == 0

    public = finished_partie()
    listed = [p["id"] for p in mine.get("/api/v1/parties").json()["results"]]
    assert listed == [public.pk, private.pk]
    others = token_client(UserFactory(), ["read"]).get("/api/v1/parties").json()
    assert [p["id"] for p in others["results"]] == [public.pk]


def test_standings_follow_each_recompute():
    tournament = TournamentFactory(slug="cached-standings")
    Entry.objects.create(tournament=tournament, user=UserFactory(), status="checked_in")
    client = session_client()
    first = client.get(f"/api/v1/tournaments/{tournament.slug}/standings")
    assert first.json()["version"] == tournament.standings_version

    results.recompute_standings(tournament.pk)
    tournament.refresh_from_db()
    second = client.get(
        f"/api/v1/tournaments/{tournament.slug}/standings", HTTP_IF_NONE_MATCH=first["ETag"]
    )
    assert second.status_code == 200
    assert second.json()["version"] == tournament.standings_version == first.json()["version"] + 1
    repeat = client.get(
        f"/api/v1/tournaments/{tournament.slug}/standings", HTTP_IF_NONE_MATCH=second["ETag"]
    )
    assert repeat.status_code == 304
