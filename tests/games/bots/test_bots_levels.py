"""Every level plays legal moves everywhere, and a seed fixes its decisions."""

from __future__ import annotations

import random

import pytest

from games.bots import BOT_LEVELS, Bot, StrongBot, make_bot
from games.bots.simulate import play_deal, play_partie
from games.engine import Contract, HouseRules
from games.engine.partie import random_deal

LEVEL_OPTIONS = {"strong": {"samples": 3}, "expert": {"samples": 3}}


def _bot(level: str, seed: int) -> Bot:
    return make_bot(level, seed=seed, **LEVEL_OPTIONS.get(level, {}))


@pytest.mark.parametrize("level", list(BOT_LEVELS))
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_level_plays_whole_deals_legally(level: str, players: int) -> None:
    """All seats of one level finish a deal of every contract; ``play`` rejects any bad move."""
    rng = random.Random(players)
    for layout in ("extend_first", "free"):
        for contract in Contract:
            if layout == "free" and contract is not Contract.ROSBIRATSCHKA:
                continue
            deal = random_deal(players, contract, rng, rules=HouseRules(layout=layout))
            bots = [_bot(level, seed) for seed in range(players)]
            while not deal.over:
                view = deal.view_for(deal.turn)
                move = bots[deal.turn].choose(view)
                assert move in view.legal_moves
                deal.play(move)
            assert deal.penalties is not None


@pytest.mark.parametrize("level", list(BOT_LEVELS))
def test_the_same_seed_gives_the_same_decisions(level: str) -> None:
    def moves_of_a_partie(seed: int) -> list[tuple[int, ...]]:
        bots = [_bot(level, seed * 10 + seat) for seat in range(4)]
        return play_partie(bots, random.Random(99), first_dealer=1)

    def moves_of_a_deal(seed: int) -> list[str]:
        deal = random_deal(4, Contract.NO_HEARTS, random.Random(5))
        play_deal(deal, [_bot(level, seed) for _ in range(4)])
        return [m.code for m in deal.moves]

    assert moves_of_a_deal(1) == moves_of_a_deal(1)
    assert moves_of_a_partie(2) == moves_of_a_partie(2)


def test_the_random_bot_depends_on_its_seed() -> None:
    def moves(seed: int) -> list[str]:
        deal = random_deal(4, Contract.NO_TRICKS, random.Random(5))
        play_deal(deal, [make_bot("random", seed=seed + s) for s in range(4)])
        return [m.code for m in deal.moves]

    assert len({tuple(moves(seed)) for seed in range(5)}) > 1


def test_registry_names_every_level_and_rejects_others() -> None:
    assert list(BOT_LEVELS) == ["random", "beginner", "heuristic", "strong", "expert"]
    assert all(isinstance(label, str) and label for label in BOT_LEVELS.values())
    for level in BOT_LEVELS:
        bot = _bot(level, 1)
        assert isinstance(bot, Bot)
        assert bot.level == level
    with pytest.raises(ValueError, match="unknown bot level"):
        make_bot("grandmaster")
    with pytest.raises(ValueError, match="rollout"):
        make_bot("strong", rollout="minimax")


def test_a_bot_refuses_a_view_without_a_move() -> None:
    deal = random_deal(4, Contract.NO_TRICKS, random.Random(1))
    not_on_turn = (deal.turn + 1) % 4
    with pytest.raises(ValueError, match="not on turn"):
        make_bot("heuristic").choose(deal.view_for(not_on_turn))


def test_strong_bot_answers_a_forced_move_without_sampling() -> None:
    deal = random_deal(4, Contract.NO_TRICKS, random.Random(2))
    bot = StrongBot(1, samples=5)
    while not deal.over:
        view = deal.view_for(deal.turn)
        move = bot.choose(view)
        if len(view.legal_moves) == 1:
            assert bot.last_samples == 0
        else:
            assert bot.last_samples == 5
        deal.play(move)


def test_strong_bot_scores_every_legal_move_within_the_deal_range() -> None:
    deal = random_deal(4, Contract.NO_JACKS, random.Random(8))
    view = deal.view_for(deal.turn)
    scores = StrongBot(4, samples=6).evaluate(view)
    assert sorted(scores) == sorted(m.index for m in view.legal_moves)
    assert all(-8 <= s <= 16 for s in scores.values())


def test_a_time_budget_stops_the_strong_bot() -> None:
    deal = random_deal(4, Contract.NO_HEARTS, random.Random(8))
    view = deal.view_for(deal.turn)
    bot = StrongBot(4, time_limit=0.0)
    bot.choose(view)
    assert bot.last_samples == 1
