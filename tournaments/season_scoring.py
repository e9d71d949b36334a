"""Season scoring, pure: points per place, and a season table where each player's best N
event results count ("best N of M"). Plain values in and out; no Django.

Ranking: more counted points first; equal points are split by countback (the better best
result, then the next best, ... over the counted results), then by more events played; players
still equal share the rank (competition ranking: 1, 2, 2, 4). The order among players sharing
a rank is by their key, so the table is the same whatever order the results arrive in.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass


def points_for_place(place: int, place_points: Sequence[int]) -> int:
    """Points for finishing ``place`` (1 = first) in one event: the list's entry, 0 beyond."""
    if place < 1:
        raise ValueError("places start at 1")
    return place_points[place - 1] if place <= len(place_points) else 0


def counted_results(results: Iterable[int], best_of: int | None) -> list[int]:
    """The results that count, best first: the ``best_of`` highest (all when None)."""
    ordered = sorted(results, reverse=True)
    return ordered if best_of is None else ordered[:best_of]


@dataclass(frozen=True)
class SeasonLine:
    player: Hashable
    rank: int
    points: int
    played: int
    counted: tuple[int, ...]  # the counted results, best first
    results: tuple[int, ...]  # every result, best first

    @property
    def dropped(self) -> tuple[int, ...]:
        return self.results[len(self.counted) :]


def season_table(
    results: Mapping[Hashable, Sequence[int]], best_of: int | None
) -> list[SeasonLine]:
    """The season table from each player's event points (one number per event played)."""
    if best_of is not None and best_of < 1:
        raise ValueError("best_of counts at least one result")
    lines = []
    for player, points in results.items():
        every = tuple(sorted(points, reverse=True))
        counted = tuple(counted_results(every, best_of))
        lines.append((player, sum(counted), counted, every))
    width = max((len(counted) for _p, _t, counted, _e in lines), default=0)

    def strength(line: tuple) -> tuple[int, ...]:
        """(points, countback padded with zeros to one width, events played): higher is
        better, and equal strengths share a rank."""
        _player, total, counted, every = line
        return (total, *counted, *([0] * (width - len(counted))), len(every))

    lines.sort(key=lambda line: (tuple(-x for x in strength(line)), _order_key(line[0])))
    table: list[SeasonLine] = []
    for index, line in enumerate(lines):
        player, total, counted, every = line
        shared = index > 0 and strength(lines[index - 1]) == strength(line)
        rank = table[-1].rank if shared else index + 1
        table.append(SeasonLine(player, rank, total, len(every), counted, every))
    return table


def _order_key(player: Hashable) -> tuple[str, str]:
    return (type(player).__name__, repr(player))
