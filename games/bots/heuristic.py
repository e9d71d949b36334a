"""The heuristic bot: a sensible plan per contract, one decision in microseconds.

The plan itself lives in ``policy`` as integer functions, shared with the strong bot's
rollouts; this class only turns the seat's view into the masks those functions read.
"""

from __future__ import annotations

from games.engine.cards import Move
from games.engine.deal import SeatView

from .base import (
    CONTRACT_IDS,
    SeededBot,
    hand_mask,
    legal_mask,
    move_for,
    single_move,
    unplayed_mask,
)
from .policy import HUNDRED, LAYOUT, choose_hundred, choose_layout, choose_trick


def heuristic_index(view: SeatView) -> int:
    """The heuristic move index for the seat on turn in ``view``."""
    cid = CONTRACT_IDS[view.contract]
    hand = hand_mask(view)
    if cid == HUNDRED:
        return choose_hundred(hand, view.hundred_total)
    legal = legal_mask(view)
    if cid == LAYOUT:
        return choose_layout(view.players, hand, legal, unplayed_mask(view))
    trick = [card.index for _seat, card in view.current_trick]
    return choose_trick(cid, view.players, hand, legal, trick, unplayed_mask(view))


class HeuristicBot(SeededBot):
    level = "heuristic"

    def choose(self, view: SeatView) -> Move:
        only = single_move(view)
        if only is not None:
            return only
        return move_for(heuristic_index(view))
