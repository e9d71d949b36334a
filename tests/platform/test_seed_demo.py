"""seed_demo creates the demo world once and never duplicates it."""

from io import StringIO

import pytest
from django.core.management import call_command

from rosbi_platform.accounts.models import Club, ClubMembership, Profile, User
from rosbi_platform.accounts.permissions import is_site_moderator
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def demo_logins_elsewhere(settings, tmp_path):
    """Never touch a developer's own var/demo-logins.json (make run's log-ins)."""
    settings.DEMO_LOGINS_FILE = tmp_path / "demo-logins.json"
    return settings.DEMO_LOGINS_FILE


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
    # A site moderator (staff only to open the admin for club requests and reports), not a
    # superuser; the club's owner (issue 25: organisers never need staff for their events).
    assert organiser.is_staff and not organiser.is_superuser
    assert is_site_moderator(organiser)
    printed_password = output.getvalue().split("organiser: created, password: ")[1].split()[0]
    assert organiser.check_password(printed_password)
    assert User.objects.filter(is_staff=False).count() == 6
    club = Club.objects.get(name="Rosbi Demo Club")
    assert club.memberships.count() == 7
    assert club.memberships.get(user=organiser).role == ClubMembership.Role.OWNER
    tournament = Tournament.objects.get(club=club)
    assert tournament.status == Tournament.Status.PLANNED
    assert tournament.table_size == 4


def test_the_demo_log_ins_are_kept_for_the_start_up_box_and_can_be_reset(demo_logins_elsewhere):
    from rosbi_platform.management.commands.runplatform import login_box
    from rosbi_platform.management.commands.seed_demo import read_demo_logins

    call_command("seed_demo", stdout=StringIO())
    assert demo_logins_elsewhere.stat().st_mode & 0o777 == 0o600
    logins = read_demo_logins()
    organiser = User.objects.get(username="organiser")
    assert organiser.check_password(logins["organiser"]["password"])
    assert set(logins["players"]) == {"anna", "bernd", "clara", "dieter", "elif", "franz"}
    anna = User.objects.get(username="anna")
    assert anna.check_password(logins["players"]["anna"])

    output = StringIO()
    call_command("seed_demo", "--reset-passwords", stdout=output)
    renewed = read_demo_logins()
    assert renewed["organiser"]["password"] != logins["organiser"]["password"]
    assert renewed["organiser"]["password"] in output.getvalue()
    organiser.refresh_from_db()
    anna.refresh_from_db()
    assert organiser.check_password(renewed["organiser"]["password"])
    assert anna.check_password(renewed["players"]["anna"])
    assert not anna.check_password(logins["players"]["anna"])

    box = login_box("http://127.0.0.1:8001/", renewed)
    lines = box.splitlines()
    assert len({len(line) for line in lines}) == 1, "every line of the box is as wide"
    assert lines[0].startswith("+-") and lines[-1] == lines[0]
    assert "http://127.0.0.1:8001/" in box
    assert f"organiser / {renewed['organiser']['password']}" in box
    assert f"anna, bernd, clara, dieter, elif, franz / {renewed['players']['anna']}" in box
    assert "make demo-logins" in box and "make reset" in box and "PORT=" in box
    assert "not stored" in login_box("http://127.0.0.1:8000/", None)
