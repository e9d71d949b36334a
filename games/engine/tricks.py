"""Contracts 1 to 4 (RULES.md sections 3 and 4): follow suit, no trumps, pay for what you take.

``no_tricks``, ``no_hearts``, ``no_jacks`` and ``no_king_of_hearts`` share their play and
differ only in what a taken trick costs, which comes from ``penalties.py``; the King of Hearts
also ends its deal early.
"""

from __future__ import annotations

from .cards import KING_OF_HEARTS, PACK_MASKS, PASS_INDEX, SUIT_MASKS, SUIT_NAMES_FRENCH
from .deal import Deal, card_codes
from .errors import IllegalMove
from .fast import play_out_tricks, replay_tricks
from .penalties import DOUBLING_CONTRACTS, card_costs, settle, settlement
from .rules import CONTRACT_IDS, NO_KING_ID, NO_TRICKS_ID, TRICK_CONTRACTS, Contract

KH_BIT = KING_OF_HEARTS.bit


def _must_follow(seat: int, suit: int, holding: int) -> IllegalMove:
    """The refusal of a card that does not follow the led suit while ``holding`` does."""
    cards = card_codes(holding)
    return IllegalMove(
        f"seat {seat} must follow {SUIT_NAMES_FRENCH[suit]}: it holds {', '.join(cards)}",
        reason="must_follow",
        details={"suit": suit, "cards": cards},
    )


class TrickDeal(Deal):
    """A deal of a trick contract; the replay and play-out loops are ``fast.py``'s."""

    __slots__ = ()

    def legal_mask(self) -> int:
        if self.over:
            return 0
        hand = self._hands[self.turn]
        if self._trick and hand & self._led_mask:
            return hand & self._led_mask
        return hand

    def play_index(self, index: int) -> None:
        seat = self.turn
        hands = self._hands
        hand = hands[seat]
        bit = 1 << index if index >= 0 else 0
        if not hand & bit or index == PASS_INDEX or self.over:
            self._check_in_hand(seat, hand, index)
        trick = self._trick
        if trick:
            led = self._led_mask
            if bit & led:
                if index > self._best:
                    self._best = index
                    self._best_seat = seat
            elif hand & led:
                raise _must_follow(seat, SUIT_MASKS.index(led), hand & led)
        else:
            self._led_mask = SUIT_MASKS[index // 9]
            self._best = index
            self._best_seat = seat
        hands[seat] = hand ^ bit
        self._moves.append(index)
        self._seats.append(seat)
        trick.append(index)
        if len(trick) == self.players:
            self._finish_trick()
        else:
            self.turn = seat + 1 if seat + 1 < self.players else 0

    _play_move_indices = replay_tricks
    play_out_randomly = play_out_tricks

    def _finish_trick(self) -> None:
        winner = self._best_seat
        trick = self._trick
        mask = 0
        for i in trick:
            mask |= 1 << i
        number = len(self._tricks)
        self._tricks.append((self._seats[-len(trick)], tuple(trick), winner))
        self._taken[winner] |= mask
        self._tricks_won[winner] += 1
        self._trick_points[winner] += self._weights[number]
        self._trick = []
        self._led_mask = 0
        self.turn = winner
        if number == len(self._weights) - 1 or (self._cid == NO_KING_ID and mask & KH_BIT):
            self._end()

    def _end(self) -> None:
        """Close the deal after its last trick: the final penalties, slam and doubling applied."""
        self.over = True
        self._penalties = self._penalties_from_tricks(final=True)

    def _penalties_from_tricks(self, final: bool) -> list[int]:
        """Penalties from the tricks taken so far; ``final`` applies slams and doubling."""
        if self._cid == NO_TRICKS_ID:
            base = list(self._trick_points)
            if not final:
                return base
            return settle(base, self._tricks_won, len(self._weights), self.rules.doubling)
        priced, items, count, doubles = _PRICED[self._cid][self.players]
        taken = self._taken
        if count == 1 and not doubles:  # one priced card, never doubled: the King of Hearts
            cost = priced[0][0]
            return [cost if t & items else 0 for t in taken]
        if len(priced) == 1:
            cost, mask = priced[0]
            base = [cost * (t & mask).bit_count() for t in taken]
        else:
            base = [sum(cost * (t & mask).bit_count() for cost, mask in priced) for t in taken]
        if not (final and doubles):
            return base
        counts = [(t & items).bit_count() for t in taken]
        return settle(base, counts, count, self.rules.doubling)

    @property
    def settlement(self) -> tuple[str, list[int]] | None:
        """Why the finished deal counts as it does, for the players: ``("doubled", seats that
        took nothing)``, ``("slam", [the seat that took everything])`` or None (plain costs,
        an unfinished deal, or a contract that never doubles). See ``penalties.settlement``."""
        if not self.over or self.contract not in DOUBLING_CONTRACTS:
            return None
        if self._cid == NO_TRICKS_ID:
            return settlement(self._tricks_won, len(self._weights), self.rules.doubling)
        _priced_cards, items, count, _doubles = _PRICED[self._cid][self.players]
        counts = [(t & items).bit_count() for t in self._taken]
        return settlement(counts, count, self.rules.doubling)

    def scores_so_far(self) -> tuple[int, ...]:
        if self._penalties is not None:
            return tuple(self._penalties)
        return tuple(self._penalties_from_tricks(final=False))


def _priced(contract: Contract, players: int) -> tuple[tuple[tuple[int, int], ...], int, int, bool]:
    """A card-counting contract's costs read for scoring: (cost, mask) pairs, the mask of all
    priced cards in the pack, how many there are, and whether the contract doubles."""
    priced = card_costs(contract, players)
    items = 0
    for _, mask in priced:
        items |= mask
    items &= PACK_MASKS[players]
    return priced, items, items.bit_count(), contract in DOUBLING_CONTRACTS


_PRICED = {
    CONTRACT_IDS[contract]: {players: _priced(contract, players) for players in PACK_MASKS}
    for contract in TRICK_CONTRACTS
    if contract is not Contract.NO_TRICKS
}
