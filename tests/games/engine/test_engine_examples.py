"""Worked examples through the engine and its CLI.

Two files: the project's own ``tests/records/deals.jsonl`` (expectations computed by the
independent reference engine, see ``bench/make_examples.py``), always; and the rule keepers'
``../shared/examples/deals.jsonl``, the agreed reading of the rules, whenever that folder sits
beside the repository (a bare clone has only the first, and passes on it).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import score_line

REPO_ROOT = Path(__file__).resolve().parents[3]
OWN_EXAMPLES = REPO_ROOT / "tests" / "records" / "deals.jsonl"
SHARED_EXAMPLES = REPO_ROOT.parent / "shared" / "examples" / "deals.jsonl"
EXAMPLE_FILES = [OWN_EXAMPLES] + ([SHARED_EXAMPLES] if SHARED_EXAMPLES.exists() else [])
EXAMPLES = [
    json.loads(line)
    for path in EXAMPLE_FILES
    for line in path.read_text(encoding="utf-8").splitlines()
]


def record_text(case: dict) -> str:
    """The record as one input line (a broken JSON text is stored as that string)."""
    record = case["record"]
    return record if isinstance(record, str) else json.dumps(record)


def contract_of(case: dict) -> str | None:
    record = case["record"]
    return record.get("contract") if isinstance(record, dict) else None


def check_result(result: dict, expect: dict) -> None:
    """One output line against an example's ``expect`` (penalties, or the error's move index)."""
    if "penalties" in expect:
        assert result == {"penalties": expect["penalties"]}
    else:
        assert set(result) == {"error"}
        assert result["error"]["move"] == expect["error_move"]
        assert isinstance(result["error"]["message"], str) and result["error"]["message"]


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda path: path.parent.parent.name)
def test_each_examples_file_covers_every_contract_player_count_and_errors(path: Path) -> None:
    cases = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    records = [case["record"] for case in cases if isinstance(case["record"], dict)]
    contracts = {record.get("contract") for record in records}
    players = {record.get("players") for record in records}
    assert {"no_tricks", "no_hearts", "no_jacks", "no_king_of_hearts"} <= contracts
    assert {"hundred", "rosbiratschka"} <= contracts
    assert {3, 4, 5, 6} <= players
    assert any("error_move" in case["expect"] for case in cases)
    assert any(
        case["expect"].get("error_move") is None for case in cases if "error_move" in case["expect"]
    )
    assert any(-8 in case["expect"].get("penalties", []) for case in cases), "a slam"


@pytest.mark.parametrize(
    "case",
    EXAMPLES,
    ids=[f"example{n + 1}-{contract_of(c)}" for n, c in enumerate(EXAMPLES)],
)
def test_each_example_scores_as_expected(case: dict) -> None:
    result = json.loads(score_line(record_text(case)))
    check_result(result, case["expect"])


def test_the_whole_file_through_the_cli(tmp_path: Path) -> None:
    records = tmp_path / "records.jsonl"
    records.write_text("".join(record_text(case) + "\n" for case in EXAMPLES))
    proc = subprocess.run(
        [sys.executable, "-m", "games.engine", "score", str(records)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1, proc.stderr  # the file holds error lines
    out_lines = proc.stdout.splitlines()
    assert len(out_lines) == len(EXAMPLES)
    for line, case in zip(out_lines, EXAMPLES, strict=True):
        check_result(json.loads(line), case["expect"])


def test_only_the_scoring_lines_exit_zero(tmp_path: Path) -> None:
    records = tmp_path / "good.jsonl"
    good = [case for case in EXAMPLES if "penalties" in case["expect"]]
    records.write_text("".join(record_text(case) + "\n" for case in good))
    proc = subprocess.run(
        [sys.executable, "-m", "games.engine", "score", "-"],
        cwd=REPO_ROOT,
        input=records.read_text(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert [json.loads(line) for line in proc.stdout.splitlines()] == [
        case["expect"] for case in good
    ]


def test_own_examples_are_what_the_reference_engine_says() -> None:
    """The committed file is exactly what ``bench/make_examples.py`` writes today."""
    proc = subprocess.run(
        [sys.executable, "bench/make_examples.py", "--check"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
