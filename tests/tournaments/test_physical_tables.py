"""Physical tables: sheets checked against the rules, confirmed by a second person, corrected
by new versions; the confirmed totals are the table's result."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import UserFactory
from tests.tournaments.helpers import open_event, random_sheet, start_now
from tournaments import results, scheduler
from tournaments.common import TournamentError
from tournaments.models import PhysicalResult, Round, RoundTable, Standing, Tournament

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def seated_table(eager_celery):
    tournament, organiser = open_event(8, slug="club-night", mode=Tournament.Mode.PHYSICAL)
    start_now(tournament, organiser)
    scheduler.advance_tournament(tournament.pk)
    round_one = Round.objects.get(tournament=tournament, number=1)
    assert round_one.status == Round.Status.STARTED
    table = RoundTable.objects.filter(round=round_one).order_by("number").first()
    assert table.physical and table.game_table_id is None
    return tournament, organiser, table


def test_an_impossible_sheet_is_refused_with_the_deal_named(seated_table):
    _tournament, organiser, table = seated_table
    sheet = random_sheet(table.size, "bad")
    sheet[3] = [8, 8] + [0] * (table.size - 2)  # two Kings of Hearts

    with pytest.raises(TournamentError, match=r"Deal 4 \(Beware the King of Hearts\)"):
        results.submit_physical_result(table.pk, sheet, by=organiser)

    assert not PhysicalResult.objects.filter(table=table).exists()


def test_doubling_is_refused_when_the_house_rule_is_off(eager_celery):
    tournament, organiser = open_event(
        4, slug="no-doubling", mode=Tournament.Mode.PHYSICAL, doubling=False
    )
    start_now(tournament, organiser)
    scheduler.advance_tournament(tournament.pk)
    table = RoundTable.objects.get(round__tournament=tournament)
    sheet = random_sheet(4, "plain", doubling=False)
    sheet[2] = [8, 8, 0, 0]  # Jacks doubled

    with pytest.raises(TournamentError, match=r"Deal 3 \(No jacks\)"):
        results.submit_physical_result(table.pk, sheet, by=organiser)
    results.submit_physical_result(table.pk, random_sheet(4, "plain", doubling=False), by=organiser)


def test_a_second_person_confirms_and_the_result_counts(seated_table):
    tournament, organiser, table = seated_table
    player = table.seats.get(seat=1).entry.user
    other_player = table.seats.get(seat=2).entry.user
    outsider = UserFactory()
    sheet = results.submit_physical_result(table.pk, random_sheet(table.size, "one"), by=player)
    table.refresh_from_db()
    assert table.status == RoundTable.Status.PLAYING

    with pytest.raises(TournamentError, match="second person"):
        results.confirm_physical_result(sheet.pk, by=player)
    with pytest.raises(TournamentError, match="organisers and the players"):
        results.confirm_physical_result(sheet.pk, by=outsider)
    with pytest.raises(TournamentError, match="organisers and the players"):
        results.submit_physical_result(table.pk, random_sheet(table.size, "x"), by=outsider)

    assert results.confirm_physical_result(sheet.pk, by=other_player) is True
    assert results.confirm_physical_result(sheet.pk, by=organiser) is False  # already done

    table.refresh_from_db()
    assert table.status == RoundTable.Status.FINISHED
    assert dict(table.seats.values_list("seat", "total")) == dict(enumerate(sheet.totals))
    played = dict(
        Standing.objects.filter(tournament=tournament).values_list("entry", "rounds_played")
    )
    assert len(played) == 8  # everyone seated is listed; the open table has no result yet
    assert {e for e, n in played.items() if n == 1} == set(
        table.seats.values_list("entry", flat=True)
    )


def test_a_correction_is_a_new_version_and_replaces_the_result_once_confirmed(seated_table):
    tournament, organiser, table = seated_table
    player = table.seats.get(seat=0).entry.user
    first = results.submit_physical_result(table.pk, random_sheet(table.size, "first"), by=player)
    results.confirm_physical_result(first.pk, by=organiser)
    corrected_rows = random_sheet(table.size, "second")
    assert corrected_rows != first.penalties

    correction = results.submit_physical_result(table.pk, corrected_rows, by=organiser)
    assert correction.version == 2
    # Until the correction is confirmed the confirmed first version stands.
    assert dict(table.seats.values_list("seat", "total")) == dict(enumerate(first.totals))
    with pytest.raises(TournamentError, match="second person"):
        results.confirm_physical_result(correction.pk, by=organiser)
    results.confirm_physical_result(correction.pk, by=player)

    assert dict(table.seats.values_list("seat", "total")) == dict(enumerate(correction.totals))
    versions = list(
        PhysicalResult.objects.filter(table=table)
        .order_by("version")
        .values_list("version", "submitted_by", "confirmed_by")
    )
    assert versions == [(1, player.pk, organiser.pk), (2, organiser.pk, player.pk)]
    assert all(
        s.submitted_at and s.confirmed_at for s in PhysicalResult.objects.filter(table=table)
    )
    by_entry = {s.entry_id: s.total for s in table.seats.all()}
    standings = dict(Standing.objects.filter(tournament=tournament).values_list("entry", "penalty"))
    assert {entry: standings[entry] for entry in by_entry} == by_entry


def test_an_older_version_cannot_be_confirmed_over_a_newer_one(seated_table):
    _tournament, organiser, table = seated_table
    player = table.seats.get(seat=0).entry.user
    old = results.submit_physical_result(table.pk, random_sheet(table.size, "a"), by=player)
    results.submit_physical_result(table.pk, random_sheet(table.size, "b"), by=player)

    with pytest.raises(TournamentError, match="newer version"):
        results.confirm_physical_result(old.pk, by=organiser)
