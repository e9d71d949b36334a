"""Knockout through the services: physical tables, sheets confirmed, the advancers of every
table seated in the next round exactly as the pure bracket says, down to the champion."""

from __future__ import annotations

import pytest

from tests.tournaments.helpers import enter_and_confirm, open_event, start_now
from tournaments import knockout, scheduler, selectors
from tournaments.models import Entry, Round, RoundSeat, RoundTable, Tournament

pytestmark = [pytest.mark.django_db(transaction=True)]


def seating(round_: Round) -> list[list[int]]:
    return [
        list(t.seats.order_by("seat").values_list("entry_id", flat=True))
        for t in RoundTable.objects.filter(round=round_).order_by("number")
    ]


def test_knockout_advances_the_best_of_each_table_to_a_final(eager_celery, client):
    tournament, organiser = open_event(
        10,
        slug="ko",
        format=Tournament.Format.KNOCKOUT,
        mode=Tournament.Mode.PHYSICAL,
        first_round=Tournament.FirstRound.RATING,
        rounds=1,  # the plan decides: 10 players -> two tables of 5 -> a final of 4
    )
    start_now(tournament, organiser)
    scheduler.advance_tournament(tournament.pk)
    tournament.refresh_from_db()
    assert tournament.rounds == 2
    seeds = list(
        Entry.objects.filter(tournament=tournament)
        .order_by("seed_number")
        .values_list("pk", flat=True)
    )
    round_one = Round.objects.get(tournament=tournament, number=1)
    assert seating(round_one) == knockout.seed_tables(seeds, [5, 5])

    totals_round_one: dict[int, int] = {}
    for table in RoundTable.objects.filter(round=round_one).order_by("number"):
        totals = enter_and_confirm(table, organiser, f"ko-r1-{table.number}")
        for seat in table.seats.all():
            totals_round_one[seat.entry_id] = totals[seat.seat]

    # The last confirmation queued the advance: round 1 closed, round 2 seated and started.
    round_one.refresh_from_db()
    round_two = Round.objects.get(tournament=tournament, number=2)
    assert round_one.status == Round.Status.FINISHED
    assert round_two.status == Round.Status.STARTED
    seed_of = {player: n for n, player in enumerate(seeds, start=1)}
    tables = [{e: totals_round_one[e] for e in table} for table in seating(round_one)]
    through, _wildcards = knockout.round_advancement(tables, 2, seed_of)
    assert seating(round_two) == knockout.seed_tables(through, [4])

    final = RoundTable.objects.get(round=round_two)
    final_totals = enter_and_confirm(final, organiser, "ko-final")
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    bracket = selectors.knockout_bracket(tournament)
    finalists = dict(zip(seating(round_two)[0], final_totals, strict=True))
    assert bracket.champion == knockout.table_order(finalists, seed_of)[0]
    assert RoundSeat.objects.filter(round=round_two).count() == 4

    svg = client.get(f"/tournaments/{tournament.slug}/bracket.svg")
    assert svg.status_code == 200 and svg["Content-Type"] == "image/svg+xml"
    champion = Entry.objects.get(pk=bracket.champion)
    assert selectors.entry_name(champion) in svg.content.decode()
    page = client.get(f"/tournaments/{tournament.slug}/").content.decode()
    assert "bracket.svg" in page
