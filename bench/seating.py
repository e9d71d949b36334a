"""Bench the Swiss seating: time for 1,000 entrants, and repeat meetings against random seating.

Run: .venv/bin/python bench/seating.py [--entrants 1000] [--rounds 10] [--seeds 10]

Results are simulated: every table's penalty totals are random, turned into placement points, so
later rounds have real score groups and a real history of who met whom.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.scoring import placement_points  # noqa: E402
from tournaments.seating import (  # noqa: E402
    Entrant,
    SeatingHistory,
    SeatingOptions,
    repeat_meetings,
    seat_round,
    table_sizes,
)


def play(tables: list[list[int]], scores: dict[int, float], rng: random.Random) -> None:
    """Random Partie totals at every table, scored as placement points."""
    for table in tables:
        earned = placement_points({p: rng.randint(0, 60) for p in table})
        for player, points in earned.items():
            scores[player] += points


def random_round(ids: list[int], rng: random.Random) -> list[list[int]]:
    shuffled = ids[:]
    rng.shuffle(shuffled)
    tables, start = [], 0
    for size in table_sizes(len(ids)):
        tables.append(shuffled[start : start + size])
        start += size
    return tables


def time_large_field(entrants: int, rounds: int, seed: int, clubs: bool) -> list[float]:
    rng = random.Random(seed)
    scores = {i: 0.0 for i in range(entrants)}
    club = {i: f"club{rng.randrange(entrants // 8)}" for i in range(entrants)}
    history = SeatingHistory()
    options = SeatingOptions(seed=seed, avoid_same_club=clubs)
    timings = []
    for round_number in range(1, rounds + 1):
        field = [Entrant(i, scores[i], club=club[i]) for i in range(entrants)]
        start = time.perf_counter()
        seating = seat_round(field, round_number, history, options)
        timings.append(time.perf_counter() - start)
        print(
            f"  round {round_number:2d}: {timings[-1] * 1000:7.1f} ms  "
            f"repeats={seating.cost.repeats} club_pairs={seating.cost.club_pairs} "
            f"spread={seating.cost.spread:.0f} seat_repeats={seating.cost.seat_repeats}"
        )
        history.record_round(seating.tables, seating.byes)
        play(seating.tables, scores, rng)
    return timings


def repeats_against_random(entrants: int, rounds: int, seeds: int) -> None:
    swiss = [[] for _ in range(rounds)]
    shuffled = [[] for _ in range(rounds)]
    for seed in range(seeds):
        rng = random.Random(seed)
        scores = {i: 0.0 for i in range(entrants)}
        history = SeatingHistory()
        random_history = SeatingHistory()
        random_rng = random.Random(10_000 + seed)
        for round_number in range(1, rounds + 1):
            field = [Entrant(i, scores[i]) for i in range(entrants)]
            seating = seat_round(field, round_number, history, SeatingOptions(seed=seed))
            swiss[round_number - 1].append(repeat_meetings(seating.tables, history))
            history.record_round(seating.tables, seating.byes)
            play(seating.tables, scores, rng)
            tables = random_round(list(range(entrants)), random_rng)
            shuffled[round_number - 1].append(repeat_meetings(tables, random_history))
            random_history.record_round(tables)
    print(f"\nrepeat meetings per round, {entrants} entrants, mean over {seeds} seeds")
    print("  round   swiss   random")
    for index in range(rounds):
        print(
            f"  {index + 1:5d} {statistics.mean(swiss[index]):7.2f} "
            f"{statistics.mean(shuffled[index]):8.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entrants", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seeds", type=int, default=10)
    args = parser.parse_args()

    for clubs in (False, True):
        label = "avoiding same-club pairs" if clubs else "no club rule"
        print(f"seating {args.entrants} entrants over {args.rounds} rounds ({label})")
        timings = time_large_field(args.entrants, args.rounds, seed=1, clubs=clubs)
        print(
            f"  max {max(timings) * 1000:.1f} ms, mean {statistics.mean(timings) * 1000:.1f} ms "
            f"per round (budget 1000 ms)"
        )

    for entrants, rounds in ((12, 5), (16, 6), (24, 8), (40, 8), (100, 10)):
        repeats_against_random(entrants, rounds, args.seeds)


if __name__ == "__main__":
    main()
