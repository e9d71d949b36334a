"""Import path for the bot tests.

With ``-p no:django`` only ``tests/`` is on ``sys.path`` (from ``tests/conftest.py``), so
``import games`` would find ``tests/games`` as a namespace package. Putting the repository
root first (and dropping a namespace ``games`` that slipped in) imports the real package.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[3]

if str(REPO_ROOT) not in sys.path[:1]:
    sys.path.insert(0, str(REPO_ROOT))
_games = sys.modules.get("games")
if _games is not None and getattr(_games, "__file__", None) is None:
    for _name in [m for m in sys.modules if m == "games" or m.startswith("games.")]:
        del sys.modules[_name]
