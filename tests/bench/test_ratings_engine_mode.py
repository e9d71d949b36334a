"""The rating benchmark's engine mode: real bots, shares that rise with skill, seeded play."""

from __future__ import annotations

import random
import sys
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parents[2] / "bench" / "ratings"
sys.path.insert(0, str(BENCH_DIR))

from engine_mode import level_shares, play_partie  # noqa: E402
from simulate import generate  # noqa: E402


def test_level_shares_are_a_distribution_that_moves_to_the_heuristic_bot_with_skill() -> None:
    skills = [-3.0, -1.0, 0.0, 0.5, 1.0, 3.0]
    shares = [level_shares(s) for s in skills]
    for heuristic, beginner, random_bot in shares:
        assert abs(heuristic + beginner + random_bot - 1.0) < 1e-12
        assert min(heuristic, beginner, random_bot) >= 0.0
    heuristic_shares = [h for h, _, _ in shares]
    random_shares = [r for _, _, r in shares]
    assert heuristic_shares == sorted(heuristic_shares)
    assert random_shares == sorted(random_shares, reverse=True)
    assert level_shares(0.0) == (0.5, 0.25, 0.25)


def test_a_partie_hands_out_real_totals_and_a_seed_fixes_every_card() -> None:
    for players in (3, 4, 5, 6):
        skills = [0.0] * players
        first = play_partie(random.Random(players), skills)
        again = play_partie(random.Random(players), skills)
        assert first == again
        assert len(first) == players
        # Six deals of 8 or 9 points (more when doubled, -8 for a slam): never a zero sheet.
        assert sum(first) != 0


def test_skilled_players_finish_ahead_of_unskilled_ones_over_many_parties() -> None:
    rng = random.Random(11)
    ahead = 0
    parties = 60
    for _ in range(parties):
        totals = play_partie(rng, [2.5, -2.5, -2.5, -2.5])
        ahead += sum(totals[0] < other for other in totals[1:])
    # Almost heuristic against almost random: ahead in far more than half the pairs.
    assert ahead > 0.6 * 3 * parties


def test_engine_streams_are_reproducible() -> None:
    first = generate(3, tables=12, players=20, engine=True)
    second = generate(3, tables=12, players=20, engine=True)
    assert [t.totals for t in first.tables] == [t.totals for t in second.tables]
    assert [t.players for t in first.tables] == [t.players for t in second.tables]
