"""CSV exports of standings and results, written through one cell guard.

A spreadsheet runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` (and, in some
programs, a tab or a carriage return) as a formula, and display names are chosen by players.
Every text cell of every export goes through ``csv_cell``, which puts a single quote in front
of such text (the OWASP advice for CSV injection); numbers are written as numbers, so a
negative total stays ``-8``.

The first character is not enough: German Excel splits a CSV line on ``;``, so the name
``x;=1+2;y`` became three cells, the middle one a formula. ``csv_cell`` therefore also puts the
quote before a formula character that follows a separator any spreadsheet may split on
(``;``, ``,``, a tab, a line break), or that follows only spaces and quote marks at the start
of the text or of such a piece: whichever separator a program splits on, no piece starts a
formula.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable, Sequence
from typing import Any

from tournaments import selectors
from tournaments.models import Tournament

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# A formula character after a separator (or the start), with only spaces or double quotes
# between: the single quote goes right before it.
_HIDDEN_FORMULA = re.compile(r'(^|[;,\t\r\n])([ \u00a0"]*)(?=[=+\-@])')

STANDINGS_HEADER = [
    "tournament",
    "rank",
    "player",
    "points",
    "penalty",
    "opponents_points",
    "table_wins",
    "rounds_played",
    "rounds_absent",
    "percent",
]
RESULTS_HEADER = ["tournament", "round", "table", "seat", "player", "total", "forfeit"]


def csv_cell(value: Any) -> Any:
    """A text cell a spreadsheet will not run as a formula; numbers and booleans unchanged."""
    if value is None:
        return ""
    if not isinstance(value, str):
        return value
    if value.startswith(FORMULA_STARTS):
        value = "'" + value
    return _HIDDEN_FORMULA.sub(r"\1\2'", value)


def write_csv(out: Any, header: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """Write ``header`` and ``rows`` to the file-like ``out``, every cell through ``csv_cell``."""
    writer = csv.writer(out)
    writer.writerow([csv_cell(cell) for cell in header])
    for row in rows:
        writer.writerow([csv_cell(cell) for cell in row])


def standings_rows_for_export(tournaments: Iterable[Tournament]) -> Iterable[list[Any]]:
    for tournament in tournaments:
        for row in selectors.standings_rows(tournament):
            yield [
                tournament.slug,
                row.rank,
                selectors.entry_name(row.entry),
                row.points,
                row.penalty,
                row.opponents_points,
                row.table_wins,
                row.rounds_played,
                row.rounds_absent,
                row.percent,
            ]


def result_rows_for_export(tournaments: Iterable[Tournament]) -> Iterable[list[Any]]:
    """Seat numbers as stored (0-based, like the games' seats): this is the data export."""
    for tournament in tournaments:
        for round_number, table, seat, player, total, forfeit in selectors.result_rows(tournament):
            yield [tournament.slug, round_number, table, seat, player, total, forfeit]


DEALS_HEADER = ["tournament", "round", "table", "deal", "seat", "player", "penalty", "source"]


def deal_rows_for_export(tournaments: Iterable[Tournament]) -> Iterable[list[Any]]:
    """Each deal's penalty per seat: a finished online Partie's stored deals, and a physical
    table's latest confirmed score sheet. A Partie still being played is left out (its deals
    are not over)."""
    for tournament in tournaments:
        for round_number, table_number, names, penalties, source in selectors.deal_penalties(
            tournament
        ):
            for deal, row in enumerate(penalties, start=1):
                for seat, penalty in enumerate(row):
                    name = names[seat] if seat < len(names) else ""
                    yield [
                        tournament.slug,
                        round_number,
                        table_number,
                        deal,
                        seat,
                        name,
                        penalty,
                        source,
                    ]
