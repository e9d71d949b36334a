"""Moves: ``submit_move`` for players, ``play_for_seat`` for bots and stand-ins.

Every move, whoever makes it, goes through one path: under the table row lock
(``_submit_locked``) the move is checked against the version and the rules by rebuilding the
engine's ``Deal`` from the stored hands and moves, then stored with its ``move`` event; a move
that ends a deal scores it and deals the next (``deals``). So what the database says is the
whole truth and any process can serve any table.

A player's ordinary move is first tried from this process's cached position with one
compare-and-swap statement (``_submit_cached``); any doubt, and any conflict, falls back to
the locked path, which decides.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import partial
from typing import Any

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import queue, selectors
from games.broadcast import send_to_group
from games.deals import finish_deal
from games.engine import CONTRACT_ORDER, Deal, IllegalMove
from games.events import (
    EMAIL_TURN_SECONDS,
    EventLog,
    MoveResult,
    bot_must_move,
    change_seat,
    set_clock,
    with_locked_table,
)
from games.live.facts import move_facts
from games.live.messages import illegal_move_text
from games.live.positions import Position, positions
from games.models import PartieDeal, Seat, Table, TableEvent


def submit_move(
    table_id: int,
    move: str,
    version: int,
    *,
    user: Any = None,
    seat: int | None = None,
    by_bot: bool = False,
) -> MoveResult:
    """Play one card (or ``"pass"``) for ``user``'s seat, or for ``seat`` when a bot plays.

    ``version`` is the last table version the mover saw. The same move resent with the same
    version is acknowledged again, never applied twice; a version older than the last change
    of play is stale; out-of-turn and illegal moves are refused and change nothing.

    A player's ordinary move is first tried from this process's cached position with one
    compare-and-swap write (``_submit_cached``); anything else, and any conflict, takes the
    locked path, which reloads everything under the table row lock.
    """
    if user is not None and not by_bot:
        fast = _submit_cached(table_id, move, version, user)
        if fast is not None:
            return fast

    def work(table: Table) -> MoveResult:
        played = _submit_locked(
            table, move=move, version=version, user=user, seat_number=seat, by_bot=by_bot
        )
        _remember_position(table, played)
        return played.result

    return with_locked_table(table_id, work)


@dataclass
class PlayedMove:
    """``submit_move``'s result plus the position after it, for callers inside the lock."""

    result: MoveResult
    seats: list[Seat]
    deal: Deal | None = None
    row: PartieDeal | None = None


def _error(code: str, message: str) -> MoveResult:
    return MoveResult("error", code=code, message=message)


def play_for_seat(
    table: Table, seat: Seat, move: str, seats: list[Seat], row: PartieDeal, deal: Deal
) -> PlayedMove:
    """A bot's move through the one move path (``submit_move``'s body, by_bot=True)."""
    played = _submit_locked(
        table,
        move=move,
        version=table.version,
        user=None,
        seat_number=seat.number,
        by_bot=True,
        seats=seats,
        row=row,
        deal=deal,
    )
    if played.result.status != "applied":
        result = played.result
        raise RuntimeError(f"bot move {move} refused: {result.code} {result.message}")
    return played


def _remember_position(table: Table, played: PlayedMove) -> None:
    """Once committed, keep the position after an applied move (the next deal's, when the
    move ended one) for the next move's fast path; nothing once the Partie is over."""
    deal, row = played.deal, played.row
    if played.result.status != "applied" or deal is None or row is None or deal.over:
        return
    position = Position(table=table, seats=played.seats, row=row, deal=deal)
    transaction.on_commit(partial(positions.put, table.pk, position))


