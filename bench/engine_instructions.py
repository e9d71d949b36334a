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
"""

from __future__ import annotations

import argparse
import compileall
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


def instructions(command: list[str]) -> int:
    """Instructions callgrind counts for ``command`` (its output is thrown away)."""
    proc = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
        cwd=REPO_ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    found = re.search(r"Collected : (\d+)", proc.stderr)
    if not found:
        raise SystemExit(f"callgrind gave no count for {command}:\n{proc.stderr[-2000:]}")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", type=int, default=2000)
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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
