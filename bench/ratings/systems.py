"""Rating systems under comparison, behind one small interface.

Each system keeps its own state, predicts pairwise probabilities for a table before the
Partie, computes new ratings without committing them (so monotonicity can be probed by
perturbing results) and commits them.
"""

from __future__ import annotations

import math
import sys
from abc import ABC, abstractmethod
from collections import deque
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import trueskill  # noqa: E402
from openskill.models import BradleyTerryFull, PlackettLuce  # noqa: E402

from ratings import elo  # noqa: E402


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def _dense_ranks(totals: list[int]) -> list[int]:
    distinct = sorted(set(totals))
    return [distinct.index(t) for t in totals]


class System(ABC):
    """Base: ``state`` maps player id to the system's rating object."""

    name = "base"

    def __init__(self) -> None:
        self.state: dict[int, Any] = {}

    def rating(self, player: int) -> Any:
        if player not in self.state:
            self.state[player] = self.fresh()
        return self.state[player]

    @abstractmethod
    def fresh(self) -> Any:
        """Every rating system of the comparison defines it."""

    @abstractmethod
    def predict(self, players: list[int], now: float) -> list[list[float]]:
        """Every rating system of the comparison defines it."""

    @abstractmethod
    def compute(self, players: list[int], totals: list[int], now: float) -> list[Any]:
        """Every rating system of the comparison defines it."""

    @abstractmethod
    def strength(self, rating: Any) -> float:
        """The number shown on the ladder (used for rank correlations and monotonicity)."""

    def commit(self, players: list[int], new: list[Any]) -> None:
        for player, rating in zip(players, new, strict=True):
            self.state[player] = rating

    def observe(self, players: list[int], totals: list[int], now: float) -> None:
        """A finished Partie, before its ratings are committed (for pool-level learning)."""
        return None


# The pool calibration as the platform runs it (ratings.selectors.pool_scale): refitted every
# REFIT_EVERY Parties on the last CALIBRATION_WINDOW Parties' pairs.
REFIT_EVERY = 25
CALIBRATION_WINDOW = 1000


class Ours(System):
    """The Rosbi rating; with ``calibrate`` its odds use the pool's fitted log-odds scale.

    ``adapt`` and ``adapt_margin`` are experiments that were measured and not adopted
    (docs/ratings.md, "Margin scale 32"): the pool's fitted scale ``s`` also sets how much
    one Partie teaches, pair weight times ``s ** adapt`` (clamped to ``adapt_bounds``), or the
    margin scale times ``s ** -adapt_margin`` (clamped to 0.25-4).
    """

    name = "ours"

    def __init__(
        self,
        params: elo.Params = elo.DEFAULT_PARAMS,
        name: str = "ours",
        calibrate: bool = True,
        window: int = CALIBRATION_WINDOW,
        refit_every: int = REFIT_EVERY,
        adapt: float = 0.0,
        adapt_bounds: tuple[float, float] = (0.25, 4.0),
        adapt_margin: float = 0.0,
    ) -> None:
        super().__init__()
        self.params = params
        self.name = name
        self.calibrate = calibrate
        self.window = window
        self.refit_every = refit_every
        self.scale = 1.0
        self.observed = 0
        self.history: deque[list[tuple[float, float]]] = deque(maxlen=window)
        self.adapt = adapt
        self.adapt_bounds = adapt_bounds
        self.adapt_margin = adapt_margin
        self.learning = 1.0  # the pair weight's multiplier under ``adapt``

    def fresh(self) -> elo.Rating:
        return elo.Rating(sigma=self.params.initial_sigma)

    def predict(self, players: list[int], now: float) -> list[list[float]]:
        return elo.predict([self.rating(p) for p in players], now, self.params, self.scale)

    def observe(self, players: list[int], totals: list[int], now: float) -> None:
        if not self.calibrate:
            return
        ratings = [self.rating(p) for p in players]
        self.history.append(elo.table_pairs(ratings, totals, now, self.params))
        self.observed += 1
        if self.observed % self.refit_every == 0:
            pairs = [pair for table in self.history for pair in table]
            self.scale = elo.fit_scale(pairs, start=self.scale)
            if self.adapt:
                low, high = self.adapt_bounds
                self.learning = min(max(self.scale**self.adapt, low), high)

    def compute(self, players: list[int], totals: list[int], now: float) -> list[elo.Rating]:
        params = self.params
        if self.learning != 1.0:
            params = replace(params, pair_weight=params.pair_weight * self.learning)
        if self.adapt_margin and self.scale != 1.0:
            margin = params.margin_scale * min(max(self.scale**-self.adapt_margin, 0.25), 4.0)
            params = replace(params, margin_scale=margin)
        return elo.update([self.rating(p) for p in players], totals, now, params)

    def strength(self, rating: elo.Rating) -> float:
        return rating.mu


class TrueSkill(System):
    name = "trueskill"

    def __init__(
        self, draw_probability: float = 0.03, beta_factor: float = 1.0, name: str = "trueskill"
    ) -> None:
        super().__init__()
        self.name = name
        self.env = trueskill.TrueSkill(
            beta=25.0 / 6.0 * beta_factor, draw_probability=draw_probability, backend=None
        )

    def fresh(self) -> trueskill.Rating:
        return self.env.create_rating()

    def predict(self, players: list[int], now: float) -> list[list[float]]:
        ratings = [self.rating(p) for p in players]
        beta2 = 2 * self.env.beta**2
        return [
            [_phi((a.mu - b.mu) / math.sqrt(beta2 + a.sigma**2 + b.sigma**2)) for b in ratings]
            for a in ratings
        ]

    def compute(self, players: list[int], totals: list[int], now: float) -> list[Any]:
        groups = [(self.rating(p),) for p in players]
        rated = self.env.rate(groups, ranks=_dense_ranks(totals))
        return [group[0] for group in rated]

    def strength(self, rating: trueskill.Rating) -> float:
        return rating.mu


