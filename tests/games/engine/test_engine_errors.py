"""Every way a record can be wrong, and what the scorer says: RULES.md sections 6 and 7.

A malformed record (not a deal at all) is reported with ``move: null``; an illegal move with the
index of the first offending move; an unfinished deal with ``move = len(moves)``.
"""

from __future__ import annotations

import codecs
import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games.engine import (
    DealRecord,
    IllegalMove,
    MalformedRecord,
    Partie,
    PartieRecord,
    score_line,
    score_record,
)

REPO_ROOT = Path(__file__).resolve().parents[3]


def split(text: str) -> list[str]:
    return text.split()


# A complete 3-player no_tricks deal (dealer 2; see test_engine_rules.py for its tricks).
TRICK_RECORD: dict[str, Any] = {
    "players": 3,
    "contract": "no_tricks",
    "dealer": 2,
    "hands": [
        split("AC KC AH QH TS QS 9D QD"),
        split("9C JC 9H KH AS JS TD KD"),
        split("TC QC TH JH 9S KS AD JD"),
    ],
    "moves": split("AC 9C TC AH 9H TH QH KH JH AS 9S TS JS KS QS AD 9D TD JD QD KD JC QC KC"),
}
TRICK_PENALTIES = [3, 3, 2]

# A 4-player layout deal, dealer 3, no moves yet: seat 0 must lay JC, then seat 1 must lay TC
# (holds JH too), then seat 2 must pass (holds 8C, 7C, no Jack).
LAYOUT_RECORD: dict[str, Any] = {
    "players": 4,
    "contract": "rosbiratschka",
    "dealer": 3,
    "hands": [
        split("JC 7S 8S 9S 7H 8H 9H 7D"),
        split("TC JH 8D 9D TD QD KD AD"),
        split("AS KS QS AH KH QH 8C 7C"),
        split("JS JD QC KC AC 9C TS TH"),
    ],
    "moves": [],
}


def scored(record: Any) -> dict[str, Any]:
    return json.loads(score_line(json.dumps(record)))


def error_of(record: Any) -> tuple[int | None, str]:
    result = scored(record)
    assert set(result) == {"error"}, result
    assert set(result["error"]) == {"move", "message"}
    message = result["error"]["message"]
    assert isinstance(message, str) and message
    return result["error"]["move"], message


def changed(base: dict[str, Any], **changes: Any) -> dict[str, Any]:
    record = copy.deepcopy(base)
    for key, value in changes.items():
        if value is DELETE:
            del record[key]
        else:
            record[key] = value
    return record


DELETE = object()


def test_the_base_records_are_valid() -> None:
    assert scored(TRICK_RECORD) == {"penalties": TRICK_PENALTIES}
    assert error_of(LAYOUT_RECORD) == (0, "deal not finished")


def hands_with(*edits: tuple[int, int, str | None]) -> list[list[Any]]:
    """The trick record's hands with (seat, slot, card) replaced; card None removes it."""
    hands = copy.deepcopy(TRICK_RECORD["hands"])
    for seat, slot, card in sorted(edits, key=lambda e: -e[1]):
        if card is None:
            del hands[seat][slot]
        else:
            hands[seat][slot] = card
    return hands


