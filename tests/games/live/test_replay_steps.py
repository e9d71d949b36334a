"""The replay page's steps, computed by the engine from a Partie record (no database)."""

from __future__ import annotations

import json
import random

import pytest

from games.engine import (
    CONTRACT_ORDER,
    HouseRules,
    IllegalMove,
    Partie,
    PartieRecord,
    places,
    score_record,
)
from games.engine.layout_facts import row_ranks
from games.live.replay import replay_steps


def random_partie(players: int, rules: HouseRules, seed: int) -> Partie:
    rng = random.Random(seed)
    partie = Partie(players, rng.randrange(players), rules)
    for _ in CONTRACT_ORDER:
        deal = partie.deal_next(rng)
        while not deal.over:
            deal.play(rng.choice(deal.legal_moves()))
    return partie


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize(
    "rules", [HouseRules(), HouseRules(doubling=False, layout="free")], ids=["default", "house"]
)
def test_steps_follow_the_engine_move_by_move(players, rules):
    partie = random_partie(players, rules, seed=players * 13 + rules.doubling)
    record = partie.to_record()
    replay = replay_steps(record)
    assert json.loads(json.dumps(replay)) == replay, "JSON-ready"
    assert len(replay["deals"]) == 6
    for deal, deal_record, shown in zip(partie.deals, record.deals, replay["deals"], strict=True):
        steps = shown["steps"]
        assert len(steps) == len(deal_record.moves) + 1
        assert shown["contract"] == deal.contract.value and shown["dealer"] == deal.dealer
        # Step 0 is the deal as dealt, every hand face up.
        first = steps[0]
        assert first["seat"] is None and first["move"] is None
        assert first["hands"] == [[c.code for c in deal.initial_hand(s)] for s in range(players)]
        assert first["turn"] == (deal.dealer + 1) % players
        # Who moved, and what, is the engine's history.
        assert [[s["seat"], s["move"]] for s in steps[1:]] == [
            [seat, move.code] for seat, move in deal.history
        ]
        # The last step: the engine's end of the deal.
        last = steps[-1]
        view = deal.public_view().to_dict()
        for field in ("tricks", "tricks_won", "hundred_total", "rows", "scores_so_far"):
            assert last[field] == view[field], field
        assert last["turn"] is None
        assert last["penalties"] == shown["penalties"] == list(deal.penalties)
        assert all(s["penalties"] is None for s in steps[:-1])
        assert last["hands"] == [[c.code for c in deal.hand(s)] for s in range(players)]
        if deal.tricks:
            done = deal.tricks[-1]
            assert last["last_trick"]["winner"] == done.winner
            assert [c for _, c in last["last_trick"]["cards"]] == [c.code for c in done.cards]
            assert last["last_trick"]["cards"][0][0] == done.leader
        expected_ranks = row_ranks(players) if deal.contract.value == "rosbiratschka" else None
        assert shown["row_ranks"] == expected_ranks
    assert replay["score_sheet"] == [list(p) for p in partie.deal_penalties()]
    assert replay["totals"] == list(partie.totals)
    assert replay["places"] == places(partie.totals)


@pytest.mark.parametrize("players", [3, 6])
def test_final_penalties_equal_the_engines_scoring_of_each_deal_record(players):
    """Each deal's last step scores as the record scorer (RULES.md section 6) scores the deal."""
    rules = HouseRules(doubling=False)
    record = random_partie(players, rules, seed=99 + players).to_record()
    replay = replay_steps(record.to_dict())  # a plain record dict works as well
    for deal_record, shown in zip(record.deals, replay["deals"], strict=True):
        with_rules = {**deal_record.to_dict(), "rules": rules.to_dict()}
        assert tuple(shown["steps"][-1]["penalties"]) == score_record(with_rules)


def test_a_trick_step_shows_the_running_trick_and_the_last_one_taken():
    replay = replay_steps(random_partie(4, HouseRules(), seed=5).to_record())
    steps = replay["deals"][0]["steps"]
    assert steps[1]["current_trick"] == [[steps[1]["seat"], steps[1]["move"]]]
    assert steps[1]["last_trick"] is None and steps[1]["tricks"] == []
    # The fourth card completes the first trick: it moves to `tricks`, the trick area empties.
    assert steps[4]["current_trick"] == [] and len(steps[4]["tricks"]) == 1
    trick = steps[4]["tricks"][0]
    assert steps[4]["last_trick"]["cards"] == [[s["seat"], s["move"]] for s in steps[1:5]]
    assert steps[4]["last_trick"]["winner"] == trick["winner"]
    assert steps[5]["seat"] == trick["winner"], "the winner leads the next trick"
    assert sum(steps[4]["tricks_won"]) == 1


def test_an_illegal_record_is_refused():
    record = random_partie(4, HouseRules(), seed=8).to_record().to_dict()
    moves = record["deals"][0]["moves"]
    moves[0], moves[1] = moves[1], moves[0]  # the second seat's card played by the first
    with pytest.raises(IllegalMove):
        replay_steps(PartieRecord.from_dict(record))
