"""The score-sheet checker and the engine agree on every contract, player count and doubling rule.

Both read their costs from ``games.engine.penalties``; these tests hold the checker to the rows
the engine's deals actually produce, and to the totals RULES.md section 4 states.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator

import pytest

from games.engine import CONTRACT_ORDER, Contract, HouseRules, play_out_randomly, random_deal
from games.engine.penalties import SLAM, deal_costs, penalty_items, settle
from tournaments.sheets import deal_row_errors, item_costs

PLAYERS = (3, 4, 5, 6)
CASES = [
    pytest.param(contract, players, doubling, id=f"{contract.value}-{players}p-{doubling=}")
    for contract in CONTRACT_ORDER
    for players in PLAYERS
    for doubling in (True, False)
]
DOUBLING_CONTRACTS = (Contract.NO_TRICKS, Contract.NO_HEARTS, Contract.NO_JACKS)


def rules_sums(contract: Contract, players: int, doubling: bool) -> set[int]:
    """A deal's possible totals as RULES.md section 4 states them ("Points per deal at a glance")."""
    plain = 9 if contract is Contract.NO_HEARTS and players >= 5 else 8
    if contract not in DOUBLING_CONTRACTS:
        return {plain}
    return {plain, -8} | ({2 * plain} if doubling else set())


def accepted(contract: Contract, row: list[int] | tuple[int, ...], players: int, doubling: bool):
    return deal_row_errors(contract.value, list(row), players=players, doubling=doubling) == []


@pytest.mark.parametrize(("contract", "players", "doubling"), CASES)
def test_the_checker_accepts_every_row_of_random_engine_deals(
    contract: Contract, players: int, doubling: bool
) -> None:
    rng = random.Random(f"agreement/{contract.value}/{players}/{doubling}")
    rules = HouseRules(doubling=doubling)
    costs = deal_costs(contract, players)
    sums = rules_sums(contract, players, doubling)
    assert set(costs.totals(doubling)) == sums
    for _ in range(120):
        deal = play_out_randomly(random_deal(players, contract, rng, rules=rules), rng)
        row = deal.penalties
        assert row is not None
        assert accepted(contract, row, players, doubling), row
        assert sum(row) in sums, row


def _compositions(count: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every way to give ``count`` identical items to ``parts`` seats."""
    for bars in itertools.combinations(range(count + parts - 1), parts - 1):
        edges = (-1, *bars, count + parts - 1)
        yield tuple(edges[k + 1] - edges[k] - 1 for k in range(parts))


def engine_rows(contract: Contract, players: int, doubling: bool) -> set[tuple[int, ...]]:
    """Every row (sorted) the engine's scoring gives for some split of the items among the seats."""
    items = penalty_items(contract, players)
    costs = deal_costs(contract, players)
    groups = sorted(Counter(items).items())
    rows = set()
    for split in itertools.product(*(_compositions(m, players) for _, m in groups)):
        base = [
            sum(cost * given[s] for (cost, _), given in zip(groups, split, strict=True))
            for s in range(players)
        ]
        counts = [sum(given[s] for given in split) for s in range(players)]
        row = settle(base, counts, len(items), doubling) if costs.doubles else base
        rows.add(tuple(sorted(row)))
    return rows


def _sorted_rows(players: int, total: int, low: int, high: int) -> Iterator[tuple[int, ...]]:
    """Every non-decreasing row of ``players`` values from ``low`` to ``high`` summing to ``total``."""
    if players == 1:
        if low <= total <= high:
            yield (total,)
        return
    for first in range(low, high + 1):
        if first * players > total:
            break
        for rest in _sorted_rows(players - 1, total - first, first, high):
            yield (first, *rest)


@pytest.mark.parametrize(("contract", "players", "doubling"), CASES)
def test_the_checker_accepts_exactly_the_rows_the_engine_can_score(
    contract: Contract, players: int, doubling: bool
) -> None:
    """Among all rows with a total a deal can have, the checker takes the engine's, no more."""
    expected = engine_rows(contract, players, doubling)
    costs = deal_costs(contract, players)
    high = max(costs.totals(doubling))
    candidates = {
        row for total in costs.totals(doubling) for row in _sorted_rows(players, total, SLAM, high)
    }
    assert expected <= candidates
    taken = {row for row in candidates if accepted(contract, row, players, doubling)}
    assert taken == expected


@pytest.mark.parametrize("players", PLAYERS)
def test_the_sheets_item_costs_are_the_engines(players: int) -> None:
    for contract in DOUBLING_CONTRACTS:
        assert item_costs(contract.value, players) == penalty_items(contract, players)
        assert sum(penalty_items(contract, players)) == max(rules_sums(contract, players, False))
