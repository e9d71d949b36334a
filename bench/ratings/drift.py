"""How fast each rating follows a real change of skill: Parties to recover half a +1 sd jump.

    .venv/bin/python bench/ratings/drift.py                       # 5 seeds, ours and the baselines
    .venv/bin/python bench/ratings/drift.py --systems ours,ours:tau=20 --seeds 3

A settled ladder (parametric luck, normal or heavy) of ``--players`` players, all present
from day 0, plays ``--settle`` Parties at random tables (every player about 120 Parties).
Then a random fifth of the players (the jumpers) gets +1 sd of hidden skill, and play goes
on for ``--after`` Parties. For each system, the rating value of 1 sd is the slope of the
ratings of the other players on their hidden skill at the moment of the jump; the jumpers'
mean rating gain after k Parties of their own, over that slope, is the recovered share.
Printed: the first k at which the share reaches 1/2 (per seed, and the mean with a 95 %
interval over seeds), and the share after 20/50/100 Parties. No natural drift, so the jump
is the only change.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
from evaluate import make_system  # noqa: E402
from scipy import stats  # noqa: E402
from simulate import SECONDS_PER_DAY, TABLE_SIZE_WEIGHTS, TABLE_SIZES, play_partie  # noqa: E402

JUMP = 1.0
JUMPER_SHARE = 0.2
HORIZON = 200  # Parties after the jump followed per jumper
REPORT_AT = (20, 50, 100)


def _stream(seed: int, players: int, settle: int, after: int, heavy: bool) -> tuple:
    """Tables (time, seated, totals) and the jumpers, the same for every system of a seed."""
    rng = random.Random(seed)
    skill = [rng.gauss(0.0, 1.0) for _ in range(players)]
    before = list(skill)
    jumpers = set(rng.sample(range(players), int(JUMPER_SHARE * players)))
    tables = []
    total = settle + after
    for index in range(total):
        if index == settle:
            for p in jumpers:
                skill[p] += JUMP
        n = rng.choices(TABLE_SIZES, weights=TABLE_SIZE_WEIGHTS)[0]
        seated = rng.sample(range(players), n)
        totals = play_partie(rng, [skill[p] for p in seated], heavy)
        day = 365.0 * (index + 0.5) / total
        tables.append((day * SECONDS_PER_DAY, seated, totals))
    return tables, jumpers, before


def run(job: tuple) -> tuple[str, int, list[float]]:
    """Recovered share after k = 0..HORIZON Parties since the jump, for one system and seed."""
    name, seed, players, settle, after, heavy = job
    tables, jumpers, before = _stream(seed, players, settle, after, heavy)
    system = make_system(name, "heavy" if heavy else "normal")
    gains: dict[int, list[float]] = {k: [] for k in range(1, HORIZON + 1)}
    start: dict[int, float] = {}
    played: dict[int, int] = {}
    slope = 0.0
    for index, (now, seated, totals) in enumerate(tables):
        if index == settle:
            others = [p for p in range(players) if p not in jumpers]
            strengths = [system.strength(system.rating(p)) for p in others]
            slope = float(np.polyfit([before[p] for p in others], strengths, 1)[0])
            start = {p: system.strength(system.rating(p)) for p in jumpers}
        system.predict(seated, now)
        new = system.compute(seated, totals, now)
        system.observe(seated, totals, now)
        system.commit(seated, new)
        if index < settle:
            continue
        for position, p in enumerate(seated):
            if p in jumpers:
                played[p] = played.get(p, 0) + 1
                if played[p] <= HORIZON:
                    gains[played[p]].append(system.strength(new[position]) - start[p])
    shares = [0.0] + [
        statistics.fmean(gains[k]) / slope if len(gains[k]) >= 5 else float("nan")
        for k in range(1, HORIZON + 1)
    ]
    return name, seed, shares


def half_recovery(shares: list[float]) -> float:
    """First k whose share reaches 1/2, linearly interpolated; inf if never within reach."""
    for k in range(1, len(shares)):
        if shares[k] >= 0.5:
            low = shares[k - 1]
            return k - 1 + (0.5 - low) / (shares[k] - low) if shares[k] > low else float(k)
    return math.inf


def _ci(values: list[float]) -> str:
    if any(math.isinf(v) for v in values):
        return f"> {HORIZON}"
    mean = statistics.fmean(values)
    if len(values) < 2:
        return f"{mean:.0f}"
    half = stats.t.ppf(0.975, len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return f"{mean:.0f} ± {half:.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", default="ours,ours-v1,trueskill,openskill-PL,elo")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--settle", type=int, default=6000)
    parser.add_argument("--after", type=int, default=12000)
    parser.add_argument("--heavy", action="store_true", help="heavy-tailed luck")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    names = args.systems.split(",")
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    jobs = [
        (name, seed, args.players, args.settle, args.after, args.heavy)
        for name in names
        for seed in seeds
    ]
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(run, jobs))
    luck = "heavy-tailed" if args.heavy else "normal"
    print(f"### Parties to recover half of a +{JUMP:g} sd jump ({luck} luck, {args.seeds} seeds)")
    print()
    header = "| system | half-recovery (Parties, mean ± 95% CI) | per seed |"
    header += "".join(f" share after {k} |" for k in REPORT_AT)
    print(header)
    print("|" + "---|" * (3 + len(REPORT_AT)))
    for name in names:
        rows = [shares for n, _, shares in results if n == name]
        halves = [half_recovery(shares) for shares in rows]
        cells = [name, _ci(halves), " ".join(f"{h:.0f}" for h in halves)]
        cells += [f"{statistics.fmean(s[k] for s in rows):.2f}" for k in REPORT_AT]
        print("| " + " | ".join(cells) + " |")
    print()
    print(
        f"{time.perf_counter() - started:.0f} s wall ({args.players} players, {args.settle} "
        f"Parties to settle, {args.after} after the jump, seeds {seeds.start}-{seeds.stop - 1})"
    )


if __name__ == "__main__":
    main()
