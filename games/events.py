"""What every games action shares: the table lock, the event log, seat and clock changes.

One rule holds for every write to a live table (``lobby``, ``moves``, ``bot_turns``,
``clocks``): it locks the table row (``with_locked_table``), appends its events with
consecutive versions (``EventLog``), and only after the commit are the events broadcast. A
refused action raises ``ServiceError`` (a move answers with a ``MoveResult`` instead).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import selectors
from games.broadcast import send_to_group
from games.engine import Deal
from games.models import Seat, Table, TableEvent, TableVote
from rosbi_platform.locking import with_row_lock

T = TypeVar("T")
LOBBY_GROUP = "lobby"
# Tables with at least this much time per move are turn-based: the player on turn is e-mailed.
EMAIL_TURN_SECONDS = 3600


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


def bot_stall_delta() -> dt.timedelta:
    """How long a bot turn may wait before the sweeper assumes its task was lost."""
    seconds = getattr(settings, "GAMES_BOT_STALL_SECONDS", None)
    if seconds is None:
        seconds = bot_think_seconds() + 10
    return dt.timedelta(seconds=float(seconds))


def with_locked_table(table_id: int, work: Callable[[Table], T]) -> T:
    """Run ``work`` in a transaction holding the table row lock (retried after a deadlock)."""
    return with_row_lock(Table, work, pk=table_id)


def notify_lobby() -> None:
    """Tell the lobby pages, after the commit, that the list of tables changed."""
    transaction.on_commit(partial(send_to_group, LOBBY_GROUP, {"type": "lobby.changed"}))


class EventLog:
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


def change_seat(table: Table, seat: Seat, log: EventLog) -> None:
    """Store a seat's occupant, bot level and away flag; a ``seat_changed`` event."""
    seat.save(update_fields=["user", "bot_level", "away", "left_at"])
    log.add("seat_changed", selectors.seat_info(seat))


def bot_must_move(seats: list[Seat], deal: Deal | None) -> bool:
    """Whether a bot (or the bot standing in for an away player) is on turn in ``deal``."""
    if deal is None or deal.over:
        return False
    seat = seats[deal.turn]
    return seat.is_bot or (seat.user_id is not None and seat.away)


def _now_ms() -> dt.datetime:
    """Now, to the millisecond: the stored deadline equals the one written into frames."""
    now = timezone.now()
    return now.replace(microsecond=now.microsecond // 1000 * 1000)


def set_clock(
    table: Table,
    seats: list[Seat],
    deal: Deal | None,
    log: EventLog,
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
    table.bot_due_at = timezone.now() + bot_stall_delta() if bot_on_turn else None
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


def record_vote(table: Table, seats: list[Seat], kind: str, seat: Seat, log: EventLog) -> bool:
    """Store ``seat``'s vote of ``kind`` (abort, rematch) once, with a ``vote`` event listing
    every seat that voted so far; True when every seated human has voted now. A repeated
    vote adds nothing but is counted again (a human who left may have been the last one)."""
    voted = set(TableVote.objects.filter(table=table, kind=kind).values_list("seat", flat=True))
    if seat.number not in voted:
        TableVote.objects.create(table=table, kind=kind, seat=seat.number, user_id=seat.user_id)
        voted.add(seat.number)
        log.add(
            "vote",
            {
                "vote": kind,
                "seat": seat.number,
                "name": selectors.user_display_name(seat.user),
                "votes": sorted(voted),
            },
        )
    humans = {s.number for s in seats if s.user_id is not None}
    return humans <= voted
