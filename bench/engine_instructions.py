"""The scoring command line counted in machine instructions (valgrind's callgrind).

Wall and CPU times on a shared 2-core machine move by tens of percent with whatever else runs;
instruction counts do not (the same count for the same binary and input, whatever the load).
This runs the engine's ``score`` command (one process), the plain reference
(``bench/reference_engine.py``) and ``json.loads`` of every line under callgrind, each on an
empty file and on N records, and prints instructions per record and at start-up, and the
ratio engine / reference for 20,000 records. Instructions are not time (a cache miss costs
more than an add), so ``bench/engine.py`` times the same commands; this is the steady check.

    .venv/bin/python bench/engine_instructions.py            # 2,000 records, ~2 minutes
    .venv/bin/python bench/engine_instructions.py --records 500
    .venv/bin/python bench/engine_instructions.py --playouts 1000   # also the in-process loop

``--playouts N`` also counts ``random_deal`` + ``play_out_randomly`` in process: N seeded
4-player deals per contract, and N/2 per player count 3-6 over all contracts; instructions
per deal, the start-up subtracted.
"""

from __future__ import annotations

import argparse
import compileall
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent
sys.path.insert(0, str(BENCH_DIR))

from engine import JSON_ONLY, make_records_file  # noqa: E402

COMMANDS = {
    "json.loads only": ["-c", JSON_ONLY],
    "engine": ["-m", "games.engine", "score", "--jobs", "1"],
    "reference": [str(BENCH_DIR / "reference_engine.py"), "score"],
}


def instructions(command: list[str], env: dict[str, str] | None = None) -> int:
    """Instructions callgrind counts for ``command`` (its output is thrown away)."""
    proc = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
        cwd=REPO_ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    found = re.search(r"Collected : (\d+)", proc.stderr)
    if not found:
        raise SystemExit(f"callgrind gave no count for {command}:\n{proc.stderr[-2000:]}")
    return int(found.group(1))


PLAYOUTS = (
    "import random, sys\n"
    "from games.engine import CONTRACT_ORDER, play_out_randomly, random_deal\n"
    "count, which = int(sys.argv[1]), sys.argv[2]\n"
    "rng = random.Random(5)\n"
    "if which == 'all':\n"
    "    for players in (3, 4, 5, 6):\n"
    "        for i in range(count):\n"
    "            play_out_randomly(random_deal(players, CONTRACT_ORDER[i % 6], rng), rng)\n"
    "else:\n"
    "    for i in range(count):\n"
    "        play_out_randomly(random_deal(4, CONTRACT_ORDER[int(which)], rng), rng)\n"
)


def count_playouts(deals: int) -> None:
    """Instructions per dealt and played-out deal, one callgrind run at a time."""
    python = sys.executable
    # String hashing is seeded per process; fixed, the counts repeat to the instruction.
    env = {**os.environ, "PYTHONHASHSEED": "0"}

    def run(count: int, which: str) -> int:
        return instructions([python, "-c", PLAYOUTS, str(count), which], env)

    startup = run(0, "all")
    print("\n# In process: random_deal + play_out_randomly, instructions per deal (callgrind)")
    for number in range(6):
        per_deal = (run(deals, str(number)) - startup) / deals
        print(f"4 players, contract {number + 1}: {per_deal:>10,.0f}")
    half = max(deals // 2, 1)
    per_deal = (run(half, "all") - startup) / (4 * half)
    print(f"3-6 players, all contracts: {per_deal:>10,.0f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=int, default=2000)
    parser.add_argument("--playouts", type=int, default=0, help="deals per row; 0: skip")
    args = parser.parse_args(argv)
    if not shutil.which("valgrind"):
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    compileall.compile_dir(REPO_ROOT / "games" / "engine", quiet=1)  # as installed
    python = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        empty = Path(tmp) / "empty.jsonl"
        empty.write_text("")
        print(f"# Instructions per record, {args.records:,} records (callgrind)")
        for corrupt in (0.0, 0.3):
            records = make_records_file(
                args.records, 1, corrupt, Path(tmp) / f"records-c{int(corrupt * 100)}.jsonl"
            )
            jobs = [
                (label, path)
                for label in COMMANDS
                for path in (empty, records)
                if not (corrupt and path is empty)
            ]
            with ThreadPoolExecutor(max_workers=2) as pool:
                counts = dict(
                    zip(
                        jobs,
                        pool.map(
                            lambda job: instructions([python, *COMMANDS[job[0]], str(job[1])]),
                            jobs,
                        ),
                        strict=True,
                    )
                )
            if not corrupt:
                startup = {label: counts[label, empty] for label in COMMANDS}
            print(f"\n{int(corrupt * 100)}% broken records")
            print(f"{'':18}{'at start-up':>14}{'per record':>14}")
            per_record = {}
            for label in COMMANDS:
                per_record[label] = (counts[label, records] - startup[label]) / args.records
                print(f"{label:18}{startup[label]:>14,}{per_record[label]:>14,.0f}")

            def total(label: str) -> float:
                return startup[label] + 20_000 * per_record[label]  # noqa: B023

            ratio = total("engine") / total("reference")
            print(
                f"engine / reference for 20,000 records: {ratio:.3f} "
                f"(goal <= 0.333: {'met' if ratio <= 1 / 3 else 'NOT met'})"
            )
    if args.playouts:
        count_playouts(args.playouts)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
