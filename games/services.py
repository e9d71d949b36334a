"""Every write to live tables: lobby actions, moves, bots, clocks, chat and the end of a Partie.

One rule holds everywhere: a change locks the table row, appends its events with consecutive
versions, and only after the commit are the events broadcast and follow-up tasks queued. A move
is checked by rebuilding the engine's ``Deal`` from the stored hands and moves, so what the
database says is the whole truth and any process can serve any table.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import selectors
from games.broadcast import send_to_group
from games.engine import (
    CONTRACT_ORDER,
    DEALS_PER_PARTIE,
    Deal,
    IllegalMove,
    deal_hands,
    draw_first_dealer,
    places,
)
from games.live.messages import illegal_move_text
from games.live.positions import Position, positions
from games.models import (
    BOT_LEVEL_CHOICES,
    ChatMessage,
    Partie,
    PartieDeal,
    Seat,
    SeatResult,
    Table,
    TableEvent,
    TableMute,
)
from rosbi_platform.locking import retry_on_conflict, with_row_lock

logger = logging.getLogger(__name__)

T = TypeVar("T")
BOT_LEVELS = frozenset(level for level, _label in BOT_LEVEL_CHOICES)
LOBBY_GROUP = "lobby"
CHAT_MAX_LENGTH = 500
EMAIL_TURN_SECONDS = 3600
# Bounds the bot loop of one task run: a Partie of six players has at most 6 * 6 + passes.
MAX_BOT_MOVES_PER_RUN = 400


class ServiceError(Exception):
    """A refused action with a machine ``code`` (as in the protocol) and a sentence for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class MoveResult:
    """What ``submit_move`` did: ``applied``, ``duplicate`` (acknowledged again) or ``error``."""

    status: str
    version: int | None = None
    code: str | None = None
    message: str = ""

    @property
    def ok(self) -> bool:
        return self.status in ("applied", "duplicate")


def bot_think_seconds() -> float:
    """How long a bot pauses before each move (a setting; zero in tests)."""
    return float(getattr(settings, "GAMES_BOT_THINK_SECONDS", 0.8))


def default_bot_level() -> str:
    """The level of the bot that takes over a seat whose player left a started table."""
    return str(getattr(settings, "GAMES_DEFAULT_BOT_LEVEL", "heuristic"))


# --------------------------------------------------------------------------- infrastructure


def _with_locked_table(table_id: int, work: Callable[[Table], T]) -> T:
    """Run ``work`` in a transaction holding the table row lock."""
    return with_row_lock(Table, work, pk=table_id)


def _notify_lobby() -> None:
    transaction.on_commit(partial(send_to_group, LOBBY_GROUP, {"type": "lobby.changed"}))


class _EventLog:
    """Collects a transaction's events with consecutive versions and writes them in one go."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.events: list[TableEvent] = []

    def add(self, kind: str, data: dict[str, Any], *, changes_play: bool = False) -> int:
        table = self.table
        table.version += 1
        if changes_play:
            table.state_version = table.version
        self.events.append(TableEvent(table=table, version=table.version, kind=kind, data=data))
        return table.version

    def flush(self, *extra_fields: str) -> None:
        """Store the events and the table row; broadcast once the transaction has committed."""
        if not self.events and not extra_fields:
            return
        table = self.table
        fields = {
            "version",
            "state_version",
            "turn_seat",
            "turn_deadline",
            "bot_due_at",
            *extra_fields,
        }
        table.save(update_fields=sorted(fields))
        if not self.events:
            return
        TableEvent.objects.bulk_create(self.events)
        messages = [e.as_message() for e in self.events]
        self.events = []
        transaction.on_commit(
            partial(send_to_group, table.group_name, {"type": "table.events", "events": messages})
        )


def _dealing_rng(seed: int | None, label: str) -> random.Random:
    """System randomness in production; ``random.Random`` from the Partie's seed when set."""
    if seed is None:
        return secrets.SystemRandom()
    return random.Random(f"{seed}:{label}")