MALFORMED = {
    "unknown contract": changed(TRICK_RECORD, contract="no_spades"),
    "contract in capitals": changed(TRICK_RECORD, contract="No_Tricks"),
    "contract not a string": changed(TRICK_RECORD, contract=1),
    "missing contract": changed(TRICK_RECORD, contract=DELETE),
    "players out of range": changed(TRICK_RECORD, players=7),
    "players two": changed(TRICK_RECORD, players=2),
    "players as string": changed(TRICK_RECORD, players="3"),
    "players as bool": changed(TRICK_RECORD, players=True),
    "players as float": changed(TRICK_RECORD, players=3.0),
    "missing players": changed(TRICK_RECORD, players=DELETE),
    "wrong pack: 3-player deal called 4-player": changed(TRICK_RECORD, players=4),
    "wrong pack: card outside the 3-player pack": changed(
        TRICK_RECORD, hands=hands_with((0, 0, "8C"))
    ),
    "wrong pack: 6D with 5 players": {
        **TRICK_RECORD,
        "players": 5,
        "hands": [
            split("6C 7C 8C 9C TC JC QC"),
            split("KC AC 6S 7S 8S 9S TS"),
            split("JS QS KS AS 6H 7H 8H"),
            split("9H TH JH QH KH AH 6D"),
            split("8D 9D TD JD QD KD AD"),
        ],
        "moves": [],
    },
    "duplicated card": changed(TRICK_RECORD, hands=hands_with((0, 0, "KC"))),
    "missing card": changed(TRICK_RECORD, hands=hands_with((0, 0, None))),
    "unknown card": changed(TRICK_RECORD, hands=hands_with((1, 3, "ZZ"))),
    "card in lower case": changed(TRICK_RECORD, hands=hands_with((1, 3, "kh"))),
    "card not a string": changed(TRICK_RECORD, hands=hands_with((1, 3, 13))),
    "uneven hands": changed(
        TRICK_RECORD,
        hands=[
            TRICK_RECORD["hands"][0][:-1],
            TRICK_RECORD["hands"][1] + TRICK_RECORD["hands"][0][-1:],
            TRICK_RECORD["hands"][2],
        ],
    ),
    "too few hands": changed(TRICK_RECORD, hands=TRICK_RECORD["hands"][:2]),
    "too many hands": changed(TRICK_RECORD, hands=[*TRICK_RECORD["hands"], []]),
    "hands not a list": changed(TRICK_RECORD, hands="AC KC"),
    "a hand not a list": changed(TRICK_RECORD, hands=["AC", *TRICK_RECORD["hands"][1:]]),
    "missing hands": changed(TRICK_RECORD, hands=DELETE),
    "dealer = players": changed(TRICK_RECORD, dealer=3),
    "negative dealer": changed(TRICK_RECORD, dealer=-1),
    "dealer as string": changed(TRICK_RECORD, dealer="0"),
    "dealer null": changed(TRICK_RECORD, dealer=None),
    "dealer as bool": changed(TRICK_RECORD, dealer=False),
    "dealer as float": changed(TRICK_RECORD, dealer=1.5),
    "missing dealer": changed(TRICK_RECORD, dealer=DELETE),
    "rules doubling not a bool": changed(TRICK_RECORD, rules={"doubling": "yes"}),
    "rules unknown layout": changed(TRICK_RECORD, rules={"layout": "loose"}),
    "rules misspelt key": changed(TRICK_RECORD, rules={"doubeling": False}),
    "rules not an object": changed(TRICK_RECORD, rules=["doubling"]),
    "moves not a list": changed(TRICK_RECORD, moves="AC 9C"),
    "missing moves": changed(TRICK_RECORD, moves=DELETE),
    "JSON array": [TRICK_RECORD],
    "JSON number": 3,
    "JSON string": "no_tricks",
    "JSON null": None,
    "a Partie record": {"players": 3, "first_dealer": 0, "deals": [TRICK_RECORD]},
}


@pytest.mark.parametrize("record", MALFORMED.values(), ids=MALFORMED.keys())
def test_malformed_records_give_move_null(record: Any) -> None:
    move, _message = error_of(record)
    assert move is None
    with pytest.raises(MalformedRecord):
        score_record(record)


@pytest.mark.parametrize(
    "text",
    ["", "   ", "{", '{"players": 3,', json.dumps(TRICK_RECORD)[:-1], "nonsense", "{'a': 1}"],
    ids=["empty", "blank", "brace", "cut", "cut-end", "word", "python-quotes"],
)
def test_bad_json_gives_move_null(text: str) -> None:
    result = json.loads(score_line(text))
    assert result["error"]["move"] is None
    assert result["error"]["message"]


def test_unknown_top_level_keys_are_ignored() -> None:
    assert scored({**TRICK_RECORD, "id": 17, "note": "table 3"}) == {"penalties": TRICK_PENALTIES}


