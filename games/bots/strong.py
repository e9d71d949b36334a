"""The strong bot: determinized sampling (perfect-information Monte Carlo).

For each decision it deals the unseen cards many times consistently with its view
(``sampling``), and in every such world plays each legal move followed by a fast rollout in
which the other seats follow the heuristic plan (``policy``) and the own seat searches its
next real decision on that world (``lookahead_rollout``), then follows the plan too. The move
with the lowest average own penalty wins. All candidate moves see the same worlds, so their
comparison is not blurred by differences between samples.
"""

from __future__ import annotations

import random
import time

from games.engine.cards import HUNDRED_VALUES, PASS_INDEX, Move
from games.engine.deal import Deal, SeatView
from games.engine.partie import play_out_randomly

from .base import CONTRACT_IDS, SeededBot, legal_mask, move_for, single_move, unplayed_mask
from .heuristic import heuristic_index
from .policy import (
    COSTS,
    HUNDRED,
    bits,
    choose_hundred,
    choose_layout,
    choose_planned,
    choose_trick,
)
from .reading import plan_reveals
from .sampling import Knowledge, initial_masks, knowledge_from_view, sample_from, tightened

DEFAULT_TIME_LIMIT = 0.2
"""Seconds per decision when no sample budget is given (one core)."""
MAX_SAMPLES = 2000
"""Upper bound on worlds per decision under a time budget."""
STRONG_CONFIDENCE = 0.5
"""Standard errors by which a move must beat the plan's (1.0 until December 2026: too timid,
see docs/bots.md)."""
STRONG_INFERENCE = 1.0
"""The default ``inference`` (1.0: every consistent world weighs the same). The search levels
read the others' play by hard conclusions (``reading``) instead (the expert's soft weighting
until December 2026, 0.1 with screen 0.05, cost two thirds of its worlds at the table's
budget and bought nothing measurable, see docs/bots.md)."""
STRONG_LOOKAHEAD = 1
"""Own later decisions searched inside each rollout (0 until December 2026: the plan played
the own seat's whole continuation; one searched decision gained 12-32 points of the
clairvoyant's gain at 3-6 players on two held-out seeds, see docs/bots.md)."""
STRONG_READING = True
"""The strong bot deals only worlds that agree with what the others' plays reveal
(``reading.plan_reveals``; False until December 2026, when only the expert read the table: it
was the one change that carried 5 players past 60 % of the clairvoyant's gain, see
docs/bots.md)."""
EXPERT_LOOKAHEAD = 2
"""The expert searches two of its own later decisions in each rollout (the strong bot one);
every other default is the strong bot's."""
SCREEN_DRAWS = 8
"""With screening, at most this many draws per world looked at (then every draw counts)."""
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


def lookahead_rollout(
    deal: Deal,
    cid: int,
    hands: list[int],
    trick: list[int],
    unplayed: int,
    seat: int,
    depth: int,
) -> tuple[int, ...]:
    """Like ``heuristic_rollout``, but ``seat``'s next ``depth`` decisions with a real choice
    are searched: each legal move is tried with plan rollouts on this world and the one
    leaving ``seat`` the lowest penalty is played (ties keep the plan's move).

    The plan is a fair model of the others (it is what the heuristic opponents play) but a
    weak one of the searching seat's own later play: valuing a move by what the plan would
    do afterwards undervalues moves whose follow-up the search itself would play better.
    Costs about one extra rollout per legal move at each searched decision.
    """
    players = deal.players
    trick_game = cid < HUNDRED
    while not deal.over and depth > 0:
        legal = deal.legal_mask()
        turn = deal.turn
        if not legal & (legal - 1):
            index = (legal & -legal).bit_length() - 1
        else:
            index = choose_planned(
                cid, players, hands[turn], legal, trick, unplayed, deal.hundred_total
            )
            if turn == seat:
                depth -= 1
                index = _best_on_world(deal, cid, hands, trick, unplayed, seat, legal, index)
        deal.play_index(index)
        if index != PASS_INDEX:
            bit = 1 << index
            hands[turn] ^= bit
            unplayed ^= bit
            if trick_game:
                trick.append(index)
                if len(trick) == players:
                    trick = []
    if deal.over:
        return deal.penalties  # type: ignore[return-value]
    return heuristic_rollout(deal, cid, hands, trick, unplayed)


