"""Reading the others' play: what their earlier moves rule out, if they follow the plan.

The heuristic plan (``policy``) is deterministic, so a seat that plays it gives away more
than its voids: a seat that ducks under the winner with some card holds no card of the led
suit between that card and the winner (it ducks with the highest card that still loses); a
seat that discards a harmless card while void holds no penalty card (it dumps the costliest
one first; in ``no_king_of_hearts`` the King, then the Ace of Hearts while the King is out);
in ``hundred`` no card it held would have scored better under the plan's key. Each such
conclusion is a card the seat did not hold at that moment and therefore does not hold now.

``plan_reveals`` turns those conclusions into per-seat masks of excluded cards. They are
hard constraints for the sampler: worlds drawn with them are exactly the worlds in which
the observed plays are what the plan would have played, as far as these rules go, without
the cost of drawing and rejecting implausible worlds (``strong.replay_likelihood``). A
player who does not follow the plan may contradict them; the strong bot then falls back to
the plain constraints (``StrongBot.outcomes``).

Only conclusions that hold whatever else the seat held are drawn: leads and the layout game
are left out (the plan's choice there depends on the whole hand), and so is any card that
beat the trick while the seat could still make a slam (the plan's slam rule may have chosen
it, see ``heuristic.heuristic_index``).
"""

from __future__ import annotations

from games.engine.cards import HEART_MASK, HUNDRED_VALUES, JACK_MASK, PASS_INDEX, SUIT_MASKS
from games.engine.deal import SeatView

from .base import CONTRACT_IDS
from .policy import (
    ABOVE,
    AH_BIT,
    BELOW,
    COSTS,
    HUNDRED,
    KH_BIT,
    NO_HEARTS,
    NO_JACKS,
    NO_KING,
    NO_TRICKS,
    hundred_key,
)

_SLAM_ITEMS = {NO_TRICKS: -1, NO_HEARTS: HEART_MASK, NO_JACKS: JACK_MASK}
"""What a seat must take all of for a slam (as in ``heuristic.slam_still_open``)."""


def plan_reveals(view: SeatView) -> tuple[int, ...]:
    """Per seat, the cards its earlier plays rule out if it played the heuristic plan.

    The own seat's entry is 0. The masks may include cards already played; the sampler only
    deals unseen cards, so that does no harm.
    """
    players = view.players
    seat = view.seat
    excluded = [0] * players
    cid = CONTRACT_IDS[view.contract]
    if cid == HUNDRED:
        total = 0
        for who, move in view.history:
            index = move.index
            if who != seat:
                excluded[who] |= _hundred_better(total, index)
            total += HUNDRED_VALUES[index % 9]
    elif cid < HUNDRED:
        _trick_reveals(view, cid, excluded)
    if seat is not None:
        excluded[seat] = 0
    return tuple(excluded)


def _hundred_better(total: int, played: int) -> int:
    """Cards ``choose_hundred`` would have preferred to ``played`` at ``total``: a smaller
    key, or the same key and a lower index (the plan keeps the first of equal cards)."""
    key = hundred_key(total, HUNDRED_VALUES[played % 9])
    mask = 0
    for card in range(36):
        other = hundred_key(total, HUNDRED_VALUES[card % 9])
        if other < key or (other == key and card < played):
            mask |= 1 << card
    return mask


def _trick_reveals(view: SeatView, cid: int, excluded: list[int]) -> None:
    players = view.players
    seat = view.seat
    costs = COSTS[cid, players]
    items = _SLAM_ITEMS.get(cid, 0)
    slam_open = [bool(items)] * players  # only the slam contracts have the slam rule
    unplayed = (1 << PASS_INDEX) - 1
    trick: list[tuple[int, int]] = []
    for who, move in view.history:
        index = move.index
        bit = 1 << index
        if trick and who != seat:
            led_suit = trick[0][1] // 9
            led = SUIT_MASKS[led_suit]
            best = max(card for _s, card in trick if card // 9 == led_suit)
            if bit & led:
                excluded[who] |= _follow_reveals(
                    cid, players, costs, trick, index, best, led, slam_open[who]
                )
            else:
                excluded[who] |= _discard_reveals(cid, costs, index, unplayed)
        unplayed &= ~bit
        trick.append((who, index))
        if len(trick) == players:
            led_suit = trick[0][1] // 9
            winner, _card = max(
                ((s, card) for s, card in trick if card // 9 == led_suit), key=lambda t: t[1]
            )
            taken = 0
            for _s, card in trick:
                taken |= 1 << card
            if taken & items:
                for other in range(players):
                    if other != winner:
                        slam_open[other] = False
            trick = []


def _follow_reveals(
    cid: int,
    players: int,
    costs: tuple[int, ...],
    trick: list[tuple[int, int]],
    played: int,
    best: int,
    led: int,
    slam_open: bool,
) -> int:
    """What following suit with ``played`` rules out (``policy._follow``)."""
    if played < best:
        # Ducked: the plan ducks with the highest card that still loses.
        return BELOW[best] & ABOVE[played]
    if slam_open:
        return 0  # the slam rule may have chosen a winning card
    last = len(trick) == players - 1
    trick_cost = sum(costs[card] for _s, card in trick)
    key = (costs[played], -played)
    mask = 0
    # Over the winner: every led card over it with a smaller (cost, -rank) key would have
    # been shed instead.
    for card in range(36):
        if (1 << card) & led and card > best and (costs[card], -card) < key:
            mask |= 1 << card
    if not (last and cid != NO_TRICKS and not trick_cost):
        mask |= BELOW[best]  # no card to duck with (else it would have ducked)
    return mask


def _discard_reveals(cid: int, costs: tuple[int, ...], played: int, unplayed: int) -> int:
    """What a discard while void rules out (``policy._discard``): nothing costlier."""
    mask = 0
    if cid == NO_KING:
        if played == _KH_INDEX:
            return 0
        mask |= KH_BIT
        if unplayed & KH_BIT and played != _AH_INDEX:
            mask |= AH_BIT
    cost = costs[played]
    for card in range(36):
        if costs[card] > cost:
            mask |= 1 << card
    return mask


_KH_INDEX = KH_BIT.bit_length() - 1
_AH_INDEX = AH_BIT.bit_length() - 1
