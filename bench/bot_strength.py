"""How much of the clairvoyant's edge the strong bot captures, at 3, 4, 5 and 6 players.

Every table seats one focal bot against heuristic opponents. Partie k is dealt from the same
seed for every focal bot and the focal seat is k % players, so all focal bots play the same
cards from the same seat: their differences are paired. The focal bots:

- ``heuristic``: the plan itself (the baseline);
- ``strong`` variants: the sampling bot with a fixed number of worlds (repeatable);
- ``clairvoyant``: the strong bot's search given the true hands as its only world (perfect
  information, plan rollouts): the yardstick of issue 17. Since the strong bot searches its
  own next decision inside its rollouts (December 2026) it is no longer a ceiling: a bot can
  pass it (share above 100 %).

Captured share = (heuristic - strong) / (heuristic - clairvoyant), with a 95 % interval from
a paired bootstrap over Parties. A separate timed run plays each variant with the table's
0.2 s wall-clock budget and reports decision-time p50/p99 (wall time: what a player waits).

    python bench/bot_strength.py --players 3,4,5,6 --parties 200 --samples 40
    python bench/bot_strength.py --quick
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.bots import make_bot  # noqa: E402
from games.bots.base import Bot  # noqa: E402
from games.bots.sampling import Knowledge  # noqa: E402
from games.bots.strong import StrongBot  # noqa: E402
from games.engine import CONTRACT_ORDER, Deal, Partie  # noqa: E402
from games.engine.deal import SeatView  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bots import mean_ci, percentile  # noqa: E402  (bench/bots.py: one copy of each)


class ClairvoyantBot(StrongBot):
    """The strong bot's search on the one true world (the benchmark hands it the deal), with
    plan rollouts (``lookahead=0``): the fixed yardstick of issue 17, whatever the strong
    bot's own rollouts are (a search bot may pass it, i.e. score a share above 100 %)."""

    level = "clairvoyant"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed, samples=1, lookahead=0)
        self.deal: Deal | None = None

    def draw_world(self, knowledge: Knowledge, view: SeatView) -> list[int]:
        assert self.deal is not None
        return list(self.deal.hand_masks)


def variant(spec: str, samples: int, time_limit: float | None) -> Callable[[int], Bot]:
    """A factory for a focal bot: ``heuristic``, ``clairvoyant``, ``strong``, ``expert`` or
    ``strong:key=value,...`` (StrongBot options, e.g. ``strong:inference=0.1``)."""
    if spec == "clairvoyant":
        return lambda seed: ClairvoyantBot(seed)
    level, _, rest = spec.partition(":")
    options: dict[str, float | int | str] = {}
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition("=")
        options[key] = value if key == "rollout" else float(value)
    if level in ("strong", "expert"):
        if time_limit is not None:  # the table's mode: a wall-clock budget only
            options.pop("samples", None)
            options["time_limit"] = time_limit
        else:
            options["samples"] = int(options.get("samples", samples))
    return lambda seed: make_bot(level, seed=seed, **options)


def play_parties(
    factory: Callable[[int], Bot],
    players: int,
    count: int,
    seed: int,
    worlds: list[int] | None = None,
    deals: list[list[int]] | None = None,
) -> tuple[list[int], list[float]]:
    """Focal totals per Partie and the wall seconds of its decisions with a real choice
    (with ``worlds``, the worlds each of those decisions looked at are appended to it; with
    ``deals``, each Partie's focal penalties per contract, in Partie order)."""
    totals: list[int] = []
    seconds: list[float] = []
    for number in range(count):
        focal = number % players
        bots = [
            factory(number * 10 + s) if s == focal else make_bot("heuristic", seed=number * 10 + s)
            for s in range(players)
        ]
        rng = random.Random(seed * 1_000_003 + number)
        partie = Partie(players, 0)
        total = 0
        per_deal: list[int] = []
        while partie.next_contract is not None:
            deal = partie.deal_next(rng)
            while not deal.over:
                seat = deal.turn
                view = deal.view_for(seat)
                bot = bots[seat]
                if seat == focal and len(view.legal_moves) > 1:
                    if isinstance(bot, ClairvoyantBot):
                        bot.deal = deal
                    start = time.perf_counter()
                    move = bot.choose(view)
                    seconds.append(time.perf_counter() - start)
                    if worlds is not None:
                        worlds.append(getattr(bot, "last_samples", 0))
                else:
                    move = bot.choose(view)
                deal.play(move)
            total += deal.penalties[focal]  # type: ignore[index]
            per_deal.append(deal.penalties[focal])  # type: ignore[index]
        totals.append(total)
        if deals is not None:
            deals.append(per_deal)
    return totals, seconds


