"""Swiss-style seating for Rosbiratschka tournaments (3-6 players per table).

Pure functions over plain values: no Django, no storage. The Django app feeds in entrants
(current standings score, rating, club) and the seating history and stores what comes out.

Table sizes
-----------
``table_sizes(n, preferred=4, allowed=(3, 4, 5))`` splits ``n`` entrants into tables so
that everyone plays. Among all splits into allowed sizes it picks, in this order,

1. the fewest byes (byes happen only when no split exists: ``n < min(allowed)`` or, with a
   narrow ``allowed`` set, an ``n`` that no sum of allowed sizes reaches),
2. the fewest tables whose size is not ``preferred``,
3. the smallest total distance ``sum(|size - preferred|)``,
4. the fewest tables.

Sizes are returned largest first; the top tables of a Swiss round are the larger ones.

Round 1
-------
``first_round="lot"``: a seeded shuffle, filled table by table. ``"rating"``: players sorted by
rating are dealt serpentine over the tables (table 1, 2, ..., T, T, ..., 2, 1, ...) so every
table gets a fair mix and the strongest do not meet in round 1.

Later rounds: the cost function
-------------------------------
A seating is a partition of the seated players into tables of the chosen sizes plus, per table,
an order of seats 0..size-1. Its cost is ONE lexicographically ordered tuple::

    cost = (R, C, S, P)

    R = sum over tables, over pairs {i, j} at the table, of met(i, j)
        (met = how often i and j have already shared a table; meeting someone for the third
        time costs 2)
    C = number of pairs at a table from the same club       (0 unless avoid_same_club)
    S = sum over tables, over pairs {i, j}, of (score_i - score_j) ** 2
        (score = current standings points; equal scores cost nothing, as in a Swiss score
        group)
    P = sum over players of seat_count(player, seat given now)
        (how often the player already sat in the seat position they get now; minimising it
        minimises the sum of squares of each player's seat-count vector, i.e. keeps seats and
        so the dealer/lead order balanced)

compared left to right: repeats first, then club pairs, then standings spread, then seats.
Repeats come first because a Partie against the same opponents teaches the field nothing and
is what players complain about; the standings spread then decides among the many seatings that
are equally fresh. P depends only on the order inside each table, not on who sits together, so
it is minimised exactly and independently per table with scipy's ``linear_sum_assignment``
(players x seat slots, cost = past seat counts plus a seeded jitter < 1 that only breaks ties).

Search for R, C, S:

* small fields (at most ``exact_limit`` distinct partitions, about 12 players): exhaustive
  branch-and-bound over all partitions, so the result is optimal (zero repeats whenever a
  zero-repeat seating exists);
* otherwise: start from the standings order chunked into tables, repair conflicts (repeats,
  club pairs) by the best improving swap with the nearest tables, then polish the standings
  spread with swaps between neighbouring tables. Only strictly improving swaps are taken.
  If conflicts remain, the same search also runs from the seeded random seating
  (``baseline_seating``) and, for fields of at most ``restart_limit`` players, from
  ``restarts`` more seeded shuffles; the cheapest result wins, so the result never has more
  repeat meetings than that random seating.

Byes (only when no split exists) go to the players with the fewest byes so far, then the lowest
score, then by lot. Everything random is drawn from a ``random.Random`` seeded from
``(seed, round, purpose)``, so equal input gives equal output.
"""

from __future__ import annotations

import math
import random
from collections import Counter, deque
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import NamedTuple

import numpy as np
from scipy.optimize import linear_sum_assignment

PlayerId = Hashable

MAX_SEATS = 6
_EPS = 1e-9