def test_rules_may_be_omitted_or_partial() -> None:
    assert scored({**TRICK_RECORD, "rules": {}}) == {"penalties": TRICK_PENALTIES}
    assert scored({**TRICK_RECORD, "rules": {"layout": "free"}}) == {"penalties": TRICK_PENALTIES}


def with_move(base: dict[str, Any], index: int, move: Any) -> dict[str, Any]:
    record = copy.deepcopy(base)
    record["moves"] = record["moves"][:index] + [move]
    return record


ILLEGAL = {
    # trick record: move 1 is seat 1 answering AC
    "card not in hand (another seat's)": (with_move(TRICK_RECORD, 1, "TC"), 1, "hold"),
    "card already played": (with_move(TRICK_RECORD, 3, "AC"), 3, "hold"),
    "not following suit": (with_move(TRICK_RECORD, 1, "9H"), 1, "follow"),
    "not following suit later": (with_move(TRICK_RECORD, 10, "AD"), 10, "follow"),
    "pass in a trick contract": (with_move(TRICK_RECORD, 0, "pass"), 0, "pass"),
    "pass in hundred": (
        with_move(changed(TRICK_RECORD, contract="hundred"), 2, "pass"),
        2,
        "pass",
    ),
    "unknown move code": (with_move(TRICK_RECORD, 4, "ZZ"), 4, "not a card"),
    "move code in lower case": (with_move(TRICK_RECORD, 0, "ac"), 0, "not a card"),
    "move 'PASS' in capitals": (
        with_move({**LAYOUT_RECORD, "moves": ["JC", "TC"]}, 2, "PASS"),
        2,
        "not a card",
    ),
    "move not a string": (with_move(TRICK_RECORD, 5, 7), 5, "not a card"),
    "move null": (with_move(TRICK_RECORD, 0, None), 0, "not a card"),
    # layout record: JC, TC, pass are the forced first three moves
    "pass while able to play": (with_move(LAYOUT_RECORD, 0, "pass"), 0, "pass"),
    "jack while able to extend": (
        with_move({**LAYOUT_RECORD, "moves": ["JC"]}, 1, "JH"),
        1,
        "extend",
    ),
    "card neither extending nor starting a row": (
        with_move({**LAYOUT_RECORD, "moves": ["JC", "TC"]}, 2, "8C"),
        2,
        "neither",
    ),
    "layout card not in hand": (with_move(LAYOUT_RECORD, 0, "JS"), 0, "hold"),
}


@pytest.mark.parametrize("case", ILLEGAL.values(), ids=ILLEGAL.keys())
def test_illegal_moves_give_their_index(case: tuple[dict[str, Any], int, str]) -> None:
    record, index, words = case
    move, message = error_of(record)
    assert move == index
    assert words in message
    with pytest.raises(IllegalMove) as caught:
        score_record(record)
    assert caught.value.move_index == index


def test_only_the_first_bad_move_is_reported() -> None:
    record = copy.deepcopy(TRICK_RECORD)
    record["moves"][5] = "AS"  # seat 2 does not hold AS
    record["moves"][9] = "pass"
    assert error_of(record)[0] == 5


def test_unfinished_deal() -> None:
    for cut in (0, 1, 12, len(TRICK_RECORD["moves"]) - 1):
        record = changed(TRICK_RECORD, moves=TRICK_RECORD["moves"][:cut])
        assert error_of(record) == (cut, "deal not finished")


def test_unfinished_king_of_hearts_deal_stops_before_the_king_trick_is_complete() -> None:
    record = changed(TRICK_RECORD, contract="no_king_of_hearts", moves=TRICK_RECORD["moves"][:8])
    assert error_of(record) == (8, "deal not finished")
    record["moves"] = TRICK_RECORD["moves"][:9]
    assert scored(record) == {"penalties": [0, 8, 0]}


