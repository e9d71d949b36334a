"""Simulated Rosbiratschka ladders: hidden skills and a chronological stream of Parties.

Parametric mode: each of the six deals hands out its penalties the way the contract does
(RULES.md section 4), with each player's chance of taking a penalty token proportional to
``exp(-SKILL_EFFECT * skill + luck)``. Tokens: ``no_tricks`` 8 x 1 point, ``no_hearts``
8 (9 with 5-6 players) x 1, ``no_jacks`` 4 x 2; a player who takes nothing doubles the deal,
a player who takes everything scores -8 (slam). ``no_king_of_hearts`` and
``rosbiratschka`` give 8 to one player, ``hundred`` gives 1, 2 and 5. A normal Partie so
hands out 48 points, more when doubled, less after a slam. Luck per player and deal is
normal or heavy-tailed (Student t, 3 degrees of freedom).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

SKILL_EFFECT = 0.35
LUCK_SCALE = 0.45
DRIFT_PER_SQRT_DAY = 0.015
SECONDS_PER_DAY = 86400.0
TABLE_SIZES = (3, 4, 5, 6)
TABLE_SIZE_WEIGHTS = (0.2, 0.55, 0.15, 0.1)


@dataclass
class Table:
    """One finished Partie: when, who (player ids in seat order), their totals."""

    time: float
    players: list[int]
    totals: list[int]
    skills: list[float]


@dataclass
class Stream:
    """A chronological list of Parties plus each player's arrival day."""

    tables: list[Table]
    arrival_day: dict[int, float] = field(default_factory=dict)


def _luck(rng: random.Random, heavy: bool) -> float:
    if not heavy:
        return rng.gauss(0.0, LUCK_SCALE)
    # Student t with 3 degrees of freedom, scaled to the same interquartile range.
    chi2 = sum(rng.gauss(0.0, 1.0) ** 2 for _ in range(3))
    return LUCK_SCALE * 0.765 * rng.gauss(0.0, 1.0) / math.sqrt(chi2 / 3.0)


def _pick(rng: random.Random, weights: list[float]) -> int:
    return rng.choices(range(len(weights)), weights=weights)[0]


def _token_deal(
    rng: random.Random, weights: list[float], tokens: int, cost: int, doubling: bool = True
) -> list[int]:
    counts = [0] * len(weights)
    for _ in range(tokens):
        counts[_pick(rng, weights)] += 1
    if max(counts) == tokens:
        return [-8 if c == tokens else 0 for c in counts]
    factor = 2 if doubling and min(counts) == 0 else 1
    return [c * cost * factor for c in counts]


def play_partie(rng: random.Random, skills: list[float], heavy: bool) -> list[int]:
    """Penalty totals of one Partie of six deals for players of the given hidden skills."""
    n = len(skills)
    totals = [0] * n
    hearts = 9 if n >= 5 else 8
    for contract in range(6):
        weights = [math.exp(-SKILL_EFFECT * s + _luck(rng, heavy)) for s in skills]
        if contract == 0:
            deal = _token_deal(rng, weights, 8, 1)
        elif contract == 1:
            deal = _token_deal(rng, weights, hearts, 1)
        elif contract == 2:
            deal = _token_deal(rng, weights, 4, 2)
        elif contract == 4:
            deal = [0] * n
            for points in (1, 2, 5):
                deal[_pick(rng, weights)] += points
        else:
            deal = [0] * n
            deal[_pick(rng, weights)] = 8
        totals = [t + d for t, d in zip(totals, deal, strict=True)]
    return totals


def generate(
    seed: int,
    tables: int = 4000,
    players: int = 400,
    heavy: bool = False,
    days: float = 365.0,
    engine: bool = False,
) -> Stream:
    """A ladder: a founding cohort, newcomers arriving through the year, random tables.

    Players differ in activity (log-normal), skill (standard normal, drifting slowly) and
    arrival day; tables are drawn among arrived players weighted by activity. With
    ``engine`` the Parties are played card by card by the bots of ``games/bots`` (see
    ``engine_mode``), the hidden skill setting how often each level decides a move.
    """
    if engine:
        from engine_mode import play_partie as play_with_engine
    rng = random.Random(seed)
    founders = players // 4
    arrival = {p: 0.0 if p < founders else rng.uniform(0.0, 0.75 * days) for p in range(players)}
    activity = {p: math.exp(rng.gauss(0.0, 0.8)) for p in range(players)}
    skill = {p: rng.gauss(0.0, 1.0) for p in range(players)}
    skill_day = dict.fromkeys(range(players), 0.0)
    order = sorted(range(players), key=lambda p: arrival[p])
    result: list[Table] = []
    for index in range(tables):
        day = days * (index + 0.5) / tables
        present = [p for p in order if arrival[p] <= day]
        n = rng.choices(TABLE_SIZES, weights=TABLE_SIZE_WEIGHTS)[0]
        seated: list[int] = []
        pool = list(present)
        while len(seated) < n:
            chosen = rng.choices(pool, weights=[activity[p] for p in pool])[0]
            pool.remove(chosen)
            seated.append(chosen)
        for p in seated:
            elapsed = day - max(skill_day[p], arrival[p])
            skill[p] += rng.gauss(0.0, DRIFT_PER_SQRT_DAY * math.sqrt(max(elapsed, 0.0)))
            skill_day[p] = day
        skills = [skill[p] for p in seated]
        totals = play_with_engine(rng, skills) if engine else play_partie(rng, skills, heavy)
        result.append(Table(day * SECONDS_PER_DAY, seated, totals, skills))
    return Stream(result, arrival)


def cached_generate(cache_dir: str | None, seed: int, **options: object) -> Stream:
    """``generate`` with an optional on-disk cache, since engine streams cost seconds each.

    The file name holds every argument, so a changed stream setting never reads a stale
    stream; a changed simulation *code* needs a fresh directory (or deleting it).
    """
    if not cache_dir:
        return generate(seed, **options)  # type: ignore[arg-type]
    import pickle
    from pathlib import Path

    key = "-".join(f"{name}={options[name]}" for name in sorted(options))
    path = Path(cache_dir) / f"stream-seed={seed}-{key}.pickle"
    if path.exists():
        with path.open("rb") as handle:
            return pickle.load(handle)  # noqa: S301 - our own cache files
    stream = generate(seed, **options)  # type: ignore[arg-type]
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    with temporary.open("wb") as handle:
        pickle.dump(stream, handle)
    temporary.replace(path)
    return stream


def stream_for_mode(
    cache_dir: str | None, seed: int, mode: str, tables: int, players: int
) -> Stream:
    """The stream of one evaluation mode (``normal``, ``heavy`` or ``engine``), cached."""
    return cached_generate(
        cache_dir,
        seed,
        tables=tables,
        players=players,
        heavy=mode == "heavy",
        engine=mode == "engine",
    )
