"""Duplicate Rosbiratschka: every table of one size plays the same six deals in a round.

Luck of the cards is taken out by comparing each seat only with the same seat at the other
tables that played the very same cards. Pure functions, plain values, no Django.

Dealing
-------
``deal_seed(tournament_seed, round, table_size)`` is a 64-bit integer taken from SHA-256 of
``"rosbi-duplicate/<tournament_seed>/<round>/<table_size>"``: equal for every table of that size
in that round, different across rounds and sizes, and reproducible from the tournament seed
alone. The rules engine deals the six deals (and draws the first dealer) from it, so all those
tables play identical hands from identical seats. ``duplicate_first_dealer`` gives the seat
that must deal first, derived from the same seed, for engines that take it separately.

Matchpoints
-----------
For a seat s at a table of size k, compare its Partie penalty total with seat s at every
other table of size k in the same round:

    2 matchpoints if yours is lower, 1 if equal, 0 if higher.

The percentage is ``100 * matchpoints / (2 * comparisons)``; a seat with nothing to compare
with (the only table of its size) scores 50 %, the neutral value, so it neither helps nor hurts.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

PlayerId = Hashable
NEUTRAL_PERCENT = 50.0


def deal_seed(tournament_seed: int | str, round_number: int, table_size: int) -> int:
    """The seed all tables of ``table_size`` deal from in ``round_number``."""
    text = f"rosbi-duplicate/{tournament_seed}/{round_number}/{table_size}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def duplicate_first_dealer(seed: int, table_size: int) -> int:
    """Seat of the first dealer, the same for every table playing these deals."""
    digest = hashlib.sha256(f"rosbi-duplicate-dealer/{seed}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % table_size


def round_deal_seeds(
    tournament_seed: int | str, round_number: int, table_sizes: Sequence[int]
) -> list[int]:
    """Deal seed for each table of a round, in table order (equal sizes share a seed)."""
    return [deal_seed(tournament_seed, round_number, size) for size in table_sizes]


@dataclass(frozen=True)
class DuplicateTable:
    """One table's result: players in seat order and their Partie penalty totals."""

    players: Sequence[PlayerId]
    penalties: Sequence[float]


@dataclass(frozen=True)
class SeatScore:
    """A seat's duplicate score in one round."""

    player: PlayerId
    table: int
    seat: int
    matchpoints: int
    comparisons: int
    percent: float


def matchpoints(tables: Sequence[DuplicateTable]) -> list[SeatScore]:
    """Score every seat of one round against the same seat at the same-size tables."""
    by_size: dict[int, list[int]] = defaultdict(list)
    for index, table in enumerate(tables):
        if len(table.players) != len(table.penalties):
            raise ValueError(
                f"table {index} lists {len(table.players)} players but "
                f"{len(table.penalties)} penalties"
            )
        by_size[len(table.players)].append(index)
    scores: list[SeatScore] = []
    for index, table in enumerate(tables):
        peers = [other for other in by_size[len(table.players)] if other != index]
        for seat, player in enumerate(table.players):
            mine = table.penalties[seat]
            points = 0
            for other in peers:
                theirs = tables[other].penalties[seat]
                points += 2 if mine < theirs else 1 if mine == theirs else 0
            percent = 100.0 * points / (2 * len(peers)) if peers else NEUTRAL_PERCENT
            scores.append(SeatScore(player, index, seat, points, len(peers), percent))
    return scores


def duplicate_totals(rounds: Sequence[Sequence[SeatScore]]) -> dict[PlayerId, float]:
    """Average percentage per player over the rounds they played (the usual duplicate total)."""
    sums: dict[PlayerId, float] = defaultdict(float)
    counts: dict[PlayerId, int] = defaultdict(int)
    for scores in rounds:
        for score in scores:
            sums[score.player] += score.percent
            counts[score.player] += 1
    return {player: sums[player] / counts[player] for player in sums}
