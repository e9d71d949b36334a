"""The engine's command line (RULES.md section 7), a thin shell around ``records``.

python -m games.engine score FILE|-          score JSON Lines of deal records
python -m games.engine deal --players 4 ...  print a seeded random deal record
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence

from .partie import play_out_randomly, random_deal
from .records import DealRecord, score_line
from .rules import CONTRACT_ORDER, Contract, HouseRules


def _read_input(path: str) -> list[bytes]:
    """The input's JSON Lines as bytes, split at ``\n`` only (a lone ``\r`` is JSON whitespace).

    Each line is decoded on its own, so one bad line stays one error line.
    """
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as handle:
            data = handle.read()
    lines = data.split(b"\n")
    if lines and not lines[-1]:
        lines.pop()
    return lines


def cmd_score(args: argparse.Namespace) -> int:
    """Score every line; 0 when all scored, 1 when any line was an error, 2 on unreadable input."""
    try:
        lines = _read_input(args.file)
    except OSError as exc:
        print(f"cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    out = [score_line(line) for line in lines]
    failed = any(line.startswith('{"error"') for line in out)
    if out:
        sys.stdout.write("\n".join(out) + "\n")
    sys.stdout.flush()
    return 1 if failed else 0


def cmd_deal(args: argparse.Namespace) -> int:
    """Print seeded random deal records, played out with random legal moves unless --unplayed."""
    rng = random.Random(args.seed)
    rules = HouseRules(doubling=not args.no_doubling, layout=args.layout)
    for _ in range(args.count):
        contract = Contract(args.contract) if args.contract else rng.choice(CONTRACT_ORDER)
        players = args.players or rng.randint(3, 6)
        deal = random_deal(players, contract, rng, args.dealer, rules)
        if not args.unplayed:
            play_out_randomly(deal, rng)
        print(json.dumps(DealRecord.from_deal(deal).to_dict()))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m games.engine", description=__doc__.split("\n")[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)
    score = sub.add_parser("score", help="score JSON Lines of deal records")
    score.add_argument("file", help="a file of JSON Lines, or - for standard input")
    score.set_defaults(func=cmd_score)
    deal = sub.add_parser("deal", help="print seeded random deal records")
    deal.add_argument("--players", type=int, choices=(3, 4, 5, 6), help="default: random 3-6")
    deal.add_argument("--contract", choices=[c.value for c in CONTRACT_ORDER])
    deal.add_argument("--dealer", type=int)
    deal.add_argument("--seed", type=int, default=None)
    deal.add_argument("--count", type=int, default=1)
    deal.add_argument("--unplayed", action="store_true", help="leave the moves empty")
    deal.add_argument("--no-doubling", action="store_true")
    deal.add_argument("--layout", choices=("extend_first", "free"), default="extend_first")
    deal.set_defaults(func=cmd_deal)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)
