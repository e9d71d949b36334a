"""The shared worked examples (../shared/examples/deals.jsonl) through the engine and its CLI.

These examples are the project's agreed reading of RULES.md: every other part (reference
engine, bots, live tables) is held to the same file, so the engine must reproduce each line.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import score_line

REPO_ROOT = Path(__file__).resolve().parents[3]
EXAMPLES_FILE = Path(__file__).resolve().parents[4] / "shared" / "examples" / "deals.jsonl"
EXAMPLE_LINES = EXAMPLES_FILE.read_text(encoding="utf-8").splitlines()
EXAMPLES = [json.loads(line) for line in EXAMPLE_LINES]


def check_result(result: dict, expect: dict) -> None:
    """One output line against an example's ``expect`` (penalties, or the error's move index)."""
    if "penalties" in expect:
        assert result == {"penalties": expect["penalties"]}
    else:
        assert set(result) == {"error"}
        assert result["error"]["move"] == expect["error_move"]
        assert isinstance(result["error"]["message"], str) and result["error"]["message"]


def test_the_examples_file_covers_every_contract_player_count_and_errors() -> None:
    contracts = {case["record"].get("contract") for case in EXAMPLES}
    players = {case["record"].get("players") for case in EXAMPLES}
    assert {"no_tricks", "no_hearts", "no_jacks", "no_king_of_hearts"} <= contracts
    assert {"hundred", "rosbiratschka"} <= contracts
    assert {3, 4, 5, 6} <= players
    assert any("error_move" in case["expect"] for case in EXAMPLES)
    assert any(
        case["expect"].get("error_move") is None
        for case in EXAMPLES
        if "error_move" in case["expect"]
    )


@pytest.mark.parametrize(
    "case",
    EXAMPLES,
    ids=[f"line{n + 1}-{c['record'].get('contract')}" for n, c in enumerate(EXAMPLES)],
)
def test_each_example_scores_as_expected(case: dict) -> None:
    result = json.loads(score_line(json.dumps(case["record"])))
    check_result(result, case["expect"])


def test_the_whole_file_through_the_cli(tmp_path: Path) -> None:
    records = tmp_path / "records.jsonl"
    records.write_text("".join(json.dumps(case["record"]) + "\n" for case in EXAMPLES))
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
    records.write_text("".join(json.dumps(case["record"]) + "\n" for case in good))
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
