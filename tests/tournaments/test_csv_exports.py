"""CSV exports never hand a spreadsheet a formula: text cells starting with ``=``, ``+``,
``-``, ``@``, a tab or a carriage return get a leading single quote (OWASP); numbers stay
numbers, negative ones included."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from rosbi_platform.accounts.models import ClubMembership, Profile
from tests.tournaments.factories import MembershipFactory, UserFactory
from tests.tournaments.helpers import open_event, start_now
from tournaments import results, scheduler
from tournaments.exports import csv_cell, write_csv
from tournaments.models import Entry, RoundSeat, RoundTable, Tournament

pytestmark = [pytest.mark.django_db(transaction=True)]

FORMULA = '=HYPERLINK("http://x","y")'


def test_csv_cell_escapes_text_only():
    assert csv_cell(FORMULA) == "'" + FORMULA
    for text in ("-2+3", "+1", "@SUM(A1)", "\tx", "\rx"):
        assert csv_cell(text) == "'" + text
    assert csv_cell("Anna") == "Anna"
    assert csv_cell(-8) == -8 and csv_cell(-8.5) == -8.5 and csv_cell(0) == 0
    assert csv_cell(None) == ""


TRIGGERS = ("=", "+", "-", "@")


def pieces(line: str, separator: str) -> list[str]:
    """The cells a spreadsheet splitting on ``separator`` (and line breaks) sees, with the
    spaces and quote marks it may strip in front."""
    return [
        piece.lstrip(' \t\u00a0"')
        for piece in line.replace("\r", "\n").replace("\n", separator).split(separator)
    ]


@pytest.mark.django_db(transaction=False)
@settings(max_examples=400, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from(list("ab1 ;,\t\r\n\"'=+-@(") + ["\u00a0", "ä"]),
        max_size=20,
    )
)
def test_no_text_cell_hides_a_formula_whatever_the_separator(text):
    """Issue 25, defect 9: ``x;=1+2;y`` became a formula in German Excel, which splits CSV
    lines on ``;``. Split on ``;`` or ``,``, no piece of an exported cell starts a formula."""
    out = io.StringIO()
    write_csv(out, ["player"], [[text]])
    row = out.getvalue().split("\r\n", 1)[1]
    for separator in (";", ","):
        for piece in pieces(row, separator):
            assert not piece.startswith(TRIGGERS), (text, row, separator, piece)
    assert csv_cell(text).replace("'", "") == text.replace("'", ""), "only quotes are added"


def test_the_german_excel_example_stays_text():
    assert csv_cell("x;=1+2;y") == "x;'=1+2;y"
    assert csv_cell('a, "=1"') == 'a, "\'=1"'
    assert csv_cell("Anna; Berta") == "Anna; Berta"


def test_exports_escape_display_names_and_keep_negative_totals(eager_celery, client):
    tournament, _organiser = open_event(4, slug="csv", mode=Tournament.Mode.PHYSICAL, rounds=1)
    staff = UserFactory(is_staff=True)
    MembershipFactory(club=tournament.club, user=staff, role=ClubMembership.Role.ORGANISER)
    start_now(tournament, staff)
    scheduler.advance_tournament(tournament.pk)
    players = list(Entry.objects.filter(tournament=tournament).order_by("pk"))
    Profile.objects.filter(user=players[0].user).update(display_name=FORMULA)
    Profile.objects.filter(user=players[1].user).update(display_name="-2+3")
    table = RoundTable.objects.get(round__tournament=tournament)
    totals = {players[0].pk: -8, players[1].pk: 8, players[2].pk: 0, players[3].pk: 0}
    for seat in RoundSeat.objects.filter(table=table):
        RoundSeat.objects.filter(pk=seat.pk).update(total=totals[seat.entry_id])
    RoundTable.objects.filter(pk=table.pk).update(status=RoundTable.Status.FINISHED)
    results.recompute_standings(tournament.pk)

    client.force_login(staff)
    changelist = reverse("admin:tournaments_tournament_changelist")

    def export(action: str) -> list[list[str]]:
        response = client.post(changelist, {"action": action, "_selected_action": [tournament.pk]})
        return list(csv.reader(io.StringIO(response.content.decode())))

    result_rows = export("export_results_csv")[1:]
    by_name = {row[4]: row for row in result_rows}
    assert set(by_name) >= {"'" + FORMULA, "'-2+3"}
    assert by_name["'" + FORMULA][5] == "-8"  # a number, not "'-8"
    assert by_name["'-2+3"][5] == "8"

    standing_rows = export("export_standings_csv")[1:]
    names = {row[2]: row for row in standing_rows}
    assert set(names) >= {"'" + FORMULA, "'-2+3"}
    assert names["'" + FORMULA][4] == "-8.0"  # penalty stays a (negative) number
    assert not any(cell.startswith(("=", "+", "@")) for row in standing_rows for cell in row)
