"""Choose the Rosbi rating's parameters by measurement, on seeds the evaluation never uses.

    .venv/bin/python bench/ratings/tune.py --cache /tmp/rating-streams        # coordinate search
    .venv/bin/python bench/ratings/tune.py --params margin_scale,pair_weight  # a subset
    .venv/bin/python bench/ratings/tune.py --joint margin_scale,margin_slope  # a joint grid

Tuning seeds are 100-109; the reported evaluation uses 0-9. Objective: mean raw next-table
log-loss (last 70% of each stream) over the modes, every mode weighing the same; accuracy
and calibrated log-loss are printed per mode alongside, so a change that helps one mode and
hurts another shows.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from evaluate import run_system  # noqa: E402
from simulate import Stream, stream_for_mode  # noqa: E402
from systems import Ours  # noqa: E402

from ratings import elo  # noqa: E402

GRID = {
    "pair_weight": [0.1, 0.12, 0.15, 0.2, 0.25, 0.3],
    "pair_exponent": [0.0, 0.5, 1.0],
    "min_sigma": [20.0, 30.0, 45.0, 60.0, 80.0],
    "initial_sigma": [250.0, 300.0, 350.0],
    "margin_weight": [0.0, 0.25, 0.5, 0.75, 0.9, 1.0],
    "margin_scale": [9.0, 12.0, 16.0, 20.0, 24.0],
    "margin_slope": [0.5, 0.6, 0.7, 0.8, 0.9, 1.0],
    "max_change": [100.0, 150.0, 250.0, 1000.0],
    "inactivity_c": [5.0, 17.0, 40.0],
    # Log-loss alone prefers no drift in a slowly drifting simulation; tau is chosen by the
    # half-recovery goal of bench/ratings/drift.py (docs/ratings.md, "Reacting to change").
    "tau": [0.0, 10.0, 15.0, 20.0, 25.0, 30.0],
}

TUNING_SEEDS = tuple(range(100, 110))
METRICS = ("log_loss", "accuracy", "log_loss_cal")

_streams: dict[tuple, Stream] = {}


def _score_one(job: tuple) -> tuple[str, dict]:
    """One stream through ours with ``params``; streams are memoised per worker process."""
    params, seed, mode, tables, players, cache = job
    key = (seed, mode, tables, players)
    if key not in _streams:
        _streams[key] = stream_for_mode(cache, seed, mode, tables, players)
    return mode, run_system(Ours(params), _streams[key], probe_every=0)


class Scorer:
    """Mean metrics per mode for a parameter set, over the tuning seeds."""

    def __init__(self, args: argparse.Namespace, pool: ProcessPoolExecutor) -> None:
        self.args = args
        self.pool = pool
        self.modes = args.modes.split(",")

    def __call__(self, params: elo.Params) -> tuple[float, dict[str, dict[str, float]]]:
        a = self.args
        jobs = [
            (params, seed, mode, a.tables, a.players, a.cache)
            for mode in self.modes
            for seed in TUNING_SEEDS[: a.seeds]
        ]
        per_mode: dict[str, list[dict]] = {mode: [] for mode in self.modes}
        for mode, result in self.pool.map(_score_one, jobs):
            per_mode[mode].append(result)
        means = {
            mode: {m: statistics.fmean(r[m] for r in rows) for m in METRICS}
            for mode, rows in per_mode.items()
        }
        objective = statistics.fmean(means[mode]["log_loss"] for mode in self.modes)
        return objective, means


def _line(label: str, objective: float, means: dict[str, dict[str, float]]) -> str:
    cells = " | ".join(
        f"{mode} ll {m['log_loss']:.5f} acc {m['accuracy']:.4f} cal {m['log_loss_cal']:.5f}"
        for mode, m in means.items()
    )
    return f"{label}: objective {objective:.5f} | {cells}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--players", type=int, default=250)
    parser.add_argument("--seeds", type=int, default=len(TUNING_SEEDS))
    parser.add_argument("--modes", default="normal,heavy,engine")
    parser.add_argument("--params", default="", help="comma-separated subset of the grid")
    parser.add_argument("--joint", default="", help="two parameters to search jointly")
    parser.add_argument("--set", default="", help="start point, e.g. pair_weight=0.15,...")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cache", default="", help="directory to keep generated streams in")
    args = parser.parse_args()
    best = elo.DEFAULT_PARAMS
    if args.set:
        changes = dict(item.split("=") for item in args.set.split(","))
        best = dataclasses.replace(best, **{k: float(v) for k, v in changes.items()})
    grid = {name: GRID[name] for name in args.params.split(",")} if args.params else GRID
    with ProcessPoolExecutor(args.jobs) as pool:
        score = Scorer(args, pool)
        if args.joint:
            first, second = args.joint.split(",")
            for a in GRID[first]:
                for b in GRID[second]:
                    candidate = dataclasses.replace(best, **{first: a, second: b})
                    print(_line(f"{first}={a} {second}={b}", *score(candidate)), flush=True)
            return
        best_score = score(best)
        print(_line("start", *best_score), flush=True)
        for round_number in range(args.rounds):
            for name, values in grid.items():
                for value in values:
                    candidate = dataclasses.replace(best, **{name: value})
                    if candidate == best:
                        continue
                    result = score(candidate)
                    print(_line(f"round {round_number} {name}={value}", *result), flush=True)
                    if result[0] < best_score[0]:
                        best, best_score = candidate, result
                print(f"-> best {name}={getattr(best, name)}", flush=True)
    print(best)


if __name__ == "__main__":
    main()
