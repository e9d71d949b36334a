"""A club owner manages the members from a phone (360x740, German): lets a waiting player in,
makes a member organiser, makes an invite link; the page fits the screen and axe-core finds no
serious problem. Then the season page of the club on the same phone."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from tests.e2e.screens import VIEWPORTS, axe_problems, session_context, shoot, sideways_scroll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_owner_manages_the_members_on_a_phone(chromium, asgi_live_server):
    from rosbi_platform.accounts import clubs
    from rosbi_platform.accounts.models import ClubInvite, ClubMembership
    from tests.tournaments.factories import (
        ClubFactory,
        MembershipFactory,
        UserFactory,
        finished_event,
    )
    from tournaments import seasons

    Role = ClubMembership.Role
    club = ClubFactory(name="Rosbi-Freunde Kreuzberg", slug="kreuzberg")
    owner = MembershipFactory(club=club, role=Role.OWNER, user__username="besitzerin").user
    member = MembershipFactory(club=club, user__username="marta").user
    waiting = UserFactory(username="wartender")
    clubs.request_membership(club, waiting, "Darf ich mitspielen?")
    today = timezone.localdate()
    season = seasons.create_season(
        club=club,
        by=owner,
        name="Winter 2026/27",
        starts_on=today - dt.timedelta(days=20),
        ends_on=today + dt.timedelta(days=60),
        best_of=3,
        place_points=[10, 8, 6, 5, 4, 3, 2, 1],
    )
    finished_event(club, [member, owner], name="Erster Abend", season=season)

    base = asgi_live_server.url
    context = session_context(chromium, base, owner, VIEWPORTS["360x740"], "de", axe=True)
    page = context.new_page()
    try:
        page.goto(base + reverse("clubs:detail", args=[club.slug]))
        assert sideways_scroll(page) is None
        assert axe_problems(page) == []
        page.get_by_role("link", name="Mitglieder verwalten").click()
        page.wait_for_url("**/clubs/kreuzberg/members/")
        assert sideways_scroll(page) is None
        assert axe_problems(page) == []
        assert "Darf ich mitspielen?" in page.content()
        page.get_by_role("button", name="Aufnehmen wartender").click()
        expect(page.locator(".messages")).to_contain_text("Wartender ist jetzt Mitglied.")
        page.get_by_label("Rolle marta").select_option("organiser")
        page.get_by_role("button", name="Ändern marta").click()
        expect(page.locator(".messages")).to_contain_text("Marta ist jetzt: Organisator.")
        page.get_by_label("Der Link gilt").select_option("7")
        page.get_by_role("button", name="Neuer Einladungslink").click()
        expect(page.locator(".messages")).to_contain_text("Ein neuer Einladungslink ist bereit")
        invite = ClubInvite.objects.get(club=club)
        assert (
            page.locator(".invite-url")
            .input_value()
            .endswith(reverse("clubs:invite", args=[invite.token]))
        )
        assert sideways_scroll(page) is None
        assert axe_problems(page) == []
        shoot(page, "club-members-360x740-de", full_page=True)

        page.goto(base + reverse("clubs:season", args=[club.slug, season.pk]))
        assert "Saisontabelle" in page.content()
        assert sideways_scroll(page) is None
        assert axe_problems(page) == []
        shoot(page, "club-season-360x740-de", full_page=True)
    finally:
        context.close()

    assert dict(ClubMembership.objects.filter(club=club).values_list("user__username", "role")) == {
        "besitzerin": Role.OWNER,
        "marta": Role.ORGANISER,
        "wartender": Role.MEMBER,
    }


@pytest.mark.parametrize("size", ["360x740", "1280x800"])
def test_the_club_page_and_a_history_fit_the_screen(chromium, asgi_live_server, size):
    from ratings import recording, updates
    from tests.ratings.factories import finished_partie, outcome_of
    from tests.tournaments.factories import ClubFactory, MembershipFactory, finished_event

    club = ClubFactory(name="Rosbiratschka-Gesellschaft Hohenzollern-Sigmaringen", slug="hz")
    names = ["Maximiliane von Hohenzollern-Sigmaringen", "Bartholomäus Rosenkranz-Oberhuber"]
    players = [MembershipFactory(club=club).user for _ in range(3)]
    for user, name in zip(players, names, strict=False):
        user.profile.display_name = name
        user.profile.save(update_fields=["display_name"])
    event = finished_event(club, players, name="Offene Stadtmeisterschaft im Rosbiratschka")
    for i in range(3):
        partie = finished_partie(players, [3 + i, 17, 29], event.starts_at)
        recording.record_finished_partie(outcome_of(partie))
    updates.apply_pending_ratings()

    base = asgi_live_server.url
    context = session_context(chromium, base, players[0], VIEWPORTS[size], "de", axe=True)
    page = context.new_page()
    try:
        for name, url in [
            ("club", reverse("clubs:detail", args=[club.slug])),
            ("history", reverse("players:history", args=[players[0].username])),
        ]:
            page.goto(base + url)
            assert sideways_scroll(page) is None, name
            assert axe_problems(page) == [], name
            shoot(page, f"{name}-{size}-de", full_page=True)
        assert "Offene Stadtmeisterschaft" in page.content()
    finally:
        context.close()