def _now_ms() -> dt.datetime:
    """Now, to the millisecond: the stored deadline equals the one written into frames."""
    now = timezone.now()
    return now.replace(microsecond=now.microsecond // 1000 * 1000)


def _set_clock(
    table: Table,
    seats: list[Seat],
    deal: Deal | None,
    log: _EventLog,
    carrier: dict[str, Any] | None = None,
) -> None:
    """Start the clock for a human on turn, stop it otherwise; a ``clock`` event on change.

    A ``move`` event that leaves the deal going is the ``carrier``: it takes the clock as its
    ``clock`` field instead, which saves a frame per seat and a version per move.
    """
    turn = deal.turn if deal is not None and not deal.over else None
    seat = seats[turn] if turn is not None else None
    human_on_turn = seat is not None and seat.user_id is not None and not seat.away
    bot_on_turn = seat is not None and not human_on_turn
    table.bot_due_at = timezone.now() + _bot_stall_delta() if bot_on_turn else None
    deadline = None
    if human_on_turn and table.turn_seconds > 0:
        deadline = _now_ms() + dt.timedelta(seconds=table.turn_seconds)
    table.turn_seat = turn
    if carrier is not None:
        table.turn_deadline = deadline
        carrier["clock"] = None
        if deadline is not None:
            carrier["clock"] = {
                "seat": turn,
                "deadline": selectors.format_deadline(deadline),
                "seconds": table.turn_seconds,
            }
        return
    if deadline is None and table.turn_deadline is None:
        return
    table.turn_deadline = deadline
    log.add(
        "clock",
        {
            "seat": turn if deadline is not None else None,
            "deadline": selectors.format_deadline(deadline),
            "seconds": table.turn_seconds,
        },
    )


def _bot_stall_delta() -> dt.timedelta:
    """How long a bot turn may wait before the sweeper assumes its task was lost."""
    seconds = getattr(settings, "GAMES_BOT_STALL_SECONDS", None)
    if seconds is None:
        seconds = bot_think_seconds() + 10
    return dt.timedelta(seconds=float(seconds))


def _bot_must_move(seats: list[Seat], deal: Deal | None) -> bool:
    if deal is None or deal.over:
        return False
    seat = seats[deal.turn]
    return seat.is_bot or (seat.user_id is not None and seat.away)


def _queue_bots(table_id: int, state_version: int) -> None:
    from games.tasks import queue_bot_turns

    transaction.on_commit(lambda: queue_bot_turns(table_id, state_version))


def _queue_turn_email(table: Table, seats: list[Seat]) -> None:
    """Turn-based tables (an hour or more per move) tell the player by e-mail."""
    if table.turn_seconds < EMAIL_TURN_SECONDS or table.turn_deadline is None:
        return
    from games.tasks import send_turn_email

    seat = seats[table.turn_seat]
    if seat.user_id is None:
        return
    args = (table.pk, seat.number, table.state_version)
    transaction.on_commit(lambda: send_turn_email.delay(*args))


# --------------------------------------------------------------------------- lobby


def create_table(
    *,
    owner: Any,
    name: str = "",
    size: int = 4,
    doubling: bool = True,
    layout: str = "extend_first",
    turn_seconds: int = 30,
    rated: bool = False,
    public: bool = True,
    fill_with_bots: bool = False,
    bot_level: str = "heuristic",
    tournament_round_id: int | None = None,
    rating_pool: str = "",
    ranked_queue: bool = False,
    seat_owner: bool = True,
) -> Table:
    """A new open table with empty seats; the owner takes seat 0 unless told otherwise."""
    if size not in (3, 4, 5, 6):
        raise ServiceError("bad_request", _("A table has 3 to 6 seats."))
    if bot_level not in BOT_LEVELS:
        raise ServiceError("bad_request", _("Unknown bot level %(level)r.") % {"level": bot_level})
    if layout not in ("extend_first", "free"):
        raise ServiceError("bad_request", _("Unknown layout rule %(rule)r.") % {"rule": layout})
    if turn_seconds < 0:
        raise ServiceError("bad_request", _("The time per move cannot be negative."))
    with transaction.atomic():
        table = Table.objects.create(
            name=name or _("%(owner)s's table") % {"owner": owner.get_username()},
            owner=owner,
            size=size,
            doubling=doubling,
            layout=layout,
            turn_seconds=turn_seconds,
            rated=rated,
            public=public,
            fill_with_bots=fill_with_bots,
            bot_level=bot_level,
            tournament_round_id=tournament_round_id,
            rating_pool=rating_pool,
            ranked_queue=ranked_queue,
        )
        Seat.objects.bulk_create(
            [
                Seat(table=table, number=n, user=owner if seat_owner and n == 0 else None)
                for n in range(size)
            ]
        )
        _notify_lobby()
    return table


def _seat_change(table: Table, seat: Seat, log: _EventLog) -> None:
    seat.save(update_fields=["user", "bot_level", "away", "left_at"])
    log.add("seat_changed", selectors.seat_info(seat))


def join_table(table_id: int, user: Any, seat: int | None = None, invite: str | None = None) -> int:
    """Sit ``user`` down at an open table (the first free seat unless ``seat`` is given)."""

    def work(table: Table) -> int:
        if table.status != Table.Status.OPEN:
            raise ServiceError("not_open", _("This table has already started."))
        if not table.public and invite != table.invite_code:
            raise ServiceError("forbidden", _("This table is private: you need the invite link."))
        seats = selectors.seats_of(table)
        if any(s.user_id == user.pk for s in seats):
            raise ServiceError("already_seated", _("You already have a seat at this table."))
        free = [s for s in seats if s.is_empty and (seat is None or s.number == seat)]
        if not free:
            raise ServiceError(
                "seat_taken",
                _("That seat is taken.") if seat is not None else _("The table is full."),
            )
        chosen = free[0]
        chosen.user = user
        log = _EventLog(table)
        _seat_change(table, chosen, log)
        log.flush()
        _notify_lobby()
        return chosen.number

    return _with_locked_table(table_id, work)


def leave_table(table_id: int, user: Any) -> None:
    """Leave a seat: an open table frees it, a started one hands it to a bot for good."""

    def work(table: Table) -> None:
        seats = selectors.seats_of(table)
        seat = next((s for s in seats if s.user_id == user.pk), None)
        if seat is None:
            raise ServiceError("not_seated", _("You have no seat at this table."))
        if table.status == Table.Status.FINISHED:
            return
        log = _EventLog(table)
        seat.user = None
        seat.away = False
        if table.status == Table.Status.PLAYING:
            seat.bot_level = table.bot_level or default_bot_level()
            seat.left_at = timezone.now()
        _seat_change(table, seat, log)
        deal = None
        if table.status == Table.Status.PLAYING:
            row = selectors.current_deal_row(table)
            deal = selectors.rebuild_deal(row, table) if row is not None else None
            if deal is not None and not deal.over and deal.turn == seat.number:
                _set_clock(table, seats, deal, log)
        log.flush()
        if _bot_must_move(seats, deal):
            _queue_bots(table.pk, table.state_version)
        _notify_lobby()

    _with_locked_table(table_id, work)


def start_table(
    table_id: int,
    by_user: Any = None,
    *,
    fill_with_bots: bool | None = None,
    seed: int | None = None,
) -> Partie:
    """Start the Partie: fill empty seats with bots when chosen, draw the dealer, deal.

    ``seed`` is for tests and duplicate tournaments only; without it dealing uses the system's
    cryptographic randomness.
    """

    def work(table: Table) -> Partie:
        if table.status != Table.Status.OPEN:
            raise ServiceError("not_open", _("This table has already started."))
        if by_user is not None and by_user.pk != table.owner_id and not by_user.is_staff:
            raise ServiceError("forbidden", _("Only the table's organiser can start it."))
        seats = selectors.seats_of(table)
        fill = table.fill_with_bots if fill_with_bots is None else fill_with_bots
        empty = [s for s in seats if s.is_empty]
        if empty and not fill:
            raise ServiceError("not_full", _("Every seat needs a player (or choose bots)."))
        for s in empty:
            s.bot_level = table.bot_level
        for s in seats:
            s.started_by_id = s.user_id
        Seat.objects.bulk_update(seats, ["bot_level", "started_by"])
        n = table.size
        first_dealer = draw_first_dealer(n, _dealing_rng(seed, "dealer"))
        partie = Partie.objects.create(table=table, first_dealer=first_dealer, seed=seed)
        log = _EventLog(table)
        log.add(
            "partie_started",
            {"first_dealer": first_dealer, "seats": [selectors.seat_info(s) for s in seats]},
            changes_play=True,
        )
        deal, row = _start_deal(table, partie, 0, log)
        table.status = Table.Status.PLAYING
        table.started_at = timezone.now()
        _set_clock(table, seats, deal, log)
        log.flush("status", "started_at")
        transaction.on_commit(partial(positions.put, table.pk, Position(table, seats, row, deal)))
        if _bot_must_move(seats, deal):
            _queue_bots(table.pk, table.state_version)
        _queue_turn_email(table, seats)
        _notify_lobby()
        return partie

    return _with_locked_table(table_id, work)


def _start_deal(
    table: Table, partie: Partie, number: int, log: _EventLog
) -> tuple[Deal, PartieDeal]:
    n = table.size
    dealer = (partie.first_dealer + number) % n
    hands = deal_hands(n, _dealing_rng(partie.seed, f"deal{number}"), dealer)
    codes = [[c.code for c in hand] for hand in hands]
    contract = CONTRACT_ORDER[number]
    row = PartieDeal.objects.create(
        partie=partie, number=number, contract=contract.value, dealer=dealer, hands=codes
    )
    deal = Deal(n, contract, dealer, codes, table.rules)
    log.add(
        "deal_started",
        {
            "deal_number": number,
            "contract": contract.value,
            "dealer": dealer,
            "turn": deal.turn,
            "hands": [[c.code for c in deal.hand(s)] for s in range(n)],
            "hand_sizes": [len(h) for h in codes],
            "legal_moves": [m.code for m in deal.legal_moves()],
        },
        changes_play=True,
    )
    return deal, row


# --------------------------------------------------------------------------- moves


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

    return _with_locked_table(table_id, work)


@dataclass
class _Played:
    """``submit_move``'s result plus the position after it, for callers inside the lock."""

    result: MoveResult
    seats: list[Seat]
    deal: Deal | None = None
    row: PartieDeal | None = None


def _error(code: str, message: str) -> MoveResult:
    return MoveResult("error", code=code, message=message)


def _remember_position(table: Table, played: _Played) -> None:
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
) -> _Played:
    """The body of ``submit_move`` for a caller that holds the lock (and may have loaded the
    seats and the current deal already: bots and the sweeper, saving queries per move)."""
    if table.status != Table.Status.PLAYING:
        return _Played(_error("not_playing", _("The Partie has not started yet or is over.")), [])
    seats = seats if seats is not None else selectors.play_seats(table)
    if user is not None:
        seat = next((s for s in seats if s.user_id == user.pk), None)
        if seat is None:
            return _Played(_error("not_seated", _("You have no seat at this table.")), seats)
    elif seat_number is not None and 0 <= seat_number < len(seats):
        seat = seats[seat_number]
    else:
        return _Played(_error("bad_request", _("No seat given for the move.")), seats)
    log = _EventLog(table)
    if not by_bot and seat.away:
        # Acting takes the seat back from the bot, whatever becomes of the move itself.
        seat.away = False
        _seat_change(table, seat, log)
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
    log: _EventLog,
    row: PartieDeal | None,
    deal: Deal | None,
) -> _Played:
    def refuse(code: str, message: str) -> _Played:
        return _Played(_error(code, message), seats)

    if version > table.version:
        return refuse(
            "bad_request",
            _("Version %(version)s is newer than the table's.") % {"version": version},
        )
    if version < table.version:
        duplicate = _already_applied(table, seat.number, move, version)
        if duplicate is not None:
            return _Played(MoveResult("duplicate", version=duplicate), seats)
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
        current, next_row = _finish_deal(table, seats, row, log)
        row.save(update_fields=["moves", "penalties", "finished_at"])
        _set_clock(table, seats, current, log)
        row = next_row
    else:
        PartieDeal.objects.filter(pk=row.pk).update(moves=row.moves)
        _set_clock(table, seats, current, log, carrier=data)
    if not by_bot and _bot_must_move(seats, current):
        _queue_bots(table.pk, table.state_version)
    _queue_turn_email(table, seats)
    return _Played(MoveResult("applied", version=applied_version), seats, current, row)


