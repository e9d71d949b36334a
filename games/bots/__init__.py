"""Bots for Rosbiratschka: random, beginner, heuristic, and strong and expert sampling bots.

Pure Python on top of ``games.engine`` (standard library only, no Django). Every bot answers
``choose(view) -> Move`` for the seat whose ``SeatView`` it is given and takes its own random
source, so the same seed gives the same decisions. Create bots by level name::

    bot = make_bot("strong", seed=7, samples=60)
    move = bot.choose(deal.view_for(deal.turn))
"""

from __future__ import annotations

from typing import Any

from .base import Bot, SeededBot
from .beginner import BeginnerBot
from .heuristic import HeuristicBot
from .random_bot import RandomBot
from .sampling import sample_hands
from .strong import ExpertBot, StrongBot

BOT_CLASSES: dict[str, type[SeededBot]] = {
    "random": RandomBot,
    "beginner": BeginnerBot,
    "heuristic": HeuristicBot,
    "strong": StrongBot,
    "expert": ExpertBot,
}

BOT_LEVELS: dict[str, str] = {
    "random": "Random (plays any legal card)",
    "beginner": "Beginner (knows the rules, not the tactics)",
    "heuristic": "Club player (a sound plan for every contract)",
    "strong": "Strong (thinks through many possible deals, reading the others' play)",
    "expert": "Expert (also searches further ahead in each of them)",
}
"""Level keys in increasing strength with English labels for the user interface."""


def level_rating(level: str) -> int | None:
    """The level's measured rating on the ladder's scale (``bench/bot_ratings.py``), if any."""
    from .ratings_table import BOT_RATINGS

    return BOT_RATINGS.get(level)


def level_rating_sigma(level: str) -> int | None:
    """The uncertainty (sigma) of the level's measured rating, on the ladder's scale, if any.

    The rated ladder counts a bot seat as a player of this rating and sigma."""
    from .ratings_table import BOT_RATING_SIGMAS

    return BOT_RATING_SIGMAS.get(level)


def make_bot(level: str, seed: int | None = None, **options: Any) -> Bot:
    """A bot of ``level`` with its own ``random.Random(seed)``; options go to its constructor
    (e.g. ``samples``, ``time_limit`` and ``rollout`` for ``"strong"``)."""
    try:
        cls = BOT_CLASSES[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r} (one of {', '.join(BOT_LEVELS)})") from None
    return cls(seed, **options)  # type: ignore[call-arg]


__all__ = [
    "BOT_CLASSES",
    "BOT_LEVELS",
    "BeginnerBot",
    "ExpertBot",
    "Bot",
    "HeuristicBot",
    "RandomBot",
    "StrongBot",
    "level_rating",
    "level_rating_sigma",
    "make_bot",
    "sample_hands",
]
