"""The reference engine against the worked examples and hand-built cases of RULES.md."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH_DIR = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH_DIR))

from reference_engine import score_lines, score_record  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[2]
OWN_EXAMPLES = REPO_ROOT / "tests" / "records" / "deals.jsonl"
SHARED_EXAMPLES = REPO_ROOT.parent / "shared" / "examples" / "deals.jsonl"
# The rule keepers' examples when ../shared sits beside the repository, else our own records.
EXAMPLE_FILES = [path for path in (SHARED_EXAMPLES, OWN_EXAMPLES) if path.exists()]


def read_examples(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


EXAMPLES = [case for case in read_examples(EXAMPLE_FILES[0]) if isinstance(case["record"], dict)]


def example(players: int, contract: str, **rules_and_expect: object) -> dict:
    """A deep copy of the first worked example matching the description."""
    for case in EXAMPLES:
        record = case["record"]
        if (
            record.get("players") == players
            and record.get("contract") == contract
            and all(case["expect"].get(k) == v for k, v in rules_and_expect.items())
        ):
            return copy.deepcopy(record)
    raise LookupError(f"no example for {players} {contract} {rules_and_expect}")


def error_move(result: dict) -> object:
    assert "error" in result, result
    assert isinstance(result["error"]["message"], str) and result["error"]["message"]
    return result["error"]["move"]


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda path: path.parent.parent.name)
def test_every_worked_example_agrees(path: Path) -> None:
    cases = read_examples(path)
    assert len(cases) >= 70
    failures = []
    for number, case in enumerate(cases, start=1):
        record = case["record"]
        got = (
            score_record(record)
            if isinstance(record, dict)
            else json.loads(next(score_lines([record])))
        )
        want = case["expect"]
        if "penalties" in want:
            ok = got.get("penalties") == want["penalties"]
        else:
            ok = "error" in got and got["error"]["move"] == want["error_move"]
        if not ok:
            failures.append((number, want, got))
    assert failures == []


# ----- hundred: strict thresholds, end above 100 ---------------------------------------------

HUNDRED = {
    "players": 4,
    "contract": "hundred",
    "dealer": 3,
    "hands": [
        ["AC", "JC", "AS", "7S", "8S", "9S", "7H", "8H"],
        ["TC", "8C", "TS", "QS", "9H", "TH", "JH", "QH"],
        ["KC", "9C", "KS", "JS", "KH", "AH", "7D", "8D"],
        ["7C", "QC", "9D", "TD", "JD", "QD", "KD", "AD"],
    ],
    # running totals: 11 21 25(exactly) 25 27(seat 0 +1) 37 41 44 44 46 48 50(exactly) 50
    # 53(seat 1 +2) 64 75 86 96 100(exactly) 100 100 100 100 103(seat 3 +5, end)
    "moves": [
        "AC", "TC", "KC", "7C", "JC", "TS", "KS", "QD", "7S", "JH", "JS", "JD", "8S",
        "QS", "AH", "AD", "AS", "TH", "KH", "9D", "9S", "8C", "9C", "QC",
    ],
}  # fmt: skip


def test_hundred_counts_only_totals_strictly_above_each_threshold() -> None:
    assert score_record(HUNDRED) == {"penalties": [1, 2, 0, 5]}


def test_hundred_is_unfinished_while_the_total_is_exactly_100() -> None:
    record = dict(HUNDRED, moves=HUNDRED["moves"][:23])
    assert error_move(score_record(record)) == 23


def test_hundred_move_after_the_total_passes_100_is_an_error_at_its_index() -> None:
    record = dict(HUNDRED, moves=HUNDRED["moves"] + ["8D"])
    assert error_move(score_record(record)) == 24


# ----- rosbiratschka layout ----------------------------------------------------------------

LAYOUT = {
    "players": 3,
    "contract": "rosbiratschka",
    "dealer": 2,
    "hands": [
        ["JC", "QC", "KC", "AC", "TC", "9C", "JS", "QS"],
        ["JH", "QH", "KH", "AH", "TH", "9H", "JD", "KD"],
        ["KS", "AS", "TS", "9S", "QD", "AD", "TD", "9D"],
    ],
    # seat 0 empties at move 21; seat 1 passes, seat 2 lays QD, seat 0 is skipped and seat 1's
    # KD leaves only seat 2 holding cards.
    "moves": [
        "JC", "JH", "pass", "QC", "QH", "pass", "KC", "KH", "pass", "AC", "AH", "pass",
        "TC", "TH", "pass", "9C", "9H", "pass", "JS", "JD", "TS", "QS", "pass", "QD", "KD",
    ],
}  # fmt: skip


def test_layout_skips_empty_hands_and_the_last_holder_scores_eight() -> None:
    assert score_record(LAYOUT) == {"penalties": [0, 0, 8]}


def test_layout_move_after_only_one_player_holds_cards_is_an_error() -> None:
    record = dict(LAYOUT, moves=LAYOUT["moves"] + ["AD"])
    assert error_move(score_record(record)) == 25


def test_layout_jack_while_able_to_extend_is_illegal_under_extend_first() -> None:
    record = dict(LAYOUT, moves=["JC", "JH", "pass", "JS"])
    assert error_move(score_record(record)) == 3
    explicit = dict(record, rules={"layout": "extend_first"})
    assert error_move(score_record(explicit)) == 3


def test_layout_jack_while_able_to_extend_is_allowed_under_free() -> None:
    record = dict(LAYOUT, moves=["JC", "JH", "pass", "JS"], rules={"layout": "free"})
    assert score_record(record) == {"error": {"move": 4, "message": "deal not finished"}}


@pytest.mark.parametrize("layout", ["extend_first", "free"])
def test_layout_pass_while_holding_a_playable_card_is_illegal(layout: str) -> None:
    record = dict(LAYOUT, moves=["JC", "JH", "pass", "pass"], rules={"layout": layout})
    assert error_move(score_record(record)) == 3


def test_layout_card_that_neither_extends_nor_is_a_jack_is_illegal() -> None:
    record = dict(LAYOUT, moves=["JC", "JH", "pass", "KC"])
    assert error_move(score_record(record)) == 3


def test_layout_first_player_without_a_jack_must_pass() -> None:
    record = dict(LAYOUT, dealer=1, moves=["KS"])  # seat 2 leads, holds no Jack
    assert error_move(score_record(record)) == 0
    record = dict(LAYOUT, dealer=1, moves=["pass", "JC"])
    assert error_move(score_record(record)) == 2


def test_five_player_pack_has_no_six_of_bells() -> None:
    """The Bells row ends at 7 with 5 players because 6D is not dealt: dealing it is malformed."""
    record = example(5, "rosbiratschka")
    hand = record["hands"][0]
    hand[0] = "6D"
    assert error_move(score_record(record)) is None


# ----- trick contracts ---------------------------------------------------------------------


def test_king_of_hearts_deal_ends_only_when_its_trick_is_complete() -> None:
    for case in EXAMPLES:
        record = case["record"]
        if record.get("contract") != "no_king_of_hearts" or "penalties" not in case["expect"]:
            continue
        moves = record["moves"]
        king = moves.index("KH")
        assert len(moves) % record["players"] == 0
        if king < len(moves) - 1:  # the King came before the last card of its trick
            cut = dict(record, moves=moves[: king + 1])
            assert error_move(score_record(cut)) == king + 1
        extra = dict(record, moves=moves + [moves[0]])
        assert error_move(score_record(extra)) == len(moves)


def default_rule_examples(contracts: tuple[str, ...]) -> list[tuple[dict, list[int]]]:
    """Scored examples of these contracts played under the default rules."""
    found = []
    for case in EXAMPLES:
        record, penalties = case["record"], case["expect"].get("penalties")
        if record.get("contract") in contracts and penalties and not record.get("rules"):
            found.append((copy.deepcopy(record), penalties))
    return found


SLAM_CONTRACTS = ("no_tricks", "no_hearts", "no_jacks")


def test_doubling_off_halves_a_doubled_deal_but_keeps_slams() -> None:
    doubled = slams = 0
    for record, penalties in default_rule_examples(SLAM_CONTRACTS):
        record["rules"] = {"doubling": False}
        if -8 in penalties:
            assert score_record(record) == {"penalties": penalties}, "a slam is not doubled"
            slams += 1
        elif 0 in penalties and sum(penalties) in (16, 18):
            assert score_record(record) == {"penalties": [p // 2 for p in penalties]}
            doubled += 1
    assert doubled >= 3 and slams >= 1


def test_doubling_true_explicitly_equals_the_default() -> None:
    checked = 0
    for record, penalties in default_rule_examples(SLAM_CONTRACTS):
        record["rules"] = {"doubling": True}
        assert score_record(record) == {"penalties": penalties}
        checked += 1
    assert checked >= 6


@pytest.mark.parametrize("contract", ["no_tricks", "no_hearts", "no_jacks", "hundred"])
def test_pass_is_illegal_outside_the_layout_game(contract: str) -> None:
    record = example(4, contract)
    record["moves"][5] = "pass"
    assert error_move(score_record(record)) == 5


def test_card_not_in_hand_and_non_string_move_are_errors_at_their_index() -> None:
    record = example(4, "no_tricks")
    first_of_other_seat = record["hands"][record["dealer"]][0]  # the leader never holds it
    assert error_move(score_record(dict(record, moves=[first_of_other_seat]))) == 0
    assert error_move(score_record(dict(record, moves=[record["moves"][0], 7]))) == 1
    assert error_move(score_record(dict(record, moves=[record["moves"][0], "XX"]))) == 1


def test_empty_moves_is_an_unfinished_deal_at_move_zero() -> None:
    record = dict(example(3, "no_jacks"), moves=[])
    assert score_record(record) == {"error": {"move": 0, "message": "deal not finished"}}


# ----- malformed records -------------------------------------------------------------------


def _broken_records() -> list[tuple[str, object]]:
    base = example(4, "no_tricks")
    hands = base["hands"]
    cases: list[tuple[str, object]] = [("not an object", [base])]
    for key, value in [
        ("players", 7),
        ("players", True),
        ("players", "4"),
        ("contract", "no_spades"),
        ("dealer", 4),
        ("dealer", -1),
        ("dealer", True),
        ("dealer", None),
        ("rules", ["doubling"]),
        ("rules", {"doubling": "no"}),
        ("rules", {"layout": "loose"}),
        ("rules", {"doubeling": False}),
        ("moves", "AC KC"),
    ]:
        cases.append((f"{key}={value!r}", dict(base, **{key: value})))
    cases.append(("moves missing", {k: v for k, v in base.items() if k != "moves"}))
    cases.append(("hands missing", {k: v for k, v in base.items() if k != "hands"}))
    cases.append(("five hands", dict(base, hands=hands + [[]])))
    duplicate = copy.deepcopy(hands)
    duplicate[0][0] = hands[1][0]
    cases.append(("duplicate card", dict(base, hands=duplicate)))
    dropped = copy.deepcopy(hands)
    dropped[2].pop()
    cases.append(("missing card", dict(base, hands=dropped)))
    uneven = copy.deepcopy(hands)
    uneven[1].append(uneven[0].pop())
    cases.append(("uneven hands", dict(base, hands=uneven)))
    unknown = copy.deepcopy(hands)
    unknown[3][0] = "ZZ"
    cases.append(("unknown card", dict(base, hands=unknown)))
    wrong_pack = copy.deepcopy(hands)
    wrong_pack[3][0] = "6" + wrong_pack[3][0][1]
    cases.append(("a Six in a 4-player deal", dict(base, hands=wrong_pack)))
    cases.append(("4-player pack as 5 players", dict(base, players=5)))
    return cases


@pytest.mark.parametrize(("why", "record"), _broken_records(), ids=lambda v: str(v)[:30])
def test_malformed_records_report_move_null(why: str, record: object) -> None:
    assert error_move(score_record(record)) is None, why


def test_score_lines_gives_one_output_line_per_input_line() -> None:
    good = EXAMPLES[0]["record"]
    lines = [json.dumps(good), "{not json", "", "[1, 2]", json.dumps(good)]
    results = [json.loads(out) for out in score_lines(lines)]
    assert results[0] == {"penalties": EXAMPLES[0]["expect"]["penalties"]}
    assert [error_move(r) for r in results[1:4]] == [None, None, None]
    assert results[4] == results[0]


# ----- command line ------------------------------------------------------------------------


def run_cli(*args: str, feed: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(BENCH_DIR / "reference_engine.py"), *args],
        input=feed,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_cli_scores_every_example_from_stdin_with_exit_status_one() -> None:
    feed = "".join(json.dumps(case["record"]) + "\n" for case in EXAMPLES)
    run = run_cli("score", "-", feed=feed)
    assert run.returncode == 1
    lines = run.stdout.splitlines()
    assert len(lines) == len(EXAMPLES)
    for line, case in zip(lines, EXAMPLES, strict=True):
        got = json.loads(line)
        if "penalties" in case["expect"]:
            assert got == {"penalties": case["expect"]["penalties"]}
        else:
            assert got["error"]["move"] == case["expect"]["error_move"]


def test_cli_exit_zero_when_every_line_scores(tmp_path: Path) -> None:
    good = [case["record"] for case in EXAMPLES if "penalties" in case["expect"]]
    path = tmp_path / "good.jsonl"
    path.write_text("".join(json.dumps(record) + "\n" for record in good))
    run = run_cli("score", str(path))
    assert run.returncode == 0
    assert len(run.stdout.splitlines()) == len(good)


def test_cli_bad_line_does_not_stop_later_lines(tmp_path: Path) -> None:
    path = tmp_path / "mixed.jsonl"
    record = json.dumps(EXAMPLES[0]["record"])
    path.write_bytes(b"\xff\xfe broken\n" + record.encode() + b"\n{\n" + record.encode() + b"\n")
    run = run_cli("score", str(path))
    assert run.returncode == 1
    results = [json.loads(line) for line in run.stdout.splitlines()]
    assert [error_move(results[0]), error_move(results[2])] == [None, None]
    assert results[1] == results[3] == {"penalties": EXAMPLES[0]["expect"]["penalties"]}


def test_cli_exit_two_when_the_input_cannot_be_read(tmp_path: Path) -> None:
    assert run_cli("score", str(tmp_path / "absent.jsonl")).returncode == 2
    assert run_cli("score", str(tmp_path)).returncode == 2
    assert run_cli("tally", "-", feed="").returncode == 2
