"""Organisers manage only their own club's events (services, pages, admin); admin actions."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from rosbi_platform.accounts.models import ClubMembership
from tests.tournaments.factories import ClubFactory, MembershipFactory, UserFactory
from tests.tournaments.helpers import audit_actions, enter_and_confirm, open_event
from tournaments import entries, events, rounds
from tournaments.common import TournamentError
from tournaments.models import AuditLog, Entry, Round, RoundTable, Standing, Tournament

pytestmark = [pytest.mark.django_db(transaction=True)]


def staff_organiser_of(club):
    user = UserFactory(is_staff=True)
    MembershipFactory(club=club, user=user, role=ClubMembership.Role.ORGANISER)
    return user


@pytest.fixture
def two_events(eager_celery):
    ours, our_organiser = open_event(6, slug="ours", mode=Tournament.Mode.PHYSICAL)
    theirs, their_organiser = open_event(6, slug="theirs", mode=Tournament.Mode.PHYSICAL)
    return ours, our_organiser, theirs, their_organiser


def test_an_organiser_cannot_run_another_clubs_event(two_events):
    ours, our_organiser, theirs, _their_organiser = two_events
    their_round = Round.objects.get(tournament=theirs, number=1)

    for call in (
        lambda: rounds.seat_round(their_round.pk, by=our_organiser),
        lambda: rounds.start_next_round(theirs.pk, by=our_organiser),
        lambda: events.open_registration(theirs.pk, by=our_organiser),
        lambda: rounds.reschedule_round(their_round.pk, their_round.scheduled_at, by=our_organiser),
        lambda: events.create_tournament(
            club=theirs.club,
            by=our_organiser,
            name="Hijack",
            slug="hijack",
            starts_at=theirs.starts_at,
        ),
    ):
        with pytest.raises(TournamentError, match="organisers"):
            call()
    assert Round.objects.get(pk=their_round.pk).status == Round.Status.PENDING

    assert rounds.start_next_round(ours.pk, by=our_organiser) is True


def test_members_are_not_organisers(two_events):
    ours, _organiser, _theirs, _ = two_events
    member = MembershipFactory(club=ours.club).user
    with pytest.raises(TournamentError):
        rounds.start_next_round(ours.pk, by=member)


def test_organiser_pages_are_scoped_to_the_club(two_events, client):
    ours, our_organiser, theirs, _ = two_events
    client.force_login(our_organiser)

    refused = client.post(reverse("tournaments:action", args=[theirs.slug, "start-next-round"]))
    assert refused.status_code == 403
    done = client.post(reverse("tournaments:action", args=[ours.slug, "start-next-round"]))
    assert done.status_code == 302
    assert Round.objects.get(tournament=ours, number=1).status == Round.Status.STARTED
    assert Round.objects.get(tournament=theirs, number=1).status == Round.Status.PENDING
    page = client.get(reverse("tournaments:detail", args=[ours.slug])).content.decode()
    assert "Start next round now" in page
    assert (
        "Start next round now"
        not in client.get(reverse("tournaments:detail", args=[theirs.slug])).content.decode()
    )


def test_admin_shows_and_changes_only_the_organisers_own_events(two_events, client):
    ours, _organiser, theirs, _ = two_events
    admin_user = staff_organiser_of(ours.club)
    client.force_login(admin_user)

    listing = client.get(reverse("admin:tournaments_tournament_changelist")).content.decode()
    assert ours.name in listing and theirs.name not in listing
    assert (
        client.get(reverse("admin:tournaments_tournament_change", args=[ours.pk])).status_code
        == 200
    )
    foreign = client.get(reverse("admin:tournaments_tournament_change", args=[theirs.pk]))
    assert foreign.status_code in (302, 403)
    audit = client.get(reverse("admin:tournaments_auditlog_changelist")).content.decode()
    assert "theirs" not in audit

    # An action on a foreign id is filtered out by the queryset: nothing happens there.
    client.post(
        reverse("admin:tournaments_tournament_changelist"),
        {"action": "start_next_round", "_selected_action": [theirs.pk]},
    )
    assert Round.objects.get(tournament=theirs, number=1).status == Round.Status.PENDING


def test_admin_actions_run_the_services_and_are_audited(eager_celery, client):
    club = ClubFactory()
    staff = staff_organiser_of(club)
    tournament, organiser = open_event(8, slug="admin-cup", mode=Tournament.Mode.PHYSICAL)
    Tournament.objects.filter(pk=tournament.pk).update(
        club=club, registration=Tournament.Window.NOT_OPEN
    )
    client.force_login(staff)
    changelist = reverse("admin:tournaments_tournament_changelist")

    def act(action: str):
        return client.post(changelist, {"action": action, "_selected_action": [tournament.pk]})

    act("open_registration")
    tournament.refresh_from_db()
    assert tournament.registration == Tournament.Window.OPEN

    act("reseat_next_round")  # round 1 pending: seats it
    round_one = Round.objects.get(tournament=tournament, number=1)
    assert round_one.status == Round.Status.SEATED
    leaving = Entry.objects.filter(tournament=tournament).first()
    entries.withdraw_entry(tournament.pk, leaving.user)  # re-seats the unreleased round
    assert not round_one.seats.filter(entry=leaving).exists()
    assert round_one.seats.count() == 7
    act("reseat_next_round")
    assert round_one.seats.count() == 7

    act("start_next_round")
    round_one.refresh_from_db()
    assert round_one.status == Round.Status.STARTED
    for table in RoundTable.objects.filter(round=round_one):
        enter_and_confirm(table, staff, f"admin-{table.number}")
    Standing.objects.filter(tournament=tournament).delete()
    act("recompute_standings")
    assert Standing.objects.filter(tournament=tournament).count() == 7

    standings = act("export_standings_csv")
    rows = list(csv.reader(io.StringIO(standings.content.decode())))
    assert rows[0][:4] == ["tournament", "rank", "player", "points"]
    assert len(rows) == 1 + 7
    results = act("export_results_csv")
    result_rows = list(csv.reader(io.StringIO(results.content.decode())))
    round_one_rows = [row for row in result_rows[1:] if row[1] == "1"]
    assert len(round_one_rows) == 7
    assert all(row[5] != "" for row in round_one_rows)  # every total entered
    assert {row[1] for row in result_rows[1:]} == {"1", "2"}  # round 2 already seated

    actions = audit_actions(tournament)
    for expected in (
        "registration_open",
        "seat_round",
        "withdraw_entry",
        "reseat_round",
        "start_round",
        "submit_physical_result",
        "confirm_physical_result",
        "recompute_standings",
        "export_standings",
        "export_results",
    ):
        assert expected in actions
    by_staff = AuditLog.objects.filter(tournament=tournament, actor=staff).values_list(
        "action", flat=True
    )
    assert {"registration_open", "seat_round", "start_round", "export_results"} <= set(by_staff)
    assert organiser is not None


def test_superuser_sees_every_event(two_events, client):
    ours, _o, theirs, _t = two_events
    root = UserFactory(is_staff=True, is_superuser=True)
    client.force_login(root)
    listing = client.get(reverse("admin:tournaments_tournament_changelist")).content.decode()
    assert ours.name in listing and theirs.name in listing


def test_an_entrys_status_cannot_be_changed_in_the_admin_form(two_events, client):
    ours, _organiser, _theirs, _ = two_events
    client.force_login(staff_organiser_of(ours.club))
    entry = Entry.objects.filter(tournament=ours, status=Entry.Status.CHECKED_IN).first()
    change = reverse("admin:tournaments_entry_change", args=[entry.pk])

    assert client.get(change).status_code == 200  # shown, read-only
    client.post(
        change,
        {
            "tournament": ours.pk,
            "user": entry.user_id,
            "status": Entry.Status.WITHDRAWN,
            "plays_online": "",
            "rating": "2400",
            "first_round": "3",
        },
    )

    entry.refresh_from_db()
    assert entry.status == Entry.Status.CHECKED_IN
    assert entry.first_round == 1 and entry.rating != 2400
    assert not AuditLog.objects.filter(tournament=ours, action="withdraw_entry").exists()


def test_the_withdraw_admin_action_withdraws_through_the_service(two_events, client):
    ours, _organiser, theirs, _ = two_events
    staff = staff_organiser_of(ours.club)
    client.force_login(staff)
    round_one = Round.objects.get(tournament=ours, number=1)
    rounds.seat_round(round_one.pk)
    leaving = Entry.objects.filter(tournament=ours).first()
    foreign = Entry.objects.filter(tournament=theirs).first()
    assert round_one.seats.filter(entry=leaving).exists()

    client.post(
        reverse("admin:tournaments_entry_changelist"),
        {"action": "withdraw", "_selected_action": [leaving.pk, foreign.pk]},
    )

    leaving.refresh_from_db()
    assert leaving.status == Entry.Status.WITHDRAWN and leaving.withdrawn_at is not None
    assert not round_one.seats.filter(entry=leaving).exists()  # the service re-seated the round
    logged = AuditLog.objects.get(tournament=ours, action="withdraw_entry")
    assert logged.details == {"entry": leaving.pk, "reseated_round": 1, "forfeited_round": None}
    assert logged.actor == staff
    foreign.refresh_from_db()
    assert foreign.status == Entry.Status.CHECKED_IN  # another club's entry is out of reach


def test_the_check_in_admin_action_checks_in_through_the_service(two_events, client):
    ours, _organiser, _theirs, _ = two_events
    staff = staff_organiser_of(ours.club)
    client.force_login(staff)
    entry = entries.register_entry(ours.pk, UserFactory())
    assert entry.status == Entry.Status.REGISTERED

    client.post(
        reverse("admin:tournaments_entry_changelist"),
        {"action": "check_in", "_selected_action": [entry.pk]},
    )

    entry.refresh_from_db()
    assert entry.status == Entry.Status.CHECKED_IN and entry.checked_in_at is not None
    logged = AuditLog.objects.get(tournament=ours, action="check_in")
    assert logged.details == {"entry": entry.pk} and logged.actor == staff