def _best_on_world(
    deal: Deal,
    cid: int,
    hands: list[int],
    trick: list[int],
    unplayed: int,
    seat: int,
    legal: int,
    planned: int,
) -> int:
    """The legal move of ``seat`` with the lowest own penalty after plan rollouts on ``deal``
    (the plan's move ``planned`` unless another is strictly better)."""
    best, best_value = planned, None
    seen_values: set[int] = set()
    for index in [planned, *(i for i in bits(legal) if i != planned)]:
        if cid == HUNDRED:
            value = HUNDRED_VALUES[index % 9]  # only a card's value counts in the Hundred
            if value in seen_values:
                continue
            seen_values.add(value)
        trial = deal.clone()
        trial.play_index(index)
        after = hands.copy()
        bit = 0 if index == PASS_INDEX else 1 << index
        after[seat] ^= bit
        played = [*trick, index] if cid < HUNDRED and index != PASS_INDEX else list(trick)
        if len(played) == deal.players:
            played = []
        value = heuristic_rollout(trial, cid, after, played, unplayed ^ bit)[seat]
        if best_value is None or value < best_value:
            best, best_value = index, value
    return best


def replay_likelihood(
    world: Deal, history: list[tuple[int, int]], seat: int, cid: int, epsilon: float
) -> float:
    """Replay ``history`` on ``world`` (in place) and return how likely the others' plays were.

    Every earlier decision of another seat with a real choice is compared with what the
    heuristic plan would have played holding that world's cards at that moment: an agreeing
    play keeps the weight, a differing one multiplies it by ``epsilon``. A world in which the
    others played as the plan says is then worth far more than one in which they would have
    had to blunder, which is the inference a human draws from how the others played ("she
    ducked, so she has no low Heart left"). ``epsilon=1`` weighs every world alike.
    """
    weight = 1.0
    players = world.players
    trick_game = cid < HUNDRED
    if epsilon >= 1.0:
        for _who, index in history:
            world.play_index(index)
        return weight
    hands = list(world.hand_masks)
    unplayed = 0
    for mask in hands:
        unplayed |= mask
    trick: list[int] = []
    legal_mask_of = world.legal_mask
    for who, index in history:
        if who != seat:
            legal = legal_mask_of()
            if legal & (legal - 1):
                planned = choose_planned(
                    cid, players, hands[who], legal, trick, unplayed, world.hundred_total
                )
                if planned != index:
                    weight *= epsilon
        world.play_index(index)
        if index != PASS_INDEX:
            bit = 1 << index
            hands[who] ^= bit
            unplayed ^= bit
            if trick_game:
                trick.append(index)
                if len(trick) == players:
                    trick = []
    return weight


def equivalent_moves(
    cid: int, players: int, legal: int, hand: int, finished: int, planned: int = -1
) -> dict[int, list[int]]:
    """Group legal moves that lead to the same outcome; one representative rolls out per group.

    In a trick contract two cards of a suit are interchangeable when every card of that suit
    ranked between them is in the own hand or already in a finished trick, and they cost the
    same: any trick one of them wins or loses, the other does too (``finished``: the cards
    in finished tricks; a card on the table still decides its trick). In ``hundred`` only a
    card's value counts. The planned move represents its group (so ties keep the plan);
    otherwise the lowest card does. Layout moves are never merged.
    """
    moves = bits(legal)
    if cid == HUNDRED:
        groups: dict[int, list[int]] = {}
        for index in moves:
            groups.setdefault(HUNDRED_VALUES[index % 9], []).append(index)
        members = list(groups.values())
    elif cid < HUNDRED:
        costs = COSTS[cid, players]
        members = []
        known = hand | finished
        for index in moves:
            group = members[-1] if members else None
            if group is not None:
                last = group[-1]
                between = ((1 << index) - 1) & ~((1 << (last + 1)) - 1)
                if last // 9 == index // 9 and costs[last] == costs[index] and not between & ~known:
                    group.append(index)
                    continue
            members.append([index])
    else:
        members = [[index] for index in moves]
    out: dict[int, list[int]] = {}
    for group in members:
        out[planned if planned in group else group[0]] = group
    return out


