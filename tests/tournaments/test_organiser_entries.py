"""Entries an organiser makes obey the event's rules as self-registration does, never bring
back a player who withdrew, and wait for the player's yes; until then the player's Parties in
the event are unrated (defect 4 of issue 25)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from games.outcomes import PartieOutcome, SeatOutcome
from ratings import recording
from rosbi_platform.accounts.models import ClubMembership, User
from rosbi_platform.accounts.services import mark_as_bot
from rosbi_platform.notifications.models import Notification
from tests.api_clients import session_client
from tests.tournaments.factories import MembershipFactory, UserFactory
from tests.tournaments.helpers import open_event
from tournaments import entries, rounds, selectors
from tournaments.common import TournamentError
from tournaments.models import Entry, Round

pytestmark = [pytest.mark.django_db]


def test_an_organiser_cannot_enter_a_bot_account_the_event_refuses():
    tournament, organiser = open_event(3, slug="no-bots")
    program = UserFactory()
    mark_as_bot(program)
    program = User.objects.get(pk=program.pk)
    with pytest.raises(TournamentError, match="does not take bot accounts"):
        entries.add_entry(tournament.pk, program, organiser)
    assert not Entry.objects.filter(user=program).exists()


def test_an_organiser_cannot_enter_a_non_member_in_a_members_only_event():
    tournament, organiser = open_event(3, slug="members", members_only=False)
    type(tournament).objects.filter(pk=tournament.pk).update(members_only=True)
    stranger = UserFactory()
    with pytest.raises(TournamentError, match="club members only"):
        entries.add_entry(tournament.pk, stranger, organiser)
    member = MembershipFactory(club=tournament.club, role=ClubMembership.Role.MEMBER).user
    assert entries.add_entry(tournament.pk, member, organiser).created


def test_an_organiser_cannot_enter_outside_the_rating_band():
    tournament, organiser = open_event(3, slug="band")
    type(tournament).objects.filter(pk=tournament.pk).update(min_rating=1600)
    with pytest.raises(TournamentError, match="below 1600"):
        entries.add_entry(tournament.pk, UserFactory(), organiser)


def test_a_withdrawn_player_is_not_entered_again_by_an_organiser():
    tournament, organiser = open_event(3, slug="withdrawn")
    player = tournament.entries.first().user
    entries.withdraw_entry(tournament.pk, player)
    with pytest.raises(TournamentError, match="only they can enter again"):
        entries.add_entry(tournament.pk, player, organiser)
    assert Entry.objects.get(tournament=tournament, user=player).status == Entry.Status.WITHDRAWN
    # The player themself may come back.
    assert entries.register_entry(tournament.pk, player).status != Entry.Status.WITHDRAWN


def test_an_entry_by_an_organiser_waits_for_the_players_confirmation(
    eager_celery, django_capture_on_commit_callbacks
):
    tournament, organiser = open_event(3, slug="confirm")
    player = UserFactory()
    with django_capture_on_commit_callbacks(execute=True):
        entry = entries.add_entry(tournament.pk, player, organiser).entry
    assert entry.confirmed is False
    notice = Notification.objects.get(user=player, tournament_id=tournament.pk)
    assert "confirm" in notice.message
    self_made = Entry.objects.exclude(pk=entry.pk).filter(tournament=tournament)
    assert all(e.confirmed for e in self_made)

    client = session_client(player)
    page = client.get(reverse("tournaments:detail", args=[tournament.slug])).content.decode()
    assert reverse("tournaments:action", args=[tournament.slug, "confirm"]) in page
    answer = client.post(f"/api/v1/tournaments/{tournament.slug}/confirm", format="json")
    assert answer.status_code == 200 and answer.json()["confirmed"] is True
    assert Entry.objects.get(pk=entry.pk).confirmed
    assert entries.confirm_entry(tournament.pk, player).confirmed  # twice: nothing changes
    assert [a for a in tournament.audit.values_list("action", flat=True)].count(
        "confirm_entry"
    ) == 1


def test_registering_oneself_confirms_an_organisers_entry():
    tournament, organiser = open_event(3, slug="self-confirm")
    player = UserFactory()
    entries.add_entry(tournament.pk, player, organiser)
    assert entries.register_entry(tournament.pk, player).confirmed


def test_an_unconfirmed_entrant_is_not_rated():
    tournament, organiser = open_event(4, slug="unrated")
    late = UserFactory()
    entries.add_entry(tournament.pk, late, organiser, check_in_now=True)
    round_one = Round.objects.get(tournament=tournament, number=1)
    rounds.seat_round(round_one.pk, by=organiser)
    players = [e.user for e in tournament.entries.order_by("pk")]
    now = dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
    outcome = PartieOutcome(
        partie_id=1,
        table_id=1,
        players=len(players),
        started_at=now,
        finished_at=now,
        rated=True,
        rating_pool="",
        ranked_queue=False,
        tournament_round_id=round_one.pk,
        seats=tuple(
            SeatOutcome(seat=n, user_id=u.pk, bot_level=None, total=10 * n, place=n + 1)
            for n, u in enumerate(players)
        ),
    )
    assert selectors.unconfirmed_players(outcome) == {late.pk}
    stored = recording.participants_of(outcome)
    assert [p["user_id"] for p in stored] == [u.pk if u != late else None for u in players]


def test_a_substitute_obeys_the_same_rules_and_waits_for_confirmation():
    tournament, organiser = open_event(4, slug="substitute")
    round_one = Round.objects.get(tournament=tournament, number=1)
    rounds.seat_round(round_one.pk, by=organiser)
    leaving = round_one.seats.order_by("pk").first()
    program = UserFactory()
    mark_as_bot(program)
    program = User.objects.get(pk=program.pk)
    with pytest.raises(TournamentError, match="does not take bot accounts"):
        rounds.substitute_player(round_one.pk, leaving.entry_id, program, organiser)
    gone = UserFactory()
    entries.add_entry(tournament.pk, gone, organiser)
    entries.withdraw_entry(tournament.pk, gone)
    with pytest.raises(TournamentError, match="only they can enter again"):
        rounds.substitute_player(round_one.pk, leaving.entry_id, gone, organiser)
    substitute = UserFactory()
    assert rounds.substitute_player(round_one.pk, leaving.entry_id, substitute, organiser)
    assert Entry.objects.get(tournament=tournament, user=substitute).confirmed is False
