"""The searched own continuation in the strong bot's rollouts (``lookahead_rollout``)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.bots import StrongBot, make_bot
from games.bots.base import CONTRACT_IDS
from games.bots.heuristic import heuristic_index
from games.bots.policy import HUNDRED
from games.bots.strong import heuristic_rollout, lookahead_rollout
from games.engine import Contract, Deal
from games.engine.partie import random_deal


def _position(players: int, contract: Contract, seed: int, moves: int) -> Deal | None:
    deal = random_deal(players, contract, random.Random(seed))
    for _ in range(moves):
        if deal.over:
            return None
        deal.play_index(heuristic_index(deal.view_for(deal.turn)))
    return None if deal.over else deal


def _state(deal: Deal) -> tuple[list[int], list[int], int]:
    """The rollout's mirror of ``deal``: current hands, the open trick, the unplayed cards."""
    hands = list(deal.hand_masks)
    trick: list[int] = []
    if CONTRACT_IDS[deal.contract] < HUNDRED:
        trick = [card.index for _seat, card in deal.view_for(deal.turn).current_trick]
    unplayed = 0
    for mask in hands:
        unplayed |= mask
    return hands, trick, unplayed


def _rollout(deal: Deal, seat: int, depth: int | None) -> tuple[int, ...]:
    hands, trick, unplayed = _state(deal)
    copy = deal.clone()
    cid = CONTRACT_IDS[deal.contract]
    if depth is None:
        return heuristic_rollout(copy, cid, hands, trick, unplayed)
    return lookahead_rollout(copy, cid, hands, trick, unplayed, seat, depth)


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(3, 6),
    contract=st.sampled_from(list(Contract)),
    seed=st.integers(0, 10_000),
    moves=st.integers(0, 30),
    seat_offset=st.integers(0, 5),
)
def test_one_searched_decision_never_does_worse_than_the_plan_on_its_world(
    players: int, contract: Contract, seed: int, moves: int, seat_offset: int
) -> None:
    """Depth 0 is the plan's rollout; at depth 1 the searching seat's next real choice is
    the best of the plan rollouts of its moves, the plan's own among them, so the seat never
    ends worse than the plan would have left it on the same world; every rollout finishes
    the deal and leaves the caller's deal untouched."""
    deal = _position(players, contract, seed, moves)
    if deal is None:
        return
    seat = (deal.turn + seat_offset) % players
    before = deal.history
    plan = _rollout(deal, seat, None)
    assert _rollout(deal, seat, 0) == plan
    searched = _rollout(deal, seat, 1)
    deeper = _rollout(deal, seat, 3)
    assert deal.history == before
    assert len(searched) == len(deeper) == players
    assert searched[seat] <= plan[seat]


def test_the_search_changes_the_own_penalty_somewhere() -> None:
    """Not a no-op: over a few positions the searched continuation finds a better move than
    the plan for the own seat at least once."""
    better = 0
    for seed in range(40):
        deal = _position(4, Contract.NO_HEARTS, seed, 4)
        assert deal is not None
        seat = deal.turn
        better += _rollout(deal, seat, 1)[seat] < _rollout(deal, seat, None)[seat]
    assert better > 0


def test_a_lookahead_bot_is_legal_and_deterministic_for_a_seed() -> None:
    deal = _position(5, Contract.NO_JACKS, 3, 7)
    assert deal is not None
    view = deal.view_for(deal.turn)
    first = make_bot("expert", seed=9, samples=6, lookahead=1).choose(view)
    second = make_bot("expert", seed=9, samples=6, lookahead=1).choose(view)
    assert first == second
    assert first in view.legal_moves


def test_lookahead_must_not_be_negative() -> None:
    with pytest.raises(ValueError, match="lookahead"):
        StrongBot(1, samples=2, lookahead=-1)


def test_the_levels_differ_in_how_far_their_rollouts_search() -> None:
    """Both search levels read the table; the expert searches two own decisions per rollout,
    the strong bot one (docs/bots.md, "The levels since December 2026")."""
    strong, expert = make_bot("strong", seed=1), make_bot("expert", seed=1)
    assert (strong.reading, strong.lookahead) == (True, 1)
    assert (expert.reading, expert.lookahead) == (True, 2)
    assert strong.time_limit == expert.time_limit == 0.2
