"""Can a player farm the ladder with weak bots? Old rule (every bot seat 1500) against the new
one (a bot seat counts as its level's measured rating), beside the same run's baselines.

    python bench/ratings/farming.py                 # the published run (about 2-3 minutes)
    python bench/ratings/farming.py --quick         # smoke run
    python bench/ratings/farming.py --engine-seeds 4  # the issue's farm on the real engine

Outcome model (a model, not the engine: the strong and expert bots need over a second of CPU
per Partie, far too slow for thousands of Parties): the parametric Parties of
``bench/ratings/simulate.py`` (six deals of penalty tokens drawn with weight
``exp(-0.35 * skill + luck)``), every seat a hidden skill. Calibration on the measured bot
ratings, per seed: a population of ``--population`` players of skill N(0, 1) plays
``--warmup`` rated Parties among itself (every newcomer at 1500), which sets the ladder's
scale; a line fitted through the population's (skill, rating) pairs maps a rating to a
skill, and each bot level gets the skill of its measured rating (``games/bots/
ratings_table.py``), corrected by an offset found beforehand on seeds of their own so that the
model bot, rated like a player at population tables as ``bench/bot_ratings.py`` rates the real
ones, lands on its table figure. That check is printed for the reported seeds.

A player's *true strength* T is a rating on that scale (skill from the same line). Per seed
and strength, every scenario starts from two newcomers of strength T and plays ``--parties``
rated Parties at tables of four:

- ``with <level>``: the two players and two bots of that level (the issue's farm: two players
  of heuristic strength with two random bots). The same Parties are rated under both rules.
- ``baseline: ladder``: the two players at tables with two population players (no bots):
  the rating the ladder gives strength T, measured in the same run.
- ``baseline: equals``: four players of strength T only, no bots: a closed group stays at
  1500 whatever its strength (shown because it is what "without bots" means at one table).

Figures: each player's rating after the last Partie, mean over seeds and both players with a
95 % interval (1.96 standard errors over seeds). Every update is the replay's own
(``ratings.replay.replay_jobs``: bot seats with ``bot_mu``/``bot_sigma`` as recorded under the
new rule, none under the old one, so they fall back to ``RATINGS_BOT_MU`` = 1500).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench" / "ratings"))

from django.conf import settings  # noqa: E402

if not settings.configured:
    # The replay reads only the bots' fallback rating from the settings: the old rule.
    settings.configure(RATINGS_BOT_MU=1500.0, RATINGS_BOT_SIGMA=108.0)

import datetime as dt  # noqa: E402

from simulate import play_partie  # noqa: E402

from games.bots.ratings_table import BOT_RATING_SIGMAS, BOT_RATINGS  # noqa: E402
from ratings import elo, replay  # noqa: E402

TABLE_SIZES = (3, 4, 5, 6)
TABLE_SIZE_WEIGHTS = (0.2, 0.55, 0.15, 0.1)
EPOCH = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
RULES = ("old", "new")


def uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return "load " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % interval (1.96 standard errors)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, float("nan")
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


class Ladder:
    """Rating states of people (ids) under one rule, updated by the replay's own code."""

    def __init__(self) -> None:
        self.states: dict[object, replay.State] = {}
        self.count = 0

    def rate(self, seated: Sequence[object], totals: Sequence[int], bots: dict[int, str]) -> None:
        """Rate one Partie: ``seated`` ids (a bot seat's id is ignored), ``bots`` seat ->
        level for the bot seats whose rating is recorded (new rule); other bot seats fall back
        to 1500 (old rule)."""
        self.count += 1
        people = []
        for seat, (who, total) in enumerate(zip(seated, totals, strict=True)):
            person = {"seat": seat, "user_id": who, "total": total, "place": 0, "left": False}
            if who is None and seat in bots:
                rating = replay.bot_rating(bots[seat])
                person.update(bot_level=bots[seat], bot_mu=rating.mu, bot_sigma=rating.sigma)
            people.append(person)
        job = replay.Job(self.count, EPOCH + dt.timedelta(hours=self.count), people)
        replay.replay_jobs([job], self.states, [])

    def mu(self, who: object) -> float:
        return self.states.get(who, replay.NEWCOMER)[0]

    def copy(self) -> Ladder:
        other = Ladder()
        other.states, other.count = dict(self.states), self.count
        return other