# ---------------------------------------------------------------------------------------------
# Table sizes
# ---------------------------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _table_sizes_cached(n: int, preferred: int, allowed: tuple[int, ...]) -> tuple[int, ...]:
    """Lexicographic DP over (byes, off-preferred tables, distance, tables)."""
    smallest = min(allowed)
    # best[m] = (off_preferred, distance, tables) for exactly m players, choice[m] = last size
    best: list[tuple[int, int, int] | None] = [None] * (n + 1)
    choice = [0] * (n + 1)
    best[0] = (0, 0, 0)
    for m in range(1, n + 1):
        for size in allowed:
            previous = best[m - size] if m >= size else None
            if previous is None:
                continue
            off = 0 if size == preferred else 1
            key = (previous[0] + off, previous[1] + abs(size - preferred), previous[2] + 1)
            current = best[m]
            if current is None or key < current:
                best[m] = key
                choice[m] = size
    for seated in range(n, smallest - 1, -1):
        if best[seated] is None:
            continue
        sizes: list[int] = []
        m = seated
        while m:
            sizes.append(choice[m])
            m -= choice[m]
        return tuple(sorted(sizes, reverse=True))
    return ()


def table_sizes(n: int, preferred: int = 4, allowed: Iterable[int] = (3, 4, 5)) -> list[int]:
    """Split ``n`` entrants into table sizes (largest first); ``n - sum`` players get a bye."""
    allowed_sizes = tuple(sorted(set(allowed)))
    if not allowed_sizes or allowed_sizes[0] < 3 or allowed_sizes[-1] > MAX_SEATS:
        raise ValueError(f"allowed table sizes must lie in 3..{MAX_SEATS}, got {allowed_sizes}")
    if preferred not in allowed_sizes:
        raise ValueError(f"preferred size {preferred} is not among {allowed_sizes}")
    if n < 0:
        raise ValueError("the number of entrants cannot be negative")
    return list(_table_sizes_cached(n, preferred, allowed_sizes))


# ---------------------------------------------------------------------------------------------
# Inputs and outputs
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Entrant:
    """One player to seat: standings points so far (higher is better), rating, club."""

    id: PlayerId
    score: float = 0.0
    rating: float = 0.0
    club: str | None = None


@dataclass
class SeatingHistory:
    """What earlier rounds did: who met whom, who sat where, who had byes."""

    meetings: dict[PlayerId, dict[PlayerId, int]] = field(default_factory=dict)
    seat_counts: dict[PlayerId, list[int]] = field(default_factory=dict)
    byes: dict[PlayerId, int] = field(default_factory=dict)

    def met(self, a: PlayerId, b: PlayerId) -> int:
        """How often ``a`` and ``b`` already shared a table."""
        return self.meetings.get(a, {}).get(b, 0)

    def seats_of(self, player: PlayerId) -> list[int]:
        """How often ``player`` sat in seat 0..5 so far."""
        return self.seat_counts.get(player, [0] * MAX_SEATS)

    def record_round(
        self, tables: Iterable[Sequence[PlayerId]], byes: Iterable[PlayerId] = ()
    ) -> None:
        """Add one played round (tables in seat order) to the history."""
        for table in tables:
            for seat, player in enumerate(table):
                counts = self.seat_counts.setdefault(player, [0] * MAX_SEATS)
                counts[seat] += 1
            for a, b in combinations(table, 2):
                row_a = self.meetings.setdefault(a, {})
                row_a[b] = row_a.get(b, 0) + 1
                row_b = self.meetings.setdefault(b, {})
                row_b[a] = row_b.get(a, 0) + 1
        for player in byes:
            self.byes[player] = self.byes.get(player, 0) + 1

    @classmethod
    def from_rounds(
        cls,
        rounds: Iterable[Iterable[Sequence[PlayerId]]],
        byes: Iterable[Iterable[PlayerId]] = (),
    ) -> SeatingHistory:
        """Build a history from stored rounds (each a list of seat-ordered tables)."""
        history = cls()
        for tables in rounds:
            history.record_round(tables)
        for round_byes in byes:
            history.record_round((), round_byes)
        return history


