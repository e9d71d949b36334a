"""Score sheets of physical tables: is a deal's row of penalties one the rules can produce?

Pure functions, no Django. A physical table enters six rows (one per deal, in the fixed contract
order of RULES.md section 2) of one penalty per seat. Each row is checked against what section 4
allows for its contract, the number of players and the ``doubling`` house rule:

* trick contracts (``no_tricks``, ``no_hearts``, ``no_jacks``) hand out *items* (tricks, Hearts,
  Jacks) with fixed costs. A row is valid when the items can be split among the players so that
  each player's penalty is the sum of their items' costs, and

  - if one player would hold every item, the row must be the slam: that player -8, all others 0;
  - with the doubling house rule, a player without items doubles everyone's cost (all values
    even, at least one 0, sum twice the normal total); otherwise everybody took at least one
    item;
  - without the doubling house rule the plain costs stand and zeros are fine.

  Item costs: ``no_tricks`` one per trick (8 tricks with 3 or 4 players; 7 with 5, the last
  costing 2; 6 with 6, the first and last costing 2); ``no_hearts`` 1 per Heart (6 Hearts with 3
  players, Ace and King costing 2; 8 with 4; 9 with 5 or 6); ``no_jacks`` 2 per Jack (4 Jacks).
* ``no_king_of_hearts`` and ``rosbiratschka``: exactly one player 8, everyone else 0.
* ``hundred``: the three calls (above 25: 1, above 50: 2, above 100: 5) each go to one player, so
  the non-zero values are a split of {1, 2, 5} among players: e.g. 1/2/5, 3/5, 1/7, 2/6, 8.

Problems come back as ``SheetProblem`` values (a code and its numbers), not sentences: the page
that shows them words them in its visitor's language (``tournaments.services``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

CONTRACTS = (
    "no_tricks",
    "no_hearts",
    "no_jacks",
    "no_king_of_hearts",
    "hundred",
    "rosbiratschka",
)
SLAM = -8
HUNDRED_CALLS = (1, 2, 5)

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
    """Cost of each trick, Heart or Jack of a trick contract for ``players`` players."""
    if players not in (3, 4, 5, 6):
        raise ValueError(f"a Partie has 3 to 6 players, not {players}")
    if contract == "no_tricks":
        return {3: (1,) * 8, 4: (1,) * 8, 5: (1,) * 6 + (2,), 6: (2, 1, 1, 1, 1, 2)}[players]
    if contract == "no_hearts":
        return {3: (1, 1, 1, 1, 2, 2), 4: (1,) * 8, 5: (1,) * 9, 6: (1,) * 9}[players]
    if contract == "no_jacks":
        return (2, 2, 2, 2)
    raise ValueError(f"{contract} is not a trick contract")


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
    costs: tuple[int, ...], values: Sequence[int], *, all_nonempty: bool
) -> bool:
    """Values as sums of disjoint item groups; ``all_nonempty`` asks every player for an item."""
    if any(v < 0 for v in values) or sum(values) != sum(costs):
        return False
    if all_nonempty and any(v == 0 for v in values):
        return False
    if all_nonempty and len(values) > len(costs):
        return False
    if sum(1 for v in values if v > 0) == 1:
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
    if contract in ("no_king_of_hearts", "rosbiratschka"):
        if sorted(values) == [0] * (players - 1) + [8]:
            return []
        return [SheetProblem(ONE_PLAYER_EIGHT, contract)]
    if contract == "hundred":
        nonzero = sorted(v for v in values if v != 0)
        if any(v < 0 for v in values) or not _is_split_of_calls(nonzero):
            return [SheetProblem(HUNDRED_CALLS_SPLIT, contract)]
        return []
    # Trick contracts 1 to 3.
    if sorted(values) == [SLAM] + [0] * (players - 1):
        return []
    costs = item_costs(contract, players)
    total = sum(costs)
    if _item_groups_possible(costs, values, all_nonempty=doubling):
        return []
    if doubling and 0 in values and all(v % 2 == 0 for v in values):
        halves = [v // 2 for v in values]
        if _item_groups_possible(costs, halves, all_nonempty=False):
            return []
    totals = {"total": total, "doubled": 2 * total if doubling else 0, "slam": SLAM}
    return [SheetProblem(IMPOSSIBLE_ROW, contract, params=totals)]


def _is_split_of_calls(nonzero: Sequence[int]) -> bool:
    """Do these values split the calls {1, 2, 5} among players (each call exactly once)?"""

    def search(calls: tuple[int, ...], targets: tuple[int, ...]) -> bool:
        if not calls:
            return all(t == 0 for t in targets)
        first, rest = calls[0], calls[1:]
        return any(
            target >= first and search(rest, targets[:i] + (target - first,) + targets[i + 1 :])
            for i, target in enumerate(targets)
        )

    return all(v > 0 for v in nonzero) and search(HUNDRED_CALLS, tuple(nonzero))


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
