"""Command line: let bots play each other and print what each seat scored.

python -m games.bots simulate --players 4 --seats heuristic,random,random,random --parties 100 --seed 1
python -m games.bots simulate --players 4 --seats strong,heuristic,heuristic,heuristic --deals 200
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Sequence

from games.engine.rules import CONTRACT_ORDER, HouseRules

from . import BOT_LEVELS, make_bot
from .simulate import play_partie, play_random_deal


def _mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its normal 95% confidence interval."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, float("nan")
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(variance / n)


def _bots(args: argparse.Namespace, levels: list[str], seed: int) -> list:
    options = {} if args.samples is None else {"samples": args.samples}
    return [
        make_bot(
            level, seed=seed * 101 + seat, **(options if level in ("strong", "expert") else {})
        )
        for seat, level in enumerate(levels)
    ]


def cmd_simulate(args: argparse.Namespace) -> int:
    levels = [s.strip() for s in args.seats.split(",")]
    if len(levels) != args.players:
        print(f"--seats names {len(levels)} bots for {args.players} players", file=sys.stderr)
        return 2
    unknown = [lv for lv in levels if lv not in BOT_LEVELS]
    if unknown:
        print(f"unknown level {unknown[0]!r} (one of {', '.join(BOT_LEVELS)})", file=sys.stderr)
        return 2
    rules = HouseRules(doubling=not args.no_doubling, layout=args.layout)
    rng = random.Random(args.seed)
    n = args.players
    if args.deals:
        print(f"{args.deals} deals per contract, seats: {', '.join(levels)}")
        for contract in CONTRACT_ORDER:
            scores: list[list[int]] = [[] for _ in range(n)]
            for k in range(args.deals):
                penalties = play_random_deal(_bots(args, levels, k), contract, rng, rules)
                for seat in range(n):
                    scores[seat].append(penalties[seat])
            cells = []
            for seat in range(n):
                mean, ci = _mean_ci(scores[seat])
                cells.append(f"{levels[seat]} {mean:5.2f} ±{ci:4.2f}")
            print(f"{contract.value:18} " + " | ".join(cells))
        return 0
    totals: list[list[int]] = [[] for _ in range(n)]
    wins = [0.0] * n
    for k in range(args.parties):
        deals = play_partie(_bots(args, levels, k), rng, first_dealer=k % n, rules=rules)
        partie_totals = [sum(p[seat] for p in deals) for seat in range(n)]
        best = min(partie_totals)
        winners = [seat for seat in range(n) if partie_totals[seat] == best]
        for seat in range(n):
            totals[seat].append(partie_totals[seat])
            if seat in winners:
                wins[seat] += 1 / len(winners)
    print(f"{args.parties} Parties, {n} players, seed {args.seed}")
    for seat in range(n):
        mean, ci = _mean_ci(totals[seat])
        print(
            f"seat {seat} {levels[seat]:9} average total {mean:6.2f} ±{ci:4.2f}"
            f"  wins {wins[seat] / args.parties:6.1%}"
        )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.bots", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    sim = commands.add_parser("simulate", help="bots play Parties (or single deals) together")
    sim.add_argument("--players", type=int, default=4, choices=(3, 4, 5, 6))
    sim.add_argument("--seats", required=True, help="comma-separated bot levels, one per seat")
    sim.add_argument("--parties", type=int, default=100)
    sim.add_argument("--deals", type=int, default=0, help="per-contract mode: deals per contract")
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument(
        "--samples", type=int, default=None, help="worlds per strong or expert decision"
    )
    sim.add_argument("--no-doubling", action="store_true")
    sim.add_argument("--layout", default="extend_first", choices=("extend_first", "free"))
    args = parser.parse_args(argv)
    return cmd_simulate(args)


if __name__ == "__main__":
    sys.exit(main())
