"""Standings and tie-breaks from the stored results, fixed schedules and hybrid events."""

from __future__ import annotations

import pytest

from tests.tournaments.helpers import enter_and_confirm, open_event, start_now
from tournaments import entries, results, schedule, scheduler
from tournaments.common import TournamentError
from tournaments.models import Entry, Round, RoundSeat, RoundTable, Standing, Tournament
from tournaments.standings import StandingsConfig, TableResult, compute_standings

pytestmark = [pytest.mark.django_db(transaction=True)]


def stored_results(tournament: Tournament) -> list[TableResult]:
    return [
        TableResult(
            table.round.number,
            {s.entry_id: s.total for s in table.seats.all()},
            table.number,
        )
        for table in RoundTable.objects.filter(
            round__tournament=tournament, status=RoundTable.Status.FINISHED
        ).select_related("round")
    ]


def test_standings_follow_the_configured_points_and_tiebreak_order(eager_celery):
    tiebreaks = ["table_wins", "points", "head_to_head", "penalty"]
    tournament, organiser = open_event(
        9,
        slug="ties",
        mode=Tournament.Mode.PHYSICAL,
        rounds=2,
        tiebreaks=tiebreaks,
        placement_points={"4": [5, 3, 1, 0], "5": [5, 3, 2, 1, 0]},
    )
    start_now(tournament, organiser)
    scheduler.advance_tournament(tournament.pk)
    for number in (1, 2):
        for table in RoundTable.objects.filter(round__tournament=tournament, round__number=number):
            enter_and_confirm(table, organiser, f"ties-{number}-{table.number}")
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED

    config = StandingsConfig(
        points_by_size={**StandingsConfig().points_by_size, 4: (5, 3, 1, 0), 5: (5, 3, 2, 1, 0)}
    )
    expected = compute_standings(stored_results(tournament), tiebreaks, rounds=2, config=config)
    stored = list(Standing.objects.filter(tournament=tournament).order_by("rank", "entry_id"))
    assert [(s.entry_id, s.rank, s.points, s.table_wins) for s in stored] == [
        (r.player, r.rank, r.points, r.table_wins) for r in expected
    ]
    assert max(s.points for s in stored) <= 10  # two rounds of at most 5

    # Recomputing from the same stored results gives the same standings.
    results.recompute_standings(tournament.pk)
    again = list(Standing.objects.filter(tournament=tournament).order_by("rank", "entry_id"))
    assert [(s.entry_id, s.rank, s.points) for s in again] == [
        (s.entry_id, s.rank, s.points) for s in stored
    ]

    # A different precedence, recomputed from the same results, follows the pure function.
    Tournament.objects.filter(pk=tournament.pk).update(tiebreaks=["penalty", "points"])
    results.recompute_standings(tournament.pk)
    by_penalty = compute_standings(
        stored_results(tournament), ["penalty", "points"], rounds=2, config=config
    )
    assert list(
        Standing.objects.filter(tournament=tournament)
        .order_by("rank", "entry_id")
        .values_list("entry_id", "rank")
    ) == [(r.player, r.rank) for r in by_penalty]


def test_a_fixed_schedule_event_plays_the_precomputed_rounds(eager_celery):
    tournament, organiser = open_event(
        9,
        slug="fixed",
        mode=Tournament.Mode.PHYSICAL,
        format=Tournament.Format.FIXED,
        rounds=2,
        table_size=3,
        allow_other_sizes=False,
    )
    start_now(tournament, organiser)
    scheduler.advance_tournament(tournament.pk)
    field = list(
        Entry.objects.filter(tournament=tournament).order_by("pk").values_list("pk", flat=True)
    )
    plan = schedule.fixed_schedule(9, 3, 2, seed=tournament.seed, allowed=(3,))
    for number in (1, 2):
        round_ = Round.objects.get(tournament=tournament, number=number)
        seated = [
            list(t.seats.order_by("seat").values_list("entry_id", flat=True))
            for t in RoundTable.objects.filter(round=round_).order_by("number")
        ]
        assert seated == [[field[i] for i in table] for table in plan.rounds[number - 1]]
        for table in RoundTable.objects.filter(round=round_):
            enter_and_confirm(table, organiser, f"fixed-{number}-{table.number}")
    pairs = set()
    for table in RoundTable.objects.filter(round__tournament=tournament):
        ids = sorted(table.seats.values_list("entry_id", flat=True))
        new = {(a, b) for i, a in enumerate(ids) for b in ids[i + 1 :]}
        assert not pairs & new  # nine in threes over two rounds: nobody meets twice
        pairs |= new


def test_a_hybrid_event_seats_online_and_physical_players_apart(eager_celery):
    tournament, organiser = open_event(
        0, slug="hybrid", mode=Tournament.Mode.HYBRID, no_show_grace_minutes=60
    )
    from tests.tournaments.factories import UserFactory

    online = UserFactory.create_batch(4)
    physical = UserFactory.create_batch(3)
    for user in online:
        entries.register_entry(tournament.pk, user, plays_online=True)
        entries.check_in(tournament.pk, user)
    for user in physical:
        entries.register_entry(tournament.pk, user, plays_online=False)
        entries.check_in(tournament.pk, user)
    start_now(tournament, organiser)
    scheduler.advance_tournament(tournament.pk)

    tables = list(RoundTable.objects.filter(round__tournament=tournament).order_by("number"))
    assert [(t.size, t.physical, t.game_table_id is not None) for t in tables] == [
        (4, False, True),
        (3, True, False),
    ]
    physical_ids = set(
        RoundSeat.objects.filter(table=tables[1]).values_list("entry__user", flat=True)
    )
    assert physical_ids == {u.pk for u in physical}


def test_hybrid_knockout_is_refused(eager_celery):
    with pytest.raises(TournamentError, match="Hybrid"):
        open_event(0, slug="hko", mode=Tournament.Mode.HYBRID, format=Tournament.Format.KNOCKOUT)