@dataclass(frozen=True)
class SeatingOptions:
    """Knobs of the seating; the defaults are the club-night standard."""

    preferred: int = 4
    allowed: tuple[int, ...] = (3, 4, 5)
    seed: int | str = 0
    first_round: str = "lot"  # "lot" or "rating"
    avoid_same_club: bool = False
    exact_limit: int = 20_000
    restarts: int = 8
    restart_limit: int = 200
    polish_passes: int = 4


class SeatingCost(NamedTuple):
    """The lexicographic cost (R, C, S, P) described in the module docstring."""

    repeats: int
    club_pairs: int
    spread: float
    seat_repeats: int


@dataclass(frozen=True)
class Seating:
    """One round's seating: tables in seat order (seat 0 first), top table first."""

    round: int
    tables: list[list[PlayerId]]
    byes: list[PlayerId]
    cost: SeatingCost


# ---------------------------------------------------------------------------------------------
# Public entry points
# ---------------------------------------------------------------------------------------------


def seeded_rng(seed: int | str, round_number: int, purpose: str) -> random.Random:
    return random.Random(f"{seed}/{round_number}/{purpose}")


def seat_round(
    entrants: Sequence[Entrant],
    round_number: int,
    history: SeatingHistory | None = None,
    options: SeatingOptions | None = None,
) -> Seating:
    """Seat one round: round 1 by lot or rating, later rounds by the Swiss cost function."""
    options = options or SeatingOptions()
    history = history or SeatingHistory()
    _check_unique(entrants)
    sizes = table_sizes(len(entrants), options.preferred, options.allowed)
    lot = seeded_rng(options.seed, round_number, "lot")
    lot_key = {e.id: lot.random() for e in entrants}
    seated, byes = _split_byes(entrants, sum(sizes), history, lot_key)

    if round_number <= 1:
        if options.first_round == "rating":
            groups = serpentine(sorted(seated, key=lambda e: (-e.rating, lot_key[e.id])), sizes)
        elif options.first_round == "lot":
            groups = _chunk(sorted(seated, key=lambda e: lot_key[e.id]), sizes)
        else:
            raise ValueError(f"unknown first_round method {options.first_round!r}")
    else:
        groups = _swiss_groups(seated, sizes, round_number, history, options, lot_key)

    rng = seeded_rng(options.seed, round_number, "seats")
    tables = [order_seats(group, history, rng) for group in groups]
    cost = seating_cost(tables, entrants, history, options.avoid_same_club)
    return Seating(round_number, tables, [e.id for e in byes], cost)


def baseline_seating(
    entrants: Sequence[Entrant],
    round_number: int,
    history: SeatingHistory | None = None,
    options: SeatingOptions | None = None,
) -> list[list[PlayerId]]:
    """The seeded random seating that ``seat_round`` never loses to on repeat meetings.

    Same byes, same table sizes, players shuffled by lot: the yardstick for tests and benches.
    """
    options = options or SeatingOptions()
    history = history or SeatingHistory()
    sizes = table_sizes(len(entrants), options.preferred, options.allowed)
    lot = seeded_rng(options.seed, round_number, "lot")
    lot_key = {e.id: lot.random() for e in entrants}
    seated, _ = _split_byes(entrants, sum(sizes), history, lot_key)
    return [list(group) for group in _random_groups([e.id for e in seated], sizes, options.seed)]


def seating_cost(
    tables: Sequence[Sequence[PlayerId]],
    entrants: Sequence[Entrant],
    history: SeatingHistory | None = None,
    avoid_same_club: bool = False,
) -> SeatingCost:
    """Evaluate (R, C, S, P) of a seating; tables are in seat order."""
    history = history or SeatingHistory()
    by_id = {e.id: e for e in entrants}
    repeats = club_pairs = seat_repeats = 0
    spread = 0.0
    for table in tables:
        for seat, player in enumerate(table):
            seat_repeats += history.seats_of(player)[seat]
        for a, b in combinations(table, 2):
            repeats += history.met(a, b)
            ea, eb = by_id[a], by_id[b]
            if avoid_same_club and ea.club is not None and ea.club == eb.club:
                club_pairs += 1
            spread += (ea.score - eb.score) ** 2
    return SeatingCost(repeats, club_pairs, spread, seat_repeats)


