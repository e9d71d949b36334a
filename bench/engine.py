"""Benchmarks of the rules engine; prints figures (they are copied into docs/engine.md).

1. Command line: ``python -m games.engine score FILE`` against the plain reference
   (``bench/reference_engine.py score FILE``) and against only ``json.loads`` of every line,
   on 20,000 random 3-6-player records; best of 3, wall and CPU time of the child process.
2. In process: random 4-player deals dealt and played out per second (``random_deal`` +
   ``play_out_randomly``), overall and per contract, in CPU time (``time.process_time``),
   since other processes share the machine.
3. Bot strength (the bots engineer's section): the heuristic bot against three random bots,
   average penalty per deal per contract with a 95% confidence interval.

    .venv/bin/python bench/engine.py                 # everything (about two minutes)
    .venv/bin/python bench/engine.py --only cli --records 5000 --repeats 1
"""

from __future__ import annotations

import argparse
import compileall
import math
import os
import platform
import random
import resource
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(1, str(BENCH_DIR))

from games.engine import CONTRACT_ORDER, Contract, play_out_randomly, random_deal  # noqa: E402

JSON_ONLY = (
    "import json, sys\n"
    "with open(sys.argv[1], 'rb') as f:\n"
    "    for line in f.read().splitlines():\n"
    "        try:\n"
    "            json.loads(line)\n"
    "        except ValueError:\n"
    "            pass\n"
)


def machine() -> str:
    return (
        f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{platform.system()} {platform.release()}"
    )


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_command(command: list[str], repeats: int) -> tuple[float, float]:
    """Best wall and best CPU seconds of ``command`` over ``repeats`` runs (output discarded)."""
    walls, cpus = [], []
    for _ in range(repeats):
        cpu_before = child_cpu()
        start = time.perf_counter()
        proc = subprocess.run(command, cwd=REPO_ROOT, stdout=subprocess.DEVNULL)
        walls.append(time.perf_counter() - start)
        cpus.append(child_cpu() - cpu_before)
        if proc.returncode not in (0, 1):
            raise SystemExit(f"{command} exited {proc.returncode}")
    return min(walls), min(cpus)


def make_records_file(count: int, seed: int, corrupt: float, path: Path) -> Path:
    from make_records import generate_records

    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(line + "\n" for line in generate_records(count, seed, corrupt)))
    return path


def bench_cli(records: int, repeats: int) -> None:
    print(f"\n## Command line: {records:,} random 3-6-player records, best of {repeats}")
    # An installed package has its bytecode compiled (pip does it; `make install` does it for
    # this editable checkout), so the engine's modules are not recompiled on every run even
    # where PYTHONDONTWRITEBYTECODE is set. The reference is one script, compiled each run.
    compileall.compile_dir(REPO_ROOT / "games" / "engine", quiet=1)
    for corrupt in (0.0, 0.3):
        name = f"engine-bench-{records}-s1-c{int(corrupt * 100)}.jsonl"
        path = make_records_file(records, 1, corrupt, BENCH_DIR / "out" / name)
        python = sys.executable
        rows = [
            ("json.loads only", [python, "-c", JSON_ONLY, str(path)]),
            ("engine", [python, "-m", "games.engine", "score", str(path)]),
            ("reference", [python, str(BENCH_DIR / "reference_engine.py"), "score", str(path)]),
        ]
        results = {label: time_command(cmd, repeats) for label, cmd in rows}
        size = path.stat().st_size / 1e6
        print(f"\n{path.name} ({size:.1f} MB, {int(corrupt * 100)}% corrupt)")
        print(f"{'':18}{'wall s':>9}{'CPU s':>9}{'records/s (CPU)':>18}")
        for label, (wall, cpu) in results.items():
            print(f"{label:18}{wall:9.2f}{cpu:9.2f}{records / cpu:18,.0f}")
        ratio_wall = results["engine"][0] / results["reference"][0]
        ratio_cpu = results["engine"][1] / results["reference"][1]
        beyond_json = (results["engine"][1] - results["json.loads only"][1]) / records * 1e6
        print(
            f"engine / reference: {ratio_wall:.2f} wall (the engine on every core, "
            f"goal <= 0.33: {'met' if ratio_wall <= 1 / 3 else 'NOT met'}), {ratio_cpu:.2f} CPU "
            f"(all its processes, goal <= 0.33: {'met' if ratio_cpu <= 1 / 3 else 'NOT met'}); "
            f"engine beyond json.loads: {beyond_json:.1f} us CPU per record"
        )