def _record_move(
    table: Table,
    row: PartieDeal,
    deal: Deal,
    seat: int,
    by_bot: bool,
    tricks_before: int,
    log: _EventLog,
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
    log = _EventLog(table)
    applied_version, data = _record_move(table, row, deal, seat.number, False, tricks_before, log)
    _set_clock(table, seats, deal, log, carrier=data)
    event = log.events[0]
    if not _write_move_if_unchanged(table, version, row, event):
        return None  # someone else wrote first: the entry was stale, the locked path reloads
    message = {"type": "table.events", "events": [event.as_message()]}
    transaction.on_commit(partial(send_to_group, table.group_name, message))
    if _bot_must_move(seats, deal):
        _queue_bots(table.pk, table.state_version)
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


def _finish_deal(
    table: Table, seats: list[Seat], row: PartieDeal, log: _EventLog
) -> tuple[Deal | None, PartieDeal | None]:
    """Score the finished deal; start the next one (its deal and row), or finish the Partie
    after the sixth (None, None)."""
    earlier = list(
        PartieDeal.objects.filter(partie_id=row.partie_id, number__lt=row.number)
        .order_by("number")
        .values_list("penalties", flat=True)
    )
    score_sheet = [list(p) for p in earlier] + [list(row.penalties)]
    totals = [sum(column) for column in zip(*score_sheet, strict=True)]
    log.add(
        "deal_finished",
        {"deal_number": row.number, "penalties": list(row.penalties), "totals": totals},
        changes_play=True,
    )
    if row.number + 1 < DEALS_PER_PARTIE:
        return _start_deal(table, row.partie, row.number + 1, log)
    finish_partie(table, row.partie, seats, score_sheet, log)
    return None, None


def finish_partie(
    table: Table, partie: Partie, seats: list[Seat], score_sheet: list[list[int]], log: Any
) -> None:
    """Store totals and places, close the table, and hand the result on after the commit.

    Called by ``submit_move`` inside its locked transaction when the sixth deal ends.
    """
    totals = [sum(column) for column in zip(*score_sheet, strict=True)]
    ranks = places(totals)
    SeatResult.objects.bulk_create(
        [
            SeatResult(
                partie=partie,
                seat=s.number,
                user_id=s.user_id,
                bot_level=s.bot_level,
                total=totals[s.number],
                place=ranks[s.number],
                started_by_id=s.started_by_id,
                left_at=s.left_at,
            )
            for s in seats
        ]
    )
    now = timezone.now()
    partie.finished_at = now
    partie.save(update_fields=["finished_at"])
    table.status = Table.Status.FINISHED
    table.finished_at = now
    log.add(
        "partie_finished",
        {"totals": totals, "places": ranks, "score_sheet": score_sheet},
        changes_play=True,
    )
    from games.tasks import hand_off_partie_result

    partie_id = partie.pk
    transaction.on_commit(lambda: hand_off_partie_result.delay(partie_id))
    _notify_lobby()


# --------------------------------------------------------------------------- bots and clocks


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
        if not _bot_must_move(seats, deal):
            return None
        seat = seats[deal.turn]
        move = _bot_move(table, row, deal, seat)
        _play_for_seat(table, seat, move, seats, row, deal)
        return table.state_version

    return _with_locked_table(table_id, work)


def _play_for_seat(
    table: Table, seat: Seat, move: str, seats: list[Seat], row: PartieDeal, deal: Deal
) -> _Played:
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


def _bot_move(table: Table, row: PartieDeal, deal: Deal, seat: Seat) -> str:
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


def expire_turns(now: dt.datetime | None = None) -> int:
    """The clock sweeper: for every human whose deadline passed, mark them away and let a bot
    play their move, exactly once (the version check under the row lock settles any race with
    the player's own move or another sweeper). Returns the number of moves played."""
    now = now or timezone.now()
    due = retry_on_conflict(
        lambda: list(
            Table.objects.filter(status=Table.Status.PLAYING, turn_deadline__lte=now).values_list(
                "pk", "state_version"
            )
        )
    )
    played = 0
    for table_id, seen_version in due:
        if _expire_turn(table_id, seen_version, now):
            played += 1
    return played


def resume_stalled_bots(now: dt.datetime | None = None) -> int:
    """Queue the bot task again for tables whose bot on turn is overdue (the task was lost, or
    the worker restarted). Idempotent: the bot task checks the play version under the lock."""
    from games.tasks import queue_bot_turns

    now = now or timezone.now()
    stalled = retry_on_conflict(
        lambda: list(
            Table.objects.filter(status=Table.Status.PLAYING, bot_due_at__lte=now).values_list(
                "pk", "state_version"
            )
        )
    )
    for table_id, version in stalled:
        # Push the due time on first, so that the next sweeps do not queue the same work again.
        retry_on_conflict(
            lambda table_id=table_id, version=version: Table.objects.filter(
                pk=table_id, state_version=version
            ).update(bot_due_at=now + _bot_stall_delta())
        )
        queue_bot_turns(table_id, version, countdown=0)
    return len(stalled)


def _expire_turn(table_id: int, seen_version: int, now: dt.datetime) -> bool:
    def work(table: Table) -> bool:
        if (
            table.status != Table.Status.PLAYING
            or table.state_version != seen_version
            or table.turn_deadline is None
            or table.turn_deadline > now
        ):
            return False
        row = selectors.current_deal_row(table)
        deal = selectors.rebuild_deal(row, table)
        seats = selectors.seats_of(table)
        seat = seats[deal.turn]
        if seat.user_id is None or seat.away:
            return False
        seat.away = True
        log = _EventLog(table)
        _seat_change(table, seat, log)
        log.flush()
        move = _bot_move(table, row, deal, seat)
        played = _play_for_seat(table, seat, move, seats, row, deal)
        if _bot_must_move(played.seats, played.deal):
            _queue_bots(table.pk, table.state_version)
        return True

    return _with_locked_table(table_id, work)


def return_to_seat(table_id: int, user: Any) -> bool:
    """The player is back: clear ``away`` so the bot stops playing for them."""

    def work(table: Table) -> bool:
        seat = Seat.objects.filter(table=table, user=user).select_related("user").first()
        if seat is None or not seat.away:
            return False
        seat.away = False
        log = _EventLog(table)
        _seat_change(table, seat, log)
        row = selectors.current_deal_row(table) if table.status == Table.Status.PLAYING else None
        if row is not None:
            deal = selectors.rebuild_deal(row, table)
            if not deal.over and deal.turn == seat.number:
                _set_clock(table, selectors.seats_of(table), deal, log)
        log.flush()
        return True

    return _with_locked_table(table_id, work)


# --------------------------------------------------------------------------- end of a Partie


def hand_off_partie_result(partie_id: int) -> bool:
    """Send ``partie_finished`` once and only once for a finished Partie.

    The flag flips in a conditional UPDATE, which takes the Partie's row lock; only the caller that flipped it sends the signal, inside the same transaction, so the
    receivers' writes (ratings, standings) commit together with the flag or not at all.
    """
    from games.signals import partie_finished

    def flip_and_send() -> bool:
        with transaction.atomic():
            flipped = Partie.objects.filter(
                pk=partie_id, handed_off=False, finished_at__isnull=False
            ).update(handed_off=True, handed_off_at=timezone.now())
            if not flipped:
                return False
            outcome = selectors.partie_outcome(partie_id)
            partie_finished.send(sender=Partie, outcome=outcome)
        return True

    return retry_on_conflict(flip_and_send)


# --------------------------------------------------------------------------- chat


def post_chat_message(table_id: int, user: Any, channel: str, text: str) -> dict[str, Any]:
    """Store a chat line and broadcast it; players write to ``players``, others to
    ``spectators``. Returns the chat event (not versioned: chat is not table state)."""
    text = (text or "").strip()
    if not text:
        raise ServiceError("bad_request", _("Say something first."))
    if len(text) > CHAT_MAX_LENGTH:
        raise ServiceError(
            "bad_request",
            _("Chat messages have at most %(count)s characters.") % {"count": CHAT_MAX_LENGTH},
        )
    if channel not in (ChatMessage.Channel.PLAYERS, ChatMessage.Channel.SPECTATORS):
        raise ServiceError("bad_request", _("The chat channel is 'players' or 'spectators'."))
    seated = Seat.objects.filter(table_id=table_id, user=user).exists()
    expected = ChatMessage.Channel.PLAYERS if seated else ChatMessage.Channel.SPECTATORS
    if channel != expected:
        raise ServiceError(
            "bad_request",
            _("Seated players chat on 'players', spectators on 'spectators'."),
        )
    if TableMute.objects.filter(table_id=table_id, user=user).exists():
        raise ServiceError("muted", _("You have been muted at this table."))
    group = Table.objects.only("id", "invite_code").get(pk=table_id).group_name
    with transaction.atomic():
        message = ChatMessage.objects.create(
            table_id=table_id, author=user, channel=channel, text=text
        )
        event = {
            "kind": "chat",
            "channel": channel,
            "id": message.pk,
            "author": selectors.user_display_name(user),
            "text": text,
            "at": selectors.format_deadline(message.created),
        }
        transaction.on_commit(partial(send_to_group, group, {"type": "table.chat", "chat": event}))
    return event


def mute_user(table_id: int, by_user: Any, user: Any) -> None:
    """Silence ``user`` in this table's chat; for the table's organiser and staff only."""
    table = Table.objects.get(pk=table_id)
    if by_user.pk != table.owner_id and not by_user.is_staff:
        raise ServiceError("forbidden", _("Only the table's organiser or staff can mute."))
    TableMute.objects.get_or_create(table=table, user=user, defaults={"muted_by": by_user})


def unmute_user(table_id: int, by_user: Any, user: Any) -> None:
    table = Table.objects.get(pk=table_id)
    if by_user.pk != table.owner_id and not by_user.is_staff:
        raise ServiceError("forbidden", _("Only the table's organiser or staff can unmute."))
    TableMute.objects.filter(table=table, user=user).delete()
