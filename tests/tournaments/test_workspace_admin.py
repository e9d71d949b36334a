"""The Tournament admin stays the staff tool: grouped fieldsets, "view on site", the scoring
fields validated like the workspace's, and actions (pause, resume, check-in windows, deals
export) that call the same services and are audited."""

from __future__ import annotations

import pytest
from django.contrib.admin.sites import site
from django.contrib.contenttypes.models import ContentType
from django.test import RequestFactory
from django.urls import reverse

from rosbi_platform.accounts.models import ClubMembership
from tests.tournaments.factories import MembershipFactory, UserFactory
from tests.tournaments.helpers import audit_actions, open_event
from tournaments.models import Tournament

pytestmark = [pytest.mark.django_db]


def staff_organiser(tournament: Tournament):
    user = UserFactory(is_staff=True)
    MembershipFactory(club=tournament.club, user=user, role=ClubMembership.Role.ORGANISER)
    return user


def test_the_change_form_is_grouped_and_links_to_the_site(client):
    tournament, _organiser = open_event(3, slug="admin-form")
    client.force_login(staff_organiser(tournament))
    page = client.get(reverse("admin:tournaments_tournament_change", args=[tournament.pk]))
    html = page.content.decode()
    assert page.status_code == 200
    for legend in ("When", "Format", "Entry", "Scoring", "Play"):
        assert f">{legend}<" in html
    kind = ContentType.objects.get_for_model(Tournament).pk
    assert reverse("admin:view_on_site", args=[kind, tournament.pk]) in html
    assert tournament.get_absolute_url() == reverse("tournaments:detail", args=[tournament.slug])


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("placement_points", '{"4": [3, 2, 1]}', "A table of 4 needs exactly 4 numbers"),
        ("placement_points", '{"4": [0, 1, 2, 3]}', "a worse place cannot earn more points"),
        ("tiebreaks", '["points", "points"]', "Each ranking criterion can be used only once."),
        ("tiebreaks", '["luck"]', "Unknown ranking criterion: luck."),
    ],
)
def test_the_admin_form_refuses_bad_scoring(field, value, message):
    tournament, _organiser = open_event(3, slug="admin-bad")
    request = RequestFactory().get("/")
    request.user = staff_organiser(tournament)
    model_admin = site._registry[Tournament]
    form_class = model_admin.get_form(request, tournament, change=True)
    initial = form_class(instance=tournament).initial
    data = {
        k: ("on" if v is True else "" if v in (None, False) else v)
        for k, v in initial.items()
        if v is not False
    }
    data["club"] = tournament.club_id
    data["starts_at_0"], data["starts_at_1"] = (
        tournament.starts_at.strftime("%Y-%m-%d"),
        tournament.starts_at.strftime("%H:%M:%S"),
    )
    data["placement_points"] = "{}"
    data["tiebreaks"] = '["points"]'
    data[field] = value
    form = form_class(data, instance=tournament)
    assert not form.is_valid()
    assert message in " ".join(str(e) for e in form.errors.get(field, []))


def test_pause_and_resume_actions_call_the_services(client):
    tournament, _organiser = open_event(3, slug="admin-pause")
    staff = staff_organiser(tournament)
    client.force_login(staff)
    changelist = reverse("admin:tournaments_tournament_changelist")

    def act(action: str):
        return client.post(changelist, {"action": action, "_selected_action": [tournament.pk]})

    act("pause_tournaments")
    tournament.refresh_from_db()
    assert tournament.paused_at is not None
    act("resume_tournaments")
    act("close_check_in")
    tournament.refresh_from_db()
    assert tournament.paused_at is None and tournament.check_in == Tournament.Window.CLOSED
    response = act("export_deals_csv")
    assert response.content.decode().splitlines()[0].startswith("tournament,round,table,deal")
    actions = audit_actions(tournament)
    for expected in ("pause_tournament", "resume_tournament", "check_in_closed", "export_deals"):
        assert expected in actions
