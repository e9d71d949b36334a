"""Knockout after round 1: a withdrawn finalist is not seated again, and the final order of a
knockout (page, CSV) comes from the bracket, not from summed placement points."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from rosbi_platform.accounts.models import ClubMembership
from tests.tournaments.factories import MembershipFactory, UserFactory
from tests.tournaments.helpers import enter_and_confirm, open_event, start_now
from tournaments import entries, results, rounds, scheduler, selectors
from tournaments.models import Entry, Round, RoundSeat, RoundTable, Standing, Tournament

pytestmark = [pytest.mark.django_db(transaction=True)]


def knockout_event(players: int, slug: str, **fields):
    tournament, organiser = open_event(
        players,
        slug=slug,
        format=Tournament.Format.KNOCKOUT,
        mode=Tournament.Mode.PHYSICAL,
        first_round=Tournament.FirstRound.RATING,
        rounds=1,
        **fields,
    )
    start_now(tournament, organiser)
    scheduler.advance_tournament(tournament.pk)
    return tournament, organiser


def test_a_withdrawn_finalist_is_not_seated_at_the_final(eager_celery):
    # An hour between rounds: the final is seated when round 1 ends, released an hour later.
    tournament, organiser = knockout_event(10, "ko-out", round_interval_minutes=60)
    round_one = Round.objects.get(tournament=tournament, number=1)
    for table in RoundTable.objects.filter(round=round_one):
        enter_and_confirm(table, organiser, f"out-{table.number}")
    final = Round.objects.get(tournament=tournament, number=2)
    assert final.status == Round.Status.SEATED
    finalists = set(RoundSeat.objects.filter(round=final).values_list("entry_id", flat=True))
    assert len(finalists) == 4
    leaving = Entry.objects.get(pk=min(finalists))

    withdrawal = entries.withdraw_entry(tournament.pk, leaving.user)

    assert withdrawal.reseated_round == 2
    seated = set(RoundSeat.objects.filter(round=final).values_list("entry_id", flat=True))
    assert seated == finalists - {leaving.pk}
    rounds.start_next_round(tournament.pk, by=organiser)
    enter_and_confirm(RoundTable.objects.get(round=final), organiser, "out-final")
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    bracket = selectors.knockout_bracket(tournament)
    assert bracket.champion in seated
    last = Standing.objects.filter(tournament=tournament, entry__in=finalists).order_by("rank")
    assert last.last().entry_id == leaving.pk  # the withdrawn finalist ranks last of the four


def test_knockout_standings_follow_the_bracket_not_the_points(eager_celery, client):
    tournament, organiser = knockout_event(8, "ko-order")
    round_one = Round.objects.get(tournament=tournament, number=1)
    tables = list(RoundTable.objects.filter(round=round_one).order_by("number"))
    assert [t.size for t in tables] == [4, 4]
    # Table 1: A wins (0), B second (30). Table 2: C wins (0), D second (10).
    first = dict(tables[0].seats.values_list("seat", "entry_id"))
    second = dict(tables[1].seats.values_list("seat", "entry_id"))
    results.record_table_result(tables[0].pk, {0: 0, 1: 30, 2: 40, 3: 50}, "test")
    results.record_table_result(tables[1].pk, {0: 0, 1: 10, 2: 40, 3: 50}, "test")
    a, b, c, d = first[0], first[1], second[0], second[1]
    final = RoundTable.objects.get(round__tournament=tournament, round__number=2)
    final_seat = dict(final.seats.values_list("entry_id", "seat"))
    assert set(final_seat) == {a, b, c, d}
    # The final: B wins (20), A second (21). Points: A 3 + 2 = 5, B 2 + 3 = 5; A has the
    # lower penalty sum (21 against 50), so a points table would put A above the champion.
    final_totals = {a: 21, b: 20, c: 30, d: 40}
    results.record_table_result(
        final.pk, {final_seat[e]: total for e, total in final_totals.items()}, "test"
    )
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert selectors.knockout_bracket(tournament).champion == b

    order = list(
        Standing.objects.filter(tournament=tournament)
        .order_by("rank")
        .values_list("entry_id", "rank")
    )
    assert order[:4] == [(b, 1), (a, 2), (c, 3), (d, 4)]
    assert [rank for _e, rank in order] == list(range(1, 9))

    staff = UserFactory(is_staff=True)
    MembershipFactory(club=tournament.club, user=staff, role=ClubMembership.Role.ORGANISER)
    client.force_login(staff)
    exported = client.post(
        reverse("admin:tournaments_tournament_changelist"),
        {"action": "export_standings_csv", "_selected_action": [tournament.pk]},
    )
    rows = list(csv.reader(io.StringIO(exported.content.decode())))
    champion_name = selectors.entry_name(Entry.objects.get(pk=b))
    assert rows[1][1:3] == ["1", champion_name]
    page = client.get(reverse("tournaments:detail", args=[tournament.slug])).content.decode()
    standings = page[page.index("data-standings") :]
    assert standings.index(champion_name) < standings.index(
        selectors.entry_name(Entry.objects.get(pk=a))
    )
    assert organiser is not None
