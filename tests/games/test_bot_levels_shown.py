"""The expert level can be chosen, and every bot level's name carries its measured rating."""

from __future__ import annotations

import math

import pytest
from django.conf import settings
from django.test import Client

from games.bots import BOT_LEVELS, level_rating
from games.bots.ratings_table import BOT_RATING_SIGMAS, BOT_RATINGS
from games.models import BOT_LEVEL_CHOICES
from games.serializers import CreateTableSerializer
from tests.games.factories import UserFactory

pytestmark = [pytest.mark.django_db]


def test_every_level_is_a_table_choice_and_has_a_rating() -> None:
    assert [level for level, _label in BOT_LEVEL_CHOICES] == list(BOT_LEVELS)
    assert set(BOT_RATINGS) == set(BOT_LEVELS)
    assert all(level_rating(level) == BOT_RATINGS[level] for level in BOT_LEVELS)
    assert level_rating("grandmaster") is None


def test_the_measured_ratings_order_the_weak_levels() -> None:
    """Sanity of the published figures, not their values: random < beginner < heuristic,
    which every seed of the published command gives (docs/bots.md)."""
    assert BOT_RATINGS["random"] < BOT_RATINGS["beginner"] < BOT_RATINGS["heuristic"]


@pytest.mark.parametrize("level", ["strong", "expert"])
def test_no_search_level_is_rated_clearly_below_the_plan_it_searches_with(level: str) -> None:
    """The search levels are stronger than the heuristic in the paired strength benchmark,
    but the rating run cannot always show it: strong - heuristic was +56 on average with an
    sd of 62 over four seeds, and -24 on one of them (docs/bots.md). So the published figures
    may put a search level below the heuristic only by less than the recorded uncertainty of
    the difference (the two final sigmas combined); a strict order would only hold by the
    choice of seed."""
    gap = BOT_RATINGS["heuristic"] - BOT_RATINGS[level]
    assert gap < math.hypot(BOT_RATING_SIGMAS["heuristic"], BOT_RATING_SIGMAS[level])


def test_a_table_can_be_created_with_expert_bots() -> None:
    data = {"name": "Practice", "size": 4, "bot_level": "expert", "fill_with_bots": True}
    serializer = CreateTableSerializer(data=data)
    assert serializer.is_valid(), serializer.errors
    assert serializer.validated_data["bot_level"] == "expert"


@pytest.mark.parametrize(("language", "expert"), [("de", "Experte"), ("en", "Expert")])
def test_the_lobby_names_each_level_with_its_rating(language: str, expert: str) -> None:
    client = Client()
    client.force_login(UserFactory())
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language

    page = client.get("/lobby/").content.decode()

    assert f'<option value="expert">{expert} · {BOT_RATINGS["expert"]}</option>' in page
    assert f'"bot_level_expert": "{expert} · {BOT_RATINGS["expert"]}"' in page
    assert f"· {BOT_RATINGS['random']}</option>" in page