def repeat_meetings(tables: Iterable[Sequence[PlayerId]], history: SeatingHistory) -> int:
    """R of a seating: earlier meetings among the players now sharing a table."""
    return sum(history.met(a, b) for table in tables for a, b in combinations(table, 2))


# ---------------------------------------------------------------------------------------------
# Helpers: byes, round 1, seat order
# ---------------------------------------------------------------------------------------------


def _check_unique(entrants: Sequence[Entrant]) -> None:
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        raise ValueError("every entrant must appear once")


def _split_byes(
    entrants: Sequence[Entrant],
    seats: int,
    history: SeatingHistory,
    lot_key: Mapping[PlayerId, float],
) -> tuple[list[Entrant], list[Entrant]]:
    """Fewest earlier byes, then lowest score, then lot gets the bye."""
    byes_needed = len(entrants) - seats
    if byes_needed == 0:
        return list(entrants), []
    order = sorted(
        entrants, key=lambda e: (history.byes.get(e.id, 0), e.score, e.rating, lot_key[e.id])
    )
    bye_ids = {e.id for e in order[:byes_needed]}
    return [e for e in entrants if e.id not in bye_ids], [e for e in order[:byes_needed]]


def _chunk(items: Sequence, sizes: Sequence[int]) -> list[list]:
    groups, start = [], 0
    for size in sizes:
        groups.append(list(items[start : start + size]))
        start += size
    return groups


def serpentine(ordered: Sequence, sizes: Sequence[int]) -> list[list]:
    """Deal ``ordered`` over the tables 1..T, then T..1, and so on, skipping full tables."""
    groups: list[list] = [[] for _ in sizes]
    items = iter(ordered)
    remaining = sum(sizes)
    forward = True
    while remaining:
        lane = range(len(sizes)) if forward else range(len(sizes) - 1, -1, -1)
        for table in lane:
            if len(groups[table]) < sizes[table] and remaining:
                groups[table].append(next(items))
                remaining -= 1
        forward = not forward
    return groups


def _random_groups(ids: Sequence[PlayerId], sizes: Sequence[int], seed: int | str) -> list[list]:
    """A seeded shuffle chunked into tables; independent of the round so it is a fixed yardstick."""
    shuffled = list(ids)
    random.Random(f"{seed}/baseline/{len(ids)}").shuffle(shuffled)
    return _chunk(shuffled, sizes)


def order_seats(
    group: Sequence[Entrant], history: SeatingHistory, rng: random.Random
) -> list[PlayerId]:
    """Minimise P for one table exactly: players x seats, cost = past seat counts + jitter."""
    size = len(group)
    cost = np.array(
        [[history.seats_of(e.id)[seat] + 0.5 * rng.random() for seat in range(size)] for e in group]
    )
    rows, cols = linear_sum_assignment(cost)
    seats: list[PlayerId] = [None] * size
    for row, col in zip(rows, cols, strict=True):
        seats[col] = group[row].id
    return seats


# ---------------------------------------------------------------------------------------------
# Swiss rounds: exhaustive for small fields, local search otherwise
# ---------------------------------------------------------------------------------------------


