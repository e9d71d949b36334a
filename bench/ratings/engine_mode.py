"""Engine mode: Parties played card by card by the rules engine ``games.engine``.

Each simulated player is a bot with a hidden skill ``s`` in (0, 1): at every move it plays
the heuristic move with probability ``s`` and a uniformly random legal move otherwise.
The heuristic is the plain card sense of the game: duck under the trick, shed the
dangerous card when void, lead low; in ``hundred`` never cross 25/50/100 when avoidable.
These are bench bots (``games/bots.py`` did not exist when this was written); they exist
only so that penalty totals come from real deals instead of a parametric model.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games.engine import Partie, draw_first_dealer  # noqa: E402
from games.engine.cards import HUNDRED_VALUES  # noqa: E402

_KING_OF_HEARTS = 2 * 9 + 7
_HEARTS = 2
_JACK = 5


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _danger(index: int, contract: str) -> int:
    """How much a card hurts if taken, for choosing discards."""
    rank = index % 9
    if contract == "no_king_of_hearts" and index == _KING_OF_HEARTS:
        return 100
    if contract == "no_hearts" and index // 9 == _HEARTS:
        return 20 + rank
    if contract == "no_jacks" and rank == _JACK:
        return 30
    return rank


def _heuristic(deal, legal: list[int]) -> int:
    contract = str(deal.contract)
    if contract == "hundred":
        total = deal.hundred_total
        line = 25 if total <= 25 else 50 if total <= 50 else 100
        safe = [i for i in legal if total + HUNDRED_VALUES[i % 9] <= line]
        if safe:
            return max(safe, key=lambda i: (HUNDRED_VALUES[i % 9], i))
        return min(legal, key=lambda i: (HUNDRED_VALUES[i % 9], i))
    if contract == "rosbiratschka":
        cards = [i for i in legal if i < 36]
        return max(cards, key=lambda i: (i % 9 != _JACK, i)) if cards else legal[0]
    trick = deal.current_trick
    if not trick:
        return min(legal, key=lambda i: (_danger(i, contract), i % 9, i))
    led = trick[0][1].suit
    best = max(card.rank for _, card in trick if card.suit == led)
    following = [i for i in legal if i // 9 == led]
    if following:
        under = [i for i in following if i % 9 < best]
        if under:
            return max(under, key=lambda i: (i % 9, i))
        return max(following, key=lambda i: (i % 9, i))
    return max(legal, key=lambda i: (_danger(i, contract), i))


def play_partie(rng: random.Random, skills: list[float]) -> list[int]:
    """Penalty totals of one Partie played by bots of the given skills (seat order)."""
    n = len(skills)
    partie = Partie(n, draw_first_dealer(n, rng))
    while not partie.is_over:
        deal = partie.deal_next(rng)
        while not deal.over:
            mask = deal.legal_mask()
            legal = _bits(mask)
            if len(legal) == 1:
                move = legal[0]
            elif rng.random() < skills[deal.turn]:
                move = _heuristic(deal, legal)
            else:
                move = legal[int(rng.random() * len(legal))]
            deal.play_index(move)
    return list(partie.totals)
