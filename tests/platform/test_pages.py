"""Every page of the navigation renders; staff-only admin; error pages use the site layout."""

from datetime import timedelta

import pytest
from django.utils import timezone

from rosbi_platform.accounts.models import Club, User
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "path", ["/", "/lobby/", "/tournaments/", "/ladder/", "/rules/", "/accounts/login/"]
)
def test_navigation_pages_render_in_the_base_layout(client, path):
    response = client.get(path)

    assert response.status_code == 200
    body = response.content.decode()
    assert 'class="site-nav"' in body
    assert 'action="/i18n/setlang/"' in body


@pytest.mark.parametrize(
    ("language", "heading", "hundred"),
    [
        ("en", "How to play Rosbiratschka", "above</em> 25 scores 1"),
        ("de", "So spielt man Rosbiratschka", "über</em> 25 bringt, bekommt 1"),
    ],
)
def test_the_rules_page_is_written_for_players_in_each_language(client, language, heading, hundred):
    """The repository carries its own rules for players (no ../shared needed), in both languages."""
    client.cookies["django_language"] = language
    body = client.get("/rules/").content.decode()

    assert heading in body
    assert hundred in body
    assert f'lang="{language}"' in body
    assert 'href="/rules/" aria-current="page"' in body


def test_admin_link_only_for_staff(client):
    player = User.objects.create_user("player", password="x-very-long-pw-1")
    client.force_login(player)
    assert 'href="/admin/"' not in client.get("/").content.decode()
    assert client.get("/admin/").status_code == 302

    staff = User.objects.create_superuser("staff", password="x-very-long-pw-2")
    client.force_login(staff)
    assert 'href="/admin/"' in client.get("/").content.decode()
    assert client.get("/admin/").status_code == 200


def test_tournament_list_shows_only_upcoming(client):
    club = Club.objects.create(name="Skat & Co", slug="skat-co")
    now = timezone.now()
    Tournament.objects.create(
        club=club, name="Spring Open", slug="spring", starts_at=now + timedelta(days=3)
    )
    Tournament.objects.create(
        club=club, name="Old Cup", slug="old", starts_at=now - timedelta(days=30)
    )

    body = client.get("/tournaments/").content.decode()

    assert "Spring Open" in body
    assert "Old Cup" not in body


def test_not_found_page_uses_the_site_layout(client):
    response = client.get("/no-such-page/")

    assert response.status_code == 404
    assert "Page not found" in response.content.decode()
    assert 'class="site-nav"' in response.content.decode()
