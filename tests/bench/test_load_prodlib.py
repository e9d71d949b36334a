"""Pure helpers of the production-shape load scenarios (bench/load/prodlib.py); no timing."""

from __future__ import annotations

import math
import sys
from pathlib import Path

LOAD_DIR = Path(__file__).resolve().parents[2] / "bench" / "load"
sys.path.insert(0, str(LOAD_DIR))

from prodlib import growth_percent, percentile, sample_at, summary, windows  # noqa: E402


def test_percentile_is_nearest_rank_and_nan_when_empty():
    ordered = [float(v) for v in range(1, 101)]
    assert percentile(ordered, 0.50) == 51.0
    assert percentile(ordered, 0.99) == 100.0
    assert math.isnan(percentile([], 0.5))


def test_summary_sorts_and_counts():
    figures = summary([3.0, 1.0, 2.0])
    assert figures["count"] == 3
    assert figures["p50"] == 2.0
    assert figures["max"] == 3.0


def test_windows_split_by_time_and_keep_a_short_last_window():
    timed = [(10.0 + t, float(t)) for t in range(25)]  # one value a second from t=10
    rows = windows(timed, start=10.0, end=35.0, width=10.0)
    assert [(r["from_s"], r["to_s"], r["count"]) for r in rows] == [
        (0.0, 10.0, 10),
        (10.0, 20.0, 10),
        (20.0, 25.0, 5),
    ]
    assert rows[1]["max"] == 19.0


def test_sample_at_takes_the_nearest_and_growth_is_relative():
    samples = [{"t": 0.0}, {"t": 30.0}, {"t": 60.0}]
    assert sample_at(samples, 40.0)["t"] == 30.0
    assert growth_percent(200.0, 210.0) == 5.0
    assert math.isnan(growth_percent(0.0, 1.0))
