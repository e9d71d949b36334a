"""How fast are score sheets checked? Engine-played sheets for 3-6 players, checked in bulk.

Prints figures only (no assertions): sheets per second and the slowest single sheet.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.engine import CONTRACT_ORDER, HouseRules, play_out_randomly, random_deal  # noqa: E402
from tournaments.sheets import sheet_errors  # noqa: E402

SHEETS_PER_SIZE = 500


def main() -> None:
    rng = random.Random("bench-sheets")
    for players in (3, 4, 5, 6):
        rules = HouseRules(doubling=True)
        sheets = [
            [
                list(play_out_randomly(random_deal(players, c, rng, rules=rules), rng).penalties)
                for c in CONTRACT_ORDER
            ]
            for _ in range(SHEETS_PER_SIZE)
        ]
        slowest = 0.0
        started = time.perf_counter()
        for sheet in sheets:
            one = time.perf_counter()
            assert not sheet_errors(sheet, players=players)
            slowest = max(slowest, time.perf_counter() - one)
        elapsed = time.perf_counter() - started
        print(
            f"{players} players: {len(sheets)} sheets in {elapsed * 1000:.1f} ms "
            f"({len(sheets) / elapsed:,.0f}/s), slowest {slowest * 1e6:.0f} us"
        )


if __name__ == "__main__":
    main()
