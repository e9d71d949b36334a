"""Apps talk through public names: no module outside an app imports a private name of it.

"Outside" means another top-level package (games, tournaments, ratings, rosbi_platform) or the
benchmarks. A private name is one that starts with a single underscore: imported with
``from app.module import _name``, or reached as ``module._name`` on a module imported from
another app. Tests may look inside the app they test (their folder under tests/ mirrors it),
never inside another one.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
APPS = ("games", "tournaments", "ratings", "rosbi_platform")
SOURCES = ("games", "tournaments", "ratings", "rosbi_platform", "bench", "tests")


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def owner_of(path: Path) -> str:
    """The app a file belongs to: its top-level package, or for tests the app it mirrors."""
    parts = path.relative_to(REPO_ROOT).parts
    if parts[0] == "tests" and len(parts) > 2:
        mirrored = {"platform": "rosbi_platform"}.get(parts[1], parts[1])
        return mirrored if mirrored in APPS else "tests"
    return parts[0]


def app_of(module: str) -> str | None:
    top = module.split(".")[0]
    return top if top in APPS else None


def crossings(source: str, owner: str) -> list[str]:
    """Every private name of another app that ``source`` (a module of ``owner``) reaches."""
    tree = ast.parse(source)
    foreign_modules: dict[str, str] = {}  # local alias -> module of another app
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            app = app_of(node.module)
            if app is None or app == owner:
                continue
            for alias in node.names:
                if is_private(alias.name):
                    found.append(f"line {node.lineno}: from {node.module} import {alias.name}")
                else:
                    foreign_modules[alias.asname or alias.name] = f"{node.module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                app = app_of(alias.name)
                if app is not None and app != owner:
                    foreign_modules[alias.asname or alias.name.split(".")[0]] = alias.name
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in foreign_modules
            and is_private(node.attr)
        ):
            found.append(f"line {node.lineno}: {foreign_modules[node.value.id]}.{node.attr}")
    return found


def python_files() -> list[Path]:
    return sorted(
        path
        for folder in SOURCES
        for path in (REPO_ROOT / folder).rglob("*.py")
        if "migrations" not in path.parts
    )


def test_the_checker_sees_a_crossing():
    sample = "from games.moves import _private_helper\nfrom games import lobby\nlobby._hidden()\n"
    assert crossings(sample, owner="ratings") == [
        "line 1: from games.moves import _private_helper",
        "line 3: games.lobby._hidden",
    ]
    assert crossings(sample, owner="games") == [], "an app may use its own private names"


@pytest.mark.parametrize("path", python_files(), ids=lambda p: str(p.relative_to(REPO_ROOT)))
def test_no_module_reaches_into_another_app(path: Path) -> None:
    assert crossings(path.read_text(encoding="utf-8"), owner_of(path)) == []
