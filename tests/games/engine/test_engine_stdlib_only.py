"""The engine is pure Python on the standard library: bots, the CLI and workers load it fast
and without Django, and it can be vendored into tools that have no project dependencies."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]
ENGINE_DIR = REPO_ROOT / "games" / "engine"


def imports_of(path: Path) -> list[tuple[str, int]]:
    """Every imported top-level module name with its relative level (0 = absolute)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [(alias.name.split(".")[0], 0) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            found.append(((node.module or "").split(".")[0], node.level))
    return found


def test_the_engine_has_source_files() -> None:
    names = {p.name for p in ENGINE_DIR.glob("*.py")}
    assert {"__init__.py", "cards.py", "deal.py", "records.py", "partie.py", "cli.py"} <= names


def test_every_import_is_stdlib_or_relative() -> None:
    outside = []
    for path in sorted(ENGINE_DIR.rglob("*.py")):
        for name, level in imports_of(path):
            if level == 0 and name not in sys.stdlib_module_names and name != "__future__":
                outside.append(f"{path.relative_to(REPO_ROOT)}: {name}")
    assert outside == []


def test_importing_the_engine_loads_no_django_and_nothing_outside_the_stdlib() -> None:
    """``-S`` leaves site-packages off the path: the engine must import and work without it."""
    code = (
        "import sys, games.engine, games.engine.cli\n"
        "top = {m.split('.')[0] for m in sys.modules}\n"
        # __mp_main__ is multiprocessing's alias of __main__ (the CLI scores big files in
        # parallel), not a module of its own.
        "aliases = {'__main__', '__mp_main__', 'games'}\n"
        "print(' '.join(sorted(top - set(sys.stdlib_module_names) - aliases)))\n"
        "print('django' in sys.modules)\n"
        "print(games.engine.score_line('{}'))\n"
    )
    proc = subprocess.run(
        [
            sys.executable,
            "-I",
            "-S",
            "-c",
            f"import sys; sys.path.insert(0, {str(REPO_ROOT)!r})\n" + code,
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    foreign, django_loaded, scored = proc.stdout.splitlines()
    assert django_loaded == "False"
    assert foreign == ""
    assert '"move": null' in scored
