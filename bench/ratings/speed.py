"""Time one ``update`` plus one ``predict`` of the Rosbi rating per table size.

    .venv/bin/python bench/ratings/speed.py

Prints CPU microseconds per table (median of repeated batches); the budget is 1 ms. Also
prints ``update`` alone and ``update_values`` (the tuple form the rating replay uses, which
a recompute of 100,000 Parties calls 100,000 times).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
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
        values = [([(p.mu, p.sigma, p.games, p.last_played) for p in ps], t) for ps, t in tables]
        print(
            f"{n} players: {per_table(predict_and_update, tables):7.1f} us per table "
            f"(predict + update), {per_table(update, tables):5.1f} update alone, "
            f"{per_table(update_values, values):5.1f} update_values"
        )


def predict_and_update(tables: list) -> None:
    for players, totals in tables:
        elo.predict(players)
        elo.update(players, totals, 86400.0)


def update(tables: list) -> None:
    for players, totals in tables:
        elo.update(players, totals, 86400.0)


def update_values(tables: list) -> None:
    for players, totals in tables:
        elo.update_values(players, totals, 86400.0)


def per_table(work: Callable[[list], None], tables: list) -> float:
    """Median CPU microseconds per table over 7 batches."""
    batches = []
    for _ in range(7):
        started = time.process_time()
        work(tables)
        batches.append((time.process_time() - started) / len(tables))
    return 1e6 * statistics.median(batches)


if __name__ == "__main__":
    main()