def prefer_plan(
    outcomes: dict[int, list[int]],
    planned: int,
    confidence: float,
    weights: list[float] | None = None,
) -> int:
    """The move with the lowest average, unless it does not clearly beat the planned move.

    With a few dozen worlds many moves tie or differ by noise; an arbitrary pick among them
    throws away the plan's sound preferences (keep low cards as escapes, withhold blockers).
    The paired difference over the same worlds decides: deviate only when the best move is
    better than the plan by more than ``confidence`` standard errors.

    With ``weights`` (one per world, from ``replay_likelihood``) the averages are weighted and
    the standard error uses the effective number of worlds, (sum w)^2 / sum w^2.
    """
    if weights is None:
        weights = [1.0] * len(next(iter(outcomes.values())))
    total = sum(weights)
    if total <= 0.0:
        weights = [1.0] * len(weights)
        total = float(len(weights))

    def weighted(index: int) -> float:
        return sum(w * v for w, v in zip(weights, outcomes[index], strict=True))

    best = min(outcomes, key=weighted)
    if best == planned or planned not in outcomes:
        return best
    diffs = [a - b for a, b in zip(outcomes[best], outcomes[planned], strict=True)]
    mean = sum(w * d for w, d in zip(weights, diffs, strict=True)) / total
    n = total * total / sum(w * w for w in weights)
    if len(diffs) < 2 or n < 1.5:
        return best if mean < 0 else planned
    variance = sum(w * (d - mean) ** 2 for w, d in zip(weights, diffs, strict=True)) / total
    variance *= n / (n - 1)
    return best if mean < -confidence * (variance / n) ** 0.5 else planned


