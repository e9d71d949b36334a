"""Tournament standings as a pure function of the stored table results.

Each table of each round yields every player's Partie penalty total. From those:

* **points** (match points): placement points per table from ``tournaments.scoring``
  (default 3 / 2 / 1 / 0 at four players, scaled for 3, 5, 6; shared places share points);
* **penalty**: the sum of Partie penalty totals (lower is better);
* **opponents_points** (Buchholz-like): for every table you played, the final points of each
  tablemate, summed; a strong field behind your points ranks you higher;
* **table_wins**: tables won, a shared first place counts as a win;
* **head_to_head**: only among the players still tied, at the tables where two or more of them
  met: 1 per tied tablemate you beat on penalty, 0.5 per tied tablemate you equalled.

``compute_standings(results, tiebreaks=...)`` ranks by the criteria in the given order (higher
points, lower penalty, higher opponents' points, more table wins, better head-to-head); whoever
ties on all of them shares the rank (1, 2, 2, 4 ...). Head-to-head is recomputed inside each
tied group, so it compares exactly the players it has to separate.

Rounds a player did not play (late entry, absence) are scored with ``missed_round``
(default 0 points and the highest penalty total of that round, i.e. like a last place);
organiser byes use ``bye`` (default 1.5 points, the average of every table size, and the
round's mean penalty). Missed rounds and byes give no tablemates and no table wins.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from tournaments.scoring import DEFAULT_POINTS, placement_points, table_places

PlayerId = Hashable

POINTS = "points"
PENALTY = "penalty"
OPPONENTS_POINTS = "opponents_points"
TABLE_WINS = "table_wins"
HEAD_TO_HEAD = "head_to_head"
DEFAULT_TIEBREAKS = (POINTS, PENALTY, OPPONENTS_POINTS, TABLE_WINS, HEAD_TO_HEAD)
_ROUNDING = 9  # points are sums of fractions such as 2.25: compare them rounded


@dataclass(frozen=True)
class TableResult:
    """One finished table: round number (1-based) and each player's Partie penalty total."""

    round: int
    penalties: Mapping[PlayerId, float]
    table: int = 0


@dataclass(frozen=True)
class AbsentScore:
    """Score for a round without a table: points, and a penalty (number or round statistic).

    ``penalty`` is a number, ``"round_max"`` (highest total at any table that round) or
    ``"round_mean"`` (mean total that round).
    """

    points: float = 0.0
    penalty: float | str = "round_max"


@dataclass(frozen=True)
class StandingsConfig:
    """Scoring knobs: placement points per table size, missed-round and bye scores."""

    points_by_size: Mapping[int, Sequence[float]] = field(default_factory=lambda: DEFAULT_POINTS)
    missed_round: AbsentScore = AbsentScore(points=0.0, penalty="round_max")
    bye: AbsentScore = AbsentScore(points=1.5, penalty="round_mean")


@dataclass(frozen=True)
class StandingRow:
    """One line of the standings; equal ``rank`` means a shared place."""

    rank: int
    player: PlayerId
    points: float
    penalty: float
    opponents_points: float
    table_wins: int
    rounds_played: int
    rounds_absent: int


