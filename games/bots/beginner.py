"""The beginner: what a newcomer who knows the rules but no tactics would do.

In the trick contracts it plays its lowest legal card, and when it cannot follow suit it
throws its highest card (the two first ideas everyone has); it never plays the King of Hearts
into a trick the King must win while another card will do (holding K and A of Hearts, the
lowest Heart is the King: even a newcomer sees that it takes itself); it avoids an
obvious threshold in ``hundred`` when one of its cards keeps the total below it, and lays a
random legal card in the layout game. Good enough to beat random play, easy to beat otherwise.
"""

from __future__ import annotations

from games.engine.cards import HUNDRED_VALUES, Card, Move
from games.engine.deal import SeatView
from games.engine.rules import Contract

from .base import SeededBot, single_move
from .policy import crossing_penalty

KING_OF_HEARTS = Card.from_code("KH")
ACE_OF_HEARTS = Card.from_code("AH")


def king_takes_itself(view: SeatView) -> bool:
    """The King of Hearts is legal beside another card and would surely win this trick:
    Hearts are led (or it would lead), no Ace of Hearts lies in the trick, and no other seat
    can hold the Ace (it is in this hand or already played)."""
    moves = view.legal_moves
    if KING_OF_HEARTS not in moves or len(moves) < 2:
        return False
    trick = [card for _seat, card in view.current_trick]
    if trick and trick[0].suit != KING_OF_HEARTS.suit:
        return False
    if ACE_OF_HEARTS in trick:
        return False
    return ACE_OF_HEARTS in view.hand or any(move is ACE_OF_HEARTS for _s, move in view.history)


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
            candidates = list(moves)
            if view.contract is Contract.NO_KING_OF_HEARTS and king_takes_itself(view):
                candidates = [m for m in moves if m is not KING_OF_HEARTS]
            rank = pick(m.rank for m in candidates)
            return self.rng.choice([m for m in candidates if m.rank == rank])
        if view.contract is Contract.HUNDRED:
            total = view.hundred_total
            safe = [m for m in moves if not crossing_penalty(total, HUNDRED_VALUES[m.rank])]
            return self.rng.choice(safe or list(moves))
        return self.rng.choice(moves)
