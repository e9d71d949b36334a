"""The rating page is titled with the name players see, and the profile leads to it."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.games.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_rating_page_is_titled_with_the_display_name(client):
    player = UserFactory(username="kurt77")
    player.profile.display_name = "Kurt vom Stammtisch"
    player.profile.save()

    page = client.get(reverse("ratings:player", args=["kurt77"])).content.decode()

    title = re.search(r"<title>(.*?)</title>", page, re.DOTALL).group(1)
    heading = re.search(r"<h1>(.*?)<span", page, re.DOTALL).group(1)
    assert "Kurt vom Stammtisch" in title and "kurt77" not in title
    assert heading.strip() == "Kurt vom Stammtisch"


def test_without_a_display_name_the_user_name_is_the_title(client):
    anna = UserFactory(username="anna")
    anna.profile.display_name = ""
    anna.profile.save()

    page = client.get(reverse("ratings:player", args=["anna"])).content.decode()

    assert "anna" in re.search(r"<title>(.*?)</title>", page, re.DOTALL).group(1)


def test_the_profile_page_links_to_the_players_rating(client):
    player = UserFactory(username="kurt77")
    client.force_login(player)

    page = client.get(reverse("accounts:profile")).content.decode()

    assert f'href="{reverse("ratings:player", args=["kurt77"])}"' in page
