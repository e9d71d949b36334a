"""Standings: placement points, every tie-break on hand-built results, shared ranks, late entry."""

from __future__ import annotations

import pytest

from tournaments.scoring import DEFAULT_POINTS, placement_points, table_places
from tournaments.standings import (
    AbsentScore,
    StandingsConfig,
    TableResult,
    compute_standings,
)


def _table(round_number: int, **penalties: int) -> TableResult:
    return TableResult(round_number, penalties)


def _order(rows) -> list[tuple[int, str]]:
    return [(row.rank, row.player) for row in rows]


# --- placement points --------------------------------------------------------------------------


def test_default_points_are_scaled_per_table_size() -> None:
    assert DEFAULT_POINTS[4] == (3.0, 2.0, 1.0, 0.0)
    assert DEFAULT_POINTS[3] == (3.0, 1.5, 0.0)
    assert DEFAULT_POINTS[5] == (3.0, 2.25, 1.5, 0.75, 0.0)
    assert DEFAULT_POINTS[6] == pytest.approx((3.0, 2.4, 1.8, 1.2, 0.6, 0.0))
    for size, points in DEFAULT_POINTS.items():
        assert sum(points) / size == pytest.approx(1.5)


def test_shared_places_share_the_points_of_the_places_they_occupy() -> None:
    penalties = {"a": 10, "b": 10, "c": 20, "d": 30}
    assert table_places(penalties) == {"a": (0, 2), "b": (0, 2), "c": (2, 1), "d": (3, 1)}
    assert placement_points(penalties) == {"a": 2.5, "b": 2.5, "c": 1.0, "d": 0.0}
    assert placement_points({"a": 5, "b": 5, "c": 5}) == {"a": 1.5, "b": 1.5, "c": 1.5}
    assert placement_points({"a": 1, "b": 2, "c": 2, "d": 2, "e": 9}) == {
        "a": 3.0,
        "b": 1.5,
        "c": 1.5,
        "d": 1.5,
        "e": 0.0,
    }


def test_custom_points_table() -> None:
    custom = {4: (5, 3, 1, 0)}
    assert placement_points({"a": 1, "b": 2, "c": 3, "d": 3}, custom) == {
        "a": 5,
        "b": 3,
        "c": 0.5,
        "d": 0.5,
    }
    with pytest.raises(ValueError):
        placement_points({"a": 1, "b": 2, "c": 3}, custom)


# --- criteria and tie-breaks ---------------------------------------------------------------------


def test_points_then_penalty() -> None:
    rows = compute_standings(
        [
            _table(1, A=10, B=20, C=30, D=40),
            _table(1, E=11, F=21, G=31, H=41),
        ]
    )
    assert [r.player for r in rows] == ["A", "E", "B", "F", "C", "G", "D", "H"]
    assert [r.rank for r in rows] == list(range(1, 9))
    assert (rows[0].points, rows[0].penalty, rows[0].table_wins) == (3.0, 10, 1)


OPPONENTS_FIXTURE = [
    _table(1, A=10, B=20, C=30, D=40),
    _table(1, E=10, F=20, G=30, H=40),
    _table(2, A=10, F=20, B=30, H=40),
    _table(2, E=10, C=20, G=30, D=40),
]


def test_opponents_points_separate_equal_points_and_penalty() -> None:
    """A and E: 6 points, 20 penalty, 2 wins; A's tablemates scored 13, E's 11.

    Final points: A 6, E 6, F 4, B 3, C 3, G 2, D 0, H 0.
    A met B, C, D (3 + 3 + 0) and F, B, H (4 + 3 + 0) = 13; E met F, G, H (4 + 2 + 0) and C, G, D
    (3 + 2 + 0) = 11. B (19) beats C (17); H (25) beats D (23).
    """
    rows = compute_standings(OPPONENTS_FIXTURE)
    assert _order(rows) == [
        (1, "A"),
        (2, "E"),
        (3, "F"),
        (4, "B"),
        (5, "C"),
        (6, "G"),
        (7, "H"),
        (8, "D"),
    ]
    by_player = {r.player: r for r in rows}
    assert by_player["A"].opponents_points == 13
    assert by_player["E"].opponents_points == 11
    assert (by_player["B"].opponents_points, by_player["C"].opponents_points) == (19, 17)


def test_without_opponents_points_the_pair_shares_a_rank() -> None:
    rows = compute_standings(OPPONENTS_FIXTURE, tiebreaks=("points", "penalty", "table_wins"))
    assert _order(rows)[:3] == [(1, "A"), (1, "E"), (3, "F")]


def test_table_wins() -> None:
    # five-player tables: X wins once and is last once (3 + 0), Y is third twice (1.5 + 1.5)
    results = [
        _table(1, X=1, P=2, Q=3, R=4, S=50),
        _table(2, X=50, Y=3, T=1, U=2, V=4),
        _table(1, Y=9, W=1, K=2, L=30, M=40),
    ]
    rows = compute_standings(results, tiebreaks=("points", "table_wins"))
    by_player = {r.player: r for r in rows}
    assert by_player["X"].points == by_player["Y"].points == 3.0
    assert (by_player["X"].table_wins, by_player["Y"].table_wins) == (1, 0)
    assert by_player["X"].rank < by_player["Y"].rank


