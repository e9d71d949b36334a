"""The engine against the plain reference implementation (bench/reference_engine.py).

The reference was written from RULES.md alone, without the engine's code, so agreement on
thousands of random records (clean and deliberately broken) is independent evidence that both
read the rules the same way: the same penalties, or an error at the same move (or null).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.engine import score_line

REPO_ROOT = Path(__file__).resolve().parents[3]
BENCH_DIR = REPO_ROOT / "bench"
if str(BENCH_DIR) not in sys.path:
    sys.path.insert(0, str(BENCH_DIR))

import reference_engine  # noqa: E402
from make_records import generate_records  # noqa: E402


def outcome(result: dict[str, Any]) -> tuple[str, Any]:
    """What both engines must agree on: the penalties, or the index of the bad move."""
    if "penalties" in result:
        return ("penalties", result["penalties"])
    return ("error", result["error"]["move"])


def disagreements(lines: list[str]) -> list[tuple[int, Any, Any, str]]:
    found = []
    for number, line in enumerate(lines):
        ours = outcome(json.loads(score_line(line)))
        theirs = outcome(reference_engine.score_text(line))
        if ours != theirs:
            found.append((number, ours, theirs, line[:300]))
    return found


@pytest.mark.parametrize(
    ("count", "seed", "corrupt"),
    [(2000, 101, 0.0), (2000, 202, 0.3), (500, 303, 1.0)],
    ids=["clean", "corrupt-30", "all-broken"],
)
def test_engine_agrees_with_the_reference(count: int, seed: int, corrupt: float) -> None:
    lines = generate_records(count, seed, corrupt)
    assert disagreements(lines) == []
    results = [json.loads(score_line(line)) for line in lines]
    errors = sum(1 for r in results if "error" in r)
    # the generator keeps its promise, so both sides were really exercised
    assert errors >= round(count * corrupt) * 0.9
    if corrupt == 0.0:
        assert errors == 0


def test_the_broken_records_reach_every_kind_of_error() -> None:
    results = [json.loads(score_line(line)) for line in generate_records(600, 404, 1.0)]
    moves = [r["error"]["move"] for r in results if "error" in r]
    assert None in moves
    assert any(m == 0 for m in moves)
    assert any(isinstance(m, int) and m > 10 for m in moves)
    messages = {r["error"]["message"] for r in results if "error" in r}
    assert "deal not finished" in messages


def test_both_command_lines_agree_line_by_line(tmp_path: Path) -> None:
    lines = generate_records(800, 505, 0.3)
    path = tmp_path / "records.jsonl"
    path.write_text("".join(line + "\n" for line in lines))
    runs = [
        subprocess.run(
            [sys.executable, *command, "score", str(path)],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            timeout=120,
        )
        for command in (["-m", "games.engine"], [str(BENCH_DIR / "reference_engine.py")])
    ]
    assert [run.returncode for run in runs] == [1, 1]
    ours, theirs = ([json.loads(x) for x in run.stdout.splitlines()] for run in runs)
    assert len(ours) == len(theirs) == len(lines)
    assert [outcome(r) for r in ours] == [outcome(r) for r in theirs]


def test_scoring_on_several_processes_gives_the_one_process_answers_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``score --jobs N`` cuts a big input into slices for forked workers; order is kept."""
    from games.engine import cli

    monkeypatch.setattr(cli, "LINES_PER_JOB", 20)
    lines = list(generate_records(150, 77, 0.3))
    assert cli.score_all(lines, 3) == [score_line(line) for line in lines]
    assert cli.score_all([line.encode() for line in lines], 2) == cli.score_all(lines, 1)
