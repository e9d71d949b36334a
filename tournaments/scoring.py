"""Placement points for one table: who finished where, and what each place is worth.

A Partie ends with a penalty total per player; the lowest total wins and equal totals
share the place. Tournaments turn those places into *placement points* so that tables of
different sizes can be compared in one standings list.

Default scheme (scaled so every table size is worth the same): the winner gets 3 points,
the last player 0, and the places in between are spread evenly::

    points(place, size) = 3 * (size - 1 - place) / (size - 1)      # place is 0-based

    3 players: 3 / 1.5 / 0
    4 players: 3 / 2 / 1 / 0                 (the classic 3/2/1/0)
    5 players: 3 / 2.25 / 1.5 / 0.75 / 0
    6 players: 3 / 2.4 / 1.8 / 1.2 / 0.6 / 0

Why scaled rather than ``size - 1 - place``: with mixed table sizes in one round a
winner at a five-table must not earn more than a winner at a three-table, and the average
per player is 1.5 at every size, so the table size drawn for you never helps or hurts.

Shared places share points: players tied on penalty occupy consecutive places and each
gets the average of those places' points (two players tied for first at a four-table get
(3 + 2) / 2 = 2.5 each).

Plain values only (no Django): players are any hashable, mutually comparable ids.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

PlayerId = Hashable

WINNER_POINTS = 3.0
MIN_TABLE = 3
MAX_TABLE = 6


def scaled_points(size: int, winner_points: float = WINNER_POINTS) -> tuple[float, ...]:
    """Points for places 0..size-1 on the scaled scheme (winner ``winner_points``, last 0)."""
    if size < 2:
        raise ValueError(f"a table needs at least two players, got {size}")
    return tuple(winner_points * (size - 1 - place) / (size - 1) for place in range(size))


DEFAULT_POINTS: dict[int, tuple[float, ...]] = {
    size: scaled_points(size) for size in range(MIN_TABLE, MAX_TABLE + 1)
}


def table_places(penalties: Mapping[PlayerId, float]) -> dict[PlayerId, tuple[int, int]]:
    """Map each player to ``(first_place, places_shared)``, both 0-based / counts.

    Lower penalty is better; a group of ``m`` equal totals starting at place ``p`` gives
    each of them ``(p, m)``: they occupy places ``p .. p + m - 1``.
    """
    ordered = sorted(penalties.items(), key=lambda item: item[1])
    places: dict[PlayerId, tuple[int, int]] = {}
    start = 0
    while start < len(ordered):
        end = start
        while end + 1 < len(ordered) and ordered[end + 1][1] == ordered[start][1]:
            end += 1
        for player, _ in ordered[start : end + 1]:
            places[player] = (start, end - start + 1)
        start = end + 1
    return places


def placement_points(
    penalties: Mapping[PlayerId, float],
    points_by_size: Mapping[int, Sequence[float]] | None = None,
) -> dict[PlayerId, float]:
    """Placement points of every player at one table, shared places averaged."""
    table = points_by_size if points_by_size is not None else DEFAULT_POINTS
    size = len(penalties)
    if size not in table:
        raise ValueError(f"no placement points configured for a table of {size}")
    scale = table[size]
    if len(scale) != size:
        raise ValueError(f"points for a table of {size} must list {size} places")
    result: dict[PlayerId, float] = {}
    for player, (first, shared) in table_places(penalties).items():
        result[player] = sum(scale[first : first + shared]) / shared
    return result
