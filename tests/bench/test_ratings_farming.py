"""The farming benchmark: seeded, the replay's own maths, bots at their level under the new rule."""

from __future__ import annotations

import random
import sys
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parents[2] / "bench" / "ratings"
sys.path.insert(0, str(BENCH_DIR))

from farming import Ladder, main, warm_up  # noqa: E402

from games.bots.ratings_table import BOT_RATINGS  # noqa: E402


def test_a_bot_seat_counts_at_1500_under_the_old_rule_and_at_its_level_under_the_new():
    old, new = Ladder(), Ladder()
    seated = [("focal", 0), None, ("focal", 1), None]
    totals = [0, 30, 10, 40]  # both players beat both bots
    old.rate(seated, totals, {})
    new.rate(seated, totals, {1: "random", 3: "random"})
    # Beating random bots (1332) is worth less than beating 1500s.
    assert new.mu(("focal", 0)) < old.mu(("focal", 0))
    assert BOT_RATINGS["random"] < 1500


def test_the_population_warm_up_is_reproducible():
    first, skills = warm_up(random.Random(3), 12, 20)
    again, same_skills = warm_up(random.Random(3), 12, 20)
    assert skills == same_skills and first.states == again.states


def test_a_quick_run_prints_every_scenario_beside_both_baselines(capsys):
    assert main(["--quick", "--strengths", "1569"]) == 0
    out = capsys.readouterr().out
    for level in BOT_RATINGS:
        assert f"| with {level} ({BOT_RATINGS[level]}) |" in out
    assert "| baseline: ladder (no bots) |" in out and "| baseline: equals (no bots) |" in out
    assert "python bench/ratings/farming.py --seeds 2 --seed 20261205" in out
