"""Bench the standings: 1,000 entrants over 10 rounds, every tie-break switched on.

Run: .venv/bin/python bench/standings.py [--entrants 1000] [--rounds 10] [--repeat 5]

Penalty totals are drawn from a narrow range so that many players tie on points and the later
tie-breaks (including head-to-head inside tied groups) actually run. A few entrants join late
and a few skip rounds, so missed-round scoring runs as well.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tournaments.seating import table_sizes  # noqa: E402
from tournaments.standings import (  # noqa: E402
    DEFAULT_TIEBREAKS,
    HEAD_TO_HEAD,
    POINTS,
    TableResult,
    compute_standings,
)


def simulate(entrants: int, rounds: int, seed: int) -> tuple[list[TableResult], list[int]]:
    rng = random.Random(seed)
    players = list(range(entrants))
    late = set(rng.sample(players, entrants // 50))
    results: list[TableResult] = []
    for round_number in range(1, rounds + 1):
        present = [p for p in players if not (p in late and round_number <= 2)]
        present = [p for p in present if rng.random() > 0.01]  # the odd absence
        rng.shuffle(present)
        start = 0
        for index, size in enumerate(table_sizes(len(present))):
            table = present[start : start + size]
            start += size
            results.append(TableResult(round_number, {p: rng.randint(8, 20) for p in table}, index))
    return results, players


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entrants", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    results, players = simulate(args.entrants, args.rounds, seed=1)
    print(f"{args.entrants} entrants, {args.rounds} rounds, {len(results)} tables")
    for label, tiebreaks in (
        ("default tie-breaks", DEFAULT_TIEBREAKS),
        ("points then head-to-head", (POINTS, HEAD_TO_HEAD)),
    ):
        timings = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            rows = compute_standings(results, tiebreaks, players=players, rounds=args.rounds)
            timings.append(time.perf_counter() - start)
        shared = len(rows) - len({row.rank for row in rows})
        print(
            f"  {label:26s} median {statistics.median(timings) * 1000:7.1f} ms, "
            f"max {max(timings) * 1000:7.1f} ms (budget 1000 ms); "
            f"{shared} players share a rank"
        )


if __name__ == "__main__":
    main()
