"""The bot interface and what every bot reads from its seat's view.

A bot decides from a ``SeatView`` only (its own hand plus public facts), never from the
``Deal``: the live tables hand bots exactly what a human in that seat would see, so a bot can
never cheat, and the same bot runs in simulations and at real tables.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from games.engine.cards import MOVES_BY_INDEX, PACK_MASKS, Move
from games.engine.deal import SeatView
from games.engine.rules import CONTRACT_ORDER

from .policy import PASS_BIT

CONTRACT_IDS = {contract: position for position, contract in enumerate(CONTRACT_ORDER)}


@runtime_checkable
class Bot(Protocol):
    """Anything that picks a legal move for the seat whose view it is given."""

    def choose(self, view: SeatView) -> Move: ...


class SeededBot:
    """Common base: a private ``random.Random`` so the same seed gives the same decisions."""

    level = "base"

    def __init__(self, rng: random.Random | int | None = None) -> None:
        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"


def hand_mask(view: SeatView) -> int:
    mask = 0
    for card in view.hand:
        mask |= card.bit
    return mask


def legal_mask(view: SeatView) -> int:
    """The view's legal moves as a bit mask over move indices (bit 36 = pass)."""
    mask = 0
    for move in view.legal_moves:
        mask |= 1 << move.index
    return mask


def played_mask(view: SeatView) -> int:
    """Every card laid so far by anyone (passes are not cards)."""
    mask = 0
    for _seat, move in view.history:
        if move.index < 36:
            mask |= 1 << move.index
    return mask


def unplayed_mask(view: SeatView) -> int:
    """The pack minus the cards laid so far: own hand plus everything still hidden."""
    return PACK_MASKS[view.players] & ~played_mask(view)


def move_for(index: int) -> Move:
    return MOVES_BY_INDEX[index]


def single_move(view: SeatView) -> Move | None:
    """The only legal move when there is just one (bots answer it at once), else None."""
    moves = view.legal_moves
    if not moves:
        raise ValueError(f"seat {view.seat} is not on turn: there is no move to choose")
    return moves[0] if len(moves) == 1 else None


__all__ = [
    "Bot",
    "CONTRACT_IDS",
    "PASS_BIT",
    "SeededBot",
    "hand_mask",
    "legal_mask",
    "move_for",
    "played_mask",
    "single_move",
    "unplayed_mask",
]
