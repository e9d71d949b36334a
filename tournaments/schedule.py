"""Fixed schedules for small groups: everyone meets everyone as evenly as possible.

A social-golfer-style problem: ``n`` players, tables of ``table_size`` (3 or 5 allowed next to
it when ``n`` does not divide), ``rounds`` rounds, all fixed in advance. Pure and seeded.

Objective, compared left to right::

    (max_meetings, sum_of_squares)

``max_meetings`` is the most often any pair shares a table; ``sum_of_squares`` is the sum over
all pairs of meetings squared. The total number of meetings is fixed by the table sizes, so the
sum of squares is the variance of the pair meetings up to constants: minimising it spreads
meetings evenly once the maximum is as low as it gets.

Method: greedy construction (each player in turn joins the open table where they have met the
fewest people), then simulated annealing over swaps of two players between two tables of one
round. The search stops early at the lower bound (meetings spread as evenly as arithmetic
allows), e.g. a perfect Kirkman schedule for 9 players in threes over 4 rounds. Seats inside
each table are then balanced round by round with the same assignment as Swiss seating.

When ``n`` cannot be split into allowed sizes some players sit out a round; byes rotate to the
players with the fewest byes so far.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from tournaments.seating import Entrant, SeatingHistory, order_seats, table_sizes


@dataclass(frozen=True)
class ScheduleStats:
    """How even a schedule is: pair meetings max, min, variance, and the lower bounds."""

    max_meetings: int
    min_meetings: int
    variance: float
    sum_of_squares: int
    best_possible_max: int
    best_possible_sum_of_squares: int


@dataclass(frozen=True)
class Schedule:
    """Rounds of tables (players are 0..n-1, tables in seat order) plus per-round byes."""

    players: int
    rounds: list[list[list[int]]]
    byes: list[list[int]]
    stats: ScheduleStats


def _default_allowed(table_size: int) -> tuple[int, ...]:
    return tuple(s for s in (table_size - 1, table_size, table_size + 1) if 3 <= s <= 6)


def fixed_schedule(
    players: int,
    table_size: int = 4,
    rounds: int = 3,
    seed: int | str = 0,
    allowed: Sequence[int] | None = None,
    iterations: int | None = None,
) -> Schedule:
    """Build a schedule where pair meetings are as even as the search can make them."""
    if rounds < 1:
        raise ValueError("a schedule needs at least one round")
    allowed_sizes = tuple(allowed) if allowed is not None else _default_allowed(table_size)
    sizes = table_sizes(players, table_size, allowed_sizes)
    if not sizes:
        raise ValueError(f"{players} players cannot fill a table")
    rng = random.Random(f"rosbi-schedule/{seed}/{players}/{table_size}/{rounds}")
    seated = sum(sizes)
    byes = _rotate_byes(players, seated, rounds, rng)
    meetings = [[0] * players for _ in range(players)]
    tables_by_round = [
        _greedy_round(players, sizes, set(round_byes), meetings, rng) for round_byes in byes
    ]
    pairs_total = players * (players - 1) // 2
    total_meetings = rounds * sum(s * (s - 1) // 2 for s in sizes)
    bound_max, bound_squares = _bounds(total_meetings, pairs_total)
    budget = iterations if iterations is not None else 4000 * rounds + 400 * players
    _anneal(tables_by_round, meetings, budget, rng, bound_max, bound_squares)

    history = SeatingHistory()
    ordered_rounds: list[list[list[int]]] = []
    entrant = {p: Entrant(p) for p in range(players)}
    for index, tables in enumerate(tables_by_round):
        seat_rng = random.Random(f"rosbi-schedule-seats/{seed}/{index}")
        ordered = [order_seats([entrant[p] for p in t], history, seat_rng) for t in tables]
        history.record_round(ordered)
        ordered_rounds.append(ordered)
    return Schedule(players, ordered_rounds, byes, schedule_stats(players, ordered_rounds))


def pair_meetings(players: int, rounds: Sequence[Sequence[Sequence[int]]]) -> list[list[int]]:
    """Matrix of how often each pair shares a table."""
    matrix = [[0] * players for _ in range(players)]
    for tables in rounds:
        for table in tables:
            for a, b in combinations(table, 2):
                matrix[a][b] += 1
                matrix[b][a] += 1
    return matrix


def schedule_stats(players: int, rounds: Sequence[Sequence[Sequence[int]]]) -> ScheduleStats:
    """Evenness figures of any schedule, with the arithmetic lower bounds for comparison."""
    matrix = pair_meetings(players, rounds)
    values = [matrix[a][b] for a, b in combinations(range(players), 2)]
    if not values:
        return ScheduleStats(0, 0, 0.0, 0, 0, 0)
    total = sum(values)
    mean = total / len(values)
    bound_max, bound_squares = _bounds(total, len(values))
    return ScheduleStats(
        max(values),
        min(values),
        sum((v - mean) ** 2 for v in values) / len(values),
        sum(v * v for v in values),
        bound_max,
        bound_squares,
    )


def _bounds(total_meetings: int, pairs: int) -> tuple[int, int]:
    """Lowest possible max and sum of squares: meetings spread as evenly as arithmetic allows."""
    if pairs == 0:
        return 0, 0
    low, extra = divmod(total_meetings, pairs)
    return math.ceil(total_meetings / pairs), (pairs - extra) * low * low + extra * (low + 1) ** 2


def _rotate_byes(players: int, seated: int, rounds: int, rng: random.Random) -> list[list[int]]:
    sitting_out = players - seated
    count = [0] * players
    order = list(range(players))
    rng.shuffle(order)
    result = []
    for _ in range(rounds):
        chosen = sorted(order, key=lambda p: count[p])[:sitting_out]
        for p in chosen:
            count[p] += 1
        order = order[sitting_out:] + order[:sitting_out]
        result.append(sorted(chosen))
    return result


def _greedy_round(
    players: int,
    sizes: Sequence[int],
    byes: set[int],
    meetings: list[list[int]],
    rng: random.Random,
) -> list[list[int]]:
    """Each player joins the open table where they already met the fewest; ties by lot."""
    tables: list[list[int]] = [[] for _ in sizes]
    order = [p for p in range(players) if p not in byes]
    rng.shuffle(order)
    for player in order:
        row = meetings[player]
        best_key, best_table = None, -1
        for index, table in enumerate(tables):
            if len(table) >= sizes[index]:
                continue
            key = (sum(row[x] for x in table), len(table), rng.random())
            if best_key is None or key < best_key:
                best_key, best_table = key, index
        for other in tables[best_table]:
            meetings[player][other] += 1
            meetings[other][player] += 1
        tables[best_table].append(player)
    return tables


def _anneal(
    rounds: list[list[list[int]]],
    meetings: list[list[int]],
    budget: int,
    rng: random.Random,
    bound_max: int,
    bound_squares: int,
) -> None:
    """Simulated annealing on (max, sum of squares) by swapping players of one round in place."""
    players = len(meetings)
    histogram: dict[int, int] = {}
    squares = 0
    for a, b in combinations(range(players), 2):
        value = meetings[a][b]
        histogram[value] = histogram.get(value, 0) + 1
        squares += value * value
    top = max(histogram) if histogram else 0
    movable = [r for r, tables in enumerate(rounds) if len(tables) > 1]
    if not movable:
        return
    weight = players * players * (len(rounds) + 1) ** 2 + 1  # any max drop beats any squares
    start_temperature, end_temperature = 2.0, 0.05
    best = (top, squares)
    best_rounds = [[list(t) for t in tables] for tables in rounds]

    def bump(a: int, b: int, step: int) -> int:
        old = meetings[a][b]
        new = old + step
        meetings[a][b] = meetings[b][a] = new
        histogram[old] -= 1
        histogram[new] = histogram.get(new, 0) + 1
        return new * new - old * old

    for step in range(budget):
        if best[0] <= bound_max and best[1] <= bound_squares:
            break
        tables = rounds[rng.choice(movable)]
        ta, tb = rng.sample(range(len(tables)), 2)
        table_a, table_b = tables[ta], tables[tb]
        ia, ib = rng.randrange(len(table_a)), rng.randrange(len(table_b))
        i, j = table_a[ia], table_b[ib]
        change = 0
        for x in table_a:
            if x != i:
                change += bump(i, x, -1) + bump(j, x, +1)
        for y in table_b:
            if y != j:
                change += bump(j, y, -1) + bump(i, y, +1)
        new_top = top
        while histogram.get(new_top, 0) == 0 and new_top > 0:
            new_top -= 1
        if histogram.get(top + 1, 0):
            new_top = top + 1  # one swap moves each pair by at most one meeting
        delta = (new_top - top) * weight + change
        temperature = start_temperature * (end_temperature / start_temperature) ** (step / budget)
        if delta <= 0 or rng.random() < math.exp(-delta / temperature):
            table_a[ia], table_b[ib] = j, i
            top, squares = new_top, squares + change
            if (top, squares) < best:
                best = (top, squares)
                best_rounds = [[list(t) for t in tbls] for tbls in rounds]
        else:
            for x in table_a:
                if x != i:
                    bump(i, x, +1)
                    bump(j, x, -1)
            for y in table_b:
                if y != j:
                    bump(j, y, +1)
                    bump(i, y, -1)
    for index, tables in enumerate(best_rounds):
        rounds[index] = tables
