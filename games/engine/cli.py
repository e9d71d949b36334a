"""The engine's command line (RULES.md section 7), a thin shell around ``records``.

python -m games.engine score FILE|-          score JSON Lines of deal records
python -m games.engine deal --players 4 ...  print a seeded random deal record
"""

from __future__ import annotations

import argparse
import codecs
import gc
import json
import os
import random
import sys
from collections.abc import Sequence

from .partie import play_out_randomly, random_deal
from .records import DealRecord, score_line
from .rules import CONTRACT_ORDER, Contract, HouseRules


def _read_input(path: str) -> list[str] | list[bytes]:
    """The input's JSON Lines, split at ``\n`` only (a lone ``\r`` is JSON whitespace).

    Plain UTF-8 input is decoded once and split into text lines. Anything else (bytes that
    are not UTF-8, a byte-order mark, NUL bytes as UTF-16 or UTF-32 text has) is split into
    byte lines that ``json.loads`` decodes one by one, as it would be for each line alone,
    so one bad line stays one error line.
    """
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as handle:
            data = handle.read()
    lines: list[str] | list[bytes]
    if b"\x00" in data or codecs.BOM_UTF8 in data:
        lines = data.split(b"\n")
    else:
        try:
            lines = data.decode("utf-8").split("\n")
        except UnicodeDecodeError:
            lines = data.split(b"\n")
    if lines and not lines[-1]:
        lines.pop()
    return lines


LINES_PER_JOB = 4000
"""Below this many lines per extra process, forking costs more than it saves."""

_lines: list[str] | list[bytes] = []


def _score_range(bounds: tuple[int, int]) -> list[str]:
    """Score a slice of the input; runs in a forked worker that inherited ``_lines``."""
    start, stop = bounds
    return [score_line(line) for line in _lines[start:stop]]


def score_all(lines: list[str] | list[bytes], jobs: int) -> list[str]:
    """Score ``lines`` in order, on ``jobs`` processes when the input is large enough.

    Lines are independent, so a big file is cut into slices that forked workers score
    while the results come back in input order; one process is used for small inputs,
    where starting workers would cost more than it saves, and where ``fork`` is missing.
    """
    jobs = max(1, min(jobs, len(lines) // LINES_PER_JOB))
    if jobs == 1:
        return [score_line(line) for line in lines]
    import multiprocessing  # here: a small input never pays for importing it

    if "fork" not in multiprocessing.get_all_start_methods():
        return [score_line(line) for line in lines]
    global _lines
    _lines = lines
    try:
        step = -(-len(lines) // (jobs * 4))
        bounds = [(i, min(i + step, len(lines))) for i in range(0, len(lines), step)]
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            parts = pool.map(_score_range, bounds)
    finally:
        _lines = []
    return [line for part in parts for line in part]


def default_jobs() -> int:
    """The processors this process may use (all of them unless pinned)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def cmd_score(args: argparse.Namespace) -> int:
    """Score every line; 0 when all scored, 1 when any line was an error, 2 on unreadable input."""
    try:
        lines = _read_input(args.file)
    except OSError as exc:
        print(f"cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    # Scoring makes no reference cycles, so the collector would only walk the parsed records.
    gc.disable()
    try:
        out = score_all(lines, args.jobs or default_jobs())
    finally:
        gc.enable()
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
    score.add_argument(
        "--jobs",
        type=int,
        default=0,
        help="processes to score with (default: every available core, for large inputs)",
    )
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
