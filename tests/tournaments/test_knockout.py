"""Knockout: round plan, serpentine seeding, advancement with ties at the cut, bracket, SVG."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from tournaments.knockout import (
    KnockoutConfig,
    advancers,
    bracket_svg,
    build_bracket,
    plan_rounds,
    round_advancement,
    seed_tables,
    table_order,
)

SVG = "{http://www.w3.org/2000/svg}"


def test_plan_rounds_halves_down_to_a_final_table() -> None:
    assert plan_rounds(16) == [[4, 4, 4, 4], [4, 4], [4]]
    assert plan_rounds(5) == [[5]]
    assert plan_rounds(7) == [[4, 3], [4]]
    assert plan_rounds(16, KnockoutConfig(advance=1)) == [[4, 4, 4, 4], [4]]


def test_plan_rounds_fills_a_too_small_final_with_wildcards() -> None:
    # two tables with one winner each would leave a final of two: a third player joins
    assert plan_rounds(8, KnockoutConfig(advance=1)) == [[4, 4], [3]]


def test_plan_rounds_rejects_impossible_shapes() -> None:
    with pytest.raises(ValueError):
        plan_rounds(2)
    with pytest.raises(ValueError):
        plan_rounds(16, KnockoutConfig(advance=0))
    with pytest.raises(ValueError):
        plan_rounds(16, KnockoutConfig(final_max=8))


def test_seeding_is_serpentine() -> None:
    seeds = list(range(1, 17))
    assert seed_tables(seeds, [4, 4, 4, 4]) == [
        [1, 8, 9, 16],
        [2, 7, 10, 15],
        [3, 6, 11, 14],
        [4, 5, 12, 13],
    ]
    with pytest.raises(ValueError):
        seed_tables(seeds, [4, 4])


def test_tie_on_the_cut_goes_to_the_better_seed() -> None:
    penalties = {"A": 10, "B": 20, "C": 20, "D": 30}
    seeds = {"A": 1, "B": 5, "C": 3, "D": 2}
    assert table_order(penalties, seeds) == ["A", "C", "B", "D"]
    assert advancers(penalties, 2, seeds) == ["A", "C"]


def test_tie_above_the_cut_takes_both() -> None:
    penalties = {"A": 15, "B": 15, "C": 20, "D": 30}
    seeds = {"A": 4, "B": 2, "C": 1, "D": 3}
    assert advancers(penalties, 2, seeds) == ["B", "A"]


def test_at_least_one_player_per_table_goes_out() -> None:
    penalties = {"A": 1, "B": 2, "C": 3}
    seeds = {"A": 1, "B": 2, "C": 3}
    assert advancers(penalties, 3, seeds) == ["A", "B"]


def test_round_advancement_orders_by_place_then_penalty_then_seed() -> None:
    seeds = {p: i for i, p in enumerate("ABCDEFGH", start=1)}
    tables = [
        {"A": 30, "B": 10, "C": 40, "D": 50},  # B wins with 10, A second with 30
        {"E": 12, "F": 25, "G": 25, "H": 60},  # E wins with 12, F beats G on seed
    ]
    through, wildcards = round_advancement(tables, 2, seeds)
    assert through == ["B", "E", "F", "A"]
    assert wildcards == []


def test_round_advancement_adds_wildcards_to_reach_three() -> None:
    seeds = {p: i for i, p in enumerate("ABCDEFGH", start=1)}
    tables = [
        {"A": 30, "B": 10, "C": 40, "D": 50},
        {"E": 12, "F": 25, "G": 24, "H": 60},
    ]
    through, wildcards = round_advancement(tables, 1, seeds)
    assert wildcards == ["G"]  # best second place: 24 beats A's 30
    assert through == ["B", "E", "G"]


def _play_out(seeds: list[str], config: KnockoutConfig, totals: dict[str, list[int]]):
    """Enter each round's penalty totals (from ``totals[player][round]``) until the final."""
    results: list[dict[str, int]] = []
    for round_index in range(len(plan_rounds(len(seeds), config))):
        bracket = build_bracket(seeds, results, config)
        players = [s.player for t in bracket.rounds[round_index].tables for s in t.seats]
        results.append({p: totals[p][round_index] for p in players})
    return build_bracket(seeds, results, config)


def test_full_bracket_tracks_who_advanced_and_from_where() -> None:
    seeds = [f"P{i}" for i in range(1, 17)]
    # lower number plays better; in later rounds everybody repeats their round-1 form
    totals = {p: [100 - 3 * i, 100 - 3 * i, 100 - 3 * i] for i, p in enumerate(seeds)}
    bracket = _play_out(seeds, KnockoutConfig(), totals)
    assert [(r.number, r.final) for r in bracket.rounds] == [(1, False), (2, False), (3, True)]
    first = bracket.rounds[0]
    # the last-seeded (best-playing) two players of each round-1 table advance
    for table in first.tables:
        ranked = sorted(table.seats, key=lambda s: s.penalty)
        assert [s.advanced for s in ranked] == [True, True, False, False]
        assert [s.place for s in ranked] == [0, 1, 2, 3]
    final = bracket.rounds[-1].tables[0]
    assert sorted(s.player for s in final.seats) == ["P13", "P14", "P15", "P16"]
    assert bracket.champion == "P16"
    second = bracket.rounds[1]
    for table in second.tables:
        for seat, source in zip(table.seats, table.sources, strict=True):
            origin = first.tables[source]
            assert seat.player in [s.player for s in origin.seats if s.advanced]


def test_partial_results_leave_later_rounds_open() -> None:
    seeds = [f"P{i}" for i in range(1, 17)]
    bracket = build_bracket(seeds, [{"P1": 10}])
    assert bracket.champion is None
    assert all(s.player is not None for t in bracket.rounds[0].tables for s in t.seats)
    assert all(s.player is None for r in bracket.rounds[1:] for t in r.tables for s in t.seats)
    assert [len(r.tables) for r in bracket.rounds] == [4, 2, 1]


def test_bracket_svg_is_valid_and_names_everyone() -> None:
    seeds = [f"P{i}" for i in range(1, 17)]
    totals = {p: [i, 50 - i, i] for i, p in enumerate(seeds)}
    bracket = _play_out(seeds, KnockoutConfig(), totals)
    names = {"P1": "Anna <the Ace> & Co"}
    svg = bracket_svg(bracket, names)
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    groups = root.findall(f"{SVG}g")
    assert len(groups) == sum(len(r.tables) for r in bracket.rounds)
    text = " ".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))
    assert "Anna <the Ace> & Co" in text
    for seed in seeds[1:]:
        assert seed in text
    assert f"Champion: {bracket.champion}" in text
    links = root.findall(f"{SVG}path")  # one curve per advancing player
    advanced = sum(s.advanced for r in bracket.rounds for t in r.tables for s in t.seats)
    assert len(links) == advanced == 8 + 4


def test_bracket_svg_shortens_long_names_but_keeps_them_as_title() -> None:
    seeds = ["A very long player name indeed, from Oberammergau", "B", "C", "D"]
    svg = bracket_svg(build_bracket(seeds, [{p: i for i, p in enumerate(seeds)}]))
    root = ET.fromstring(svg)
    titles = [t.text for t in root.iter(f"{SVG}title")]
    assert f"{seeds[0]} (1)" in titles
    shown = [t.tail for t in root.iter(f"{SVG}title")]
    assert all(len(label) <= 20 for label in shown)
    assert any(label.endswith("\u2026") for label in shown)


def test_duplicate_seeds_are_rejected() -> None:
    with pytest.raises(ValueError):
        build_bracket(["A", "A", "B", "C"])