def deals_per_second(players: int, contract: Contract | None, count: int, seed: int) -> float:
    rng = random.Random(seed)
    contracts = CONTRACT_ORDER if contract is None else (contract,)
    start = time.process_time()
    for i in range(count):
        play_out_randomly(random_deal(players, contracts[i % len(contracts)], rng), rng)
    return count / (time.process_time() - start)


def bench_in_process(count: int) -> None:
    print(f"\n## In process: random deals dealt and played out ({count:,} per row, CPU time)")
    rate = deals_per_second(4, None, count, 1)
    print(
        f"4 players, all contracts in turn: {rate:,.0f} deals/s "
        f"(goal >= 20,000: {'met' if rate >= 20_000 else 'NOT met'})"
    )
    for contract in CONTRACT_ORDER:
        print(f"  {contract.value:20}{deals_per_second(4, contract, count, 2):>10,.0f} deals/s")
    for players in (3, 5, 6):
        print(f"{players} players, all contracts: {deals_per_second(players, None, count, 3):,.0f}")


def mean_ci(values: list[int]) -> tuple[float, float]:
    """Mean and half-width of the normal 95% confidence interval."""
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def bench_bots(deals: int) -> None:
    print("\n## Bot strength (section for the bots engineer)")
    try:
        from games.bots import HeuristicBot, RandomBot
        from games.bots.simulate import play_deal
    except ImportError as exc:
        print(f"games.bots with HeuristicBot and RandomBot is missing: {exc}")
        return
    print(
        f"Heuristic bot vs 3 random bots, 4 players, {deals:,} deals per contract; the "
        "heuristic seat rotates, dealer random. Average penalty per deal, 95% CI; "
        "'random seat' is the average of the random bots' seats in the same deals."
    )
    print(f"{'contract':20}{'heuristic':>18}{'random seat':>18}{'CPU s':>8}")
    rng = random.Random(7)
    heuristic_bot = HeuristicBot(1)
    random_bots = [RandomBot(10 + s) for s in range(4)]
    for contract in CONTRACT_ORDER:
        heuristic, others = [], []
        start = time.process_time()
        for i in range(deals):
            seat = i % 4
            bots = [heuristic_bot if s == seat else random_bots[s] for s in range(4)]
            penalties = play_deal(random_deal(4, contract, rng), bots)
            heuristic.append(penalties[seat])
            others.append(sum(penalties) - penalties[seat])
        spent = time.process_time() - start
        h_mean, h_ci = mean_ci(heuristic)
        o_mean, o_ci = mean_ci(others)
        print(
            f"{contract.value:20}{h_mean:>11.3f} ±{h_ci:.3f}"
            f"{o_mean / 3:>11.3f} ±{o_ci / 3:.3f}{spent:8.1f}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("cli", "process", "bots"), action="append")
    parser.add_argument("--records", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--deals", type=int, default=30_000, help="in-process deals per row")
    parser.add_argument("--bot-deals", type=int, default=10_000, help="bot deals per contract")
    args = parser.parse_args(argv)
    parts = set(args.only or ("cli", "process", "bots"))
    print(f"# Engine benchmarks, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC")
    print(f"Machine: {machine()}; load average {os.getloadavg()[0]:.2f} at start")
    if "cli" in parts:
        bench_cli(args.records, args.repeats)
    if "process" in parts:
        bench_in_process(args.deals)
    if "bots" in parts:
        bench_bots(args.bot_deals)
    return 0


if __name__ == "__main__":
    sys.exit(main())