def warm_up(rng: random.Random, population: int, parties: int) -> tuple[Ladder, list[float]]:
    """The population's ladder after ``parties`` rated Parties among itself."""
    skills = [rng.gauss(0.0, 1.0) for _ in range(population)]
    ladder = Ladder()
    for _ in range(parties):
        size = rng.choices(TABLE_SIZES, weights=TABLE_SIZE_WEIGHTS)[0]
        seated = rng.sample(range(population), size)
        ladder.rate(
            [("p", p) for p in seated], play_partie(rng, [skills[p] for p in seated], False), {}
        )
    return ladder, skills


def fit_line(ladder: Ladder, skills: list[float]) -> tuple[float, float]:
    """Rating = a + b * skill, least squares through the population."""
    xs = skills
    ys = [ladder.mu(("p", p)) for p in range(len(skills))]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs
    )
    return my - b * mx, b


def level_check(
    rng: random.Random, ladder: Ladder, skills: list[float], level_skill: float, parties: int
) -> float:
    """A model bot rated like a player at population tables, as bench/bot_ratings.py rates the
    real ones: the mean of its rating over its second half of Parties."""
    ladder = ladder.copy()
    history = []
    for _ in range(parties):
        size = rng.choices(TABLE_SIZES, weights=TABLE_SIZE_WEIGHTS)[0]
        others = rng.sample(range(len(skills)), size - 1)
        seated = [("bot",), *(("p", p) for p in others)]
        totals = play_partie(rng, [level_skill, *(skills[p] for p in others)], False)
        ladder.rate(seated, totals, {})
        history.append(ladder.mu(("bot",)))
    tail = history[len(history) // 2 :]
    return statistics.fmean(tail)


def calibrate(args: argparse.Namespace) -> dict[str, float]:
    """Per level, the rating points to add to its table figure before mapping it to a skill,
    so that the model bot is rated at its table figure (the fitted line alone misses the
    levels far from the middle by up to ~20 points). ``--calibration-rounds`` secant-free
    fixed-point steps on ``--calibration-seeds`` seeds of their own (not the reported ones)."""
    offsets = dict.fromkeys(BOT_RATINGS, 0.0)
    for round_number in range(args.calibration_rounds):
        misses: dict[str, list[float]] = {level: [] for level in BOT_RATINGS}
        for k in range(args.calibration_seeds):
            rng = random.Random(args.seed - 1000 - k)
            population, skills = warm_up(rng, args.population, args.warmup)
            a, b = fit_line(population, skills)
            for level, target in BOT_RATINGS.items():
                skill = (target + offsets[level] - a) / b
                rated = level_check(rng, population, skills, skill, args.check_parties)
                misses[level].append(target - rated)
        for level in BOT_RATINGS:
            offsets[level] += statistics.fmean(misses[level])
        shown = ", ".join(f"{level} {offsets[level]:+.0f}" for level in BOT_RATINGS)
        print(f"  calibration round {round_number + 1}: offsets {shown}", flush=True)
    return offsets


def run_seed(
    seed: int, strengths: list[float], args: argparse.Namespace, offsets: dict[str, float]
) -> tuple[dict[tuple[float, str, str], list[float]], dict[str, float]]:
    """Final ratings per (strength, scenario, rule) of one seed, and the calibration check."""
    rng = random.Random(seed)
    population, skills = warm_up(rng, args.population, args.warmup)
    a, b = fit_line(population, skills)

    def skill_of(rating: float) -> float:
        return (rating - a) / b

    level_skill = {level: skill_of(BOT_RATINGS[level] + offsets[level]) for level in BOT_RATINGS}
    check = {
        level: level_check(rng, population, skills, level_skill[level], args.check_parties)
        for level in BOT_RATINGS
    }
    results: dict[tuple[float, str, str], list[float]] = {}
    for strength in strengths:
        own = skill_of(strength)
        players = [("focal", 0), ("focal", 1)]
        for level in BOT_RATINGS:
            ladders = {rule: Ladder() for rule in RULES}
            for _ in range(args.parties):
                seated: list[object] = [players[0], None, players[1], None]
                totals = play_partie(rng, [own, level_skill[level], own, level_skill[level]], False)
                ladders["old"].rate(seated, totals, {})
                ladders["new"].rate(seated, totals, {1: level, 3: level})
            for rule in RULES:
                results[(strength, f"with {level}", rule)] = [ladders[rule].mu(p) for p in players]
        # Baseline: the same two players on the ladder, with population players, no bots.
        ladder = population.copy()
        for _ in range(args.parties):
            others = rng.sample(range(args.population), 2)
            seated = [players[0], ("p", others[0]), players[1], ("p", others[1])]
            totals = play_partie(rng, [own, skills[others[0]], own, skills[others[1]]], False)
            ladder.rate(seated, totals, {})
        results[(strength, "baseline: ladder", "-")] = [ladder.mu(p) for p in players]
        # Baseline: four equals, no bots.
        equals = [("equal", k) for k in range(4)]
        ladder = Ladder()
        for _ in range(args.parties):
            ladder.rate(equals, play_partie(rng, [own] * 4, False), {})
        results[(strength, "baseline: equals", "-")] = [ladder.mu(p) for p in equals[:2]]
    check.update({"_a": a, "_b": b})
    return results, check


ENGINE_LEVELS = ("random", "beginner", "heuristic")
ENGINE_POPULATION = 60  # as the published bench/bot_ratings.py run
ENGINE_WARMUP = 400


def engine_check(args: argparse.Namespace) -> None:
    """The issue's farm on the real engine: two players who play exactly like the heuristic
    bot with two bots of a fast level, ``--parties`` Parties per seed, rated under both rules,
    beside the same run's baseline: the two players at tables with two players of the
    population model that measured the levels (bench/bot_ratings.py), after its warm-up. The
    search levels are left out (over a second per Partie)."""
    sys.path.insert(0, str(ROOT / "bench"))
    from bot_ratings import play_partie as play_with_engine

    started = time.perf_counter()
    print(f"\nEngine check (real cards and bots): machine before: {uptime()}", flush=True)
    finals: dict[tuple[str, str], list[float]] = {}
    players = [("focal", 0), ("focal", 1)]
    for k in range(args.engine_seeds):
        rng = random.Random(args.seed + 500 + k)
        # The same run's baseline: the two players on the engine's ladder (the population
        # model of bench/bot_ratings.py, which measured the levels), no bots.
        skills = [rng.gauss(0.0, 1.0) for _ in range(ENGINE_POPULATION)]
        ladder = Ladder()
        for number in range(ENGINE_WARMUP):
            size = rng.choices(TABLE_SIZES, weights=TABLE_SIZE_WEIGHTS)[0]
            seated = rng.sample(range(ENGINE_POPULATION), size)
            totals = play_with_engine(rng, [skills[p] for p in seated], 10, number)
            ladder.rate([("p", p) for p in seated], totals, {})
        for number in range(args.parties):
            others = rng.sample(range(ENGINE_POPULATION), 2)
            seats = ["heuristic", skills[others[0]], "heuristic", skills[others[1]]]
            totals = play_with_engine(rng, seats, 10, number)
            ladder.rate([players[0], ("p", others[0]), players[1], ("p", others[1])], totals, {})
        finals.setdefault(("baseline", "-"), []).append(
            statistics.fmean(ladder.mu(p) for p in players)
        )
        for level in ENGINE_LEVELS:
            ladders = {rule: Ladder() for rule in RULES}
            for number in range(args.parties):
                seats = ["heuristic", level, "heuristic", level]
                totals = play_with_engine(rng, seats, 10, (args.seed + k) * 1000 + number)
                seated: list[object] = [players[0], None, players[1], None]
                ladders["old"].rate(seated, totals, {})
                ladders["new"].rate(seated, totals, {1: level, 3: level})
            for rule in RULES:
                finals.setdefault((level, rule), []).append(
                    statistics.fmean(ladders[rule].mu(p) for p in players)
                )
        print(f"  engine seed {args.seed + 500 + k}: {time.perf_counter() - started:.0f} s")
    print(
        f"\nTwo players of heuristic strength ({BOT_RATINGS['heuristic']}) after {args.parties} "
        f"Parties on the engine (mean ± 95 % interval over {args.engine_seeds} seeds)\n"
    )
    print(
        "| with two bots of level | old rule (bots 1500) | new rule (bots at their level) "
        "| new - ladder baseline |"
    )
    print("|---|---|---|---|")
    base = finals[("baseline", "-")]
    for level in ENGINE_LEVELS:
        old, new = mean_ci(finals[(level, "old")]), mean_ci(finals[(level, "new")])
        paired = mean_ci([n - b for n, b in zip(finals[(level, "new")], base, strict=True)])
        print(
            f"| {level} ({BOT_RATINGS[level]}) | {old[0]:.0f} ± {old[1]:.0f} | "
            f"{new[0]:.0f} ± {new[1]:.0f} | {paired[0]:+.0f} ± {paired[1]:.0f} |"
        )
    mean, half = mean_ci(base)
    print(f"| baseline: the engine's ladder (no bots) | {mean:.0f} ± {half:.0f} | = | 0 |")
    print(f"\nmachine after: {uptime()}; {time.perf_counter() - started:.0f} s")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=16)
    parser.add_argument("--seed", type=int, default=20261205, help="first seed")
    parser.add_argument("--parties", type=int, default=300, help="Parties per scenario")
    parser.add_argument("--population", type=int, default=120)
    parser.add_argument("--warmup", type=int, default=2000)
    parser.add_argument("--check-parties", type=int, default=300)
    parser.add_argument("--calibration-seeds", type=int, default=4)
    parser.add_argument("--calibration-rounds", type=int, default=2)
    parser.add_argument(
        "--strengths",
        default=f"1400,{BOT_RATINGS['heuristic']},1750",
        help="true strengths (ratings on the ladder's scale)",
    )
    parser.add_argument(
        "--engine-seeds",
        type=int,
        default=0,
        help="only the issue's farm on the real engine, over this many seeds",
    )
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    if args.engine_seeds:
        engine_check(args)
        return 0
    if args.quick:
        args.seeds, args.parties, args.population, args.warmup, args.check_parties = (
            2,
            40,
            40,
            200,
            30,
        )
        args.calibration_seeds, args.calibration_rounds = 1, 1
    strengths = [float(s) for s in args.strengths.split(",")]
    started = time.perf_counter()
    load_before = uptime()
    print(f"machine before: {load_before}", flush=True)
    collected: dict[tuple[float, str, str], list[float]] = {}
    checks: dict[str, list[float]] = {}
    offsets = calibrate(args)
    for k in range(args.seeds):
        results, check = run_seed(args.seed + k, strengths, args, offsets)
        for key, values in results.items():
            collected.setdefault(key, []).append(statistics.fmean(values))
        for key, value in check.items():
            checks.setdefault(key, []).append(value)
        print(f"  seed {args.seed + k}: {time.perf_counter() - started:.0f} s", flush=True)
    command = (
        f"python bench/ratings/farming.py --seeds {args.seeds} --seed {args.seed} "
        f"--parties {args.parties} --population {args.population} --warmup {args.warmup} "
        f"--check-parties {args.check_parties} --calibration-seeds {args.calibration_seeds} "
        f"--calibration-rounds {args.calibration_rounds} --strengths {args.strengths}"
    )
    print(f"\n{command}\n")
    a, b = statistics.fmean(checks["_a"]), statistics.fmean(checks["_b"])
    print(f"Calibration: rating = {a:.0f} + {b:.0f} * skill (mean line over seeds)\n")
    print(
        "| level | measured (table) | calibration offset | model bot rated at population tables |"
    )
    print("|---|---|---|---|")
    for level in BOT_RATINGS:
        mean, half = mean_ci(checks[level])
        print(
            f"| {level} | {BOT_RATINGS[level]} | {offsets[level]:+.0f} | {mean:.0f} ± {half:.0f} |"
        )
    for strength in strengths:
        ladder_mean, ladder_half = mean_ci(collected[(strength, "baseline: ladder", "-")])
        print(
            f"\nTrue strength {strength:.0f}: rating after {args.parties} Parties "
            f"(mean ± 95 % interval over {args.seeds} seeds, two players each)\n"
        )
        print(
            "| scenario | old rule (bots 1500) | new rule (bots at their level) | new - ladder baseline |"
        )
        print("|---|---|---|---|")
        for scenario in (f"with {level}" for level in BOT_RATINGS):
            old = mean_ci(collected[(strength, scenario, "old")])
            new_values = collected[(strength, scenario, "new")]
            new = mean_ci(new_values)
            paired = mean_ci(
                [
                    n - base
                    for n, base in zip(
                        new_values, collected[(strength, "baseline: ladder", "-")], strict=True
                    )
                ]
            )
            print(
                f"| {scenario} ({BOT_RATINGS[scenario[5:]]}) | {old[0]:.0f} ± {old[1]:.0f} | "
                f"{new[0]:.0f} ± {new[1]:.0f} | {paired[0]:+.0f} ± {paired[1]:.0f} |"
            )
        equals = mean_ci(collected[(strength, "baseline: equals", "-")])
        print(f"| baseline: ladder (no bots) | {ladder_mean:.0f} ± {ladder_half:.0f} | = | 0 |")
        print(f"| baseline: equals (no bots) | {equals[0]:.0f} ± {equals[1]:.0f} | = | |")
    seconds = time.perf_counter() - started
    print(f"\nmachine after: {uptime()}; total {seconds:.0f} s")
    print(f"elo.MODEL_VERSION {elo.MODEL_VERSION}; bot sigmas {BOT_RATING_SIGMAS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
