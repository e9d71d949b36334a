"""Where the strong bot loses against the clairvoyant: regret per decision, by kind of decision.

The focal strong bot plays Parties against heuristic opponents (as in ``bot_strength.py``,
same deals and seats). At each of its decisions with a real choice the true value of every
legal move is the clairvoyant's own search result (the true hands, heuristic continuation);
a choice's regret is its value minus the best move's. This is a one-step measure, free of
the deals' luck, so choice rules can be compared on the same decisions:

- by kind (lead, follow, discard per trick contract; ``hundred``; layout): the plan's regret
  against the strong bot's (40 worlds, confidence 0.5, the focal bot's own play), how often
  each leaves the plan, and what its departures gain;
- by rule: the recorded worlds (``--worlds``, the first 40 are the 40-world bot's own) are
  replayed with other world counts and confidences, and with only the worlds in which every
  observed play of the others is the plan's own (the exact posterior against these opponents).

    python bench/bot_regret.py --players 4,5,6 --parties 100 --seed 20261202
    python bench/bot_regret.py --players 5 --parties 100 --reading   # the expert's worlds
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bot_strength import ClairvoyantBot, uptime  # noqa: E402

from games.bots import make_bot  # noqa: E402
from games.bots.heuristic import heuristic_index  # noqa: E402
from games.bots.strong import StrongBot, prefer_plan  # noqa: E402
from games.engine import Partie  # noqa: E402
from games.engine.deal import SeatView  # noqa: E402

PLAYED_WORLDS = 40
PLAYED_CONFIDENCE = 0.5
RULES: list[tuple[int, float, bool]] = [
    (n, c, False) for n in (40, 200) for c in (0.0, 0.5, 1.0, 2.0)
] + [(200, 0.5, True)]
"""(worlds, confidence, only fully consistent worlds) replayed on the recorded decisions."""


def kind_of(view: SeatView) -> str:
    contract = view.contract.value
    if not view.contract.is_trick_contract:
        return contract
    if not view.current_trick:
        return f"{contract}/lead"
    led = view.current_trick[0][1].suit
    if any(move.suit == led for move in view.legal_moves):
        return f"{contract}/follow"
    return f"{contract}/discard"


Decision = tuple[str, int, dict[int, int], dict[int, list[int]], list[float]]


def record(
    players: int, parties: int, seed: int, worlds: int, reading: bool, lookahead: int = 0
) -> list[Decision]:
    """Every focal decision: kind, planned move, true values, outcomes per world, weights."""
    decisions: list[Decision] = []
    for number in range(parties):
        focal = number % players
        bots = [make_bot("heuristic", seed=number * 10 + s) for s in range(players)]
        # inference=0 only records each world's consistency weight; choices below are unweighted.
        strong = StrongBot(
            number * 10 + focal,
            samples=worlds,
            reading=reading,
            inference=0.0,
            lookahead=lookahead,
        )
        clairvoyant = ClairvoyantBot(1)
        rng = random.Random(seed * 1_000_003 + number)
        partie = Partie(players, 0)
        while partie.next_contract is not None:
            deal = partie.deal_next(rng)
            while not deal.over:
                seat = deal.turn
                view = deal.view_for(seat)
                if seat != focal or len(view.legal_moves) < 2:
                    deal.play(bots[seat].choose(view))
                    continue
                clairvoyant.deal = deal
                true = {i: v[0] for i, v in clairvoyant.outcomes(view).items()}
                outcomes = strong.outcomes(view)
                planned = heuristic_index(view)
                decisions.append(
                    (kind_of(view), planned, true, outcomes, list(strong.last_weights))
                )
                first = {i: v[:PLAYED_WORLDS] for i, v in outcomes.items()}
                deal.play_index(prefer_plan(first, planned, PLAYED_CONFIDENCE))
    return decisions


def by_kind(decisions: Sequence[Decision], parties: int) -> list[str]:
    stats: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0, 0, 0, 0.0, 0])
    for kind, planned, true, outcomes, _w in decisions:
        best = min(true.values())
        first = {i: v[:PLAYED_WORLDS] for i, v in outcomes.items()}
        move = prefer_plan(first, planned, PLAYED_CONFIDENCE)
        ideal = min(true, key=lambda i: (true[i], i != planned))
        for key in {kind, kind.split("/")[0], "all"}:
            s = stats[key]
            s[0] += 1
            s[1] += true[planned] - best
            s[2] += true[move] - best
            s[3] += move != planned
            s[4] += ideal != planned
            if move != planned:
                s[5] += true[planned] - true[move]
                s[6] += true[move] > true[planned]
    rows = [
        "| kind | decisions | regret plan | regret strong | strong leaves the plan | "
        "clairvoyant leaves it | gain of the departures | departures that lose |",
        "|" + "---|" * 8,
    ]
    for key in sorted(stats, key=lambda k: (k != "all", k)):
        n, plan, strong, dev, ideal, gain, bad = stats[key]
        rows.append(
            f"| {key} | {n:,} | {plan / parties:.2f} | {strong / parties:.2f} | {dev / n:.0%} | "
            f"{ideal / n:.0%} | {gain / parties:+.2f} | {bad / max(dev, 1):.0%} |"
        )
    return rows


def by_rule(decisions: Sequence[Decision], parties: int) -> list[str]:
    totals: dict[tuple[int, float, bool] | None, float] = defaultdict(float)
    for _kind, planned, true, outcomes, weights in decisions:
        best = min(true.values())
        totals[None] += true[planned] - best
        for rule in RULES:
            worlds, confidence, consistent = rule
            sub = {i: v[:worlds] for i, v in outcomes.items()}
            w = weights[:worlds] if consistent and sum(weights[:worlds]) > 0 else None
            totals[rule] += true[prefer_plan(sub, planned, confidence, w)] - best
    head = ["plan"] + [
        f"{n} worlds, c={c}" + (", consistent only" if only else "") for n, c, only in RULES
    ]
    cells = [totals[None]] + [totals[rule] for rule in RULES]
    return [
        "| " + " | ".join(head) + " |",
        "|" + "---|" * len(head),
        "| " + " | ".join(f"{x / parties:.2f}" for x in cells) + " |",
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", default="4,5,6")
    parser.add_argument("--parties", type=int, default=100)
    parser.add_argument("--worlds", type=int, default=200, help="recorded worlds per decision")
    parser.add_argument("--seed", type=int, default=20261202)
    parser.add_argument("--reading", action="store_true", help="record the expert's worlds")
    parser.add_argument(
        "--lookahead",
        type=int,
        default=0,
        help="own decisions searched in the rollouts (0: the figures of docs/bots.md)",
    )
    args = parser.parse_args(argv)
    if args.worlds < PLAYED_WORLDS:
        parser.error(f"--worlds must be at least {PLAYED_WORLDS}")
    print(f"machine before: {uptime()}")
    started = time.perf_counter()
    for players in (int(p) for p in args.players.split(",")):
        decisions = record(
            players, args.parties, args.seed, args.worlds, args.reading, args.lookahead
        )
        print(
            f"\n## {players} players, {args.parties} Parties, seed {args.seed}"
            f"{', reading' if args.reading else ''}: regret per Partie\n"
        )
        print("\n".join(by_kind(decisions, args.parties)))
        print()
        print("\n".join(by_rule(decisions, args.parties)), flush=True)
    print(f"\nmachine after: {uptime()}; total {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
