"""The beginner: what a newcomer who knows the rules but no tactics would do.

In the trick contracts it plays its lowest legal card, and when it cannot follow suit it
throws its highest card (the two first ideas everyone has); it avoids an
obvious threshold in ``hundred`` when one of its cards keeps the total below it, and lays a
random legal card in the layout game. Good enough to beat random play, easy to beat otherwise.
"""

from __future__ import annotations

from games.engine.cards import HUNDRED_VALUES, Move
from games.engine.deal import SeatView
from games.engine.rules import Contract

from .base import SeededBot, single_move
from .policy import crossing_penalty


class BeginnerBot(SeededBot):
    level = "beginner"

    def choose(self, view: SeatView) -> Move:
        only = single_move(view)
        if only is not None:
            return only
        moves = view.legal_moves
        if view.contract.is_trick_contract:
            trick = view.current_trick
            void = bool(trick) and all(m.suit != trick[0][1].suit for m in moves)
            pick = max if void else min
            rank = pick(m.rank for m in moves)
            return self.rng.choice([m for m in moves if m.rank == rank])
        if view.contract is Contract.HUNDRED:
            total = view.hundred_total
            safe = [m for m in moves if not crossing_penalty(total, HUNDRED_VALUES[m.rank])]
            return self.rng.choice(safe or list(moves))
        return self.rng.choice(moves)
