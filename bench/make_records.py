"""Generate random Rosbiratschka deal records (JSON Lines) for benchmarks and cross-checks.

Every clean record is a legal, complete deal: random player count (3-6), contract, dealer
and house rules, a shuffled pack, and random legal play driven by the reference engine.
``--corrupt FRACTION`` breaks exactly that fraction of the records in varied ways so the
error paths of an engine are exercised as well as the scoring paths.

    python bench/make_records.py --count 20000 --seed 1 --out bench/out/records.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reference_engine import CONTRACTS, PASS, RANKS, SUITS, Deal, make_pack  # noqa: E402


def random_rules(rng: random.Random) -> dict | None:
    """Half the records omit rules (defaults); the rest set one or both house rules."""
    if rng.random() < 0.5:
        return None
    rules = {}
    if rng.random() < 0.6:
        rules["doubling"] = rng.random() < 0.5
    if rng.random() < 0.6 or not rules:
        rules["layout"] = rng.choice(["extend_first", "free"])
    return rules


def play_out(
    players: int,
    contract: str,
    dealer: int,
    rules: dict | None,
    rng: random.Random,
    choose: Callable[[Deal, list[str]], str] | None = None,
) -> dict:
    """A legal, complete deal record from a shuffled pack: each move by ``choose(deal, legal)``,
    uniformly random among the legal moves unless told otherwise."""
    pack = make_pack(players)
    rng.shuffle(pack)
    each = len(pack) // players
    hands = [sorted(pack[seat * each : (seat + 1) * each]) for seat in range(players)]
    effective = {"doubling": True, "layout": "extend_first", **(rules or {})}
    deal = Deal(players, contract, dealer, hands, effective)
    moves = []
    while not deal.finished:
        legal = deal.legal_moves()
        move = rng.choice(legal) if choose is None else choose(deal, legal)
        deal.play(move)
        moves.append(move)
    record = {
        "players": players,
        "contract": contract,
        "dealer": dealer,
        "hands": hands,
        "moves": moves,
    }
    if rules is not None:
        record["rules"] = rules
    return record


def random_record(rng: random.Random) -> dict:
    """One legal, complete deal record played out with uniformly random legal moves."""
    players = rng.randint(3, 6)
    contract = rng.choice(CONTRACTS)
    dealer = rng.randrange(players)
    rules = random_rules(rng)
    return play_out(players, contract, dealer, rules, rng)


def _replay(record: dict, upto: int) -> Deal:
    """The position of a clean record just before move ``upto``."""
    effective = {"doubling": True, "layout": "extend_first", **record.get("rules", {})}
    deal = Deal(record["players"], record["contract"], record["dealer"], record["hands"], effective)
    for move in record["moves"][:upto]:
        deal.play(move)
    return deal


def _random_card(rng: random.Random, record: dict) -> tuple[int, int]:
    seat = rng.randrange(record["players"])
    return seat, rng.randrange(len(record["hands"][seat]))


def corrupt_record(record: dict, rng: random.Random) -> str:
    """Break a clean record in one randomly chosen way and return its JSON line."""
    record = json.loads(json.dumps(record))  # deep copy
    moves = record["moves"]
    hands = record["hands"]
    players = record["players"]
    kind = rng.choice(
        [
            "truncate",
            "extra_move",
            "swap_moves",
            "foreign_card",
            "pass",
            "duplicate_card",
            "drop_card",
            "uneven",
            "unknown_contract",
            "bad_json",
            "wrong_pack",
            "bad_dealer",
            "bad_rules",
        ]
    )
    if kind == "truncate":
        del moves[rng.randrange(len(moves)) :]
    elif kind == "extra_move":
        deal = _replay(record, len(moves))
        leftovers = [card for hand in deal.hands for card in hand]
        moves.append(rng.choice(leftovers) if leftovers else PASS)
    elif kind == "swap_moves":
        first, second = rng.sample(range(len(moves)), 2)
        while moves[first] == moves[second]:  # two passes: swapping changes nothing
            first, second = rng.sample(range(len(moves)), 2)
        moves[first], moves[second] = moves[second], moves[first]
    elif kind in ("foreign_card", "pass"):
        index = rng.randrange(len(moves))
        deal = _replay(record, index)
        others = [card for s, hand in enumerate(deal.hands) if s != deal.seat for card in hand]
        if kind == "pass" or not others:
            moves[index] = PASS if moves[index] != PASS else rng.choice(deal.hands[deal.seat])
        else:
            moves[index] = rng.choice(others)
    elif kind == "duplicate_card":
        seat, slot = _random_card(rng, record)
        other = (seat + rng.randrange(1, players)) % players
        hands[seat][slot] = rng.choice(hands[other])
    elif kind == "drop_card":
        seat, slot = _random_card(rng, record)
        del hands[seat][slot]
    elif kind == "uneven":
        seat, slot = _random_card(rng, record)
        other = (seat + rng.randrange(1, players)) % players
        hands[other].append(hands[seat].pop(slot))
    elif kind == "unknown_contract":
        record["contract"] = rng.choice(["no_spades", "Hundred", "", "no tricks", 3])
    elif kind == "bad_json":
        text = json.dumps(record)
        return text[: rng.randrange(1, len(text) - 1)]
    elif kind == "wrong_pack":
        full = [rank + suit for suit in SUITS for rank in RANKS]
        outside = [card for card in full if card not in make_pack(players)]
        if outside:
            seat, slot = _random_card(rng, record)
            hands[seat][slot] = rng.choice(outside)
        else:  # 6 players use every card: relabel the deal for another player count
            record["players"] = rng.choice([3, 4, 5])
    elif kind == "bad_dealer":
        record["dealer"] = rng.choice([players, -1, "0", None, 1.5])
    else:  # bad_rules
        record["rules"] = rng.choice(
            [{"doubling": "yes"}, {"layout": "loose"}, {"doubeling": False}, ["doubling"]]
        )
    return json.dumps(record)


def generate_records(count: int, seed: int, corrupt: float = 0.0) -> list[str]:
    """``count`` JSON lines (no newlines); exactly ``round(count * corrupt)`` are broken.

    The same seed gives the same clean records whatever ``corrupt`` is; only the chosen
    lines differ.
    """
    rng = random.Random(seed)
    # A separate stream for the damage, so the clean records do not depend on ``corrupt``.
    damage_rng = random.Random(f"{seed}-corrupt")
    broken = set(damage_rng.sample(range(count), round(count * corrupt)))
    lines = []
    for index in range(count):
        record = random_record(rng)
        if index in broken:
            lines.append(corrupt_record(record, damage_rng))
        else:
            lines.append(json.dumps(record))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--corrupt", type=float, default=0.0, help="fraction 0..1 to break")
    parser.add_argument("--out", type=Path, default=Path("bench/out/records.jsonl"))
    args = parser.parse_args(argv)
    if not 0.0 <= args.corrupt <= 1.0:
        parser.error("--corrupt must be between 0 and 1")
    lines = generate_records(args.count, args.seed, args.corrupt)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("".join(line + "\n" for line in lines))
    print(f"wrote {len(lines)} records to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
