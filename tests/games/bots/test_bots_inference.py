"""The strong and expert bots weigh sampled worlds by how the others played in them."""

from __future__ import annotations

import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.bots import ExpertBot, StrongBot, make_bot
from games.bots.base import CONTRACT_IDS
from games.bots.heuristic import heuristic_index
from games.bots.sampling import initial_masks, knowledge_from_view, sample_from
from games.bots.strong import prefer_plan, replay_likelihood
from games.engine import Contract, Deal, HouseRules
from games.engine.partie import random_deal

CONTRACTS = list(Contract)


def _heuristic_deal(players: int, contract: Contract, seed: int, fraction: float) -> Deal:
    """A deal stopped part-way, every move so far the heuristic plan's own."""
    deal = random_deal(players, contract, random.Random(seed))
    full = deal.clone()
    moves = []
    while not full.over:
        moves.append(heuristic_index(full.view_for(full.turn)))
        full.play_index(moves[-1])
    for index in moves[: int(fraction * (len(moves) - 1))]:
        deal.play_index(index)
    return deal


def _history(deal: Deal) -> list[tuple[int, int]]:
    return [(who, move.index) for who, move in deal.history]


def _replayed(deal: Deal, hands: list[int]) -> Deal:
    view = deal.view_for(deal.turn)
    knowledge = knowledge_from_view(view)
    return Deal.from_masks(
        deal.players, deal.contract, deal.dealer, initial_masks(knowledge, hands), deal.rules
    )


@settings(max_examples=40, deadline=None)
@given(
    players=st.integers(3, 6),
    contract=st.sampled_from(CONTRACTS),
    seed=st.integers(0, 10_000),
    fraction=st.floats(0.0, 1.0),
    epsilon=st.floats(0.0, 1.0),
)
def test_weights_are_finite_non_negative_and_replay_the_history(
    players: int, contract: Contract, seed: int, fraction: float, epsilon: float
) -> None:
    deal = _heuristic_deal(players, contract, seed, fraction)
    view = deal.view_for(deal.turn)
    knowledge = knowledge_from_view(view)
    rng = random.Random(seed)
    for _ in range(3):
        world = _replayed(deal, sample_from(knowledge, rng))
        weight = replay_likelihood(
            world, _history(deal), view.seat, CONTRACT_IDS[contract], epsilon
        )
        assert math.isfinite(weight) and 0.0 <= weight <= 1.0
        assert world.moves == deal.moves


@settings(max_examples=30, deadline=None)
@given(
    players=st.integers(3, 6),
    contract=st.sampled_from(CONTRACTS),
    seed=st.integers(0, 10_000),
    fraction=st.floats(0.1, 1.0),
)
def test_the_true_world_of_heuristic_players_keeps_full_weight(
    players: int, contract: Contract, seed: int, fraction: float
) -> None:
    """Where everyone played the plan, the real hands explain every play (weight 1).

    (The plan's certain-slam rule is not replayed; it only fires in a slam position.)
    """
    deal = _heuristic_deal(players, contract, seed, fraction)
    truth = _replayed(deal, list(deal.hand_masks))
    weight = replay_likelihood(truth, _history(deal), deal.turn, CONTRACT_IDS[contract], 0.0)
    slams = {Contract.NO_TRICKS, Contract.NO_HEARTS, Contract.NO_JACKS}
    assert weight == 1.0 or contract in slams


