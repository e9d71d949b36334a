"""The typed hand-off of a finished Partie to the apps that act on it (ratings, tournaments).

``partie_finished`` carries one ``PartieOutcome``: plain values, no model instances, so a
receiver never reads the games app's tables, event log or JSON fields to learn who sat where,
who left and what they scored.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """One seat's result.

    ``user_id`` is the player the Partie counts for: whoever held the seat when it started,
    even if they left and a bot finished for them (``left_at`` says when). ``bot_level`` is
    set when a bot played the seat at the end (from the start, or after the player left).
    """

    seat: int
    user_id: int | None
    bot_level: str | None
    total: int
    place: int
    left_at: dt.datetime | None = None
    # The player resigned (games.resignations): placed last, below everyone who stayed.
    resigned: bool = False

    @property
    def left(self) -> bool:
        return self.left_at is not None


@dataclass(frozen=True, slots=True)
class PartieOutcome:
    """A finished Partie as other apps need it."""

    partie_id: int
    table_id: int
    players: int
    started_at: dt.datetime
    finished_at: dt.datetime
    rated: bool
    rating_pool: str
    ranked_queue: bool
    tournament_round_id: int | None
    seats: tuple[SeatOutcome, ...]

    @property
    def totals(self) -> list[int]:
        return [s.total for s in self.seats]

    @property
    def places(self) -> list[int]:
        return [s.place for s in self.seats]


def final_places(totals: list[int], resigned: list[bool]) -> list[int]:
    """Places at the end of a Partie (1 = best; equal totals share a place).

    The house rule for resignations (docs/protocol.md, the rules page): every seat whose
    player resigned is placed below every seat that played on, whatever the totals; among
    themselves, resigned seats are ordered by their totals too.
    """
    stayed = [t for t, gone in zip(totals, resigned, strict=True) if not gone]
    left = [t for t, gone in zip(totals, resigned, strict=True) if gone]
    return [
        (len(stayed) + 1 + sum(1 for o in left if o < t))
        if gone
        else (1 + sum(1 for o in stayed if o < t))
        for t, gone in zip(totals, resigned, strict=True)
    ]
