"""Benchmark the bot levels against each other and print Markdown tables with 95% intervals.

Every table seats one "focal" bot with three opponents of one level. The focal seat rotates
with the Partie number (seat k % 4) and Partie k is always dealt from the same seed, so a
focal level and the baseline (the opponents' own level sitting in the focal seat) play the
same cards from the same seats: their difference is paired, which shrinks its interval.

    python bench/bots.py                       # full run (2,000 Parties, 10,000 deals, ...)
    python bench/bots.py --quick               # a smoke run in about a minute
    python bench/bots.py --strong-parties 400 --samples 30

Figures go to standard output; docs/bots.md holds a copy of the last full run.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.bots import make_bot  # noqa: E402
from games.bots.base import Bot  # noqa: E402
from games.engine import Contract, Deal, Partie  # noqa: E402
from games.engine.partie import random_deal  # noqa: E402
from games.engine.rules import CONTRACT_ORDER  # noqa: E402

PLAYERS = 4


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its normal-approximation 95% confidence interval."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, float("nan")
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(variance / n)


def fmt(values: Sequence[float]) -> str:
    mean, ci = mean_ci(values)
    return f"{mean:.2f} ± {ci:.2f}"


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Table:
    """The focal level in one seat, three opponents of another level in the rest."""

    def __init__(self, focal: str, others: str, strong_options: dict) -> None:
        self.focal = focal
        self.others = others
        self.strong_options = strong_options
        self.totals: list[int] = []
        self.per_contract: dict[Contract, list[int]] = {c: [] for c in CONTRACT_ORDER}
        self.decision_seconds: list[float] = []

    def bot(self, level: str, seed: int) -> Bot:
        options = self.strong_options if level == "strong" else {}
        return make_bot(level, seed=seed, **options)

    def seats(self, number: int) -> tuple[int, list[Bot]]:
        focal_seat = number % PLAYERS
        bots = [
            self.bot(self.focal if s == focal_seat else self.others, number * 10 + s)
            for s in range(PLAYERS)
        ]
        return focal_seat, bots

    def play(self, deal: Deal, bots: list[Bot], focal_seat: int) -> int:
        """Play ``deal`` out; time the focal bot's real decisions (more than one legal move)."""
        while not deal.over:
            seat = deal.turn
            view = deal.view_for(seat)
            if seat == focal_seat and len(view.legal_moves) > 1:
                # CPU time of this process: the machine is shared, wall time would count others.
                start = time.process_time()
                move = bots[seat].choose(view)
                self.decision_seconds.append(time.process_time() - start)
            else:
                move = bots[seat].choose(view)
            deal.play(move)
        return deal.penalties[focal_seat]  # type: ignore[index]

    def play_parties(self, count: int, seed: int) -> None:
        for number in range(count):
            focal_seat, bots = self.seats(number)
            rng = random.Random(seed * 1_000_003 + number)
            partie = Partie(PLAYERS, 0)
            total = 0
            for contract in CONTRACT_ORDER:
                penalty = self.play(partie.deal_next(rng), bots, focal_seat)
                self.per_contract[contract].append(penalty)
                total += penalty
            self.totals.append(total)

    def play_deals(self, count: int, seed: int) -> None:
        """``count`` single deals of every contract (random dealer), focal seat rotating."""
        for contract in CONTRACT_ORDER:
            for number in range(count):
                focal_seat, bots = self.seats(number)
                rng = random.Random(seed * 1_000_003 + number)
                deal = random_deal(PLAYERS, contract, rng)
                self.per_contract[contract].append(self.play(deal, bots, focal_seat))


def partie_rows(tables: list[Table], baselines: dict[str, Table]) -> list[str]:
    head = "| focal bot | vs 3 | Parties | " + " | ".join(c.value for c in CONTRACT_ORDER)
    rows = [
        head + " | Partie total | baseline total | change (paired 95% CI) |",
        "|" + "---|" * (len(CONTRACT_ORDER) + 6),
    ]
    for table in tables:
        n = len(table.totals)
        base = baselines[table.others]
        cells = [fmt(table.per_contract[c]) for c in CONTRACT_ORDER]
        if table is base:
            compare = "(baseline)"
            base_cell = "-"
        else:
            base_totals = base.totals[:n]
            diffs = [a - b for a, b in zip(table.totals, base_totals, strict=True)]
            diff, ci = mean_ci(diffs)
            base_mean = sum(base_totals) / n
            compare = f"{diff / base_mean:+.1%} ({diff:+.2f} ± {ci:.2f})"
            base_cell = fmt(base_totals)
        rows.append(
            f"| {table.focal} | {table.others} | {n} | "
            + " | ".join(cells)
            + f" | {fmt(table.totals)} | {base_cell} | {compare} |"
        )
    return rows


