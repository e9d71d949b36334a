"""Write the project's own worked examples, tests/records/deals.jsonl, from the reference engine.

The examples hold the rules engine (``games.engine``) against an independent reading of the
rules: every expectation below is computed by ``bench/reference_engine.py``, a plain
implementation written separately from the engine, and frozen in the file, so a change to
either shows up as a failing example. Coverage: every contract for 3 to 6 players under the
default rules and without doubling, the free layout rule, a slam in each slam contract for
every player count, and broken records (illegal moves, malformed records) with the index of
the first offending move.

    python bench/make_examples.py            # rewrites tests/records/deals.jsonl
    python bench/make_examples.py --check    # exit 1 if the file differs from a fresh run
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_records import corrupt_record, play_out  # noqa: E402
from reference_engine import CONTRACTS, Deal, score_text  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "tests" / "records" / "deals.jsonl"
SEED = 20261201
SLAM_CONTRACTS = ("no_tricks", "no_hearts", "no_jacks")


RANK_ORDER = "6789TJQKA"


def greedy(seat: int) -> Callable[[Deal, list[str]], str]:
    """``seat`` takes what it can (its highest card), the others duck (their lowest): slams."""

    def choose(deal: Deal, legal: list[str]) -> str:
        ranked = sorted(legal, key=lambda card: RANK_ORDER.index(card[0]))
        return ranked[-1] if deal.seat == seat else ranked[0]

    return choose


def expectation(line: str) -> dict:
    result = score_text(line)
    if "penalties" in result:
        return {"penalties": result["penalties"]}
    return {"error_move": result["error"]["move"]}


def examples() -> list[tuple[str, dict]]:
    rng = random.Random(SEED)
    lines: list[str] = []
    for players in (3, 4, 5, 6):
        for contract in CONTRACTS:
            for rules in (None, {"doubling": False}):
                dealer = rng.randrange(players)
                lines.append(json.dumps(play_out(players, contract, dealer, rules, rng)))
        lines.append(json.dumps(play_out(players, "rosbiratschka", 0, {"layout": "free"}, rng)))
        for contract in SLAM_CONTRACTS:
            for _attempt in range(20000):
                dealer = rng.randrange(players)
                taker = greedy(rng.randrange(players))
                record = play_out(players, contract, dealer, None, rng, taker)
                if -8 in score_text(json.dumps(record)).get("penalties", []):
                    lines.append(json.dumps(record))
                    break
            else:
                raise SystemExit(f"no {contract} slam found for {players} players")
    clean = list(lines)
    for index in range(24):
        lines.append(corrupt_record(json.loads(clean[index * 2 % len(clean)]), rng))
    return [(line, expectation(line)) for line in lines]


def render() -> str:
    out = []
    for line, expect in examples():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            record = line  # a broken JSON text is kept as the string the engine must refuse
        out.append(json.dumps({"record": record, "expect": expect}) + "\n")
    return "".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        same = OUT.exists() and OUT.read_text() == text
        print(
            "tests/records/deals.jsonl is up to date"
            if same
            else "tests/records/deals.jsonl differs"
        )
        return 0 if same else 1
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text)
    print(f"wrote {text.count(chr(10))} examples to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