def test_a_move_after_the_end_gives_its_index() -> None:
    record = changed(TRICK_RECORD, contract="no_king_of_hearts")  # over after 9 moves
    move, message = error_of(record)
    assert move == 9
    assert "over" in message
    record = changed(TRICK_RECORD, moves=[*TRICK_RECORD["moves"], "pass"])
    assert error_of(record)[0] == len(TRICK_RECORD["moves"])


def test_deal_record_from_dict_reports_bad_codes_at_their_index_and_malformed_as_such() -> None:
    with pytest.raises(IllegalMove) as caught:
        DealRecord.from_dict(with_move(TRICK_RECORD, 3, "XX"))
    assert caught.value.move_index == 3
    with pytest.raises(MalformedRecord):
        DealRecord.from_dict(MALFORMED["duplicated card"])
    with pytest.raises(MalformedRecord):
        DealRecord.from_json("{")
    # legal codes in an illegal order are only found by replay()
    record = DealRecord.from_dict(with_move(TRICK_RECORD, 1, "9H"))
    with pytest.raises(IllegalMove) as caught:
        record.replay()
    assert caught.value.move_index == 1


def partie_dict() -> dict[str, Any]:
    return {"players": 3, "first_dealer": 2, "deals": [copy.deepcopy(TRICK_RECORD)]}


def test_the_base_partie_record_is_valid() -> None:
    partie = Partie.from_record(PartieRecord.from_dict(partie_dict()))
    assert partie.totals == tuple(TRICK_PENALTIES)


@pytest.mark.parametrize(
    "change",
    [
        {"first_dealer": 3},
        {"players": 4},
        {"deals": [{**TRICK_RECORD, "contract": "no_hearts"}]},
        {"deals": [{**TRICK_RECORD, "dealer": 0}]},
        {"deals": [{**TRICK_RECORD, "rules": {"doubling": False}}]},
        {"deals": [TRICK_RECORD] * 7},
        {"rules": {"doubling": 1}},
        {"deals": "none"},
    ],
    ids=[
        "dealer",
        "players",
        "contract-order",
        "deal-dealer",
        "deal-rules",
        "seven",
        "rules",
        "deals",
    ],
)
def test_malformed_partie_records(change: dict[str, Any]) -> None:
    with pytest.raises(MalformedRecord):
        PartieRecord.from_dict({**partie_dict(), **change})


def test_partie_record_with_an_unfinished_deal_followed_by_another_is_refused() -> None:
    second = {**TRICK_RECORD, "contract": "no_hearts", "dealer": 0, "moves": []}
    record = PartieRecord.from_dict(
        {"players": 3, "first_dealer": 2, "deals": [{**TRICK_RECORD, "moves": ["AC"]}, second]}
    )
    with pytest.raises(MalformedRecord):
        Partie.from_record(record)
    finished_first = PartieRecord.from_dict(
        {"players": 3, "first_dealer": 2, "deals": [TRICK_RECORD, second]}
    )
    partie = Partie.from_record(finished_first)
    assert partie.current is partie.deals[1]
    assert partie.totals == tuple(TRICK_PENALTIES)


# ------------------------------------------------------------------------------- command line


def run_cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "games.engine", *args],
        cwd=REPO_ROOT,
        input=stdin,
        capture_output=True,
        timeout=60,
    )


def test_cli_one_bad_line_never_stops_the_next(tmp_path: Path) -> None:
    good = json.dumps(TRICK_RECORD).encode()
    lines = [
        good,
        b"{",
        json.dumps(MALFORMED["duplicated card"]).encode(),
        b"",
        json.dumps(with_move(TRICK_RECORD, 1, "9H")).encode(),
        b"\xff\xfe not utf-8 \x80",
        json.dumps(changed(TRICK_RECORD, moves=TRICK_RECORD["moves"][:3])).encode(),
        good,
    ]
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    proc = run_cli("score", str(path))
    assert proc.returncode == 1
    out = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert len(out) == len(lines)
    assert out[0] == out[-1] == {"penalties": TRICK_PENALTIES}
    assert [o.get("error", {}).get("move", "ok") for o in out] == [
        "ok",
        None,
        None,
        None,
        1,
        None,
        3,
        "ok",
    ]
    assert out[6]["error"]["message"] == "deal not finished"