def test_head_to_head_among_the_tied_players() -> None:
    results = [
        _table(1, A=10, B=20, C=30, D=40),  # A 3, B 2
        _table(2, B=10, E=20, F=30, G=40),  # B 3  -> B 5
        _table(2, H=5, A=20, C=30, D=40),  # A 2  -> A 5
    ]
    rows = compute_standings(results, tiebreaks=("points", "head_to_head"))
    assert _order(rows)[:2] == [(1, "A"), (2, "B")]  # A beat B in round 1
    rows = compute_standings(results, tiebreaks=("points",))
    assert _order(rows)[:2] == [(1, "A"), (1, "B")]


def test_head_to_head_ranks_a_tied_group_and_leaves_the_rest_shared() -> None:
    """Q, P, R, A1, C1, D1 all end on 3 points (A1, C1, D1 missed round 1).

    Meetings among the tied: round 1 Q beat P and R, P beat R; round 2 A1 beat R, C1 beat P,
    D1 beat Q. Head-to-head: Q 2, then P, A1, C1, D1 with 1 each (shared 2nd), R 0.
    """
    results = [
        _table(1, Q=10, P=20, R=30, Z=40),  # Q 3, P 2, R 1
        _table(2, A1=1, R=2, B1=3, B2=4),  # R 2 -> 3
        _table(2, C1=1, C2=2, P=3, C3=4),  # P 1 -> 3
        _table(2, D1=1, D2=2, D3=3, Q=4),  # Q 0 -> 3
    ]
    rows = compute_standings(results, tiebreaks=("points", "head_to_head"))
    assert _order(rows)[:6] == [(1, "Q"), (2, "A1"), (2, "C1"), (2, "D1"), (2, "P"), (6, "R")]


def test_head_to_head_ignores_players_outside_the_tie() -> None:
    # P beat four players at a five-table, R two at a three-table: both 3 points, never met
    results = [
        _table(1, P=10, X1=20, X2=30, X3=40, X4=50),
        _table(1, R=10, S1=20, S2=30),
    ]
    rows = compute_standings(results, tiebreaks=("points", "head_to_head"))
    assert _order(rows)[:2] == [(1, "P"), (1, "R")]


def test_everything_equal_shares_the_rank() -> None:
    rows = compute_standings(
        [
            _table(1, A=10, B=20, C=30, D=40),
            _table(1, E=10, F=20, G=30, H=40),
        ]
    )
    assert _order(rows) == [
        (1, "A"),
        (1, "E"),
        (3, "B"),
        (3, "F"),
        (5, "C"),
        (5, "G"),
        (7, "D"),
        (7, "H"),
    ]


def test_unknown_tiebreak_is_rejected() -> None:
    with pytest.raises(ValueError):
        compute_standings([], tiebreaks=("points", "coin_toss"))


def test_two_tables_in_one_round_is_rejected() -> None:
    with pytest.raises(ValueError):
        compute_standings([_table(1, A=1, B=2, C=3), _table(1, A=4, D=5, E=6)])


# --- late entry, absences, byes ------------------------------------------------------------------


def test_late_entry_scores_missed_rounds_like_a_last_place() -> None:
    results = [
        _table(1, A=10, B=20, C=30, D=40),
        _table(2, A=10, B=20, L=5, D=40),
    ]
    rows = {r.player: r for r in compute_standings(results, players=["A", "B", "C", "D", "L"])}
    late = rows["L"]
    assert (late.rounds_played, late.rounds_absent) == (1, 1)
    assert late.points == 3.0 + 0.0
    assert late.penalty == 5 + 40  # the highest total of round 1
    absent = rows["C"]  # played round 1, missed round 2
    assert (absent.points, absent.penalty, absent.rounds_absent) == (1.0, 30 + 40, 1)
    assert absent.opponents_points == rows["A"].points + rows["B"].points + rows["D"].points


def test_missed_round_score_is_configurable() -> None:
    results = [_table(1, A=10, B=20, C=30), _table(2, A=10, B=20, L=30)]
    config = StandingsConfig(missed_round=AbsentScore(points=1.0, penalty=25))
    rows = {r.player: r for r in compute_standings(results, config=config)}
    assert (rows["L"].points, rows["L"].penalty) == (1.0, 25 + 30)
    assert (rows["C"].points, rows["C"].penalty) == (0.0 + 1.0, 30 + 25)


def test_entrant_without_any_result_is_listed() -> None:
    rows = compute_standings([_table(1, A=1, B=2, C=3)], players=["N"])
    by_player = {r.player: r for r in rows}
    assert by_player["N"].points == 0.0 and by_player["N"].penalty == 3
    assert rows[-1].player == "N"


def test_byes_use_the_bye_score() -> None:
    results = [_table(1, A=10, B=20, C=30, D=40)]
    rows = {r.player: r for r in compute_standings(results, byes={1: ["Z"]})}
    assert rows["Z"].points == 1.5
    assert rows["Z"].penalty == 25.0  # mean total of round 1
    assert rows["Z"].rounds_absent == 1 and rows["Z"].table_wins == 0