class StrongBot(SeededBot):
    """Perfect-information Monte Carlo over consistent samples of the hidden hands.

    ``samples`` fixes the number of worlds per decision (deterministic for a seed); otherwise
    ``time_limit`` seconds bound the decision. With both, whichever comes first stops it.
    ``rollout`` is ``"heuristic"`` (default) or ``"random"`` play after the candidate move.
    ``confidence`` is how many standard errors a move must beat the heuristic plan's move by
    before the bot deviates from the plan (see ``prefer_plan``). ``inference`` and ``screen``
    weigh and screen worlds by how likely the others' plays were in them; ``reading`` deals
    only worlds that agree with what those plays reveal (``reading.plan_reveals``); ``merge``
    rolls out one move per group of interchangeable moves (``equivalent_moves``);
    ``lookahead`` is how many of the own seat's later decisions each rollout searches
    (``lookahead_rollout``; 0 = the plan throughout).
    """

    level = "strong"
    default_lookahead = STRONG_LOOKAHEAD
    """``lookahead`` when none is given: the one default in which the levels differ."""

    def __init__(
        self,
        rng: random.Random | int | None = None,
        samples: int | None = None,
        time_limit: float | None = None,
        rollout: str = "heuristic",
        confidence: float = STRONG_CONFIDENCE,
        inference: float = STRONG_INFERENCE,
        screen: float = 0.0,
        reading: bool = STRONG_READING,
        merge: bool = True,
        lookahead: int | None = None,
    ) -> None:
        super().__init__(rng)
        if lookahead is None:
            lookahead = self.default_lookahead
        if rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {', '.join(ROLLOUTS)}, not {rollout!r}")
        if samples is not None and samples < 1:
            raise ValueError("samples must be at least 1")
        if not 0.0 <= inference <= 1.0:
            raise ValueError("inference must lie between 0 and 1")
        if lookahead < 0:
            raise ValueError("lookahead must be at least 0")
        if samples is None and time_limit is None:
            time_limit = DEFAULT_TIME_LIMIT
        self.samples = samples
        self.time_limit = time_limit
        self.rollout = rollout
        self.confidence = confidence
        self.inference = inference
        self.screen = screen
        self.reading = reading
        self.lookahead = int(lookahead)
        """Own later decisions searched inside each rollout (``lookahead_rollout``; 0: plan)."""
        self.merge = merge
        """Roll out one move per group of interchangeable moves (``equivalent_moves``)."""
        self.last_read = False
        """Whether the last decision's worlds used the conclusions of ``plan_reveals``."""
        self.last_weights: list[float] = []
        """Each world's likelihood weight in the last decision (see ``replay_likelihood``)."""
        self.last_samples = 0
        """How many worlds the last decision looked at (for benchmarks and the UI)."""

    def choose(self, view: SeatView) -> Move:
        only = single_move(view)
        if only is not None:
            self.last_samples = 0
            return only
        outcomes = self.outcomes(view)
        planned = heuristic_index(view)
        return move_for(prefer_plan(outcomes, planned, self.confidence, self.last_weights))

    def evaluate(self, view: SeatView) -> dict[int, float]:
        """Average own penalty after each legal move index, over the (weighted) sampled worlds."""
        outcomes = self.outcomes(view)
        weights = self.last_weights if sum(self.last_weights) > 0 else [1.0] * self.last_samples
        total = sum(weights)
        return {
            index: sum(w * v for w, v in zip(weights, out, strict=True)) / total
            for index, out in outcomes.items()
        }

    def draw_world(self, knowledge: Knowledge, view: SeatView) -> list[int]:
        """One guess at every seat's current hand (a benchmark's clairvoyant overrides this)."""
        return sample_from(knowledge, self.rng)

    def outcomes(self, view: SeatView) -> dict[int, list[int]]:
        """Own penalty after each legal move index in each sampled world (same worlds for all)."""
        start = time.perf_counter()
        rng = self.rng
        knowledge = knowledge_from_view(view)
        self.last_read = False
        if self.reading:
            # Deal only worlds in which the others' plays are what the plan would have played
            # (as far as ``plan_reveals`` can tell); if no such world exists they did not
            # play the plan, and the plain constraints stay.
            read = tightened(knowledge, plan_reveals(view))
            if read is not None:
                self.last_read = read is not knowledge
                knowledge = read
        seat = knowledge.seat
        cid = CONTRACT_IDS[view.contract]
        legal = legal_mask(view)
        history = [(who, move.index) for who, move in view.history]
        trick = [card.index for _who, card in view.current_trick] if cid < HUNDRED else []
        unplayed = unplayed_mask(view)
        if self.merge:
            finished = ~unplayed
            for index in trick:
                finished &= ~(1 << index)
            groups = equivalent_moves(
                cid, view.players, legal, knowledge.own_hand, finished, heuristic_index(view)
            )
        else:
            groups = {index: [index] for index in bits(legal)}
        moves = list(groups)
        results: dict[int, list[int]] = {index: [] for index in moves}
        limit = self.samples if self.samples is not None else MAX_SAMPLES
        deadline = None if self.time_limit is None else start + self.time_limit
        heuristic = self.rollout == "heuristic"
        done = draws = 0
        max_draws = limit * SCREEN_DRAWS
        weights: list[float] = []
        slowest = 0.0  # the longest world so far: the next may take as long
        while done < limit:
            began = time.perf_counter()
            hands = self.draw_world(knowledge, view)
            world = Deal.from_masks(
                view.players,
                view.contract,
                view.dealer,
                initial_masks(knowledge, hands),
                view.rules,
            )
            weight = replay_likelihood(world, history, seat, cid, self.inference)
            draws += 1
            if weight < self.screen and draws < max_draws:
                # An implausible world is not worth its rollouts (``screen``); when the
                # budget is spent the first world is taken whatever it weighs.
                if deadline is None or time.perf_counter() + slowest < deadline:
                    continue
                if done:
                    break
            weights.append(weight)
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
                    if self.lookahead:
                        penalties = lookahead_rollout(
                            deal, cid, after, list(played), unplayed ^ bit, seat, self.lookahead
                        )
                    else:
                        penalties = heuristic_rollout(
                            deal, cid, after, list(played), unplayed ^ bit
                        )
                else:
                    penalties = play_out_randomly(deal, rng).penalties
                results[index].append(penalties[seat])  # type: ignore[index]
            done += 1
            if deadline is not None:
                now = time.perf_counter()
                slowest = max(slowest, now - began)
                # Stop when another world as slow as the slowest so far would overrun: the
                # budget is a bound on the wait, not a target to pass by one world.
                if now + slowest >= deadline:
                    break
        self.last_samples = done
        self.last_weights = weights
        for index, members in groups.items():
            for member in members:
                results[member] = results[index]
        return results


class ExpertBot(StrongBot):
    """The strong search, looking two of its own later decisions ahead in every rollout.

    Same budget as the strong bot (0.2 s per decision by default) and the same reading of the
    others' play (``reading.plan_reveals``: a duck shows no card between it and the winner, a
    harmless discard shows no penalty card, ...); each rollout searches ``EXPERT_LOOKAHEAD``
    own decisions instead of one, so it sees fewer worlds in the same time. The soft
    likelihood weighting (``inference``, ``screen``) is still available as options.
    """

    level = "expert"
    default_lookahead = EXPERT_LOOKAHEAD


__all__ = [
    "ExpertBot",
    "StrongBot",
    "equivalent_moves",
    "heuristic_rollout",
    "lookahead_rollout",
    "prefer_plan",
    "replay_likelihood",
]
