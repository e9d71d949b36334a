"""A rating for every bot level, on the ladder's scale, from rated Parties.

The ladder's population model (``bench/ratings/engine_mode.py``: simulated players of hidden
skill N(0, 1) whose moves are made by the heuristic, beginner or random bot in proportions
set by that skill) first plays a warm-up of rated Parties among itself, all newcomers at
1500, so its ratings settle on the scale real players would have. Then the bot levels join:
tables of 3-6 seats with one or two bot levels among population players, and tables of bot
levels only. Every Partie is rated with the project's own maths (``ratings.elo.update``,
population and bots alike). A level's figure is the mean of its rating over the second half
of its Parties (the running rating moves ±60 with every Partie), with its final sigma.

    python bench/bot_ratings.py                     # the published run, writes the table
    python bench/bot_ratings.py --quick --no-write  # smoke run

With ``--write`` (default) the figures go to ``games/bots/ratings_table.py``.
"""

from __future__ import annotations

import argparse
import datetime
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench" / "ratings"))

from engine_mode import level_shares  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from bot_strength import uptime  # noqa: E402  (one copy)

from games.bots import BOT_LEVELS, make_bot  # noqa: E402
from games.bots.beginner import BeginnerBot  # noqa: E402
from games.bots.heuristic import HeuristicBot  # noqa: E402
from games.bots.random_bot import RandomBot  # noqa: E402
from games.engine import Partie, draw_first_dealer  # noqa: E402
from ratings import elo  # noqa: E402

TABLE_SIZES = (3, 4, 5, 6)
TABLE_SIZE_WEIGHTS = (0.2, 0.55, 0.15, 0.1)
SEARCH_LEVELS = ("strong", "expert")


