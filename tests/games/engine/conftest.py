"""Shared set-up for the engine tests: import path, file locations and small deal helpers.

With ``-p no:django`` nothing puts the repository root on ``sys.path`` (pytest-django usually
does, via manage.py), and ``tests/`` is on it because of ``tests/conftest.py``; ``import games``
would then find ``tests/games`` as a namespace package instead of the engine. Putting the root
first (and forgetting a namespace ``games`` if one slipped in) makes both runs import the real one.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]
BENCH_DIR = REPO_ROOT / "bench"
EXAMPLES_FILE = Path(__file__).resolve().parents[4] / "shared" / "examples" / "deals.jsonl"

if str(REPO_ROOT) not in sys.path[:1]:
    sys.path.insert(0, str(REPO_ROOT))
_games = sys.modules.get("games")
if _games is not None and getattr(_games, "__file__", None) is None:
    for _name in [m for m in sys.modules if m == "games" or m.startswith("games.")]:
        del sys.modules[_name]