def paired_bootstrap(
    statistic: Callable[[Sequence[int]], float], n: int, seed: int, draws: int = 2000
) -> tuple[float, float, float]:
    """``statistic`` over all ``n`` Parties and its 95 % interval, resampling whole Parties."""
    rng = random.Random(seed)
    point = statistic(range(n))
    samples = sorted(statistic([rng.randrange(n) for _ in range(n)]) for _ in range(draws))
    return point, samples[int(0.025 * draws)], samples[int(0.975 * draws) - 1]


def share_ci(
    base: Sequence[int], bot: Sequence[int], ceiling: Sequence[int], draws: int = 2000
) -> tuple[float, float, float]:
    """Captured share and a paired bootstrap 95 % interval (resampling whole Parties)."""

    def share(idx: Sequence[int]) -> float:
        gain = sum(base[i] - ceiling[i] for i in idx)
        return sum(base[i] - bot[i] for i in idx) / gain if gain else float("nan")

    return paired_bootstrap(share, len(base), 12345, draws)


def share_difference_ci(
    base: Sequence[int],
    first: Sequence[int],
    second: Sequence[int],
    ceiling: Sequence[int],
    draws: int = 2000,
) -> tuple[float, float, float]:
    """Share of ``second`` minus share of ``first`` and its paired bootstrap 95 % interval
    (the same resampled Parties for both, so the common luck of the deals cancels)."""

    def difference(idx: Sequence[int]) -> float:
        gain = sum(base[i] - ceiling[i] for i in idx)
        return sum(first[i] - second[i] for i in idx) / gain if gain else float("nan")

    return paired_bootstrap(difference, len(base), 54321, draws)


def uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return "load " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", default="3,4,5,6")
    parser.add_argument("--parties", type=int, default=200)
    parser.add_argument("--samples", type=int, default=40, help="worlds per strong decision")
    parser.add_argument("--bots", default="strong:inference=1,strong", help="focal variants")
    parser.add_argument("--timed-parties", type=int, default=0, help="Parties at 0.2 s wall")
    parser.add_argument("--time-limit", type=float, default=0.2)
    parser.add_argument("--seed", type=int, default=20261202)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument(
        "--per-contract", action="store_true", help="also points per deal of each contract"
    )
    parser.add_argument("--dump", help="write every Partie's focal points per deal as JSON")
    args = parser.parse_args(argv)
    if args.quick:
        args.parties, args.timed_parties = 6, 1
    counts = [int(p) for p in args.players.split(",")]
    specs = [s for s in args.bots.split(",") if s] if ":" not in args.bots else _split(args.bots)
    print(f"machine before: {uptime()}")
    print(
        f"command: python bench/bot_strength.py --players {args.players} --parties "
        f"{args.parties} --samples {args.samples} --bots '{args.bots}' --timed-parties "
        f"{args.timed_parties} --seed {args.seed}\n"
    )
    started = time.perf_counter()
    head = "| players | Parties | heuristic | " + " | ".join(specs) + " | clairvoyant |"
    share_head = " | ".join(f"share {s} (95% CI)" for s in specs)
    rows = [head + f" {share_head} |", "|" + "---|" * (4 + 2 * len(specs))]
    timing = [
        "| players | bot | decisions | worlds p50 | p50 ms | p99 ms | max ms |",
        "|" + "---|" * 7,
    ]
    contract_rows: list[str] = []
    differences: list[str] = []
    dump: dict[str, dict[str, list[list[int]]]] = {}
    for players in counts:
        per_deal: dict[str, list[list[int]]] = {"heuristic": [], "clairvoyant": []}
        base, _ = play_parties(
            variant("heuristic", 0, None),
            players,
            args.parties,
            args.seed,
            deals=per_deal["heuristic"],
        )
        clair, _ = play_parties(
            variant("clairvoyant", 0, None),
            players,
            args.parties,
            args.seed,
            deals=per_deal["clairvoyant"],
        )
        results = []
        for spec in specs:
            begin = time.perf_counter()
            per_deal[spec] = []
            totals, _ = play_parties(
                variant(spec, args.samples, None),
                players,
                args.parties,
                args.seed,
                deals=per_deal[spec],
            )
            results.append(totals)
            print(
                f"  {players}p {spec}: {time.perf_counter() - begin:.0f} s",
                file=sys.stderr,
                flush=True,
            )
        cells = [_fmt(base), *(_fmt(t) for t in results), _fmt(clair)]
        shares = []
        for totals in results:
            point, low, high = share_ci(base, totals, clair)
            shares.append(f"{point:.0%} ({low:.0%} to {high:.0%})")
        rows.append(f"| {players} | {args.parties} | " + " | ".join(cells + shares) + " |")
        print(rows[-1], flush=True)
        for spec, other in comparisons(specs):
            point, low, high = share_difference_ci(
                base, results[specs.index(other)], results[specs.index(spec)], clair
            )
            differences.append(
                f"| {players} | {spec} - {other} | {point:+.0%} ({low:+.0%} to {high:+.0%}) |"
            )
        dump[str(players)] = per_deal
        if args.per_contract:
            contract_rows.extend(_contract_rows(players, specs, per_deal))
        for spec in specs if args.timed_parties else []:
            factory = variant(spec, args.samples, args.time_limit)
            worlds: list[int] = []
            _totals, seconds = play_parties(
                factory, players, args.timed_parties, args.seed + 1, worlds
            )
            timing.append(
                f"| {players} | {spec} @ {args.time_limit} s | {len(seconds):,} | "
                f"{percentile(worlds, 0.5):.0f} | {1000 * percentile(seconds, 0.5):.1f} | "
                f"{1000 * percentile(seconds, 0.99):.1f} | {1000 * max(seconds):.1f} |"
            )
            print(timing[-1], flush=True)
    print("\n## Points per Partie of the focal bot vs heuristic opponents (± 95% CI)\n")
    print("\n".join(rows))
    if differences:
        print("\n## Paired difference of the captured shares (95% CI)\n")
        print("| players | variants | difference |\n|---|---|---|")
        print("\n".join(differences))
    if contract_rows:
        print("\n## Points per deal of each contract (share of the clairvoyant's gain)\n")
        print(
            "| players | contract | heuristic | "
            + " | ".join(specs)
            + " | clairvoyant | gap per deal | "
            + " | ".join(f"lost by {s} per deal" for s in specs)
            + " |"
        )
        print("|" + "---|" * (5 + 2 * len(specs)))
        print("\n".join(contract_rows))
    if args.dump:
        Path(args.dump).write_text(json.dumps({"seed": args.seed, "players": dump}))
    if args.timed_parties:
        print("\n## Decision wall time at the table's budget (decisions with a real choice)\n")
        print("\n".join(timing))
    print(f"\nmachine after: {uptime()}; total {time.perf_counter() - started:.0f} s")
    return 0


