"""The rating benchmark's ceiling: ordering pairs by the hidden skill, on the evaluated part."""

from __future__ import annotations

import sys
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parents[2] / "bench" / "ratings"
sys.path.insert(0, str(BENCH_DIR))

from evaluate import CALIBRATION_SHARE, ceiling_accuracy  # noqa: E402
from simulate import Stream, Table  # noqa: E402


def _stream(tables: list[Table]) -> Stream:
    return Stream(tables, dict.fromkeys(range(4), 0.0))


def test_ceiling_counts_only_decided_pairs_after_the_calibration_part() -> None:
    # The calibration part (first 30%) is upset-only: it must not count.
    upsets = [Table(0.0, [0, 1, 2], [20, 10, 0], [1.0, 0.0, -1.0]) for _ in range(3)]
    # Evaluated part: skill order holds in 2 of 3 pairs; a drawn pair is left out.
    evaluated = [
        Table(1.0, [0, 1, 2], [0, 10, 5], [1.0, 0.0, -1.0]),
        Table(2.0, [0, 1, 3], [0, 5, 5], [1.0, 0.0, -1.0]),
    ]
    stream = _stream(upsets + evaluated * 4)
    assert int(CALIBRATION_SHARE * len(stream.tables)) == len(upsets)
    # Per evaluated pair of tables: (1, 1, 0) from the first, (1, 1) and a draw from the second.
    assert abs(ceiling_accuracy(stream) - 4 / 5) < 1e-12


def test_equal_hidden_skills_score_half() -> None:
    tables = [Table(float(k), [0, 1, 2], [0, 8, 16], [0.0, 0.0, 0.0]) for k in range(10)]
    assert ceiling_accuracy(_stream(tables)) == 0.5
