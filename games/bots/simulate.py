"""Playing bots against each other: whole deals and Parties, for the CLI and benchmarks."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from games.engine.deal import Deal
from games.engine.partie import Partie, random_deal
from games.engine.rules import DEFAULT_RULES, Contract, HouseRules

from .base import Bot


def play_deal(
    deal: Deal, bots: Sequence[Bot], timings: dict[int, list[float]] | None = None
) -> tuple[int, ...]:
    """Let ``bots[seat]`` play every move of ``deal`` from its own view; return the penalties.

    With ``timings``, the seconds of every decision are appended under the deciding seat.
    """
    while not deal.over:
        seat = deal.turn
        view = deal.view_for(seat)
        if timings is None:
            move = bots[seat].choose(view)
        else:
            start = time.perf_counter()
            move = bots[seat].choose(view)
            timings.setdefault(seat, []).append(time.perf_counter() - start)
        deal.play(move)
    return deal.penalties  # type: ignore[return-value]


def play_partie(
    bots: Sequence[Bot],
    rng: random.Random,
    first_dealer: int = 0,
    rules: HouseRules = DEFAULT_RULES,
    timings: dict[int, list[float]] | None = None,
) -> list[tuple[int, ...]]:
    """Six deals dealt from ``rng``; returns each deal's penalties in contract order."""
    partie = Partie(len(bots), first_dealer, rules)
    while partie.next_contract is not None:
        play_deal(partie.deal_next(rng), bots, timings)
    return partie.deal_penalties()


def play_random_deal(
    bots: Sequence[Bot],
    contract: Contract,
    rng: random.Random,
    rules: HouseRules = DEFAULT_RULES,
) -> tuple[int, ...]:
    """One freshly dealt deal of ``contract`` (random dealer) played by ``bots``."""
    return play_deal(random_deal(len(bots), contract, rng, rules=rules), bots)