def play_partie(
    rng: random.Random, seats: Sequence[object], search_samples: int, seed: int
) -> list[int]:
    """Totals of one Partie; a seat is a bot level (str) or a population skill (float)."""
    n = len(seats)
    heuristic, beginner, random_bot = HeuristicBot(rng), BeginnerBot(rng), RandomBot(rng)
    bots = {}
    thresholds = {}
    for seat, who in enumerate(seats):
        if isinstance(who, str):
            options = {"samples": search_samples} if who in SEARCH_LEVELS else {}
            bots[seat] = make_bot(who, seed=seed * 10 + seat, **options)
        else:
            first, second, _ = level_shares(who)
            thresholds[seat] = (first, first + second)
    partie = Partie(n, draw_first_dealer(n, rng))
    while not partie.is_over:
        deal = partie.deal_next(rng)
        while not deal.over:
            seat = deal.turn
            view = deal.view_for(seat)
            if seat in bots:
                move = bots[seat].choose(view)
            else:
                to_heuristic, to_beginner = thresholds[seat]
                draw = rng.random()
                bot = (
                    heuristic
                    if draw < to_heuristic
                    else beginner
                    if draw < to_beginner
                    else random_bot
                )
                move = bot.choose(view)
            deal.play(move)
    return list(partie.totals)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--population", type=int, default=80, help="simulated players")
    parser.add_argument("--warmup", type=int, default=800, help="population-only Parties")
    parser.add_argument("--parties", type=int, default=120, help="Parties per bot level")
    parser.add_argument("--samples", type=int, default=30, help="worlds per strong/expert move")
    parser.add_argument("--seed", type=int, default=20261202)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--no-write", dest="write", action="store_false")
    args = parser.parse_args(argv)
    if args.quick:
        args.population, args.warmup, args.parties, args.samples = 20, 40, 6, 3
    started = time.perf_counter()
    load_before = uptime()
    print(f"machine before: {load_before}", flush=True)
    rng = random.Random(args.seed)
    skills = [rng.gauss(0.0, 1.0) for _ in range(args.population)]
    ratings: dict[object, elo.Rating] = {p: elo.new_rating() for p in range(args.population)}
    levels = list(BOT_LEVELS)
    ratings.update({level: elo.new_rating() for level in levels})
    history: dict[str, list[float]] = {level: [] for level in levels}
    number = 0

    def rate(seated: list[object]) -> None:
        nonlocal number
        number += 1
        seats = [skills[w] if isinstance(w, int) else w for w in seated]
        totals = play_partie(rng, seats, args.samples, args.seed + number)
        now = float(number) * 3600.0
        new = elo.update([ratings[w] for w in seated], totals, now=now)
        for w, rating in zip(seated, new, strict=True):
            ratings[w] = rating
            if isinstance(w, str):
                history[w].append(rating.mu)

    for _ in range(args.warmup):
        size = rng.choices(TABLE_SIZES, weights=TABLE_SIZE_WEIGHTS)[0]
        rate(rng.sample(range(args.population), size))
    print(f"  warm-up: {args.warmup} Parties, {time.perf_counter() - started:.0f} s", flush=True)
    # Each bot level sits in ``parties`` Parties: two in three with population players (one
    # or two levels per table), one in three at a table of bot levels only.
    todo = {level: args.parties for level in levels}
    while any(todo.values()):
        waiting = [level for level in levels if todo[level]]
        size = rng.choices(TABLE_SIZES, weights=TABLE_SIZE_WEIGHTS)[0]
        if rng.random() < 1 / 3 and len(waiting) >= 3:
            chosen = rng.sample(waiting, min(size, len(waiting)))
            seated: list[object] = list(chosen)
            others = [lv for lv in levels if lv not in chosen]
            while len(seated) < 3:
                seated.append(others.pop(rng.randrange(len(others))))
        else:
            chosen = rng.sample(waiting, min(len(waiting), rng.choice((1, 2))))
            seated = [*chosen, *rng.sample(range(args.population), size - len(chosen))]
        rng.shuffle(seated)
        for level in seated:
            if isinstance(level, str) and todo[level]:
                todo[level] -= 1
        rate(seated)
    figures = {}
    for level in levels:
        tail = history[level][len(history[level]) // 2 :]
        figures[level] = (
            round(sum(tail) / len(tail)),
            round(ratings[level].sigma),
            len(history[level]),
        )
    population = sorted(ratings[p].mu for p in range(args.population))
    median = population[len(population) // 2]
    load_after = uptime()
    seconds = time.perf_counter() - started
    command = (
        f"python bench/bot_ratings.py --population {args.population} --warmup {args.warmup} "
        f"--parties {args.parties} --samples {args.samples} --seed {args.seed}"
    )
    print(f"\n{command}\n")
    print("| level | rating (mean over the 2nd half) | final sigma | rated Parties |")
    print("|---|---|---|---|")
    for level, (mu, sigma, count) in figures.items():
        print(f"| {level} | {mu} | {sigma} | {count} |")
    print(
        f"\npopulation: median {median:.0f}, 10th-90th percentile "
        f"{population[len(population) // 10]:.0f}-{population[9 * len(population) // 10]:.0f}"
    )
    print(f"machine after: {load_after}; total {seconds:.0f} s")
    if args.write:
        write_table(figures, command, load_before, load_after, median)
    return 0


def write_table(
    figures: dict[str, tuple[int, int, int]],
    command: str,
    load_before: str,
    load_after: str,
    median: float,
) -> None:
    today = datetime.date.today().isoformat()
    lines = [
        '"""Measured ratings of the bot levels (generated by bench/bot_ratings.py: do not edit).',
        "",
        "Rated Parties against each other and against the ladder's population model, with the",
        "project's rating maths; the figure shown next to a bot's name.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "BOT_RATINGS: dict[str, int] = {",
        *(f'    "{level}": {mu},' for level, (mu, _s, _n) in figures.items()),
        "}",
        '"""Level -> rating on the ladder\'s scale (newcomers start at 1500)."""',
        "",
        "BOT_RATING_SIGMAS: dict[str, int] = {",
        *(f'    "{level}": {sigma},' for level, (_m, sigma, _n) in figures.items()),
        "}",
        "",
        f"POPULATION_MEDIAN = {round(median)}",
        f'MEASURED_ON = "{today}"',
        f'MEASURED_WITH = "{command}"',
        f'MACHINE_LOAD = "{load_before.split("load average:")[-1].strip()} / '
        f'{load_after.split("load average:")[-1].strip()}"',
        "",
    ]
    (ROOT / "games" / "bots" / "ratings_table.py").write_text("\n".join(lines))


if __name__ == "__main__":
    sys.exit(main())
