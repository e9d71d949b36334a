"""The heuristic bot: a sensible plan per contract, one decision in microseconds.

The plan itself lives in ``policy`` as integer functions, shared with the strong bot's
rollouts; this class only turns the seat's view into the masks those functions read.
"""

from __future__ import annotations

from games.engine.cards import HEART_MASK, JACK_MASK, Move
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
from .policy import (
    HUNDRED,
    LAYOUT,
    NO_HEARTS,
    NO_JACKS,
    NO_TRICKS,
    certain_slam_card,
    choose_hundred,
    choose_layout,
    choose_trick,
)


def slam_still_open(view: SeatView, cid: int) -> bool:
    """Whether the seat on turn has taken every item of a slam contract played so far.

    ``no_tricks``: every trick; ``no_hearts`` and ``no_jacks``: every trick holding a Heart
    or a Jack. Only then can taking everything still make the slam (-8 for that seat).
    """
    items = {NO_TRICKS: -1, NO_HEARTS: HEART_MASK, NO_JACKS: JACK_MASK}[cid]
    return all(
        trick.winner == view.seat or not any(card.bit & items for card in trick.cards)
        for trick in view.tricks
    )


def heuristic_index(view: SeatView) -> int:
    """The heuristic move index for the seat on turn in ``view``.

    A slam that is certain (every trick won from here on, whatever the others hold) is
    always taken: -8 beats any score ducking could leave.
    """
    cid = CONTRACT_IDS[view.contract]
    hand = hand_mask(view)
    if cid == HUNDRED:
        return choose_hundred(hand, view.hundred_total)
    legal = legal_mask(view)
    if cid == LAYOUT:
        return choose_layout(view.players, hand, legal, unplayed_mask(view))
    trick = [card.index for _seat, card in view.current_trick]
    unplayed = unplayed_mask(view)
    if cid in (NO_TRICKS, NO_HEARTS, NO_JACKS) and slam_still_open(view, cid):
        slam = certain_slam_card(hand, legal, trick, unplayed)
        if slam >= 0:
            return slam
    return choose_trick(cid, view.players, hand, legal, trick, unplayed)


class HeuristicBot(SeededBot):
    level = "heuristic"

    def choose(self, view: SeatView) -> Move:
        only = single_move(view)
        if only is not None:
            return only
        return move_for(heuristic_index(view))