def compute_standings(
    results: Iterable[TableResult],
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
    *,
    players: Iterable[PlayerId] | None = None,
    rounds: int | None = None,
    byes: Mapping[int, Iterable[PlayerId]] | None = None,
    config: StandingsConfig | None = None,
) -> list[StandingRow]:
    """Rank every player; ``players`` adds entrants without results, ``rounds`` the rounds so far."""
    config = config or StandingsConfig()
    unknown = [name for name in tiebreaks if name not in DEFAULT_TIEBREAKS]
    if unknown:
        raise ValueError(f"unknown tie-breaks {unknown}; choose from {DEFAULT_TIEBREAKS}")
    tables = list(results)
    bye_rounds = {r: set(ps) for r, ps in (byes or {}).items()}

    everyone: dict[PlayerId, None] = dict.fromkeys(players or ())
    played: dict[PlayerId, set[int]] = defaultdict(set)
    points: dict[PlayerId, float] = defaultdict(float)
    penalty: dict[PlayerId, float] = defaultdict(float)
    wins: dict[PlayerId, int] = defaultdict(int)
    tables_of: dict[PlayerId, list[int]] = defaultdict(list)
    round_totals: dict[int, list[float]] = defaultdict(list)

    for index, table in enumerate(tables):
        earned = placement_points(table.penalties, config.points_by_size)
        places = table_places(table.penalties)
        for player, total in table.penalties.items():
            if table.round in played[player]:
                raise ValueError(f"player {player!r} has two tables in round {table.round}")
            played[player].add(table.round)
            everyone.setdefault(player)
            points[player] += earned[player]
            penalty[player] += total
            tables_of[player].append(index)
            round_totals[table.round].append(total)
            if places[player][0] == 0:
                wins[player] += 1
    for round_players in bye_rounds.values():
        for player in round_players:
            everyone.setdefault(player)

    last_round = (
        rounds
        if rounds is not None
        else max([t.round for t in tables] + list(bye_rounds), default=0)
    )
    absent: dict[PlayerId, int] = defaultdict(int)
    for round_number in range(1, last_round + 1):
        totals = round_totals.get(round_number, [])
        for player in everyone:
            if round_number in played[player]:
                continue
            rule = config.bye if player in bye_rounds.get(round_number, ()) else config.missed_round
            points[player] += rule.points
            penalty[player] += _absent_penalty(rule, totals)
            absent[player] += 1

    opponents: dict[PlayerId, float] = {}
    for player in everyone:
        opponents[player] = sum(
            points[other]
            for index in tables_of[player]
            for other in tables[index].penalties
            if other != player
        )

    values = {
        POINTS: lambda p: round(points[p], _ROUNDING),
        PENALTY: lambda p: -round(penalty[p], _ROUNDING),
        OPPONENTS_POINTS: lambda p: round(opponents[p], _ROUNDING),
        TABLE_WINS: lambda p: wins[p],
    }

    def head_to_head(group: list[PlayerId]) -> dict[PlayerId, float]:
        members = set(group)
        scores = dict.fromkeys(group, 0.0)
        seen: set[int] = set()
        for player in group:
            for index in tables_of[player]:
                if index in seen:
                    continue
                seen.add(index)
                at_table = [p for p in tables[index].penalties if p in members]
                totals = tables[index].penalties
                for a in at_table:
                    for b in at_table:
                        if a != b:
                            scores[a] += (
                                1.0
                                if totals[a] < totals[b]
                                else (0.5 if totals[a] == totals[b] else 0.0)
                            )
        return scores

    def split(group: list[PlayerId], criteria: Sequence[str]) -> list[list[PlayerId]]:
        if len(group) <= 1 or not criteria:
            return [group]
        name, rest = criteria[0], criteria[1:]
        if name == HEAD_TO_HEAD:
            h2h = head_to_head(group)
            key = h2h.__getitem__
        else:
            key = values[name]
        buckets: dict[float, list[PlayerId]] = defaultdict(list)
        for player in group:
            buckets[key(player)].append(player)
        ordered: list[list[PlayerId]] = []
        for value in sorted(buckets, reverse=True):
            ordered.extend(split(buckets[value], rest))
        return ordered

    rows: list[StandingRow] = []
    for group in split(list(everyone), tuple(tiebreaks)):
        rank = len(rows) + 1
        for player in sorted(group, key=_id_key):
            rows.append(
                StandingRow(
                    rank=rank,
                    player=player,
                    points=points[player],
                    penalty=penalty[player],
                    opponents_points=opponents[player],
                    table_wins=wins[player],
                    rounds_played=len(played[player]),
                    rounds_absent=absent[player],
                )
            )
    return rows


def _absent_penalty(rule: AbsentScore, totals: Sequence[float]) -> float:
    if isinstance(rule.penalty, int | float):
        return float(rule.penalty)
    if not totals:
        return 0.0
    if rule.penalty == "round_max":
        return float(max(totals))
    if rule.penalty == "round_mean":
        return sum(totals) / len(totals)
    raise ValueError(f"unknown absent penalty rule {rule.penalty!r}")


def _id_key(player: PlayerId) -> tuple[int, str | int]:
    """Stable order for shared places: numbers by value, everything else by text."""
    if isinstance(player, int):
        return (0, player)
    return (1, str(player))
