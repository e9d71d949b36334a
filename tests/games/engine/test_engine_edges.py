"""Edges found while holding the engine against the reference and the rules text."""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
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


@pytest.mark.parametrize("seed", range(600))
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
    assert _state(fast) == _state(generic)


def _state(deal: Deal) -> dict[str, object]:
    """Every slot of a deal; the scratch of the trick in progress only while there is one."""
    state = {}
    for name in Deal.__slots__:
        value = getattr(deal, name)
        state[name] = list(value) if isinstance(value, list) else value
    if not deal._trick:  # left over from the last finished trick, never read again
        del state["_best"], state["_best_seat"]
    return state


def _corrupt(indices: list[int], hands: list[list[int]], rng: random.Random) -> list[int]:
    """The moves of a real deal, left alone or broken the ways bad records are.

    ``hands[k]`` are the cards the mover of move ``k`` holds then, for the subtle case: a card of
    one's own hand that breaks a rule (not following suit, a Jack while a row can be
    extended, a card that fits no row).
    """
    out = list(indices)
    kind = rng.randrange(10)
    if kind >= 8 and out:
        k = rng.randrange(len(out))
        out[k] = rng.choice(hands[k])
    elif kind == 1 and out:  # a move replaced by any move index, a pass included
        out[rng.randrange(len(out))] = rng.randrange(37)
    elif kind == 2 and len(out) > 1:  # two moves swapped
        i, j = rng.randrange(len(out)), rng.randrange(len(out))
        out[i], out[j] = out[j], out[i]
    elif kind == 3 and out:  # cut short
        del out[rng.randrange(len(out)) :]
    elif kind == 4:  # moves after the end
        out.extend(rng.randrange(37) for _ in range(rng.randint(1, 3)))
    elif kind == 5 and out:  # a card played twice
        out.insert(rng.randrange(len(out)), out[rng.randrange(len(out))])
    elif kind == 6 and out:  # a move left out
        del out[rng.randrange(len(out))]
    elif kind == 7 and out:  # out of range
        out[rng.randrange(len(out))] = rng.choice([-1, 37, 99])
    return out


@pytest.mark.parametrize("seed", range(1000))
def test_play_indices_equals_the_move_by_move_loop_on_good_and_broken_moves(seed: int) -> None:
    """Each contract family replays records with its own fast path; ``play_index`` one move
    at a time is the definition: the same error at the same move, and the same state."""
    rng = random.Random(seed)
    rules = HouseRules(doubling=rng.random() < 0.5, layout=rng.choice(["extend_first", "free"]))
    deal = random_deal(rng.randint(3, 6), rng.choice(CONTRACT_ORDER), rng, rules=rules)
    played = deal.clone()
    played.play_out_randomly(rng.random)
    moves = [move.index for move in played.moves]
    held, replay = [], deal.clone()
    for index in moves:
        held.append([c.index for c in replay.hand(replay.turn)] or [index])
        replay.play_index(index)
    prefix = rng.choice([0, 0, 0, rng.randint(0, len(moves))])
    deal.play_indices(moves[:prefix])
    indices = _corrupt(moves[prefix:], held[prefix:], rng)
    fast, generic = deal.clone(), deal.clone()
    assert _outcome(fast, fast.play_indices, indices) == _outcome(
        generic, lambda moves: [generic.play_index(i) for i in moves], indices
    )
    assert _state(fast) == _state(generic)


def _outcome(deal: Deal, play: Callable[[list[object]], object], indices: list[object]) -> tuple:
    """What playing ``indices`` did: no error, or the error's type and message, and where."""
    try:
        play(indices)
    except (IllegalMove, TypeError, ValueError) as exc:
        return type(exc).__name__, getattr(exc, "message", None), deal.move_count
    return "ok", None, deal.move_count


@pytest.mark.parametrize("contract", CONTRACT_ORDER)
@pytest.mark.parametrize("odd", [3.0, True, "7C", None, -1, 37])
def test_play_indices_takes_odd_values_like_play_index_does(
    contract: Contract, odd: object
) -> None:
    """Only whole numbers 0-36 reach the fast loops; anything else is played move by move."""
    deal = random_deal(4, contract, random.Random(7))
    indices = [deal.legal_moves()[0].index, odd]
    fast, generic = deal.clone(), deal.clone()
    assert _outcome(fast, fast.play_indices, indices) == _outcome(
        generic, lambda moves: [generic.play_index(i) for i in moves], indices
    )
    assert _state(fast) == _state(generic)


@pytest.mark.parametrize(("good", "bad"), [(True, 1), (False, 0), (True, 1.0), (False, 0.0)])
def test_a_number_is_not_taken_for_a_boolean_rule_after_the_boolean_was_seen(
    good: bool, bad: object
) -> None:
    """Parsed house rules are remembered by their items, and ``1 == True`` in Python."""
    ok = json.loads(score_line(json.dumps({**RECORD, "rules": {"doubling": good}})))
    refused = json.loads(score_line(json.dumps({**RECORD, "rules": {"doubling": bad}})))
    assert "penalties" in ok
    assert refused == {
        "error": {"move": None, "message": "house rule 'doubling' must be true or false"}
    }


@pytest.mark.parametrize(
    "text",
    [
        " {}",
        "{} ",
        "{}\r",
        "{}x",
        "{} {}",
        "1",
        "nan",
        "NaN",
        '"a"',
        '{"players": 4',
        '{"a": "\\ud800"}',
        json.dumps(RECORD),
        "\t" + json.dumps(RECORD) + "  ",
        json.dumps(RECORD)[:-1],
    ],
)
def test_a_text_line_scores_as_its_utf8_bytes_do(text: str) -> None:
    """Text lines take a shortcut past ``json.loads``; byte lines never do."""
    assert score_line(text) == score_line(text.encode())


def test_brackets_nested_too_deeply_are_one_error_line_not_a_crash() -> None:
    for line in ("[" * 100_000, b"[" * 100_000, '{"a": ' * 50_000):
        assert json.loads(score_line(line)) == {
            "error": {"move": None, "message": "bad JSON: brackets nested too deeply"}
        }
    assert "penalties" in json.loads(score_line(json.dumps(RECORD)))