class OpenSkill(System):
    def __init__(self, model: Any, name: str, use_scores: bool = False) -> None:
        super().__init__()
        self.model = model
        self.name = name
        self.use_scores = use_scores

    def fresh(self) -> Any:
        return self.model.rating()

    def predict(self, players: list[int], now: float) -> list[list[float]]:
        ratings = [self.rating(p) for p in players]
        n = len(ratings)
        matrix = [[0.5] * n for _ in range(n)]
        for i in range(n):
            for j in range(i + 1, n):
                p = self.model.predict_win([[ratings[i]], [ratings[j]]])[0]
                matrix[i][j] = p
                matrix[j][i] = 1.0 - p
        return matrix

    def compute(self, players: list[int], totals: list[int], now: float) -> list[Any]:
        teams = [[self.rating(p)] for p in players]
        if self.use_scores:
            rated = self.model.rate(teams, scores=[-t for t in totals])
        else:
            rated = self.model.rate(teams, ranks=list(totals))
        return [team[0] for team in rated]

    def strength(self, rating: Any) -> float:
        return rating.mu


def openskill_pl() -> OpenSkill:
    return OpenSkill(PlackettLuce(), "openskill-PL")


def openskill_btfull() -> OpenSkill:
    return OpenSkill(BradleyTerryFull(), "openskill-BTFull")


def openskill_pl_scores() -> OpenSkill:
    """OpenSkill's score-margin mode: scores (higher is better) and a margin in points."""
    return OpenSkill(PlackettLuce(margin=4.0), "openskill-PL-margin", use_scores=True)


def _pair_result(own: int, other: int) -> float:
    return 1.0 if own < other else 0.0 if own > other else 0.5


class Elo(System):
    """Pairwise Elo: every pair at the table is a game worth K / (n - 1)."""

    name = "elo"

    def __init__(self, k: float = 32.0, provisional_k: float = 64.0, provisional: int = 10):
        super().__init__()
        self.k = k
        self.provisional_k = provisional_k
        self.provisional = provisional

    def fresh(self) -> tuple[float, int]:
        return (1500.0, 0)

    def predict(self, players: list[int], now: float) -> list[list[float]]:
        ratings = [self.rating(p)[0] for p in players]
        return [[1.0 / (1.0 + 10 ** ((b - a) / 400.0)) for b in ratings] for a in ratings]

    def compute(self, players: list[int], totals: list[int], now: float) -> list[Any]:
        current = [self.rating(p) for p in players]
        n = len(players)
        new = []
        for i, (mu, games) in enumerate(current):
            k = (self.provisional_k if games < self.provisional else self.k) / (n - 1)
            delta = 0.0
            for j, (other, _) in enumerate(current):
                if i != j:
                    expected = 1.0 / (1.0 + 10 ** ((other - mu) / 400.0))
                    delta += k * (_pair_result(totals[i], totals[j]) - expected)
            new.append((mu + delta, games + 1))
        return new

    def strength(self, rating: tuple[float, int]) -> float:
        return rating[0]


_Q = math.log(10.0) / 400.0


def _glicko_g(rd: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * _Q * _Q * rd * rd / math.pi**2)


class Glicko(System):
    """Glicko-1 (Glickman 1999); each Partie is a rating period of n - 1 pairwise games."""

    name = "glicko"

    def __init__(self, c_per_day: float = 17.0, min_rd: float = 30.0) -> None:
        super().__init__()
        self.c = c_per_day
        self.min_rd = min_rd

    def fresh(self) -> tuple[float, float, float | None]:
        return (1500.0, 350.0, None)

    def _current(self, player: int, now: float) -> tuple[float, float]:
        mu, rd, last = self.rating(player)
        if last is not None and now > last:
            rd = min(350.0, math.sqrt(rd * rd + self.c**2 * (now - last) / 86400.0))
        return mu, rd

    def predict(self, players: list[int], now: float) -> list[list[float]]:
        current = [self._current(p, now) for p in players]
        return [
            [
                1.0 / (1.0 + 10 ** (-_glicko_g(math.hypot(ra, rb)) * (a - b) / 400.0))
                for b, rb in current
            ]
            for a, ra in current
        ]

    def compute(self, players: list[int], totals: list[int], now: float) -> list[Any]:
        current = [self._current(p, now) for p in players]
        new = []
        for i, (mu, rd) in enumerate(current):
            d_inv = 0.0
            pull = 0.0
            for j, (other, other_rd) in enumerate(current):
                if i == j:
                    continue
                g = _glicko_g(other_rd)
                expected = 1.0 / (1.0 + 10 ** (-g * (mu - other) / 400.0))
                d_inv += _Q * _Q * g * g * expected * (1.0 - expected)
                pull += g * (_pair_result(totals[i], totals[j]) - expected)
            precision = 1.0 / (rd * rd) + d_inv
            new.append((mu + _Q / precision * pull, max(self.min_rd, precision**-0.5), now))
        return new

    def strength(self, rating: tuple[float, float, float | None]) -> float:
        return rating[0]
