"""The strength benchmark's bookkeeping: per-contract points and paired share differences."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH_DIR = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH_DIR))

from bot_strength import (  # noqa: E402
    comparisons,
    main,
    play_parties,
    share_ci,
    share_difference_ci,
    variant,
)


def test_points_per_contract_add_up_to_the_partie_totals() -> None:
    deals: list[list[int]] = []
    totals, _ = play_parties(variant("heuristic", 0, None), 4, 3, 7, deals=deals)
    assert len(deals) == 3
    assert [len(d) for d in deals] == [6, 6, 6]
    assert [sum(d) for d in deals] == totals


def test_share_difference_is_paired_and_zero_for_the_same_bot() -> None:
    base, ceiling = [10, 12, 8, 14], [2, 4, 1, 6]
    bot, better = [6, 9, 5, 9], [5, 8, 4, 8]
    assert share_difference_ci(base, bot, bot, ceiling) == (0.0, 0.0, 0.0)
    point, low, high = share_difference_ci(base, bot, better, ceiling)
    assert point == share_ci(base, better, ceiling)[0] - share_ci(base, bot, ceiling)[0]
    assert 0 < low <= point <= high  # better in every Partie: the whole interval is above 0


def test_per_contract_table_and_dump(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dump = tmp_path / "points.json"
    argv = [
        "--players",
        "3",
        "--parties",
        "2",
        "--samples",
        "2",
        "--bots",
        "strong,strong:reading=1",
    ]
    main([*argv, "--per-contract", "--dump", str(dump)])
    out = capsys.readouterr().out
    assert "| 3 | no_hearts |" in out
    assert "strong:reading=1 - strong" in out
    assert '"strong:reading=1"' in dump.read_text()


def test_variants_are_compared_with_the_first_and_with_their_own_level() -> None:
    specs = ["strong", "strong:lookahead=1", "expert", "expert:lookahead=1"]
    assert comparisons(specs) == [
        ("strong:lookahead=1", "strong"),
        ("expert", "strong"),
        ("expert:lookahead=1", "strong"),
        ("expert:lookahead=1", "expert"),
    ]
    assert comparisons(["strong"]) == []
