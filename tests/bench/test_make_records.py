"""The record generator: clean records are legal and complete, corrupted ones break."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH_DIR))

from make_records import generate_records  # noqa: E402
from reference_engine import CONTRACTS, score_record  # noqa: E402


def deal_total(record: dict) -> set[int]:
    """The penalty sums RULES.md's 'points per deal at a glance' allows for this record."""
    if record["contract"] in ("hundred", "no_king_of_hearts", "rosbiratschka"):
        return {8}
    if record["contract"] == "no_hearts" and record["players"] >= 5:
        return {9, 18, -8}
    return {8, 16, -8}


def test_clean_records_are_legal_complete_and_hand_out_the_right_sums() -> None:
    lines = generate_records(300, seed=7)
    assert len(lines) == 300
    seen = Counter()
    for line in lines:
        record = json.loads(line)
        result = score_record(record)
        assert "penalties" in result, (result, line)
        assert sum(result["penalties"]) in deal_total(record)
        if record.get("rules", {}).get("doubling", True) is False:
            assert sum(result["penalties"]) not in (16, 18)
        seen[(record["players"], record["contract"])] += 1
    assert {players for players, _ in seen} == {3, 4, 5, 6}
    assert {contract for _, contract in seen} == set(CONTRACTS)


def test_same_seed_gives_the_same_records_and_another_seed_does_not() -> None:
    assert generate_records(20, seed=3) == generate_records(20, seed=3)
    assert generate_records(20, seed=3) != generate_records(20, seed=4)


def test_corruption_breaks_exactly_the_chosen_fraction_and_leaves_the_rest_alone() -> None:
    clean = generate_records(400, seed=11)
    mixed = generate_records(400, seed=11, corrupt=0.5)
    changed = [i for i, (a, b) in enumerate(zip(clean, mixed, strict=True)) if a != b]
    assert len(changed) == 200

    errors = []
    for index, line in enumerate(mixed):
        try:
            result = score_record(json.loads(line))
        except ValueError:
            result = {"error": {"move": None, "message": "bad JSON"}}
        if index not in changed:
            assert "penalties" in result
        elif "error" in result:
            errors.append(result["error"]["move"])
    # A swap of two moves can occasionally stay legal; nearly every corruption must show.
    assert len(errors) >= 0.95 * len(changed)
    assert None in errors  # malformed records
    assert any(move is not None for move in errors)  # illegal or missing moves


def test_command_line_writes_json_lines(tmp_path: Path) -> None:
    out = tmp_path / "deep" / "records.jsonl"
    run = subprocess.run(
        [sys.executable, str(BENCH_DIR / "make_records.py"), "--count", "25", "--seed", "5",
         "--corrupt", "0.2", "--out", str(out)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert out.read_text().splitlines() == generate_records(25, seed=5, corrupt=0.2)
