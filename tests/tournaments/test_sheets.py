"""Physical score sheets: which rows of penalties one deal can produce (RULES.md section 4)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from games.engine import CONTRACT_ORDER, HouseRules, play_out_randomly, random_deal
from tournaments.sheets import (
    HUNDRED_CALLS_SPLIT,
    IMPOSSIBLE_ROW,
    WRONG_DEAL_COUNT,
    SheetProblem,
    deal_row_errors,
    item_costs,
    sheet_errors,
)

REPO_ROOT = Path(__file__).resolve().parents[2]
# The project's own worked examples, and the rule keepers' when ../shared sits beside the repo.
EXAMPLE_FILES = [REPO_ROOT / "tests" / "records" / "deals.jsonl"] + [
    path for path in [REPO_ROOT.parent / "shared" / "examples" / "deals.jsonl"] if path.exists()
]


def valid(contract: str, values: list[int], players: int, doubling: bool = True) -> bool:
    return deal_row_errors(contract, values, players=players, doubling=doubling) == []


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("doubling", [True, False])
def test_every_deal_the_engine_plays_passes_the_checker(players, doubling):
    rng = random.Random(f"sheets/{players}/{doubling}")
    rules = HouseRules(doubling=doubling)
    for contract in CONTRACT_ORDER:
        for _ in range(60):
            deal = play_out_randomly(random_deal(players, contract, rng, rules=rules), rng)
            assert valid(contract.value, list(deal.penalties), players, doubling), (
                contract.value,
                deal.penalties,
            )


def test_the_worked_examples_pass_the_checker():
    checked = 0
    lines = [line for path in EXAMPLE_FILES for line in path.read_text().splitlines()]
    for line in lines:
        example = json.loads(line)
        expected = example.get("expect", {}).get("penalties")
        if expected is None:
            continue
        record = example["record"]
        doubling = (record.get("rules") or {}).get("doubling", True)
        assert valid(record["contract"], expected, record["players"], doubling), example
        checked += 1
    assert checked > 20


def test_item_costs_hold_the_documented_totals():
    assert [sum(item_costs("no_tricks", n)) for n in (3, 4, 5, 6)] == [8, 8, 8, 8]
    assert [sum(item_costs("no_hearts", n)) for n in (3, 4, 5, 6)] == [8, 8, 9, 9]
    assert sum(item_costs("no_jacks", 4)) == 8


@pytest.mark.parametrize(
    ("contract", "values", "players", "doubling"),
    [
        ("no_tricks", [2, 2, 2, 2], 4, True),  # everyone took tricks: plain 8
        ("no_tricks", [6, 4, 6, 0], 4, True),  # a player without a trick doubles: 16
        ("no_tricks", [5, 3, 0, 0], 4, False),  # without the doubling rule zeros change nothing
        ("no_tricks", [-8, 0, 0, 0], 4, True),  # slam
        ("no_tricks", [2, 2, 1, 1, 1, 1], 6, True),  # six tricks, first and last cost 2
        ("no_hearts", [3, 3, 3, 0, 0], 5, False),  # nine Hearts, no doubling rule
        ("no_hearts", [6, 6, 6, 0, 0], 5, True),  # 18 doubled with five players
        ("no_hearts", [2, 2, 4], 3, True),  # Ace and King of Hearts cost 2 with three
        ("no_jacks", [4, 4, 0, 0], 4, False),
        ("no_jacks", [8, 8, 0, 0], 4, True),
        ("no_king_of_hearts", [0, 8, 0], 3, True),
        ("hundred", [3, 5, 0, 0], 4, True),
        ("hundred", [1, 2, 5, 0, 0, 0], 6, True),
        ("hundred", [8, 0, 0], 3, True),
        ("rosbiratschka", [0, 0, 0, 8, 0], 5, True),
    ],
)
def test_possible_rows_are_accepted(contract, values, players, doubling):
    assert valid(contract, values, players, doubling)


@pytest.mark.parametrize(
    ("contract", "values", "players", "doubling"),
    [
        ("no_tricks", [2, 2, 2, 1], 4, True),  # sums to 7
        ("no_tricks", [4, 4, 0, 0], 4, True),  # a zero doubles: must be 16
        ("no_tricks", [8, 8, 0, 0], 4, False),  # doubled without the house rule
        ("no_tricks", [16, 0, 0, 0], 4, True),  # all tricks to one player is a slam, not 16
        ("no_tricks", [8, 0, 0, 0], 4, False),  # likewise without the doubling rule
        ("no_tricks", [3, 1, 1, 1, 1, 1], 6, True),  # 3 needs two tricks: someone took none
        ("no_tricks", [-8, 8, 0, 0], 4, True),
        ("no_hearts", [2, 2, 2, 2, 0], 5, True),  # five players: nine Hearts
        ("no_hearts", [3, 3, 3], 3, True),  # three players: 8 in Hearts
        ("no_jacks", [3, 3, 2, 0], 4, False),  # Jacks cost 2 each
        ("no_jacks", [4, 4, 0, 0], 4, True),  # with doubling two empty hands make it 8 x 2
        ("no_king_of_hearts", [4, 4, 0, 0], 4, True),
        ("no_king_of_hearts", [16, 0, 0, 0], 4, True),  # never doubled
        ("hundred", [1, 1, 6, 0], 4, True),  # sums to 8 but the 1-call twice
        ("hundred", [4, 4, 0, 0], 4, True),
        ("hundred", [-8, 0, 0, 0], 4, True),
        ("rosbiratschka", [8, 8, 0, 0], 4, True),
        ("no_tricks", [2, 2, 2], 4, True),  # a value missing
    ],
)
def test_impossible_rows_are_refused(contract, values, players, doubling):
    assert not valid(contract, values, players, doubling)


def test_a_sheet_names_the_deal_that_is_wrong():
    good = [[2, 2, 2, 2], [2, 2, 2, 2], [2, 2, 2, 2], [8, 0, 0, 0], [1, 2, 5, 0], [0, 0, 8, 0]]
    assert sheet_errors(good, players=4) == []
    bad = [row[:] for row in good]
    bad[4] = [1, 1, 6, 0]
    assert sheet_errors(bad, players=4) == [SheetProblem(HUNDRED_CALLS_SPLIT, "hundred", deal=5)]
    assert sheet_errors(good[:5], players=4) == [
        SheetProblem(WRONG_DEAL_COUNT, params={"expected": 6, "deals": 5})
    ]


def test_an_impossible_trick_row_carries_the_totals_it_could_have():
    assert deal_row_errors("no_tricks", [2, 2, 2, 1], players=4) == [
        SheetProblem(IMPOSSIBLE_ROW, "no_tricks", params={"total": 8, "doubled": 16, "slam": -8})
    ]
    assert deal_row_errors("no_hearts", [3, 3, 3, 1, 0], players=5, doubling=False) == [
        SheetProblem(IMPOSSIBLE_ROW, "no_hearts", params={"total": 9, "doubled": 0, "slam": -8})
    ]
