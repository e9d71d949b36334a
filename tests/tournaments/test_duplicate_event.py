"""Duplicate: every table of one size in a round plays the very same six deals."""

from __future__ import annotations

import pytest

from games.models import Partie, PartieDeal
from tests.tournaments.helpers import drive, open_event, start_now
from tournaments import duplicate, round_seating, tasks
from tournaments.models import Round, RoundTable, Standing, Tournament

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


def test_tables_of_a_size_get_the_same_hands_and_matchpoints_rank_the_field(eager_celery):
    tournament, organiser = open_event(
        8, slug="dup", format=Tournament.Format.DUPLICATE, rounds=1, allow_other_sizes=False
    )
    start_now(tournament, organiser)

    drive(tournament, sweep=lambda: tasks.sweep_tournaments.delay())

    tables = list(RoundTable.objects.filter(round__tournament=tournament).order_by("number"))
    assert [t.size for t in tables] == [4, 4]
    seed = round_seating.duplicate_table_seed(tournament.seed, 1, 4)
    assert seed == duplicate.deal_seed(tournament.seed, 1, 4) % 2**63
    assert {t.deal_seed for t in tables} == {seed}
    parties = [Partie.objects.get(table_id=t.game_table_id) for t in tables]
    assert {p.seed for p in parties} == {seed}
    assert parties[0].first_dealer == parties[1].first_dealer
    deals = [
        list(PartieDeal.objects.filter(partie=p).order_by("number").values_list("dealer", "hands"))
        for p in parties
    ]
    assert len(deals[0]) == 6
    assert deals[0] == deals[1]

    # Matchpoints: each seat against the same seat at the other table.
    totals = [dict(t.seats.values_list("seat", "total")) for t in tables]
    seats = [dict(t.seats.values_list("seat", "entry_id")) for t in tables]
    scores = duplicate.matchpoints(
        [
            duplicate.DuplicateTable(
                [seats[i][s] for s in range(4)], [totals[i][s] for s in range(4)]
            )
            for i in range(2)
        ]
    )
    stored = dict(Standing.objects.filter(tournament=tournament).values_list("entry", "percent"))
    assert stored == {score.player: score.percent for score in scores}
    ranked = list(Standing.objects.filter(tournament=tournament).order_by("rank", "entry"))
    assert [s.percent for s in ranked] == sorted((s.percent for s in ranked), reverse=True)
    assert Round.objects.get(tournament=tournament).status == Round.Status.FINISHED
