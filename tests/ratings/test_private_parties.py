"""Private games stay private on the ladder (issue 25, defect 2): a private table's Partie
shows on ``/ladder/players/<name>/`` (recent Parties, replay link, rating change, statistics,
frequent tablemates) and in the API's rating history, contracts and games only to those who
played in it (and site moderators); anonymous visitors and other players see none of it,
while the player sees everything. One rule: ``games.selectors.parties_visible_to``."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Table
from ratings import recording, updates
from tests.api_clients import session_client
from tests.games.factories import SiteModeratorFactory, UserFactory
from tests.ratings.factories import BOT, finished_partie, outcome_of

pytestmark = pytest.mark.django_db

SECRET = "Kitchen of the Huber family"


@pytest.fixture
def games():
    """``me`` played one public Partie with ``mate`` and one private one with ``secret_mate``
    (the private one first place with a distinctive total of 7 in the first deal)."""
    me, mate, secret_mate, stranger = UserFactory.create_batch(4)
    start = timezone.now() - dt.timedelta(days=1)
    public = finished_partie([me, mate, BOT], [20, 10, 30], start)
    private = finished_partie([me, secret_mate, BOT], [7, 40, 50], start + dt.timedelta(hours=1))
    Table.objects.filter(pk=private.table_id).update(public=False, name=SECRET)
    for partie in (public, private):
        recording.record_finished_partie(outcome_of(partie))
    updates.apply_pending_ratings()
    return {
        "me": me,
        "mate": mate,
        "secret_mate": secret_mate,
        "stranger": stranger,
        "public": public,
        "private": private,
    }


def page_for(viewer, player) -> str:
    client = session_client()
    if viewer is not None:
        client.force_login(viewer)
    response = client.get(reverse("ratings:player", args=[player.username]))
    assert response.status_code == 200
    return response.content.decode()


def chart_points(page: str) -> int:
    """The points of the rating chart: the start and one per rated Partie shown."""
    found = re.search(r'<polyline class="rating-line"[^>]*points="([^"]+)"', page)
    return len(found.group(1).split())


def api_for(viewer, path: str):
    client = session_client()
    if viewer is not None:
        client.force_login(viewer)
    response = client.get(path)
    assert response.status_code == 200, response.content[:300]
    return response.json()


@pytest.mark.parametrize("viewer", ["anonymous", "stranger", "mate"])
def test_the_player_page_shows_others_no_private_partie(games, viewer):
    page = page_for(games.get(viewer), games["me"])
    private_table = games["private"].table_id
    assert SECRET not in page
    assert reverse("games:replay", args=[private_table]) not in page
    assert f"Table {private_table}" not in page  # the explained rating change
    assert games["secret_mate"].username not in page  # frequent tablemates
    assert chart_points(page) == 2  # the 1500 start and the public Partie only
    # What they may see is still there.
    assert reverse("games:replay", args=[games["public"].table_id]) in page
    assert games["mate"].username in page


@pytest.mark.parametrize("viewer", ["me", "secret_mate", "moderator"])
def test_those_who_played_it_and_moderators_see_the_private_partie(games, viewer):
    who = SiteModeratorFactory() if viewer == "moderator" else games[viewer]
    page = page_for(who, games["me"])
    assert SECRET in page
    assert reverse("games:replay", args=[games["private"].table_id]) in page
    assert chart_points(page) == 3


@pytest.mark.parametrize("viewer", ["anonymous", "stranger", "mate"])
def test_the_api_gives_others_no_private_partie(games, viewer):
    me = games["me"].username
    history = api_for(games.get(viewer), f"/api/v1/players/{me}/rating-history")
    assert [row["partie_id"] for row in history["results"]] == [games["public"].pk]
    contracts = api_for(games.get(viewer), f"/api/v1/players/{me}/contracts")
    # Every contract was played once in the one visible Partie; the first deal's penalty is
    # the public Partie's 20, not the private 7.
    assert {line["deals"] for line in contracts} == {1}
    first = next(line for line in contracts if line["contract"] == "no_tricks")
    assert first["average"] == 20
    listed = api_for(games.get(viewer), f"/api/v1/players/{me}/games")
    assert [row["id"] for row in listed["results"]] == [games["public"].pk]


def test_the_player_gets_every_partie_from_the_api(games):
    me = games["me"].username
    history = api_for(games["me"], f"/api/v1/players/{me}/rating-history")
    assert [row["partie_id"] for row in history["results"]] == [
        games["public"].pk,
        games["private"].pk,
    ]
    contracts = api_for(games["me"], f"/api/v1/players/{me}/contracts")
    assert {line["deals"] for line in contracts} == {2}