class _Problem:
    """Players as indices 0..n-1 in standings order, with pair-cost lookups."""

    def __init__(
        self,
        entrants: Sequence[Entrant],
        history: SeatingHistory,
        avoid_same_club: bool,
    ) -> None:
        self.entrants = list(entrants)
        self.n = len(entrants)
        index = {e.id: i for i, e in enumerate(entrants)}
        self.score = [float(e.score) for e in entrants]
        clubs: dict[str, int] = {}
        self.club = [
            clubs.setdefault(e.club, len(clubs)) if (avoid_same_club and e.club) else -1
            for e in entrants
        ]
        self.met: list[dict[int, int]] = []
        for e in entrants:
            row = history.meetings.get(e.id, {})
            self.met.append({index[o]: c for o, c in row.items() if o in index and c})

    def pair(self, i: int, j: int) -> tuple[int, int, float]:
        club = 1 if self.club[i] >= 0 and self.club[i] == self.club[j] else 0
        return self.met[i].get(j, 0), club, (self.score[i] - self.score[j]) ** 2

    def table_cost(self, members: Sequence[int]) -> tuple[int, int, float]:
        r = c = 0
        s = 0.0
        for a, b in combinations(members, 2):
            pr, pc, ps = self.pair(a, b)
            r += pr
            c += pc
            s += ps
        return r, c, s

    def total(self, tables: Sequence[Sequence[int]]) -> tuple[int, int, float]:
        r = c = 0
        s = 0.0
        for members in tables:
            tr, tc, ts = self.table_cost(members)
            r += tr
            c += tc
            s += ts
        return r, c, s

    def conflicted(self, player: int, members: Sequence[int]) -> bool:
        met, club = self.met[player], self.club[player]
        for other in members:
            if other != player and (met.get(other) or (club >= 0 and club == self.club[other])):
                return True
        return False

    def swap_delta(
        self, i: int, j: int, table_i: Sequence[int], table_j: Sequence[int]
    ) -> tuple[int, int, float]:
        """Change of (R, C, S) when i and j trade tables."""
        met_i, met_j = self.met[i], self.met[j]
        club_i, club_j = self.club[i], self.club[j]
        score_i, score_j = self.score[i], self.score[j]
        clubs, scores = self.club, self.score
        r = c = 0
        s = 0.0
        for x in table_j:
            if x == j:
                continue
            r += met_i.get(x, 0) - met_j.get(x, 0)
            cx = clubs[x]
            if cx >= 0:
                c += (club_i == cx) - (club_j == cx)
            sx = scores[x]
            s += (score_i - score_j) * (score_i + score_j - 2 * sx)
        for y in table_i:
            if y == i:
                continue
            r += met_j.get(y, 0) - met_i.get(y, 0)
            cy = clubs[y]
            if cy >= 0:
                c += (club_j == cy) - (club_i == cy)
            sy = scores[y]
            s += (score_j - score_i) * (score_j + score_i - 2 * sy)
        return r, c, s


def _improves(delta: tuple[int, int, float]) -> bool:
    r, c, s = delta
    return r < 0 or (r == 0 and (c < 0 or (c == 0 and s < -_EPS)))


def _better(a: tuple[int, int, float], b: tuple[int, int, float]) -> bool:
    """Lexicographic a < b with a tolerance on the float spread."""
    if a[0] != b[0]:
        return a[0] < b[0]
    if a[1] != b[1]:
        return a[1] < b[1]
    return a[2] < b[2] - _EPS


def _partition_count(sizes: Sequence[int]) -> int:
    count = math.factorial(sum(sizes))
    for size in sizes:
        count //= math.factorial(size)
    for multiplicity in Counter(sizes).values():
        count //= math.factorial(multiplicity)
    return count