def test_a_world_in_which_an_observed_play_breaks_the_plan_loses_weight() -> None:
    """Swap a played card's holder's remaining cards so the plan would have chosen otherwise:
    each differing play multiplies the weight by epsilon, and epsilon 0 rules the world out."""
    found = 0
    for seed in range(200):
        deal = _heuristic_deal(4, Contract.NO_HEARTS, seed, 0.5)
        view = deal.view_for(deal.turn)
        knowledge = knowledge_from_view(view)
        rng = random.Random(seed)
        cid = CONTRACT_IDS[Contract.NO_HEARTS]
        for _ in range(20):
            hands = sample_from(knowledge, rng)
            low = replay_likelihood(_replayed(deal, hands), _history(deal), view.seat, cid, 0.0)
            if low == 0.0:
                soft = replay_likelihood(
                    _replayed(deal, hands), _history(deal), view.seat, cid, 0.5
                )
                assert 0.0 < soft <= 0.5
                assert math.log(soft, 0.5) == round(math.log(soft, 0.5))
                found += 1
                break
    assert found > 50


def test_epsilon_one_weighs_every_world_alike() -> None:
    deal = _heuristic_deal(5, Contract.NO_JACKS, 3, 0.6)
    view = deal.view_for(deal.turn)
    knowledge = knowledge_from_view(view)
    rng = random.Random(1)
    for _ in range(10):
        world = _replayed(deal, sample_from(knowledge, rng))
        cid = CONTRACT_IDS[Contract.NO_JACKS]
        assert replay_likelihood(world, _history(deal), view.seat, cid, 1.0) == 1.0


def test_zero_weight_worlds_do_not_decide() -> None:
    """A move that only looks good in worlds ruled out by the others' play is not chosen."""
    outcomes = {1: [0, 0, 9, 9], 2: [5, 5, 1, 1]}
    assert prefer_plan(outcomes, 2, 0.0) == 2
    assert prefer_plan(outcomes, 2, 0.0, [1.0, 1.0, 0.0, 0.0]) == 1
    assert prefer_plan(outcomes, 1, 0.0, [0.0, 0.0, 1.0, 1.0]) == 2
    # All weights zero: the worlds count alike again.
    assert prefer_plan(outcomes, 2, 0.0, [0.0] * 4) == prefer_plan(outcomes, 2, 0.0)


def test_unit_weights_match_the_unweighted_rule() -> None:
    rng = random.Random(4)
    for _ in range(200):
        n = rng.randint(1, 12)
        outcomes = {m: [rng.randint(0, 8) for _ in range(n)] for m in range(rng.randint(2, 4))}
        planned = rng.randrange(len(outcomes))
        assert prefer_plan(outcomes, planned, 1.0) == prefer_plan(outcomes, planned, 1.0, [1.0] * n)


def test_expert_is_deterministic_for_a_seed_and_screens_worlds() -> None:
    deal = _heuristic_deal(4, Contract.NO_KING_OF_HEARTS, 11, 0.5)
    while len(deal.legal_moves()) < 2:
        deal.play_index(heuristic_index(deal.view_for(deal.turn)))
    view = deal.view_for(deal.turn)
    options = {"samples": 12, "inference": 0.1, "screen": 0.05}
    first = make_bot("expert", seed=3, **options)
    second = make_bot("expert", seed=3, **options)
    assert isinstance(first, ExpertBot)
    assert first.choose(view) == second.choose(view)
    assert first.last_weights == second.last_weights
    assert first.last_samples == 12
    assert all(w >= first.screen for w in first.last_weights) or len(first.last_weights) == 12


def test_inference_must_be_a_probability() -> None:
    for bad in (-0.1, 1.5):
        try:
            StrongBot(1, samples=2, inference=bad)
        except ValueError:
            continue
        raise AssertionError(f"inference={bad} was accepted")


def test_layout_rules_are_replayed_with_weights() -> None:
    deal = random_deal(4, Contract.ROSBIRATSCHKA, random.Random(8), rules=HouseRules(layout="free"))
    for _ in range(12):
        deal.play_index(heuristic_index(deal.view_for(deal.turn)))
    bot = make_bot("expert", seed=1, samples=5, inference=0.1, screen=0.05)
    view = deal.view_for(deal.turn)
    assert bot.choose(view) in view.legal_moves
    assert all(0.0 <= w <= 1.0 for w in bot.last_weights)
