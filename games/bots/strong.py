"""The strong bot: determinized sampling (perfect-information Monte Carlo).

For each decision it deals the unseen cards many times consistently with its view
(``sampling``), and in every such world plays each legal move followed by a fast rollout in
which all seats follow the heuristic plan (``policy``). The move with the lowest average own
penalty wins. All candidate moves see the same worlds, so their comparison is not blurred by
differences between samples.
"""

from __future__ import annotations

import random
import time

from games.engine.cards import PASS_INDEX, Move
from games.engine.deal import Deal, SeatView
from games.engine.partie import play_out_randomly

from .base import CONTRACT_IDS, SeededBot, legal_mask, move_for, single_move, unplayed_mask
from .heuristic import heuristic_index
from .policy import HUNDRED, bits, choose_hundred, choose_layout, choose_trick
from .sampling import initial_masks, knowledge_from_view, sample_from

DEFAULT_TIME_LIMIT = 0.2
"""Seconds per decision when no sample budget is given (one core)."""
MAX_SAMPLES = 2000
"""Upper bound on worlds per decision under a time budget."""
ROLLOUTS = ("heuristic", "random")


def heuristic_rollout(
    deal: Deal, cid: int, hands: list[int], trick: list[int], unplayed: int
) -> tuple[int, ...]:
    """Finish ``deal`` (in place) with every seat on the heuristic plan; return the penalties.

    ``hands``, ``trick`` and ``unplayed`` mirror the deal's state (current hands, cards in the
    current trick, cards not yet played) and are updated here; they are the caller's copies.
    """
    players = deal.players
    legal_mask_of = deal.legal_mask
    play_index = deal.play_index
    trick_game = cid < HUNDRED
    while not deal.over:
        legal = legal_mask_of()
        seat = deal.turn
        if not legal & (legal - 1):
            index = (legal & -legal).bit_length() - 1
        elif trick_game:
            index = choose_trick(cid, players, hands[seat], legal, trick, unplayed)
        elif cid == HUNDRED:
            index = choose_hundred(hands[seat], deal.hundred_total)
        else:
            index = choose_layout(players, hands[seat], legal, unplayed)
        play_index(index)
        if index != PASS_INDEX:
            bit = 1 << index
            hands[seat] ^= bit
            unplayed ^= bit
            if trick_game:
                trick.append(index)
                if len(trick) == players:
                    trick = []
    return deal.penalties  # type: ignore[return-value]


def prefer_plan(outcomes: dict[int, list[int]], planned: int, confidence: float) -> int:
    """The move with the lowest average, unless it does not clearly beat the planned move.

    With a few dozen worlds many moves tie or differ by noise; an arbitrary pick among them
    throws away the plan's sound preferences (keep low cards as escapes, withhold blockers).
    The paired difference over the same worlds decides: deviate only when the best move is
    better than the plan by more than ``confidence`` standard errors.
    """
    best = min(outcomes, key=lambda index: sum(outcomes[index]))
    if best == planned or planned not in outcomes:
        return best
    diffs = [a - b for a, b in zip(outcomes[best], outcomes[planned], strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return best if mean < 0 else planned
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return best if mean < -confidence * (variance / n) ** 0.5 else planned


class StrongBot(SeededBot):
    """Perfect-information Monte Carlo over consistent samples of the hidden hands.

    ``samples`` fixes the number of worlds per decision (deterministic for a seed); otherwise
    ``time_limit`` seconds bound the decision. With both, whichever comes first stops it.
    ``rollout`` is ``"heuristic"`` (default) or ``"random"`` play after the candidate move.
    ``confidence`` is how many standard errors a move must beat the heuristic plan's move by
    before the bot deviates from the plan (see ``prefer_plan``).
    """

    level = "strong"

    def __init__(
        self,
        rng: random.Random | int | None = None,
        samples: int | None = None,
        time_limit: float | None = None,
        rollout: str = "heuristic",
        confidence: float = 1.0,
    ) -> None:
        super().__init__(rng)
        if rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {', '.join(ROLLOUTS)}, not {rollout!r}")
        if samples is not None and samples < 1:
            raise ValueError("samples must be at least 1")
        if samples is None and time_limit is None:
            time_limit = DEFAULT_TIME_LIMIT
        self.samples = samples
        self.time_limit = time_limit
        self.rollout = rollout
        self.confidence = confidence
        self.last_samples = 0
        """How many worlds the last decision looked at (for benchmarks and the UI)."""

    def choose(self, view: SeatView) -> Move:
        only = single_move(view)
        if only is not None:
            self.last_samples = 0
            return only
        outcomes = self.outcomes(view)
        return move_for(prefer_plan(outcomes, heuristic_index(view), self.confidence))

    def evaluate(self, view: SeatView) -> dict[int, float]:
        """Average own penalty after each legal move index, over the sampled worlds."""
        return {index: sum(out) / len(out) for index, out in self.outcomes(view).items()}

    def outcomes(self, view: SeatView) -> dict[int, list[int]]:
        """Own penalty after each legal move index in each sampled world (same worlds for all)."""
        start = time.perf_counter()
        rng = self.rng
        knowledge = knowledge_from_view(view)
        seat = knowledge.seat
        cid = CONTRACT_IDS[view.contract]
        moves = bits(legal_mask(view))
        history = [move.index for _who, move in view.history]
        trick = [card.index for _who, card in view.current_trick] if cid < HUNDRED else []
        unplayed = unplayed_mask(view)
        results: dict[int, list[int]] = {index: [] for index in moves}
        limit = self.samples if self.samples is not None else MAX_SAMPLES
        deadline = None if self.time_limit is None else start + self.time_limit
        heuristic = self.rollout == "heuristic"
        done = 0
        while done < limit:
            hands = sample_from(knowledge, rng)
            world = Deal.from_masks(
                view.players,
                view.contract,
                view.dealer,
                initial_masks(knowledge, hands),
                view.rules,
            )
            for index in history:
                world.play_index(index)
            for index in moves:
                deal = world.clone()
                deal.play_index(index)
                if heuristic:
                    after = hands.copy()
                    bit = 0 if index == PASS_INDEX else 1 << index
                    after[seat] ^= bit
                    played = [*trick, index] if cid < HUNDRED and index != PASS_INDEX else trick
                    if len(played) == view.players:
                        played = []
                    penalties = heuristic_rollout(deal, cid, after, list(played), unplayed ^ bit)
                else:
                    penalties = play_out_randomly(deal, rng).penalties
                results[index].append(penalties[seat])  # type: ignore[index]
            done += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.last_samples = done
        return results


__all__ = ["StrongBot", "heuristic_rollout", "prefer_plan"]
