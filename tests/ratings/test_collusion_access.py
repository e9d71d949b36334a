"""Who sees players' IP addresses: only holders of ``ratings.view_collusion_report`` (the
"moderators" group, superusers), never a club organiser just because the admin lets them in."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import Group, Permission
from django.urls import reverse

from ratings import ranked_queue, seasons
from ratings.models import LadderQueueEntry
from rosbi_platform.accounts.models import Club, ClubMembership
from tests.games.factories import UserFactory
from tests.ratings.factories import PlayerRatingFactory

pytestmark = pytest.mark.django_db

SHARED_IP = "203.0.113.7"
T0 = dt.datetime(2026, 3, 1, 18, 0, tzinfo=dt.UTC)


def ranked_table_from_one_address():
    """Four queued players, two of them from the same address, seated at one ranked table."""
    users = [PlayerRatingFactory(mu=1500 + i).user for i in range(4)]
    for i, user in enumerate(users):
        ranked_queue.join_queue(user, ip=SHARED_IP if i < 2 else f"198.51.100.{i}", now=T0)
    (table,) = ranked_queue.form_ladder_tables(now=T0 + dt.timedelta(seconds=5))
    return table, users


def with_ratings_view_permissions(user):
    """What a club organiser may be given to look after the ladder in the admin."""
    user.user_permissions.add(
        *Permission.objects.filter(
            content_type__app_label="ratings", codename__startswith="view_"
        ).exclude(codename="view_collusion_report")
    )
    return user


def staff_organiser():
    user = UserFactory(is_staff=True)
    club = Club.objects.create(name="Kartenrunde Nord", slug="kartenrunde-nord")
    ClubMembership.objects.create(club=club, user=user, role=ClubMembership.Role.ORGANISER)
    return with_ratings_view_permissions(user)


def moderator():
    user = UserFactory(is_staff=True)
    user.groups.add(Group.objects.get(name="moderators"))
    return with_ratings_view_permissions(user)


def pages_for_organisers(table, users) -> dict[str, str]:
    entry = LadderQueueEntry.objects.filter(ip=SHARED_IP).first()
    return {
        "ladder": reverse("ratings:ladder"),
        "player": reverse("ratings:player", args=[users[0].username]),
        "season": reverse("ratings:season", args=[seasons.close_season().pk]),
        "admin queue": reverse("admin:ratings_ladderqueueentry_changelist"),
        "admin queue entry": reverse("admin:ratings_ladderqueueentry_change", args=[entry.pk]),
        "admin ratings": reverse("admin:ratings_playerrating_changelist"),
        "admin seasons": reverse("admin:ratings_season_changelist"),
        "table": reverse("games:table", args=[table.pk]),
    }


def test_a_staff_organiser_without_the_permission_is_refused_and_sees_no_ip(client):
    table, users = ranked_table_from_one_address()
    organiser = staff_organiser()
    client.force_login(organiser)

    assert not organiser.has_perm("ratings.view_collusion_report")
    assert client.get(reverse("ratings:collusion")).status_code == 403
    for name, url in pages_for_organisers(table, users).items():
        response = client.get(url)
        assert response.status_code == 200, name
        page = response.content.decode()
        assert SHARED_IP not in page, name
        assert "198.51.100." not in page, name
    # Nor can addresses be probed through the admin's search.
    search = reverse("admin:ratings_ladderqueueentry_changelist") + f"?q={SHARED_IP}"
    assert "0 results" in client.get(search).content.decode()


def test_a_moderator_sees_the_report_with_the_shared_address(client):
    table, users = ranked_table_from_one_address()
    client.force_login(moderator())

    page = client.get(reverse("ratings:collusion")).content.decode()

    assert f"#{table.pk}</a>: {SHARED_IP}" in page
    admin_page = client.get(reverse("admin:ratings_ladderqueueentry_changelist")).content
    assert SHARED_IP in admin_page.decode()


def test_a_superuser_sees_the_report_and_a_visitor_is_sent_to_log_in(client):
    ranked_table_from_one_address()
    response = client.get(reverse("ratings:collusion"))
    assert response.status_code == 302 and "/login/" in response["Location"]

    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    assert SHARED_IP in client.get(reverse("ratings:collusion")).content.decode()


def test_the_moderators_group_holds_exactly_the_report_permission():
    group = Group.objects.get(name="moderators")
    assert [f"{p.content_type.app_label}.{p.codename}" for p in group.permissions.all()] == [
        "ratings.view_collusion_report"
    ]
