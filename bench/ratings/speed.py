"""Time one ``update`` plus one ``predict`` of the Rosbi rating per table size.

    .venv/bin/python bench/ratings/speed.py

Prints CPU microseconds per table (median of repeated batches); the budget is 1 ms.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from ratings import elo  # noqa: E402


def main() -> None:
    rng = random.Random(7)
    for n in range(3, 7):
        tables = [
            (
                [elo.Rating(rng.gauss(1500, 200), rng.uniform(60, 350), 10, 0.0) for _ in range(n)],
                [rng.randint(0, 40) for _ in range(n)],
            )
            for _ in range(500)
        ]
        batches = []
        for _ in range(7):
            started = time.process_time()
            for players, totals in tables:
                elo.predict(players)
                elo.update(players, totals, 86400.0)
            batches.append((time.process_time() - started) / len(tables))
        print(
            f"{n} players: {1e6 * statistics.median(batches):7.1f} us per table (predict + update)"
        )


if __name__ == "__main__":
    main()
