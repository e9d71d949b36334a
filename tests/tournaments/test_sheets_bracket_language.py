"""Score-sheet checks, bracket labels and admin display names reach people in their language:
German (with the contract names of the game pages) when German is active, English otherwise."""

from __future__ import annotations

import html
import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.tournaments.helpers import enter_and_confirm, open_event, random_sheet, start_now
from tournaments import results, scheduler, selectors
from tournaments.common import TournamentError
from tournaments.models import (
    AuditLog,
    Entry,
    PhysicalResult,
    Round,
    RoundSeat,
    RoundTable,
    Tournament,
)

pytestmark = [pytest.mark.django_db(transaction=True)]

SHEET_PROBLEM_ROWS = {
    "de": (
        "Spiel 1 (Keinen Stich): diese Strafpunkte können nicht aus einem Spiel stammen "
        "(zusammen 8, verdoppelt 16 oder bei einem Durchmarsch -8).",
        "Spiel 4 (Achtung, Herz-König!): genau ein Spieler bekommt 8, alle anderen 0.",
    ),
    "en": (
        "Deal 1 (No tricks): these penalties cannot come from one deal "
        "(total 8, doubled 16, or a slam: -8).",
        "Deal 4 (Beware the King of Hearts): exactly one player scores 8, everyone else 0.",
    ),
}
SHEET_PROBLEMS = {language: " ".join(rows) for language, rows in SHEET_PROBLEM_ROWS.items()}


def client_in(language: str | None, user=None) -> Client:
    """A browser with the language cookie the site's switch sets (logged in if ``user``)."""
    client = Client()
    if user is not None:
        client.force_login(user)
    if language is not None:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


@pytest.fixture
def physical_table(eager_celery):
    tournament, organiser = open_event(4, slug="kneipe", mode=Tournament.Mode.PHYSICAL)
    start_now(tournament, organiser)
    scheduler.advance_tournament(tournament.pk)
    table = RoundTable.objects.get(round__tournament=tournament, round__number=1)
    assert table.physical and table.size == 4
    return tournament, organiser, table


def bad_sheet() -> list[list[int]]:
    """Deal 1 adds up to 7 and deal 4 has two Kings of Hearts; the rest is a real game."""
    sheet = random_sheet(4, "bad")
    sheet[0] = [2, 2, 2, 1]
    sheet[3] = [8, 8, 0, 0]
    return sheet


@pytest.mark.parametrize("language", ["de", "en"])
def test_a_sheet_check_names_deal_and_contract_in_the_active_language(physical_table, language):
    _tournament, organiser, table = physical_table

    with translation.override(language), pytest.raises(TournamentError) as refused:
        results.submit_physical_result(table.pk, bad_sheet(), by=organiser)

    assert str(refused.value) == SHEET_PROBLEMS[language]
    assert not PhysicalResult.objects.filter(table=table).exists()


@pytest.mark.parametrize("language", ["de", None])
def test_the_score_sheet_page_shows_the_check_in_the_visitors_language(physical_table, language):
    _tournament, organiser, table = physical_table
    data = {
        f"d{deal}s{seat}": value
        for deal, row in enumerate(bad_sheet())
        for seat, value in enumerate(row)
    }

    response = client_in(language, organiser).post(
        reverse("tournaments:sheet", args=[table.pk]), data
    )

    assert response.status_code == 200  # the form again, each problem at its deal's row
    page = html.unescape(response.content.decode())
    first, fourth = SHEET_PROBLEM_ROWS[language or "en"]
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", page.split("<tbody>")[1], re.S)
    assert first in rows[0] and fourth in rows[3]
    assert not any(first in row or fourth in row for row in (rows[1], rows[2], rows[4], rows[5]))
    # Each input of a refused row points at its message (read out with the field).
    assert rows[0].count('aria-describedby="sheet-deal-1-error"') == table.size
    assert 'id="sheet-deal-1-error"' in rows[0] and 'aria-invalid="true"' in rows[3]
    assert "aria-invalid" not in rows[1]
    assert not PhysicalResult.objects.filter(table=table).exists()


