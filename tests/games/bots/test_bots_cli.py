"""The ``python -m games.bots simulate`` command line."""

from __future__ import annotations

import re

import pytest

from games.bots.__main__ import main


def test_simulate_prints_an_average_total_per_seat(capsys: pytest.CaptureFixture[str]) -> None:
    seats = "heuristic,random,random,random"
    code = main(["simulate", "--players", "4", "--seats", seats, "--parties", "6", "--seed", "1"])
    out = capsys.readouterr().out
    assert code == 0
    lines = [line for line in out.splitlines() if line.startswith("seat ")]
    assert [line.split()[2] for line in lines] == seats.split(",")
    averages = [float(re.search(r"average total\s+(-?[\d.]+)", line)[1]) for line in lines]
    # Every deal hands out between -8 and 18 points, so six deals stay within these bounds.
    assert all(-48 <= a <= 108 for a in averages)
    again = main(["simulate", "--players", "4", "--seats", seats, "--parties", "6", "--seed", "1"])
    assert again == 0 and capsys.readouterr().out == out


def test_deals_mode_prints_one_line_per_contract(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "simulate",
            "--players",
            "3",
            "--seats",
            "strong,beginner,random",
            "--deals",
            "2",
            "--samples",
            "2",
            "--layout",
            "free",
        ]
    )
    out = capsys.readouterr().out.splitlines()
    assert code == 0
    contracts = [line.split()[0] for line in out[1:]]
    assert contracts == [
        "no_tricks",
        "no_hearts",
        "no_jacks",
        "no_king_of_hearts",
        "hundred",
        "rosbiratschka",
    ]


def test_simulate_rejects_a_wrong_seat_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--players", "4", "--seats", "heuristic,random"]) == 2
    assert main(["simulate", "--players", "3", "--seats", "heuristic,random,wizard"]) == 2
    assert "unknown level" in capsys.readouterr().err
