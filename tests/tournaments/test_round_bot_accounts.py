"""Bot accounts in online rounds: the game tables take them exactly when the event does,
seating keeps the event's rule, and a table the games app refuses never makes "start round"
a server error: a sentence, the round still seated (defect 5 of issue 25)."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from games.models import Seat
from games.models import Table as GameTable
from rosbi_platform.accounts.services import mark_as_bot
from tests.tournaments.factories import UserFactory
from tests.tournaments.helpers import open_event, start_now
from tournaments import entries, rounds, scheduler
from tournaments.common import TournamentError
from tournaments.models import Entry, Round, RoundSeat, RoundTable, Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


def test_an_event_that_takes_bot_accounts_starts_a_round_with_one(eager_celery):
    tournament, organiser = open_event(3, slug="bots-welcome", allow_bots=True, mode="online")
    program = UserFactory()
    mark_as_bot(program)
    entries.register_entry(tournament.pk, program)
    entries.check_in(tournament.pk, program)
    round_one = Round.objects.get(tournament=tournament, number=1)
    rounds.seat_round(round_one.pk, by=organiser)

    assert rounds.start_next_round(tournament.pk, by=organiser)

    round_one.refresh_from_db()
    assert round_one.status == Round.Status.STARTED
    game = GameTable.objects.get(pk=RoundTable.objects.get(round=round_one).game_table_id)
    assert game.allow_bots
    assert Seat.objects.filter(table=game, user=program).exists()


def test_seating_leaves_out_a_bot_account_the_event_does_not_take(eager_celery):
    tournament, organiser = open_event(4, slug="no-bots", mode="online")
    program = UserFactory()
    mark_as_bot(program)
    # An entry written before the rule held for every door (or by hand): seating decides.
    Entry.objects.create(
        tournament=tournament, user=program, status=Entry.Status.CHECKED_IN, plays_online=True
    )
    round_one = Round.objects.get(tournament=tournament, number=1)
    rounds.seat_round(round_one.pk, by=organiser)
    seated = set(RoundSeat.objects.filter(round=round_one).values_list("entry__user_id", flat=True))
    assert program.pk not in seated and len(seated) == 4


def seated_round_with_a_new_bot_account(slug: str):
    """Four seated in an event that takes no bot accounts; one then turns into a bot."""
    tournament, organiser = open_event(4, slug=slug, mode="online")
    round_one = Round.objects.get(tournament=tournament, number=1)
    rounds.seat_round(round_one.pk, by=organiser)
    mark_as_bot(RoundSeat.objects.filter(round=round_one).first().entry.user)
    return tournament, organiser, round_one


def test_a_refused_table_refuses_the_start_with_a_sentence_and_the_round_stays_seated(
    eager_celery,
):
    tournament, organiser, round_one = seated_round_with_a_new_bot_account("refused")
    with pytest.raises(TournamentError, match="Round 1 cannot start: .*bot accounts"):
        rounds.start_next_round(tournament.pk, by=organiser)
    round_one.refresh_from_db()
    assert round_one.status == Round.Status.SEATED
    assert not GameTable.objects.filter(tournament_round_id=round_one.pk).exists()
    assert RoundTable.objects.get(round=round_one).game_table_id is None


def test_the_workspace_start_answers_with_a_message_not_a_server_error(client, eager_celery):
    tournament, organiser, round_one = seated_round_with_a_new_bot_account("refused-page")
    client.force_login(organiser)
    url = reverse("tournaments:workspace_action", args=[tournament.slug, "start"])
    response = client.post(url, follow=True)
    assert response.status_code == 200
    assert any("cannot start" in str(m) for m in get_messages(response.wsgi_request))
    assert Round.objects.get(pk=round_one.pk).status == Round.Status.SEATED


def test_the_scheduler_puts_the_event_on_hold_instead_of_failing(eager_celery):
    tournament, organiser, round_one = seated_round_with_a_new_bot_account("refused-beat")
    start_now(tournament, organiser)
    scheduler.advance_tournament(tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.ON_HOLD
    assert "cannot start" in tournament.hold_reason
    assert Round.objects.get(pk=round_one.pk).status == Round.Status.SEATED