def _submit_locked(
    table: Table,
    *,
    move: str,
    version: int,
    user: Any,
    seat_number: int | None,
    by_bot: bool,
    seats: list[Seat] | None = None,
    row: PartieDeal | None = None,
    deal: Deal | None = None,
) -> PlayedMove:
    """The body of ``submit_move`` for a caller that holds the lock (and may have loaded the
    seats and the current deal already: bots and the sweeper, saving queries per move)."""
    if table.status != Table.Status.PLAYING:
        return PlayedMove(
            _error("not_playing", _("The Partie has not started yet or is over.")), []
        )
    seats = seats if seats is not None else selectors.play_seats(table)
    if user is not None:
        seat = next((s for s in seats if s.user_id == user.pk), None)
        if seat is None:
            return PlayedMove(_error("not_seated", _("You have no seat at this table.")), seats)
    elif seat_number is not None and 0 <= seat_number < len(seats):
        seat = seats[seat_number]
    else:
        return PlayedMove(_error("bad_request", _("No seat given for the move.")), seats)
    log = EventLog(table)
    if not by_bot and seat.away:
        # Acting takes the seat back from the bot, whatever becomes of the move itself.
        seat.away = False
        change_seat(table, seat, log)
    played = _check_and_play(table, seats, seat, move, version, by_bot, log, row, deal)
    if played.result.status == "applied":
        log.flush("status", "finished_at")
    else:
        log.flush()
    return played


def _check_and_play(
    table: Table,
    seats: list[Seat],
    seat: Seat,
    move: str,
    version: int,
    by_bot: bool,
    log: EventLog,
    row: PartieDeal | None,
    deal: Deal | None,
) -> PlayedMove:
    def refuse(code: str, message: str) -> PlayedMove:
        return PlayedMove(_error(code, message), seats)

    if version > table.version:
        return refuse(
            "bad_request",
            _("Version %(version)s is newer than the table's.") % {"version": version},
        )
    if version < table.version:
        duplicate = _already_applied(table, seat.number, move, version)
        if duplicate is not None:
            return PlayedMove(MoveResult("duplicate", version=duplicate), seats)
    if version < table.state_version:
        return refuse(
            "stale", _("The table has moved on since your version: here is a fresh view.")
        )
    if row is None:
        row = selectors.current_deal_row(table, with_partie=False)
        if row is None:
            return refuse("not_playing", _("No deal is being played."))
        deal = selectors.rebuild_deal(row, table)
    assert deal is not None
    if deal.over:
        return refuse("not_playing", _("The deal is over."))
    if deal.turn != seat.number:
        return refuse(
            "not_your_turn",
            _("It is not your turn: seat %(seat)s plays now.") % {"seat": deal.turn},
        )
    tricks_before = len(deal.tricks) if row.contract in _TRICK_CONTRACT_VALUES else 0
    try:
        deal.play(move)
    except IllegalMove as error:
        return refuse("illegal", illegal_move_text(error))
    applied_version, data = _record_move(table, row, deal, seat.number, by_bot, tricks_before, log)
    current: Deal | None = deal
    if deal.over:
        # The move's clock is null; the next deal's clock follows as its own event.
        data["clock"] = None
        row.penalties = list(deal.penalties or ())
        row.finished_at = timezone.now()
        current, next_row = finish_deal(table, seats, row, deal, log)
        row.save(update_fields=["moves", "penalties", "finished_at"])
        set_clock(table, seats, current, log)
        row = next_row
    else:
        PartieDeal.objects.filter(pk=row.pk).update(moves=row.moves)
        set_clock(table, seats, current, log, carrier=data)
    if not by_bot and bot_must_move(seats, current):
        queue.queue_bot_turns_after_commit(table.pk, table.state_version)
    queue.queue_turn_email_after_commit(table, seats)
    return PlayedMove(MoveResult("applied", version=applied_version), seats, current, row)


def _record_move(
    table: Table,
    row: PartieDeal,
    deal: Deal,
    seat: int,
    by_bot: bool,
    tricks_before: int,
    log: EventLog,
) -> tuple[int, dict[str, Any]]:
    """Append the move ``deal`` just played to ``row`` and its ``move`` event to ``log``."""
    code = deal.moves[-1].code  # a card code or "pass"
    row.moves = [*row.moves, code]
    trick = None
    if row.contract in _TRICK_CONTRACT_VALUES and len(deal.tricks) > tricks_before:
        done = deal.tricks[-1]
        trick = {
            "leader": done.leader,
            "cards": [c.code for c in done.cards],
            "winner": done.winner,
        }
    over = deal.over
    data: dict[str, Any] = {
        "deal_number": row.number,
        "seat": seat,
        "move": code,
        "by_bot": by_bot,
        "next_turn": None if over else deal.turn,
        "trick": trick,
        "hundred_total": deal.hundred_total,
        "scores_so_far": list(deal.scores_so_far()),
        "legal_moves": [m.code for m in deal.legal_moves()],
        "deal_over": over,
        "penalties": None if deal.penalties is None else list(deal.penalties),
        "clock": None,
        **move_facts(deal),
    }
    return log.add("move", data, changes_play=True), data


