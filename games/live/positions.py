"""A process-local cache of live positions: per table, the rows a move needs and the engine's
``Deal`` after every stored move, as of one table version.

Why: rebuilding the deal and reading the table, its seats and the deal row costs several
queries and most of a move's CPU. The cache is only a guess about the database: a move played
from it is written with a compare-and-swap on the table's version (``games.moves``), so a stale
entry (another process moved, a seat changed) makes the write fail and the move falls back to
the locked path, which reloads. An entry is *taken* out while a move works on it, so two
threads never share one ``Deal``; whoever holds the newest version puts it back.

Entries also follow the broadcast ``move`` events (``follow``): the worker that serves the
next mover has seen the previous move's event before the mover could answer it, so the cache
stays warm although the four seats of a table sit on different worker processes.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from games.engine import Deal, IllegalMove
from games.models import PartieDeal, Seat, Table

DEFAULT_CAPACITY = 4096


@dataclass
class Position:
    """A table as of ``table.version``: the table row, its seats, the current deal row and the
    engine's deal after ``row.moves``. Only valid while the deal is not over."""

    table: Table
    seats: list[Seat]
    row: PartieDeal
    deal: Deal

    @property
    def version(self) -> int:
        return self.table.version


def parse_deadline(text: str | None) -> dt.datetime | None:
    """The inverse of ``selectors.format_deadline``."""
    if text is None:
        return None
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def _follow(position: Position, version: int, event: dict[str, Any]) -> bool:
    """Advance ``position`` by one stored event; False when it cannot follow (the entry is
    then dropped). Plays moves, starts the next deal from ``deal_started`` (which stores every
    hand), and takes clock and seat changes; anything else (the Partie starting or ending)
    drops the entry."""
    kind = event.get("kind")
    table, deal = position.table, position.deal
    changes_play = True
    if kind == "move":
        if deal.over or deal.turn != event["seat"] or event["deal_number"] != position.row.number:
            return False
        try:
            deal.play(event["move"])
        except IllegalMove:
            return False
        if deal.over != event["deal_over"] or (not deal.over and deal.turn != event["next_turn"]):
            return False
        position.row.moves = [*position.row.moves, event["move"]]
        table.turn_seat = event["next_turn"]
        if "clock" in event:
            clock = event["clock"]
            table.turn_deadline = parse_deadline(clock["deadline"]) if clock else None
    elif kind == "deal_finished":
        if not deal.over or event["deal_number"] != position.row.number:
            return False
    elif kind == "deal_started":
        if not deal.over or event["deal_number"] != position.row.number + 1:
            return False
        hands = event["hands"]
        row = PartieDeal(
            partie_id=position.row.partie_id,
            number=event["deal_number"],
            contract=event["contract"],
            dealer=event["dealer"],
            hands=hands,
            moves=[],
        )
        position.row = row
        position.deal = Deal(table.size, row.contract, row.dealer, hands, table.rules)
        table.turn_seat = position.deal.turn
    elif kind == "clock":
        changes_play = False
        table.turn_seat = event["seat"]
        table.turn_deadline = parse_deadline(event["deadline"])
    elif kind == "seat_changed":
        changes_play = False
        seats = position.seats
        number = event["seat"]
        if not 0 <= number < len(seats):
            return False
        seat = seats[number]
        seat.user_id = event["user_id"]
        seat.bot_level = event["bot_level"] or ""
        seat.away = event["away"]
        seat._state.fields_cache.pop("user", None)  # a cached user may be someone else now
    else:
        return False
    table.version = version
    if changes_play:
        table.state_version = version
    return True


class PositionCache:
    """Positions by table id; thread-safe (moves run on several database threads)."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        self.capacity = capacity
        self._lock = threading.Lock()
        self._entries: dict[int, Position] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def take(self, table_id: int) -> Position | None:
        """Remove and return the entry: the caller owns it until it puts it back."""
        with self._lock:
            return self._entries.pop(table_id, None)

    def peek_version(self, table_id: int) -> int | None:
        entry = self._entries.get(table_id)
        return None if entry is None else entry.version

    def put(self, table_id: int, position: Position) -> None:
        """Store ``position`` unless a newer one of the same table is already there (or its
        deal is over: only ``follow`` goes on from there, to the next deal)."""
        if position.deal.over:
            return
        with self._lock:
            current = self._entries.get(table_id)
            if current is not None and current.version >= position.version:
                return
            self._entries[table_id] = position
            while len(self._entries) > self.capacity:
                del self._entries[next(iter(self._entries))]

    def discard(self, table_id: int) -> None:
        with self._lock:
            self._entries.pop(table_id, None)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def follow(self, table_id: int, messages: Iterable[dict[str, Any]]) -> None:
        """Apply broadcast stored events (``{"version", "event"}``) to the table's entry.

        Events at or below the entry's version are known already (every consumer of the table
        in this process calls this with the same message); a gap or any event other than a
        plain move that keeps the deal going drops the entry, and the next move reloads.
        """
        if table_id not in self._entries:
            return
        position = self.take(table_id)
        if position is None:
            return
        for message in messages:
            version = message["version"]
            if version <= position.version:
                continue
            if version != position.version + 1 or not _follow(position, version, message["event"]):
                return
        self.put(table_id, position)


positions = PositionCache()