def test_cli_exit_zero_when_every_line_scored_from_stdin() -> None:
    proc = run_cli("score", "-", stdin=(json.dumps(TRICK_RECORD) + "\n").encode() * 3)
    assert proc.returncode == 0
    assert proc.stdout.decode().splitlines() == ['{"penalties": [3, 3, 2]}'] * 3


def test_cli_crlf_line_ends_are_accepted() -> None:
    proc = run_cli("score", "-", stdin=(json.dumps(TRICK_RECORD) + "\r\n").encode() * 2)
    assert proc.returncode == 0
    assert len(proc.stdout.decode().splitlines()) == 2


def test_cli_empty_input_scores_nothing_and_exits_zero() -> None:
    proc = run_cli("score", "-", stdin=b"")
    assert proc.returncode == 0
    assert proc.stdout == b""


def test_cli_exit_two_when_the_input_cannot_be_read(tmp_path: Path) -> None:
    missing = run_cli("score", str(tmp_path / "no-such-file.jsonl"))
    assert missing.returncode == 2
    assert missing.stdout == b""
    assert missing.stderr
    directory = run_cli("score", str(tmp_path))
    assert directory.returncode == 2


def test_cli_a_file_that_is_not_utf8_reports_every_line_and_exits_one(tmp_path: Path) -> None:
    path = tmp_path / "latin1.jsonl"
    path.write_bytes('{"contract": "Keine Herzen \u00e4"}\n'.encode("latin-1") * 2)
    proc = run_cli("score", str(path))
    assert proc.returncode == 1
    out = [json.loads(line) for line in proc.stdout.decode().splitlines()]
    assert [o["error"]["move"] for o in out] == [None, None]


def test_cli_bad_command_line_exits_two() -> None:
    assert run_cli().returncode == 2
    assert run_cli("score").returncode == 2
    assert run_cli("frobnicate", "x").returncode == 2


def test_cli_a_bare_carriage_return_inside_a_record_does_not_split_the_line() -> None:
    """JSON Lines separates records by newline only; a lone CR is JSON whitespace."""
    line = json.dumps(TRICK_RECORD).replace(', "contract"', ',\r"contract"', 1)
    assert json.loads(line) == TRICK_RECORD
    proc = run_cli("score", "-", stdin=(line + "\n").encode())
    assert proc.stdout.decode().splitlines() == ['{"penalties": [3, 3, 2]}']
    assert proc.returncode == 0


def test_cli_lines_in_other_encodings_are_read_as_each_line_alone_would_be() -> None:
    """A UTF-8 byte-order mark, a UTF-16 line and a line that is not UTF-8 among good lines:
    every line gets the answer ``score_line`` gives it on its own."""
    good = json.dumps(TRICK_RECORD)
    lines = [
        codecs.BOM_UTF8 + good.encode(),
        good.encode(),
        good.encode("utf-16-le"),
        b'{"players": 4, "contract": "\xff"}',
        good.encode(),
    ]
    result = run_cli("score", "-", stdin=b"\n".join(lines) + b"\n")
    expected = [score_line(line) for line in lines]
    assert result.stdout.decode().splitlines() == expected
    assert json.loads(expected[0]) == {"penalties": TRICK_PENALTIES}
    assert "not UTF-8" in expected[3]
    assert result.returncode == 1


def test_cli_plain_utf8_text_is_scored_like_each_line_alone() -> None:
    """Plain UTF-8 input is decoded once for speed; the answers are the per-line ones."""
    lines = [json.dumps(TRICK_RECORD), json.dumps({**TRICK_RECORD, "contract": "Hündert"}), "{"]
    result = run_cli("score", "-", stdin=("\n".join(lines) + "\n").encode())
    assert result.stdout.decode().splitlines() == [score_line(line.encode()) for line in lines]
