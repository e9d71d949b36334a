"""seed_demo creates the demo world once and never duplicates it."""

from io import StringIO

import pytest
from django.core.management import call_command

from rosbi_platform.accounts.models import Club, ClubMembership, Profile, User
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def snapshot() -> dict:
    return {
        "users": sorted(User.objects.values_list("username", "password", "is_staff")),
        "profiles": Profile.objects.count(),
        "clubs": list(Club.objects.values_list("slug", "name")),
        "memberships": sorted(ClubMembership.objects.values_list("user__username", "role")),
        "tournaments": list(Tournament.objects.values_list("slug", "starts_at", "status")),
    }


def test_seed_demo_is_idempotent():
    first_output = StringIO()
    call_command("seed_demo", stdout=first_output)
    after_first = snapshot()
    second_output = StringIO()
    call_command("seed_demo", stdout=second_output)

    assert snapshot() == after_first
    assert "organiser: created, password: " in first_output.getvalue()
    assert "organiser: unchanged" in second_output.getvalue()
    assert "password" not in second_output.getvalue()


def test_seed_demo_creates_the_demo_world():
    output = StringIO()
    call_command("seed_demo", stdout=output)

    organiser = User.objects.get(username="organiser")
    assert organiser.is_staff and organiser.is_superuser
    printed_password = output.getvalue().split("organiser: created, password: ")[1].split()[0]
    assert organiser.check_password(printed_password)
    assert User.objects.filter(is_staff=False).count() == 6
    club = Club.objects.get(name="Rosbi Demo Club")
    assert club.memberships.count() == 7
    assert club.memberships.get(user=organiser).role == ClubMembership.Role.ORGANISER
    tournament = Tournament.objects.get(club=club)
    assert tournament.status == Tournament.Status.PLANNED
    assert tournament.table_size == 4
