"""Contract 6, ``rosbiratschka`` (RULES.md section 4.6): suit rows grow from the Jacks.

The deal keeps the set of cards that extend a row as one mask; laying a card changes it by one
XOR from ``fast.LAYOUT_FLIPS`` (the card out, its outer neighbour in; a Jack brings its Ten and
Queen), in ``play_index`` and in the fast loops alike.
"""

from __future__ import annotations

from .cards import CARDS, JACK, JACK_MASK, PACK_MASKS, PASS_INDEX, SUIT_MASKS
from .deal import Deal, card_codes
from .errors import IllegalMove
from .fast import LAYOUT_FLIPS, play_out_layout, replay_layout
from .penalties import LAST_HOLDER

PASS_BIT = 1 << PASS_INDEX


class LayoutDeal(Deal):
    """A deal of the layout game; the replay and play-out loops are ``fast.py``'s."""

    __slots__ = ()

    def legal_mask(self) -> int:
        if self.over:
            return 0
        hand = self._hands[self.turn]
        extend = hand & self._ext_mask
        # "free" lets a Jack compete with extending cards; by default extending comes first.
        playable = (extend | (hand & JACK_MASK)) if self._free else (extend or (hand & JACK_MASK))
        return playable or PASS_BIT

    def play_index(self, index: int) -> None:
        seat = self.turn
        hand = self._hands[seat]
        if self.over:
            raise IllegalMove("the deal is already over", reason="deal_over")
        if index == PASS_INDEX:
            playable = hand & (self._ext_mask | JACK_MASK)
            if playable:
                cards = card_codes(playable)
                raise IllegalMove(
                    f"seat {seat} cannot pass while it can lay a card ({', '.join(cards)})",
                    reason="pass_while_able",
                    details={"cards": cards},
                )
        else:
            if index > PASS_INDEX or index < 0 or not hand >> index & 1:
                self._check_in_hand(seat, hand, index)
            bit = 1 << index
            suit, rank = divmod(index, 9)
            if bit & self._ext_mask:
                if rank < JACK:
                    self._low[suit] = rank
                else:
                    self._high[suit] = rank
            elif rank == JACK:
                if not self._free and hand & self._ext_mask:
                    cards = card_codes(hand & self._ext_mask)
                    raise IllegalMove(
                        f"seat {seat} must extend a row before starting a new one "
                        f"(it can lay {', '.join(cards)})",
                        reason="must_extend",
                        details={"cards": cards},
                    )
                self._low[suit] = JACK
                self._high[suit] = JACK
            else:
                code = CARDS[index].code
                raise IllegalMove(
                    f"{code} neither extends a row nor starts one",
                    reason="no_row",
                    details={"card": code},
                )
            self._ext_mask ^= LAYOUT_FLIPS[self.players][index]
            hand ^= bit
            self._hands[seat] = hand
            if not hand:
                self._holding -= 1
        self._moves.append(index)
        self._seats.append(seat)
        if self._holding == 1:
            self._end()
            return
        hands = self._hands
        n = self.players
        nxt = (seat + 1) % n
        while not hands[nxt]:
            nxt = (nxt + 1) % n
        self.turn = nxt

    _play_move_indices = replay_layout
    play_out_randomly = play_out_layout

    def _end(self) -> None:
        """Close the deal: only one player still holds cards, and pays for it."""
        self.over = True
        self._penalties = [LAST_HOLDER if hand else 0 for hand in self._hands]

    def _set_rows_from_hands(self) -> None:
        """Each started row's ends from the laid cards: they run unbroken through the Jack."""
        laid = PACK_MASKS[self.players]
        for hand in self._hands:
            laid &= ~hand
        low = self._low
        high = self._high
        for suit in range(4):
            row = laid & SUIT_MASKS[suit]
            if row:
                low[suit] = (row & -row).bit_length() - 1 - 9 * suit
                high[suit] = row.bit_length() - 1 - 9 * suit
