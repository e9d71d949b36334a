"""Hints at casual tables: the strong bot's suggested move for the asker's turn, with a reason.

A hint is a read, never a write: it changes nothing at the table and is sent to the asker only.
It is computed from the asker's own ``SeatView`` (their hand and the public facts), exactly
what the strong bot would see in that seat, so no hidden card can leak through it. Hints are
refused at rated tables (the rating measures the player's own play), at tournament tables and
at ranked-queue tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from games import selectors
from games.bots import StrongBot
from games.bots.heuristic import heuristic_index
from games.bots.strong import prefer_plan
from games.engine.cards import MOVES_BY_INDEX, PASS_INDEX
from games.events import ServiceError
from games.live.messages import card_name
from games.models import Seat, Table

DEFAULT_HINT_OPTIONS: dict[str, Any] = {"time_limit": 0.2}
"""The strong bot's budget for one hint (``GAMES_HINT_OPTIONS`` overrides, e.g. ``samples``)."""


@dataclass(frozen=True)
class Hint:
    """The suggested move (a card code or ``"pass"``) and one line saying why."""

    move: str
    reason: str


def _move_name(index: int) -> str:
    return _("pass") if index == PASS_INDEX else card_name(MOVES_BY_INDEX[index].code)


def hints_allowed(table: Table) -> bool:
    """Casual tables only: not rated, not a tournament's, not formed by the ranked queue."""
    return not (table.rated or table.tournament_round_id is not None or table.ranked_queue)


def suggest_move(table_id: int, user: Any) -> Hint:
    """The strong bot's move for ``user``'s turn at a casual table, or ``ServiceError``.

    Refusals (``code``): ``hints_off`` at rated, tournament and ranked tables, ``not_seated``
    for spectators, ``not_playing`` between deals, ``not_your_turn`` when another seat moves.
    """
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise ServiceError("not_found", _("There is no such table."))
    if table.rated or table.ranked_queue:
        raise ServiceError(
            "hints_off",
            _("Hints are off at rated tables: the rating should measure your own play."),
        )
    if table.tournament_round_id is not None:
        raise ServiceError("hints_off", _("Hints are off in tournaments."))
    seat = Seat.objects.filter(table=table, user=user).first() if user is not None else None
    if seat is None:
        raise ServiceError("not_seated", _("Only the players at the table can ask for a hint."))
    row = selectors.current_deal_row(table) if table.status == Table.Status.PLAYING else None
    if row is None:
        raise ServiceError("not_playing", _("No deal is being played."))
    deal = selectors.rebuild_deal(row, table)
    if deal.over or deal.turn != seat.number:
        raise ServiceError("not_your_turn", _("A hint is for your own turn: wait until you play."))
    view = deal.view_for(seat.number)  # the asker's own view: nothing hidden reaches the bot
    moves = view.legal_moves
    if len(moves) == 1:
        return Hint(moves[0].code, _("It is your only legal move."))
    options = {**DEFAULT_HINT_OPTIONS, **getattr(settings, "GAMES_HINT_OPTIONS", {})}
    seed = None
    if row.partie.seed is not None:
        seed = row.partie.seed * 1_000_003 + row.number * 1_009 + len(row.moves) + 7
    bot = StrongBot(seed, **options)
    outcomes = bot.outcomes(view)
    planned = heuristic_index(view)
    chosen = prefer_plan(outcomes, planned, bot.confidence)
    worlds = len(outcomes[chosen])
    average = {index: sum(costs) / len(costs) for index, costs in outcomes.items()}
    others = sorted((cost, index) for index, cost in average.items() if index != chosen)
    values = {
        "card": _move_name(chosen),
        "worlds": worlds,
        "cost": number_format(average[chosen], 1),
    }
    if others and chosen != planned:
        values.update(other=_move_name(others[0][1]), other_cost=number_format(others[0][0], 1))
        reason = (
            _(
                "Over %(worlds)s possible deals of the hidden cards, %(card)s cost you "
                "%(cost)s penalty points on average, the next best (%(other)s) %(other_cost)s."
            )
            % values
        )
    else:
        reason = (
            _(
                "%(card)s follows the sound plan for this contract; over %(worlds)s possible "
                "deals of the hidden cards no other card did clearly better (%(cost)s penalty "
                "points on average)."
            )
            % values
        )
    return Hint(MOVES_BY_INDEX[chosen].code, reason)