def _swiss_groups(
    seated: Sequence[Entrant],
    sizes: Sequence[int],
    round_number: int,
    history: SeatingHistory,
    options: SeatingOptions,
    lot_key: Mapping[PlayerId, float],
) -> list[list[Entrant]]:
    ordered = sorted(seated, key=lambda e: (-e.score, -e.rating, lot_key[e.id]))
    problem = _Problem(ordered, history, options.avoid_same_club)
    if not sizes:
        return []
    if _partition_count(sizes) <= options.exact_limit:
        best = _exhaustive(problem, sizes)
    else:
        best = _local_search(problem, _chunk(list(range(problem.n)), sizes), options)
        best_cost = problem.total(best)
        if best_cost[0] > 0 or best_cost[1] > 0:
            # Conflicts remain: also search from the seeded random baseline (this is what
            # guarantees "never more repeats than random") and, in small fields where it is
            # cheap, from a few more seeded shuffles.
            position = {e.id: i for i, e in enumerate(ordered)}
            baseline = _random_groups([e.id for e in seated], sizes, options.seed)
            starts = [[[position[pid] for pid in group] for group in baseline]]
            if problem.n <= options.restart_limit:
                shuffle_rng = seeded_rng(options.seed, round_number, "restarts")
                for _ in range(options.restarts):
                    players = list(range(problem.n))
                    shuffle_rng.shuffle(players)
                    starts.append(_chunk(players, sizes))
            for start in starts:
                other = _local_search(problem, start, options)
                other_cost = problem.total(other)
                if _better(other_cost, best_cost):
                    best, best_cost = other, other_cost
    # Top table first: order tables by their best-placed player.
    best.sort(key=min)
    return [[ordered[i] for i in members] for members in best]


def _exhaustive(problem: _Problem, sizes: Sequence[int]) -> list[list[int]]:
    """Branch and bound over all partitions; the table holding the lowest index is built next."""
    best: list = [None, None]  # cost, tables
    counts = Counter(sizes)

    def search(remaining: list[int], partial: list[list[int]], cost: tuple[int, int, float]):
        if best[0] is not None and not _better(cost, best[0]):
            return
        if not remaining:
            best[0], best[1] = cost, [list(t) for t in partial]
            return
        head, rest = remaining[0], remaining[1:]
        for size in sorted(counts, reverse=True):
            if not counts[size]:
                continue
            counts[size] -= 1
            for others in combinations(rest, size - 1):
                members = [head, *others]
                tr, tc, ts = problem.table_cost(members)
                taken = set(others)
                partial.append(members)
                search(
                    [p for p in rest if p not in taken],
                    partial,
                    (cost[0] + tr, cost[1] + tc, cost[2] + ts),
                )
                partial.pop()
            counts[size] += 1

    search(list(range(problem.n)), [], (0, 0, 0.0))
    return best[1]


def _local_search(
    problem: _Problem, start: list[list[int]], options: SeatingOptions
) -> list[list[int]]:
    """Repair conflicts with the nearest improving swaps, then polish neighbouring tables."""
    tables = [list(t) for t in start]
    count = len(tables)
    queue = deque(
        t for t in range(count) if any(problem.conflicted(p, tables[t]) for p in tables[t])
    )
    queued = set(queue)
    budget = 50 * problem.n + 100
    while queue and budget > 0:
        t = queue.popleft()
        queued.discard(t)
        for i in list(tables[t]):
            if budget <= 0 or not problem.conflicted(i, tables[t]):
                continue
            found = None
            for distance in range(1, count):
                for u in (t - distance, t + distance):
                    if not 0 <= u < count:
                        continue
                    for j in tables[u]:
                        budget -= 1
                        delta = problem.swap_delta(i, j, tables[t], tables[u])
                        if _improves(delta) and (found is None or _better(delta, found[0])):
                            found = (delta, j, u)
                if found is not None:
                    break
            if found is None:
                continue
            _, j, u = found
            _swap(tables, i, t, j, u)
            for touched in (t, u):
                if touched not in queued and any(
                    problem.conflicted(p, tables[touched]) for p in tables[touched]
                ):
                    queue.append(touched)
                    queued.add(touched)
            break  # the table changed: look at it again from the queue
    for _ in range(options.polish_passes):
        improved = False
        for t in range(count - 1):
            u = t + 1
            for i in list(tables[t]):
                for j in list(tables[u]):
                    if i not in tables[t]:
                        break
                    if _improves(problem.swap_delta(i, j, tables[t], tables[u])):
                        _swap(tables, i, t, j, u)
                        improved = True
                        break
        if not improved:
            break
    return tables


def _swap(tables: list[list[int]], i: int, t: int, j: int, u: int) -> None:
    tables[t][tables[t].index(i)] = j
    tables[u][tables[u].index(j)] = i
