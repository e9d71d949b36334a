"""The regret analysis: decisions recorded with their true values, rules replayed on them."""

from __future__ import annotations

import sys
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH_DIR))

from bot_regret import PLAYED_WORLDS, by_kind, by_rule, record  # noqa: E402


def test_recorded_decisions_carry_true_values_for_every_legal_move() -> None:
    decisions = record(players=4, parties=1, seed=5, worlds=PLAYED_WORLDS, reading=False)
    assert decisions
    for kind, planned, true, outcomes, weights in decisions:
        assert kind.split("/")[0] in {
            "no_tricks",
            "no_hearts",
            "no_jacks",
            "no_king_of_hearts",
            "hundred",
            "rosbiratschka",
        }
        assert set(true) == set(outcomes) and planned in true
        assert all(len(v) == PLAYED_WORLDS for v in outcomes.values())
        assert len(weights) == PLAYED_WORLDS and all(w in (0.0, 1.0) for w in weights)


def test_regret_tables_never_go_below_zero() -> None:
    decisions = record(players=3, parties=1, seed=6, worlds=PLAYED_WORLDS, reading=True)
    rows = by_kind(decisions, 1)
    assert rows[2].startswith("| all | ")
    regrets = [float(cell) for row in rows[2:] for cell in row.split("|")[3:5]]
    assert min(regrets) >= 0
    values = [float(cell) for cell in by_rule(decisions, 1)[2].strip("| ").split(" | ")]
    assert min(values) >= 0
