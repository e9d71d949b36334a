"""Score sheets of physical tables: is a deal's row of penalties one the rules can produce?

Pure functions, no Django. A physical table enters six rows (one per deal, in the fixed contract
order of RULES.md section 2) of one penalty per seat. Each row is checked against what section 4
allows for its contract, the number of players and the ``doubling`` house rule:

* every contract hands out penalty *items* (tricks, Hearts, Jacks, the King of Hearts, the
  Hundred's calls, the layout game's loser), each to one player at a fixed cost. The items and
  costs come from the engine (``games.engine.penalties``), which scores its own deals from the
  same table, so this module holds no cost of its own. A row is valid when the items can be
  split among the players so that each player's penalty is the sum of their items' costs;
* in the doubling contracts (``no_tricks``, ``no_hearts``, ``no_jacks``) one player holding
  every item must be the slam (that player -8, all others 0), and with the doubling house rule
  a player without items doubles everyone's cost (all values even, at least one 0, sum twice
  the normal total), otherwise everybody took at least one item.

Problems come back as ``SheetProblem`` values (a code and its numbers), not sentences: the page
that shows them words them in its visitor's language (``tournaments.services``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from games.engine import CONTRACT_ORDER
from games.engine.penalties import DOUBLED, DOUBLING_CONTRACTS, deal_costs, penalty_items

CONTRACTS = tuple(c.value for c in CONTRACT_ORDER)
DOUBLING = frozenset(c.value for c in DOUBLING_CONTRACTS)
_costs = lru_cache(maxsize=64)(deal_costs)  # a handful of (contract, players): read once each

# Problem codes: what a caller has to word, with the ``params`` each one carries.
UNKNOWN_CONTRACT = "unknown_contract"  # (the contract itself is ``contract``)
WRONG_COUNT = "wrong_count"  # values, players
NOT_WHOLE = "not_whole"
ONE_PLAYER_EIGHT = "one_player_eight"
HUNDRED_CALLS_SPLIT = "hundred_calls_split"
IMPOSSIBLE_ROW = "impossible_row"  # total, doubled (0 without the doubling rule), slam
WRONG_DEAL_COUNT = "wrong_deal_count"  # expected, deals


@dataclass(frozen=True)
class SheetProblem:
    """Why a row or sheet cannot stand, as data: the wording is the caller's (and its language's).

    ``deal`` is the deal number 1..6 once the row is checked as part of a sheet.
    """

    code: str
    contract: str | None = None
    deal: int | None = None
    params: dict[str, int] = field(default_factory=dict, hash=False)


def item_costs(contract: str, players: int) -> tuple[int, ...]:
    """Cost of each trick, Heart or Jack of a doubling contract: the engine's ``penalty_items``."""
    if players not in (3, 4, 5, 6):
        raise ValueError(f"a Partie has 3 to 6 players, not {players}")
    if contract not in DOUBLING:
        raise ValueError(f"{contract} is not a trick contract")
    return penalty_items(contract, players)


@lru_cache(maxsize=4096)
def _splittable(costs: tuple[int, ...], targets: tuple[int, ...]) -> bool:
    """Can ``costs`` (sorted, largest first) be split into groups summing to ``targets``?"""
    if not costs:
        return all(t == 0 for t in targets)
    first, rest = costs[0], costs[1:]
    tried: set[int] = set()
    for index, target in enumerate(targets):
        if target >= first and target not in tried:
            tried.add(target)
            remaining = list(targets)
            remaining[index] -= first
            if _splittable(rest, tuple(sorted(remaining, reverse=True))):
                return True
    return False


def _item_groups_possible(
    costs: tuple[int, ...], values: Sequence[int], *, all_nonempty: bool, slam: bool = True
) -> bool:
    """Values as sums of disjoint item groups; ``all_nonempty`` asks every player for an item.

    Where the contract has a ``slam``, one player with every item scores it instead.
    """
    if any(v < 0 for v in values) or sum(values) != sum(costs):
        return False
    if all_nonempty and any(v == 0 for v in values):
        return False
    if all_nonempty and len(values) > len(costs):
        return False
    if slam and sum(1 for v in values if v > 0) == 1:
        return False  # one player with every item is a slam, scored -8
    return _splittable(tuple(sorted(costs, reverse=True)), tuple(sorted(values, reverse=True)))


def deal_row_errors(
    contract: str, values: Sequence[int], *, players: int, doubling: bool = True
) -> list[SheetProblem]:
    """Why this row of penalties cannot be the result of one deal (empty list: it can)."""
    if contract not in CONTRACTS:
        return [SheetProblem(UNKNOWN_CONTRACT, contract)]
    if len(values) != players:
        return [
            SheetProblem(WRONG_COUNT, contract, params={"values": len(values), "players": players})
        ]
    if any(not isinstance(v, int) or isinstance(v, bool) for v in values):
        return [SheetProblem(NOT_WHOLE, contract)]
    values = list(values)
    costs = _costs(contract, players)
    if costs.slam is None:  # each item to one player, never doubled: the King, Hundred, layout
        if _item_groups_possible(costs.items, values, all_nonempty=False, slam=False):
            return []
        code = HUNDRED_CALLS_SPLIT if contract == "hundred" else ONE_PLAYER_EIGHT
        return [SheetProblem(code, contract)]
    # Trick contracts 1 to 3.
    if sorted(values) == [costs.slam] + [0] * (players - 1):
        return []
    if _item_groups_possible(costs.items, values, all_nonempty=doubling):
        return []
    if doubling and 0 in values and all(v % DOUBLED == 0 for v in values):
        plain = [v // DOUBLED for v in values]
        if _item_groups_possible(costs.items, plain, all_nonempty=False):
            return []
    totals = {
        "total": costs.total,
        "doubled": costs.doubled_total if doubling else 0,
        "slam": costs.slam,
    }
    return [SheetProblem(IMPOSSIBLE_ROW, contract, params=totals)]


def sheet_errors(
    penalties: Sequence[Sequence[int]], *, players: int, doubling: bool = True
) -> list[SheetProblem]:
    """Every problem of a whole score sheet: six rows (deals 1..6) of ``players`` values."""
    if len(penalties) != len(CONTRACTS):
        counts = {"expected": len(CONTRACTS), "deals": len(penalties)}
        return [SheetProblem(WRONG_DEAL_COUNT, params=counts)]
    problems: list[SheetProblem] = []
    for number, (contract, row) in enumerate(zip(CONTRACTS, penalties, strict=True), start=1):
        for problem in deal_row_errors(contract, row, players=players, doubling=doubling):
            problems.append(replace(problem, deal=number))
    return problems
