"""Checking dealt hands against the pack, and turning them into the bit masks a ``Deal`` keeps.

Records and tables hand in lists of card codes; a deal must never start from a wrong pack,
so every problem is named (the first in seat and card order) before any play.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .cards import CARD_BY_CODE, CARDS, HAND_SIZES, PACK_MASKS, Card, mask_to_cards
from .errors import MalformedRecord

_BIT_BY_CODE = {c.code: c.bit for c in CARDS}


def hand_masks(players: int, hands: Sequence[Iterable[Card | str]]) -> list[int]:
    """Validate dealt hands against the pack for ``players`` and return them as bit masks.

    Raises ``MalformedRecord`` naming the first problem found (wrong number of hands,
    unknown, duplicated, missing or foreign cards, uneven hands). Well-formed hands of card
    codes take a fast path; anything else goes through the careful one that names the problem.
    """
    if not isinstance(hands, (list, tuple)) or len(hands) != players:
        raise MalformedRecord(f"hands must list one hand for each of the {players} seats")
    size = HAND_SIZES[players]
    bit_of = _BIT_BY_CODE.__getitem__
    masks = []
    seen = 0
    try:
        for hand in hands:
            if type(hand) is not list or len(hand) != size:
                break
            # A sum of powers of two has as many bits as terms only when they are distinct,
            # so the bit count below also catches a card listed twice.
            mask = sum(map(bit_of, hand))
            if mask.bit_count() != size or mask & seen:
                break
            seen |= mask
            masks.append(mask)
        else:
            if seen == PACK_MASKS[players]:
                return masks
    except (KeyError, TypeError):
        pass
    return _hand_masks_checked(players, hands)


def _hand_masks_checked(players: int, hands: Sequence[Iterable[Card | str]]) -> list[int]:
    """``hand_masks`` for hands that failed the fast path: find and name the first problem.

    A hand of known codes that fits is taken whole; only a hand that does not goes card by
    card, so the error is the first one in seat and card order.
    """
    size = HAND_SIZES[players]
    pack = PACK_MASKS[players]
    bit_of = _BIT_BY_CODE.__getitem__
    masks = []
    seen = 0
    for seat, hand in enumerate(hands):
        if not isinstance(hand, (list, tuple)):
            raise MalformedRecord(f"the hand of seat {seat} must be a list of cards")
        try:
            mask = sum(map(bit_of, hand))
            fits = mask.bit_count() == len(hand) and not mask & ~pack and not mask & seen
        except (KeyError, TypeError):  # Card values, or something that is not a card code
            fits = False
        if not fits:
            mask = _hand_mask_card_by_card(players, seat, hand, seen)
        seen |= mask
        masks.append(mask)
    if seen != pack:
        missing = mask_to_cards(pack & ~seen)
        raise MalformedRecord(f"the hands lack {', '.join(c.code for c in missing)}")
    for seat, hand in enumerate(hands):
        if len(hand) != size:
            raise MalformedRecord(
                f"seat {seat} holds {len(hand)} cards; each of {players} players gets {size}"
            )
    return masks


def _hand_mask_card_by_card(players: int, seat: int, hand: Iterable[Card | str], seen: int) -> int:
    """One seat's hand as a mask, raising at its first card that is unknown, foreign or seen."""
    pack = PACK_MASKS[players]
    mask = 0
    for item in hand:
        if isinstance(item, Card):
            card: Card | None = item
        elif isinstance(item, str):
            card = CARD_BY_CODE.get(item)
        else:
            card = None
        if card is None:
            raise MalformedRecord(f"{item!r} in the hand of seat {seat} is not a card")
        if not card.bit & pack:
            raise MalformedRecord(f"{card.code} is not in the pack for {players} players")
        if card.bit & (seen | mask):
            raise MalformedRecord(f"{card.code} is dealt twice")
        mask |= card.bit
    return mask