_TRICK_CONTRACT_VALUES = frozenset(c.value for c in CONTRACT_ORDER if c.is_trick_contract)


def _submit_cached(table_id: int, move: str, version: int, user: Any) -> MoveResult | None:
    """A player's ordinary move from the cached position, written in one compare-and-swap.

    Returns None whenever the locked path must decide: no cached position, a version other
    than the cached one (stale, a resend, or a stale cache), a seat that is away, not on
    turn, an illegal move, a move that ends the deal, a turn-based table (e-mails), or a
    write that found the table at another version. Only an applied move returns here, so
    every refusal and every duplicate is still judged under the row lock.
    """
    position = positions.take(table_id)
    if position is None:
        return None
    table, seats, row, deal = position.table, position.seats, position.row, position.deal
    seat = next((s for s in seats if s.user_id == user.pk), None)
    if (
        version != table.version
        or table.status != Table.Status.PLAYING
        or table.turn_seconds >= EMAIL_TURN_SECONDS
        or seat is None
        or seat.away
        or deal.over
        or deal.turn != seat.number
    ):
        positions.put(table_id, position)
        return None
    tricks_before = len(deal.tricks) if row.contract in _TRICK_CONTRACT_VALUES else 0
    try:
        deal.play(move)
    except IllegalMove:
        positions.put(table_id, position)  # the deal is unchanged
        return None
    if deal.over:
        return None  # scoring and the next deal take the locked path; the entry is spent
    log = EventLog(table)
    applied_version, data = _record_move(table, row, deal, seat.number, False, tricks_before, log)
    set_clock(table, seats, deal, log, carrier=data)
    event = log.events[0]
    if not _write_move_if_unchanged(table, version, row, event):
        return None  # someone else wrote first: the entry was stale, the locked path reloads
    message = {"type": "table.events", "events": [event.as_message()]}
    transaction.on_commit(partial(send_to_group, table.group_name, message))
    if bot_must_move(seats, deal):
        queue.queue_bot_turns_after_commit(table.pk, table.state_version)
    positions.put(table_id, position)
    return MoveResult("applied", version=applied_version)


_CAS_MOVE_SQL = """
WITH t AS (
    UPDATE games_table
    SET version = %s, state_version = %s, turn_seat = %s, turn_deadline = %s, bot_due_at = %s
    WHERE id = %s AND version = %s AND invite_code = %s
    RETURNING id
), d AS (
    UPDATE games_partiedeal SET moves = %s::jsonb
    WHERE partie_id = %s AND number = %s AND EXISTS (SELECT 1 FROM t)
)
INSERT INTO games_tableevent (table_id, version, kind, data, created)
SELECT t.id, %s, %s, %s::jsonb, %s FROM t
RETURNING version
"""


def _write_move_if_unchanged(
    table: Table, expected_version: int, row: PartieDeal, event: TableEvent
) -> bool:
    """Store one move (table row, deal row, event) only if the table is still at
    ``expected_version``: the compare-and-swap that makes a stale cache harmless.

    One statement does it all: data-modifying CTEs run atomically, and the UPDATE takes the
    row lock, so a concurrent locked move is waited for and then seen.
    """
    now = timezone.now()
    event.created = now
    params = [
        table.version,
        table.state_version,
        table.turn_seat,
        table.turn_deadline,
        table.bot_due_at,
        table.pk,
        expected_version,
        table.invite_code,
        json.dumps(row.moves),
        row.partie_id,
        row.number,
        event.version,
        event.kind,
        json.dumps(event.data),
        now,
    ]
    with connection.cursor() as cursor:
        cursor.execute(_CAS_MOVE_SQL, params)
        return cursor.fetchone() is not None


def _already_applied(table: Table, seat: int, move: str, version: int) -> int | None:
    """The version of this move when it was the seat's next move after ``version``."""
    later = (
        TableEvent.objects.filter(table=table, kind="move", version__gt=version, data__seat=seat)
        .order_by("version")
        .only("version", "data")
        .first()
    )
    if later is None or later.data.get("by_bot") or later.data.get("move") != move:
        return None
    return later.version
