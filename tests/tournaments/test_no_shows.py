"""No-shows after the grace time: a bot takes the seat and the absent player scores a forfeit
(or, with the forfeit policy, is also withdrawn); the others keep the places they played."""

from __future__ import annotations

import pytest

from games import moves
from games import selectors as games_selectors
from games.models import SeatResult
from games.models import Table as GameTable
from tests.tournaments.helpers import open_event, players_time_out
from tournaments import entries, rounds, scheduler, scoring
from tournaments.models import AuditLog, Entry, Round, RoundTable, Standing, Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


def play_round_with_one_no_show(policy: str):
    """Four seated: the player on turn moves at once, two press "I'm here", one never shows."""
    tournament, organiser = open_event(
        4, slug=f"no-show-{policy}", no_show_grace_minutes=0, no_show_policy=policy, rounds=1
    )
    round_one = Round.objects.get(tournament=tournament, number=1)
    rounds.seat_round(round_one.pk, by=organiser)
    rounds.start_next_round(tournament.pk, by=organiser)
    table = RoundTable.objects.get(round=round_one)
    game = GameTable.objects.get(pk=table.game_table_id)
    deal = games_selectors.rebuild_deal(games_selectors.current_deal_row(game), game)
    mover = table.seats.get(seat=deal.turn)
    result = moves.submit_move(
        game.pk, deal.legal_moves()[0].code, game.version, user=mover.entry.user
    )
    assert result.ok
    absent = table.seats.exclude(pk=mover.pk).order_by("seat").last()
    for seat in table.seats.exclude(pk__in=[mover.pk, absent.pk]):
        assert entries.confirm_presence(table.pk, seat.entry.user)

    scheduler.advance_tournament(tournament.pk)  # the grace time (0 minutes) has passed

    for _ in range(20):
        table.refresh_from_db()
        if table.status == RoundTable.Status.FINISHED:
            break
        players_time_out()
    assert table.status == RoundTable.Status.FINISHED
    return tournament, table, absent


def test_a_bot_takes_the_seat_and_the_absent_player_scores_a_forfeit(eager_celery):
    tournament, table, absent = play_round_with_one_no_show(Tournament.NoShow.BOT)

    absent.refresh_from_db()
    assert absent.forfeit
    bot_seat = SeatResult.objects.get(partie__table_id=table.game_table_id, seat=absent.seat)
    assert bot_seat.user_id is None and bot_seat.bot_level
    totals = dict(table.seats.values_list("seat", "total"))
    points = scoring.placement_points(totals)  # places as played, the bot included
    rows = {row.entry_id: row for row in Standing.objects.filter(tournament=tournament)}
    assert rows[absent.entry_id].points == 0.0
    assert rows[absent.entry_id].penalty == max(totals.values())
    assert rows[absent.entry_id].rounds_absent == 1
    for seat in table.seats.exclude(pk=absent.pk):
        assert rows[seat.entry_id].points == points[seat.seat]
    assert Entry.objects.get(pk=absent.entry_id).status == Entry.Status.CHECKED_IN
    no_shows = AuditLog.objects.filter(tournament=tournament, action="no_show")
    assert [log.details["entry"] for log in no_shows] == [absent.entry_id]
    others = SeatResult.objects.filter(partie__table_id=table.game_table_id).exclude(
        seat=absent.seat
    )
    assert all(result.user_id is not None for result in others)


def test_the_forfeit_policy_also_withdraws_the_player(eager_celery):
    _tournament, _table, absent = play_round_with_one_no_show(Tournament.NoShow.FORFEIT)

    assert Entry.objects.get(pk=absent.entry_id).status == Entry.Status.WITHDRAWN
