"""Contract 5, ``hundred`` (RULES.md section 4.5): lay any card; the calls above 25, 50, 100 cost.

The calls and their costs are ``penalties.HUNDRED_CALLS``; ``fast.NEXT_CALL`` tells for each
running total which line the next call is at, so a card that makes no call costs one compare.
"""

from __future__ import annotations

from .cards import HUNDRED_VALUES, PASS_INDEX
from .deal import Deal
from .fast import NEXT_CALL, play_out_hundred, replay_hundred
from .penalties import HUNDRED_CALLS

LAST_CALL = HUNDRED_CALLS[-1][0]


class HundredDeal(Deal):
    """A deal of the Hundred; the replay and play-out loops are ``fast.py``'s."""

    __slots__ = ()

    def legal_mask(self) -> int:
        return 0 if self.over else self._hands[self.turn]

    def play_index(self, index: int) -> None:
        seat = self.turn
        hand = self._hands[seat]
        if self.over or not 0 <= index < PASS_INDEX or not hand >> index & 1:
            self._check_in_hand(seat, hand, index)
        before = self._total
        after = before + HUNDRED_VALUES[index % 9]
        self._hands[seat] = hand ^ (1 << index)
        self._moves.append(index)
        self._seats.append(seat)
        self._total = after
        if after > NEXT_CALL[before]:
            self._call(seat, before, after)
        self.turn = (seat + 1) % self.players

    _play_move_indices = replay_hundred
    play_out_randomly = play_out_hundred

    def _call(self, seat: int, before: int, after: int) -> None:
        """Charge ``seat`` for each call its card made; the call above 100 ends the deal."""
        scored = self._scored
        for line, cost in HUNDRED_CALLS:
            if before <= line < after:
                scored[seat] += cost
        if after > LAST_CALL:
            self.over = True
            self._penalties = list(scored)

    def scores_so_far(self) -> tuple[int, ...]:
        return tuple(self._scored)
