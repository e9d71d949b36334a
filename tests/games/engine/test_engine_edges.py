"""Edges found while holding the engine against the reference and the rules text."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from games.engine import (
    CONTRACT_ORDER,
    Contract,
    Deal,
    DealRecord,
    HouseRules,
    IllegalMove,
    MalformedRecord,
    random_deal,
    score_line,
)

REPO_ROOT = Path(__file__).resolve().parents[3]

RECORD = {
    "players": 3,
    "contract": "no_tricks",
    "dealer": 2,
    "hands": [
        ["AC", "KC", "AH", "QH", "TS", "QS", "9D", "QD"],
        ["9C", "JC", "9H", "KH", "AS", "JS", "TD", "KD"],
        ["TC", "QC", "TH", "JH", "9S", "KS", "AD", "JD"],
    ],
    "moves": ["AC", "9C", "TC", "AH", "9H", "TH", "QH", "KH", "JH", "AS", "9S", "TS"]
    + ["JS", "KS", "QS", "AD", "9D", "TD", "JD", "QD", "KD", "JC", "QC", "KC"],
}


def test_a_null_rules_object_is_refused_like_the_reference_does() -> None:
    sys.path.insert(0, str(REPO_ROOT / "bench"))
    import reference_engine

    record = {**RECORD, "rules": None}
    with pytest.raises(MalformedRecord, match="'rules' must be an object"):
        DealRecord.from_dict(record)
    ours = json.loads(score_line(json.dumps(record)))
    theirs = reference_engine.score_record(record)
    assert ours["error"]["move"] is None
    assert theirs["error"]["move"] is None


def test_a_missing_rules_object_takes_the_defaults_and_round_trips() -> None:
    parsed = DealRecord.from_dict(RECORD)
    assert parsed.rules.doubling is True
    assert parsed.to_dict() == RECORD
    assert parsed.penalties() == (3, 3, 2)


def test_an_earlier_illegal_move_is_reported_before_a_later_unknown_code() -> None:
    moves = list(RECORD["moves"])
    moves[1] = "KD"  # seat 0 led AC; seat 1 holds 9C and JC, so KD fails to follow suit
    moves[5] = "XX"
    out = json.loads(score_line(json.dumps({**RECORD, "moves": moves})))
    assert out["error"]["move"] == 1
    moves[1] = "9C"
    out = json.loads(score_line(json.dumps({**RECORD, "moves": moves})))
    assert out["error"]["move"] == 5
    assert "XX" in out["error"]["message"]


@pytest.mark.parametrize("bad", [None, 5, 3.5, ["AC"], object()])
def test_play_refuses_what_is_not_a_move_and_changes_nothing(bad: object) -> None:
    deal = DealRecord.from_dict({**RECORD, "moves": []}).new_deal()
    before = deal.view_for(0).to_dict()
    with pytest.raises(IllegalMove, match="is not a card"):
        deal.play(bad)  # type: ignore[arg-type]
    assert deal.view_for(0).to_dict() == before


@pytest.mark.parametrize("contract", list(Contract))
@pytest.mark.parametrize("index", [-1, -36, 37, 99])
def test_play_index_out_of_range_is_an_illegal_move(contract: Contract, index: int) -> None:
    deal = random_deal(4, contract, random.Random(3))
    before = deal.view_for(deal.turn).to_dict()
    with pytest.raises(IllegalMove):
        deal.play_index(index)
    assert deal.view_for(before["turn"]).to_dict() == before


def test_play_indices_stops_at_the_bad_move_and_keeps_the_ones_before() -> None:
    deal = DealRecord.from_dict({**RECORD, "moves": []}).new_deal()
    indices = [DealRecord.from_dict(RECORD).moves[i].index for i in range(4)]
    with pytest.raises(IllegalMove):
        deal.play_indices([*indices[:3], indices[0]])  # AC again: no longer held
    assert deal.move_count == 3


@pytest.mark.parametrize("seed", range(300))
def test_the_inlined_random_playout_equals_move_by_move_play(seed: int) -> None:
    """``Deal.play_out_randomly`` is inlined per contract; the generic loop is the definition."""
    rng = random.Random(seed)
    rules = HouseRules(doubling=rng.random() < 0.5, layout=rng.choice(["extend_first", "free"]))
    deal = random_deal(rng.randint(3, 6), rng.choice(CONTRACT_ORDER), rng, rules=rules)
    for _ in range(rng.randint(0, 6)):
        if deal.over:
            break
        deal.play(rng.choice(deal.legal_moves()))
    fast, generic = deal.clone(), deal.clone()
    fast.play_out_randomly(random.Random(seed + 1).random)
    Deal.play_out_randomly(generic, random.Random(seed + 1).random)
    assert fast.over and generic.over
    assert fast.history == generic.history
    assert fast.tricks == generic.tricks
    assert fast.penalties == generic.penalties
    assert fast.view_for(0).to_dict() == generic.view_for(0).to_dict()
    assert fast.turn == generic.turn
    assert fast.scores_so_far() == generic.scores_so_far()
