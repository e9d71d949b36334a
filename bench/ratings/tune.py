"""Choose the Rosbi rating's parameters by measurement, on seeds the evaluation never uses.

    .venv/bin/python bench/ratings/tune.py            # coordinate search, prints every step

Objective: mean raw next-table log-loss (last 70% of each stream) over normal and
heavy-tailed luck; accuracy and calibrated log-loss are printed alongside.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from evaluate import run_system  # noqa: E402
from simulate import generate  # noqa: E402
from systems import Ours  # noqa: E402

from ratings import elo  # noqa: E402

GRID = {
    "pair_weight": [0.15, 0.2, 0.25, 0.3, 0.35, 0.5],
    "pair_exponent": [0.0, 0.5, 1.0],
    "min_sigma": [20.0, 30.0, 45.0, 60.0, 80.0],
    "initial_sigma": [250.0, 300.0, 350.0],
    "margin_weight": [0.0, 0.25, 0.5, 0.75, 0.9, 1.0],
    "margin_scale": [9.0, 12.0, 16.0, 24.0],
    "margin_slope": [0.5, 0.6, 0.7, 0.8, 0.9, 1.0],
    "max_change": [100.0, 150.0, 250.0, 1000.0],
    "inactivity_c": [5.0, 17.0, 40.0],
}

TUNING_SEEDS = (101, 102, 103)


def score(params: elo.Params, streams: list) -> tuple[float, float, float]:
    results = [run_system(Ours(params), stream, probe_every=0) for stream in streams]
    return (
        statistics.fmean(r["log_loss"] for r in results),
        statistics.fmean(r["accuracy"] for r in results),
        statistics.fmean(r["log_loss_cal"] for r in results),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--tables", type=int, default=3000)
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--modes", default="normal,heavy,engine")
    parser.add_argument("--params", default="", help="comma-separated subset of the grid")
    parser.add_argument("--joint", default="", help="two parameters to search jointly")
    args = parser.parse_args()
    modes = args.modes.split(",")
    streams = [
        generate(
            seed,
            tables=args.tables,
            players=args.players,
            heavy=mode == "heavy",
            engine=mode == "engine",
        )
        for seed in TUNING_SEEDS
        for mode in modes
    ]
    grid = {name: GRID[name] for name in args.params.split(",")} if args.params else GRID
    best = elo.DEFAULT_PARAMS
    if args.joint:
        first, second = args.joint.split(",")
        for a in GRID[first]:
            for b in GRID[second]:
                candidate = dataclasses.replace(best, **{first: a, second: b})
                result = score(candidate, streams)
                print(
                    f"{first}={a} {second}={b}: ll {result[0]:.5f} "
                    f"acc {result[1]:.4f} ll-cal {result[2]:.5f}",
                    flush=True,
                )
        return
    best_score = score(best, streams)
    print(f"start {best_score}", flush=True)
    for round_number in range(args.rounds):
        for name, values in grid.items():
            for value in values:
                candidate = dataclasses.replace(best, **{name: value})
                if candidate == best:
                    continue
                result = score(candidate, streams)
                print(
                    f"round {round_number} {name}={value}: ll {result[0]:.5f} "
                    f"acc {result[1]:.4f} ll-cal {result[2]:.5f}",
                    flush=True,
                )
                if result[0] < best_score[0]:
                    best, best_score = candidate, result
            print(f"-> best {name}={getattr(best, name)} {best_score}", flush=True)
    print(best)


if __name__ == "__main__":
    main()
