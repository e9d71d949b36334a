"""Engine mode: Parties played card by card through ``games.engine`` by the real bots.

Every simulated player has a hidden skill ``s`` (standard normal, drifting slowly). Its
*care* ``c = 1 / (1 + exp(-CARE_SLOPE * s))`` sets, move by move, which of the bots of
``games/bots`` decides: the heuristic bot with probability ``c``, else the beginner with
probability ``c`` of the rest, else the random bot. So a weak player plays mostly like
the random bot, an average one half heuristic, a quarter beginner, a quarter random, and a
strong one almost always like the heuristic bot. (The strong PIMC bot is left out: about
20 ms of CPU per decision would make 10 seeds of 2,000 Parties take hours.)

The bots decide from the seat's ``SeatView`` exactly as at a live table, and draw their
randomness from the stream's ``random.Random`` so a seed fixes every card played.
"""

from __future__ import annotations

import math
import random
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.bots.beginner import BeginnerBot  # noqa: E402
from games.bots.heuristic import HeuristicBot  # noqa: E402
from games.bots.random_bot import RandomBot  # noqa: E402
from games.engine import Partie, draw_first_dealer  # noqa: E402

# How steeply care rises with skill: skill -1 / 0 / +1 gives care 0.18 / 0.5 / 0.82.
CARE_SLOPE = 1.5


def care(skill: float) -> float:
    """Probability that a player of this hidden skill makes the heuristic bot's move."""
    return 1.0 / (1.0 + math.exp(-CARE_SLOPE * skill))


def level_shares(skill: float) -> tuple[float, float, float]:
    """Shares of moves made by the (heuristic, beginner, random) bot at this skill."""
    c = care(skill)
    return c, c * (1.0 - c), (1.0 - c) ** 2


def play_partie(rng: random.Random, skills: Sequence[float]) -> list[int]:
    """Penalty totals of one Partie (seat order) played by players of these hidden skills."""
    n = len(skills)
    heuristic, beginner, random_bot = HeuristicBot(rng), BeginnerBot(rng), RandomBot(rng)
    # Cumulative thresholds per seat: u < heuristic_share -> heuristic, u < both -> beginner.
    thresholds = []
    for skill in skills:
        first, second, _ = level_shares(skill)
        thresholds.append((first, first + second))
    partie = Partie(n, draw_first_dealer(n, rng))
    while not partie.is_over:
        deal = partie.deal_next(rng)
        while not deal.over:
            seat = deal.turn
            to_heuristic, to_beginner = thresholds[seat]
            draw = rng.random()
            bot = (
                heuristic if draw < to_heuristic else beginner if draw < to_beginner else random_bot
            )
            deal.play(bot.choose(deal.view_for(seat)))
    return list(partie.totals)