def comparisons(specs: Sequence[str]) -> list[tuple[str, str]]:
    """The paired differences to print: every variant against the first, and a variant with
    options (``expert:lookahead=1``) also against its plain level when that is in the run."""
    out = [(spec, specs[0]) for spec in specs[1:]]
    for spec in specs[1:]:
        level = spec.partition(":")[0]
        if level != spec and level in specs and level != specs[0]:
            out.append((spec, level))
    return out


def _split(spec: str) -> list[str]:
    """Split ``a,b:x=1,y=2,c`` into variants: a comma before ``key=`` belongs to the options."""
    out: list[str] = []
    for part in spec.split(","):
        if "=" in part and ":" not in part and out and ":" in out[-1]:
            out[-1] += "," + part
        else:
            out.append(part)
    return out


def _contract_rows(
    players: int, specs: Sequence[str], per_deal: dict[str, list[list[int]]]
) -> list[str]:
    """Mean focal points per deal of each contract; "lost" is bot - clairvoyant."""
    rows = []
    for position, contract in enumerate(CONTRACT_ORDER):

        def mean(name: str, position: int = position) -> float:
            values = [deals[position] for deals in per_deal[name]]
            return sum(values) / len(values)

        heuristic, clair = mean("heuristic"), mean("clairvoyant")
        cells = [f"{mean(s):.2f}" for s in specs]
        lost = [f"{mean(s) - clair:+.2f}" for s in specs]
        rows.append(
            f"| {players} | {contract.value} | {heuristic:.2f} | "
            + " | ".join(cells)
            + f" | {clair:.2f} | {heuristic - clair:+.2f} | "
            + " | ".join(lost)
            + " |"
        )
    return rows


def _fmt(values: Sequence[float]) -> str:
    mean, ci = mean_ci(values)
    return f"{mean:.2f} ± {ci:.2f}"


if __name__ == "__main__":
    sys.exit(main())