@pytest.mark.parametrize(
    ("language", "words", "absent"),
    [
        (
            "de",
            ['aria-label="K.-o.-Turnierbaum"', "Runde 1", "Tisch 2", "Finale", "Finaltisch"],
            ["Round 1", "Table 2", "Final table", "to be decided"],
        ),
        (
            None,
            ['aria-label="Knockout bracket"', "Round 1", "Table 2", ">Final<", "Final table"],
            ["Runde", "Tisch", "Finale", "noch offen"],
        ),
    ],
)
def test_bracket_labels_are_in_the_visitors_language(eager_celery, language, words, absent):
    tournament, organiser = open_event(
        10,
        slug=f"ko-{language}",
        format=Tournament.Format.KNOCKOUT,
        mode=Tournament.Mode.PHYSICAL,
        first_round=Tournament.FirstRound.RATING,
        rounds=1,
    )
    start_now(tournament, organiser)
    scheduler.advance_tournament(tournament.pk)  # round 1 seated: two tables of 5, a final of 4

    svg = client_in(language).get(reverse("tournaments:bracket", args=[tournament.slug]))

    text = svg.content.decode()
    assert svg.status_code == 200
    for word in words:
        assert word in text
    for word in absent:
        assert word not in text
    undecided = "noch offen" if language == "de" else "to be decided"
    assert text.count(undecided) == 4  # the final's four seats


def test_the_champion_is_named_in_german(eager_celery):
    tournament, organiser = open_event(
        4,
        slug="ko-final",
        format=Tournament.Format.KNOCKOUT,
        mode=Tournament.Mode.PHYSICAL,
        first_round=Tournament.FirstRound.RATING,
        rounds=1,
    )
    start_now(tournament, organiser)
    scheduler.advance_tournament(tournament.pk)
    enter_and_confirm(RoundTable.objects.get(round__tournament=tournament), organiser, "final")
    bracket = selectors.knockout_bracket(tournament)
    champion = selectors.entry_name(Entry.objects.get(pk=bracket.champion))

    svg = client_in("de").get(reverse("tournaments:bracket", args=[tournament.slug]))

    text = svg.content.decode()
    assert f"Sieger: {html.escape(champion)}</text>" in text
    assert "Finaltisch" in text and "Champion" not in text


def test_admin_display_names_follow_the_active_language(physical_table):
    tournament, organiser, table = physical_table
    seat = RoundSeat.objects.select_related("entry__user").get(table=table, seat=0)
    user = seat.entry.user
    sheet = results.submit_physical_result(table.pk, random_sheet(4, "good"), by=organiser)
    log = AuditLog.objects.create(tournament=tournament, actor=None, action="advance")
    round_one = Round.objects.get(tournament=tournament, number=1)

    with translation.override("de"):
        assert str(round_one) == "Event kneipe, Runde 1"
        assert (
            str(seat)
            == f"{user} im Turnier Event kneipe auf Platz 0, Event kneipe, Runde 1, Tisch 1"
        )
        assert str(sheet) == "Spielliste v1, Event kneipe, Runde 1, Tisch 1"
        assert str(log).endswith(" Zeitplaner: advance")
    with translation.override("en"):
        assert str(seat) == f"{user} in Event kneipe at seat 0, Event kneipe, round 1, table 1"
        assert str(sheet) == "score sheet v1, Event kneipe, round 1, table 1"
        assert str(log).endswith(" scheduler: advance")


@pytest.mark.parametrize(
    ("language", "rows"),
    [
        ("de", ["1. Keinen Stich", "4. Achtung, Herz-König!", "5. Hundert"]),
        (None, ["1. No tricks", "4. Beware the King of Hearts", "5. Hundred"]),
    ],
)
def test_sheet_and_print_pages_name_the_contracts_in_the_visitors_language(
    physical_table, language, rows
):
    tournament, organiser, table = physical_table
    client = client_in(language, organiser)

    sheet_page = client.get(reverse("tournaments:sheet", args=[table.pk])).content.decode()
    print_page = client.get(reverse("tournaments:print", args=[tournament.slug, 1]))

    for page in (html.unescape(sheet_page), html.unescape(print_page.content.decode())):
        for row in rows:
            assert row in page
        assert "no_king_of_hearts" not in page
    # Seats are numbered from 1, as in the column headings ("1: Anna").
    seat_label = "Keinen Stich, Platz 1" if language == "de" else "No tricks, seat 1"
    assert f'aria-label="{seat_label}"' in sheet_page