def deal_rows(tables: list[Table], count: int) -> list[str]:
    rows = [
        f"| contract | {' | '.join(f'{t.focal} vs 3 {t.others}' for t in tables)} |",
        "|---|" + "---|" * len(tables),
    ]
    for contract in CONTRACT_ORDER:
        rows.append(
            f"| {contract.value} | "
            + " | ".join(fmt(t.per_contract[contract]) for t in tables)
            + " |"
        )
    rows.append(f"\n({count:,} deals per contract and table, 4 players, random dealer)")
    return rows


def timing_rows(tables: list[Table]) -> list[str]:
    seconds: dict[str, list[float]] = {}
    for table in tables:
        seconds.setdefault(table.focal, []).extend(table.decision_seconds)
    rows = ["| level | decisions | p50 ms | p99 ms |", "|---|---|---|---|"]
    for level, values in seconds.items():
        if values:
            rows.append(
                f"| {level} | {len(values):,} | {1000 * percentile(values, 0.5):.3f} | "
                f"{1000 * percentile(values, 0.99):.3f} |"
            )
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--parties", type=int, default=2000)
    parser.add_argument("--strong-parties", type=int, default=300)
    parser.add_argument("--samples", type=int, default=30, help="worlds per strong decision")
    parser.add_argument("--deals", type=int, default=10000, help="deals per contract")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="tiny run to check the script")
    args = parser.parse_args(argv)
    if args.quick:
        args.parties, args.strong_parties, args.deals = 60, 8, 100
    strong = {"samples": args.samples}
    started = time.perf_counter()

    def parties(focal: str, others: str, count: int) -> Table:
        table = Table(focal, others, strong)
        begin = time.perf_counter()
        table.play_parties(count, args.seed)
        print(
            f"  {focal} vs 3 {others}: {count} Parties in {time.perf_counter() - begin:.0f} s",
            file=sys.stderr,
            flush=True,
        )
        return table

    random_all = parties("random", "random", args.parties)
    heuristic_all = parties("heuristic", "heuristic", args.parties)
    baselines = {"random": random_all, "heuristic": heuristic_all}
    beginner_all = parties("beginner", "beginner", args.parties)
    baselines["beginner"] = beginner_all
    tables = [
        random_all,
        parties("beginner", "random", args.parties),
        parties("heuristic", "random", args.parties),
        beginner_all,
        parties("heuristic", "beginner", args.parties),
        heuristic_all,
        parties("random", "heuristic", args.parties),
        parties("beginner", "heuristic", args.parties),
    ]
    print(f"## Parties (4 players, seed {args.seed})\n")
    print("Average penalty of the focal bot per deal of each contract and per Partie (± 95% CI).")
    print("Baseline: the opponents' level in the focal seat on the same deals (paired).\n")
    print("\n".join(partie_rows(tables, baselines)), flush=True)

    deal_tables = []
    for focal, others in (("heuristic", "random"), ("random", "heuristic"), ("random", "random")):
        table = Table(focal, others, strong)
        table.play_deals(args.deals, args.seed + 7)
        deal_tables.append(table)
        print(f"  deals: {focal} vs 3 {others} done", file=sys.stderr, flush=True)
    print("\n## Single deals: average penalty per deal (± 95% CI)\n")
    print("\n".join(deal_rows(deal_tables, args.deals)), flush=True)

    strong_table = parties("strong", "heuristic", args.strong_parties)
    print(f"\n## Strong bot ({args.samples} worlds per decision) vs 3 heuristic\n")
    print("\n".join(partie_rows([heuristic_all, strong_table], baselines)))
    print("\n## Decision CPU time of the focal bot (decisions with more than one legal move)\n")
    print("\n".join(timing_rows([*tables, *deal_tables, strong_table])))
    print(f"\n(total run time {time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
