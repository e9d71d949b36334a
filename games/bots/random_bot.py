"""The random bot: a uniform choice among the legal moves (the baseline every bot must beat)."""

from __future__ import annotations

from games.engine.cards import Move
from games.engine.deal import SeatView

from .base import SeededBot, single_move


class RandomBot(SeededBot):
    level = "random"

    def choose(self, view: SeatView) -> Move:
        only = single_move(view)
        if only is not None:
            return only
        return self.rng.choice(view.legal_moves)
