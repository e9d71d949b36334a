"""Bot turns: the bot on turn (or the bot standing in for an away player) plays its move.

Bots play through the one move path (``moves.play_for_seat``) under the table lock. The task
``games.tasks.play_bot_turns`` runs them, paced by task countdowns (``queue``).
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings

from games import selectors
from games.engine import Deal
from games.events import bot_must_move, default_bot_level, with_locked_table
from games.models import PartieDeal, Seat, Table
from games.moves import play_for_seat

# Bounds the bot loop of one task run: a Partie of six players has at most 6 * 6 + passes.
MAX_BOT_MOVES_PER_RUN = 400


def play_bot_turn(table_id: int, expected_version: int | None = None) -> int | None:
    """Let the bot (or the bot standing in for an away player) on turn play one move.

    Returns the new play version, or None when there is nothing to do: no bot on turn, or the
    table changed since ``expected_version`` (someone else already moved).
    """

    def work(table: Table) -> int | None:
        if table.status != Table.Status.PLAYING:
            return None
        if expected_version is not None and table.state_version != expected_version:
            return None
        row = selectors.current_deal_row(table)
        if row is None:
            return None
        deal = selectors.rebuild_deal(row, table)
        seats = selectors.seats_of(table)
        if not bot_must_move(seats, deal):
            return None
        seat = seats[deal.turn]
        move = choose_bot_move(table, row, deal, seat)
        play_for_seat(table, seat, move, seats, row, deal)
        return table.state_version

    return with_locked_table(table_id, work)


def choose_bot_move(table: Table, row: PartieDeal, deal: Deal, seat: Seat) -> str:
    """The move the seat's bot (its level, else the default level) picks from its own view."""
    from games.bots import make_bot

    level = seat.bot_level or default_bot_level()
    seed = None
    if row.partie.seed is not None:
        # Seeded Parties (tests, duplicate events) replay identically, bots included.
        seed = row.partie.seed * 1_000_003 + row.number * 1_009 + len(row.moves)
    options: dict[str, Any] = dict(getattr(settings, "GAMES_BOT_OPTIONS", {}).get(level, {}))
    bot = make_bot(level, seed, **options)
    choice = bot.choose(deal.view_for(seat.number))
    return choice.code


def play_bot_turns(
    table_id: int, expected_version: int | None = None, think_seconds: float = 0.0
) -> int:
    """Play consecutive bot turns, one transaction each, until a human is on turn.

    A loop rather than a task per move: run eagerly (tests) a chain of tasks would recurse.
    ``think_seconds`` pauses before each move; workers pace bots with task countdowns instead
    (``games.tasks.play_bot_turns``), so only eager runs ever sleep here.
    """
    played = 0
    version = expected_version
    while played < MAX_BOT_MOVES_PER_RUN:
        if think_seconds > 0:
            time.sleep(think_seconds)
        version = play_bot_turn(table_id, version)
        if version is None:
            break
        played += 1
    return played


def bot_is_on_turn(table_id: int, state_version: int) -> bool:
    """Whether a bot (or a stand-in for an away player) is to move at this play version."""
    return Table.objects.filter(
        pk=table_id,
        status=Table.Status.PLAYING,
        state_version=state_version,
        bot_due_at__isnull=False,
    ).exists()
