"""Rosbi rating: an Elo-scale, Glicko-style rating for 3-6-player tables of Rosbiratschka.

Pure Python (stdlib ``math`` only) so the web app, the Celery workers and the benchmark
all run the very same arithmetic. The formulas and the measured reasons for every
parameter are in ``docs/ratings.md``.

Model in one paragraph: every player has an Elo-style rating ``mu`` (new players 1500;
``UNIT`` points ahead means 10:1 odds, Elo's 400 times 1.8 since the margin scale went to 32)
and an uncertainty ``sigma`` (Glicko's RD). A finished Partie is
read as the ``n - 1`` head-to-head results of each player against every other player
at the table (lower total wins, equal totals draw). Each head-to-head result is scored
as a value in [0, 1] that mixes the plain win/draw/loss with a bounded, monotone
score-margin term (``tanh`` of the point difference; measured to help on this game, so
by default the score is that term alone, a draw still scoring 1/2), and the Glicko-1 update is applied with each pair down-weighted
because the ``n - 1`` results of one Partie are not independent games. A Partie can
move ``mu`` by at most ``MAX_CHANGE``. ``sigma`` shrinks with play, grows by the drift ``TAU``
before every Partie (so a regular keeps reacting to a real change of form) and with
inactivity back towards ``INITIAL_SIGMA``. The odds (``predict``) take a pool's calibration
``scale``, fitted on its own results (``fit_scale``), so they stay honest however much luck
the game has.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

# The version of the rating rules: raised whenever a change of the formulas or constants
# changes what a history's ratings are. A pool whose stored ratings were computed under
# another version is recomputed from its history, once, on its next update
# (``ratings.updates``). 1: margin scale 12, Elo's 400 (until December 2026); 2: margin scale
# 32 in units 1.8 times larger; 3: a bot seat counts as its level's measured rating, recorded
# with the Partie (``ratings.replay.bot_rating``), no longer as a fixed 1500.
MODEL_VERSION = 3

INITIAL_MU = 1500.0
# Every constant in rating points below is 1.8 times its value before December 2026
# (``rescaled``): the margin scale then grew from 12 to 32 points, which alone would have
# drawn the ladder 45 % closer together; in units 1.8 times larger it keeps its spread while
# every prediction is that of the margin-32 model (docs/ratings.md, "Margin scale 32").
INITIAL_SIGMA = 630.0
# Skill drift per Partie (rating points): before every update sigma^2 grows by TAU^2, so an
# established player's sigma settles where a Partie still moves the rating enough to follow a
# real change of form (docs/ratings.md, "Reacting to change").
TAU = 36.0
# Floor for sigma: a guard only; with TAU the settled sigma sits above it.
MIN_SIGMA = 108.0
# Ratings with sigma above this are provisional and displayed with "?". Above the sigma a
# regular settles at with the drift TAU (187-211 at tables of 6 down to 3), so regulars are
# established; a newcomer gets below it after about 25 Parties.
PROVISIONAL_SIGMA = 234.0
# Inactivity: sigma^2 grows by INACTIVITY_C^2 per day without a Partie (capped at
# INITIAL_SIGMA); from a settled sigma back to provisional takes about half a year.
INACTIVITY_C = 9.0
SECONDS_PER_DAY = 86400.0
# Largest change of mu one Partie may cause (rating points).
MAX_CHANGE = 180.0
# Weight of each head-to-head pair: PAIR_WEIGHT / (n - 1) ** PAIR_EXPONENT.
PAIR_WEIGHT = 0.2
PAIR_EXPONENT = 0.5
# Score-margin term: share of the pair score given by the margin, its scale in penalty
# points (12 until December 2026: the score saturated within one typical margin), and how
# much of a win-probability edge the margin term shows on average.
MARGIN_WEIGHT = 1.0
MARGIN_SCALE = 32.0
MARGIN_SLOPE = 0.8
# A player with the lowest total alone (a unique winner) never loses rating: the margin-only
# score can otherwise take points from a favourite who wins by little (docs/ratings.md).
WINNER_NEVER_LOSES = True
# Rating points of a difference that gives 10:1 odds before uncertainty and calibration
# (classic Elo's 400, times the 1.8 above).
UNIT = 720.0

# Calibration of the odds (``fit_scale``): the bounds of the log-odds multiplier and the
# prior's weight in curvature units (about 25 informative pairs' worth).
CALIBRATION_BOUNDS = (0.25, 4.0)
CALIBRATION_PRIOR_WEIGHT = 2.0

_LN10 = math.log(10.0)


@dataclass(frozen=True)
class Rating:
    """One player's rating; plain values so it can be stored in any database row."""

    mu: float = INITIAL_MU
    sigma: float = INITIAL_SIGMA
    games: int = 0
    last_played: float | None = None


@dataclass(frozen=True)
class Params:
    """Tunable constants, bundled so the benchmark can try alternatives side by side."""

    initial_sigma: float = INITIAL_SIGMA
    min_sigma: float = MIN_SIGMA
    inactivity_c: float = INACTIVITY_C
    max_change: float = MAX_CHANGE
    pair_weight: float = PAIR_WEIGHT
    pair_exponent: float = PAIR_EXPONENT
    margin_weight: float = MARGIN_WEIGHT
    margin_scale: float = MARGIN_SCALE
    margin_slope: float = MARGIN_SLOPE
    winner_never_loses: bool = WINNER_NEVER_LOSES
    tau: float = TAU
    unit: float = UNIT


DEFAULT_PARAMS = Params()

VERSION_1_PARAMS = Params(
    initial_sigma=350.0,
    min_sigma=60.0,
    inactivity_c=5.0,
    max_change=100.0,
    tau=20.0,
    unit=400.0,
    margin_scale=12.0,
)
"""The rules of ``MODEL_VERSION`` 1, in the units of then (for the benchmark's comparisons)."""


def rescaled(params: Params, factor: float) -> Params:
    """The same rating in units ``factor`` times larger: every rating-point constant scaled.

    ``mu - INITIAL_MU`` and ``sigma`` of the rescaled model are ``factor`` times those of
    ``params`` after the same Parties, and every prediction is the same, so the odds, the
    calibration and the reaction to change are untouched; only the numbers players see
    spread wider. It is how the ladder keeps its spread when the margin scale changes
    (docs/ratings.md, "Margin scale 32").
    """
    return replace(
        params,
        initial_sigma=params.initial_sigma * factor,
        min_sigma=params.min_sigma * factor,
        inactivity_c=params.inactivity_c * factor,
        max_change=params.max_change * factor,
        tau=params.tau * factor,
        unit=params.unit * factor,
    )


def new_rating() -> Rating:
    """The rating every newcomer starts with."""
    return Rating()


def is_provisional(rating: Rating) -> bool:
    """A rating is provisional while it is too uncertain to rank the player reliably."""
    return rating.sigma > PROVISIONAL_SIGMA


def display(rating: Rating) -> str:
    """Whole Elo points, with "?" while provisional: "1623" or "1500?"."""
    shown = str(int(math.floor(rating.mu + 0.5)))
    return shown + "?" if is_provisional(rating) else shown


def inflate_for_inactivity(
    rating: Rating, now: float | None, params: Params = DEFAULT_PARAMS
) -> Rating:
    """Grow sigma with the days since the last Partie, capped at the newcomer value.

    Skill drifts while nobody watches, so an absent player's rating is trusted less and
    moves faster on return. ``now`` and ``last_played`` are POSIX seconds.
    """
    if now is None or rating.last_played is None or now <= rating.last_played:
        return rating
    days = (now - rating.last_played) / SECONDS_PER_DAY
    grown = math.sqrt(rating.sigma**2 + params.inactivity_c**2 * days)
    return replace(rating, sigma=min(max(grown, rating.sigma), params.initial_sigma))


def widen_for_partie(
    rating: Rating, now: float | None = None, params: Params = DEFAULT_PARAMS
) -> Rating:
    """The rating a Partie at ``now`` starts from: inactivity up to ``now``, then the drift.

    Skill may have moved since the last Partie, so sigma^2 grows by ``tau^2`` once per Partie
    on top of the days away (both capped at the newcomer value). ``update`` and ``predict``
    both start from this, so the odds shown are those of the Partie the update rates.
    """
    sigma = _widened_sigma(rating, now, params)
    return rating if sigma == rating.sigma else replace(rating, sigma=sigma)


def _widened_sigma(rating: Rating, now: float | None, params: Params) -> float:
    """``widen_for_partie``'s sigma without building a ``Rating`` (``predict`` runs per view)."""
    sigma = rating.sigma
    last = rating.last_played
    if now is not None and last is not None and now > last:
        grown = math.sqrt(sigma**2 + params.inactivity_c**2 * ((now - last) / SECONDS_PER_DAY))
        sigma = min(max(grown, sigma), params.initial_sigma)
    if params.tau != 0.0:
        grown = math.sqrt(sigma**2 + params.tau**2)
        sigma = min(max(grown, sigma), params.initial_sigma)
    return sigma


def settled_sigma(n: int = 4, params: Params = DEFAULT_PARAMS) -> float:
    """The sigma a regular settles at, playing tables of ``n`` against an equal, settled field.

    The fixed point of "widen by the drift, then learn from one Partie": where the drift
    ``tau`` adds exactly what a Partie teaches. The floor when there is no drift.
    """
    pair_weight = params.pair_weight / (n - 1) ** params.pair_exponent
    q = _LN10 / params.unit
    sigma = params.initial_sigma
    for _ in range(1000):
        widened = min(math.hypot(sigma, params.tau), params.initial_sigma)
        information = (n - 1) * _g(widened, q) ** 2 * 0.25
        new = max(
            params.min_sigma,
            math.sqrt(1.0 / (1.0 / widened**2 + q * q * pair_weight * information)),
        )
        if abs(new - sigma) < 1e-9:
            return new
        sigma = new
    return sigma


def _g(sigma: float, q: float) -> float:
    """Glicko's attenuation: an uncertain opponent tells less, and predictions flatten.

    ``q`` is ln(10) / ``Params.unit``."""
    return 1.0 / math.sqrt(1.0 + 3.0 * (q * sigma) ** 2 / math.pi**2)


def _expected(
    mu: float, other_mu: float, combined_sigma: float, scale: float, unit: float
) -> float:
    """Elo expectation with the rating difference attenuated by uncertainty."""
    exponent = -scale * _g(combined_sigma, _LN10 / unit) * (mu - other_mu) / unit
    exponent = max(-300.0, min(300.0, exponent))
    return 1.0 / (1.0 + 10.0**exponent)


def win_probability(
    a: Rating, b: Rating, scale: float = 1.0, params: Params = DEFAULT_PARAMS
) -> float:
    """P(a finishes ahead of b), a draw counting as half for each.

    Both players' uncertainty widens the prediction, as in Glicko's expected score for
    a game between two rated players, so p(a, b) + p(b, a) = 1 exactly. ``scale`` multiplies
    the log-odds: the pool's calibration (``fit_scale``), 1 for the bare model.
    """
    return _expected(a.mu, b.mu, math.hypot(a.sigma, b.sigma), scale, params.unit)


def raw_log_odds(a: Rating, b: Rating, params: Params = DEFAULT_PARAMS) -> float:
    """ln(p / (1 - p)) of ``win_probability(a, b)`` at scale 1: what calibration multiplies."""
    g = _g(math.hypot(a.sigma, b.sigma), _LN10 / params.unit)
    return _LN10 * g * (a.mu - b.mu) / params.unit


def predict(
    players: Sequence[Rating],
    now: float | None = None,
    params: Params = DEFAULT_PARAMS,
    scale: float = 1.0,
) -> list[list[float]]:
    """Pairwise matrix ``p[i][j]`` = P(player i finishes ahead of player j) at time ``now``.

    Every rating is first widened as ``update`` widens it before rating a Partie
    (``widen_for_partie``: the days since its last Partie when ``now``, POSIX seconds, is
    given, and the per-Partie drift ``tau``). ``scale`` multiplies every log-odds: the
    pool's calibration learned from its own results (``fit_scale``), so the odds stay honest
    whether the game's luck is mild or wild; 1 is the bare model. Draws (equal totals) count
    as half a win for each side; the diagonal is 0.5. A rating whose ``mu`` or ``sigma`` is
    not a finite number, or a scale that is not a finite positive number, raises
    ``ValueError``.
    """
    _check_ratings(players)
    _check_scale(scale)
    sigmas = [_widened_sigma(p, now, params) for p in players]
    unit = params.unit
    n = len(players)
    matrix = [[0.5] * n for _ in range(n)]
    for i in range(n):
        row = matrix[i]
        for j in range(i + 1, n):
            # win_probability of the widened ratings, without building them.
            p = _expected(
                players[i].mu, players[j].mu, math.hypot(sigmas[i], sigmas[j]), scale, unit
            )
            row[j] = p
            matrix[j][i] = 1.0 - p
    return matrix


def table_pairs(
    players: Sequence[Rating],
    totals: Sequence[float],
    now: float | None = None,
    params: Params = DEFAULT_PARAMS,
) -> list[tuple[float, float]]:
    """``(raw log-odds, outcome)`` of every pair of a finished Partie, for ``fit_scale``.

    The log-odds are those ``predict`` gave before the Partie at scale 1; the outcome is 1
    when the first player of the pair finished ahead, 0 behind, 1/2 for a draw.
    """
    _check_ratings(players)
    _check_totals(totals)
    if len(totals) != len(players):
        raise ValueError("one total per player is required")
    current = [widen_for_partie(p, now, params) for p in players]
    pairs = []
    for i in range(len(current)):
        for j in range(i + 1, len(current)):
            outcome = 1.0 if totals[i] < totals[j] else 0.0 if totals[i] > totals[j] else 0.5
            pairs.append((raw_log_odds(current[i], current[j], params), outcome))
    return pairs


def fit_scale(
    pairs: Sequence[tuple[float, float]],
    prior_weight: float = CALIBRATION_PRIOR_WEIGHT,
    start: float = 1.0,
) -> float:
    """The log-odds multiplier that makes past predictions honest (1 / temperature).

    Maximises the log-likelihood of the observed outcomes of ``pairs`` (``table_pairs``) under
    ``p = sigmoid(scale * z)``, with a Gaussian prior at 1 worth ``prior_weight`` (units of
    curvature, so a young pool with few informative pairs stays near the bare model). Newton
    steps from ``start``; the result is clamped to ``CALIBRATION_BOUNDS``. How luck-laden the
    game is differs between pools and formats, and no fixed constant is honest for all: a
    pool's scale is fitted on its own recent Parties (docs/ratings.md, "Honest odds").
    """
    low, high = CALIBRATION_BOUNDS
    scale = min(max(start, low), high)
    for _ in range(20):
        gradient = -prior_weight * (scale - 1.0)
        curvature = prior_weight
        for z, outcome in pairs:
            x = scale * z
            if x >= 0.0:
                p = 1.0 / (1.0 + math.exp(-x))
            else:
                e = math.exp(x)
                p = e / (1.0 + e)
            gradient += (outcome - p) * z
            curvature += p * (1.0 - p) * z * z
        if curvature <= 0.0:
            break
        step = gradient / curvature
        scale = min(max(scale + step, low), high)
        if abs(step) < 1e-6:
            break
    return scale


def pair_score(own_total: float, other_total: float, params: Params = DEFAULT_PARAMS) -> float:
    """Head-to-head score in [0, 1]: win/draw/loss mixed with a bounded margin term.

    Lower total is better. The score never decreases when ``own_total`` decreases, which
    is what makes the whole update monotone.
    """
    lead = other_total - own_total
    sign = (lead > 0) - (lead < 0)
    margin = math.tanh(lead / params.margin_scale)
    return 0.5 + 0.5 * ((1.0 - params.margin_weight) * sign + params.margin_weight * margin)


# A rating as plain values, ``(mu, sigma, games, last_played)``: what ``update_values`` reads
# (only the first four items, so longer tuples may carry more) and returns.
RatingValues = tuple[float, float, int, float | None]


def update(
    players: Sequence[Rating],
    totals: Sequence[float],
    now: float | None = None,
    params: Params = DEFAULT_PARAMS,
) -> list[Rating]:
    """New ratings after one finished Partie, in the order of ``players``.

    ``totals`` are the Partie penalty totals (lower is better, equal totals draw). A total
    that is not a finite number (NaN, infinite, a boolean, a string...) raises ``ValueError``
    naming it, as does such a ``mu`` or ``sigma``, before anything is computed
    (``update_values`` checks only the totals: the replay's ratings all come from earlier
    updates). Every player is first widened for inactivity up to ``now`` and for the
    per-Partie drift ``tau`` (``widen_for_partie``); all players are
    then updated simultaneously from the pre-Partie ratings, so seat order never matters.
    ``last_played`` becomes ``now``, unless the player's last Partie is later than ``now`` (a
    Partie that finished earlier arrived late): then it stays where it was, and no inactivity
    is counted for that player.
    """
    _check_ratings(players)
    values = update_values(
        [(p.mu, p.sigma, p.games, p.last_played) for p in players], totals, now, params
    )
    return [Rating(mu, sigma, games, played) for mu, sigma, games, played in values]


def update_values(
    players: Sequence[Sequence[Any]],
    totals: Sequence[float],
    now: float | None = None,
    params: Params = DEFAULT_PARAMS,
) -> list[RatingValues]:
    """``update`` on plain ``(mu, sigma, games, last_played, ...)`` tuples.

    The rating replay (incremental task and recompute alike) keeps its players as tuples, so
    100,000 Parties create no ``Rating`` objects. This is the formula of
    ``widen_for_partie``, ``_g`` and ``pair_score`` written out inline with every
    floating-point operation in the same order, so it returns the very same bits as the
    straightforward version (``tests/ratings/test_elo_fast_path.py``) in under half the time.
    """
    n = len(players)
    if not 3 <= n <= 6:
        raise ValueError(f"a Partie has 3 to 6 players, got {n}")
    if len(totals) != n:
        raise ValueError("one total per player is required")
    # Refuse a bad total before any arithmetic: one NaN would make every rating at the table
    # NaN. Plain ints (and finite floats) cost one type test each; the rest goes to
    # _check_totals, which names the bad value or accepts another real number.
    for total in totals:
        if type(total) is not int and (type(total) is not float or total - total != 0.0):
            _check_totals(totals)
            break
    sqrt = math.sqrt
    # Inactivity (inflate_for_inactivity) and attenuation (_g) per player.
    initial_sigma = params.initial_sigma
    unit = params.unit
    q = _LN10 / unit
    growth = params.inactivity_c**2
    tau_squared = params.tau**2
    sigmas = []
    others = []  # (mu, -g, g, g * g) of each player, as an opponent
    for p in players:
        sigma = p[1]
        last = p[3]
        if now is not None and last is not None and now > last:
            grown = sqrt(sigma**2 + growth * ((now - last) / SECONDS_PER_DAY))
            # min(max(grown, sigma), initial_sigma), without the calls.
            if sigma > grown:
                grown = sigma
            sigma = initial_sigma if initial_sigma < grown else grown
        if tau_squared:
            # widen_for_partie's drift: min(max(sqrt(sigma^2 + tau^2), sigma), initial_sigma).
            grown = sqrt(sigma**2 + tau_squared)
            if sigma > grown:
                grown = sigma
            sigma = initial_sigma if initial_sigma < grown else grown
        sigmas.append(sigma)
        g = 1.0 / sqrt(1.0 + 3.0 * (q * sigma) ** 2 / _PI_SQUARED)
        others.append((p[0], -g, g, g * g))
    # Head-to-head scores minus 1/2 (pair_score), only the upper triangle computed.
    scores = _score_table(params)
    half = [[0.0] * n for _ in range(n)]
    for i in range(n - 1):
        own = totals[i]
        row = half[i]
        for j in range(i + 1, n):
            lead = totals[j] - own
            score = scores.get(lead) if scores is not None else None
            if score is None:
                score = pair_score(own, totals[j], params)
                if scores is not None and len(scores) < _SCORE_CACHE_SIZE:
                    scores[lead] = score
            row[j] = score - 0.5
            half[j][i] = (1.0 - score) - 0.5
    pair_weight = params.pair_weight / (n - 1) ** params.pair_exponent
    slope = (1.0 - params.margin_weight) + params.margin_weight * params.margin_slope
    winner = unique_winner(totals) if params.winner_never_loses else None
    info_weight = q * q * pair_weight
    max_change = params.max_change
    min_sigma = params.min_sigma
    result: list[RatingValues] = []
    for i, player in enumerate(players):
        mu = player[0]
        row = half[i]
        information = 0.0
        pull = 0.0
        for j, (other_mu, neg_g, g, g_squared) in enumerate(others):
            if i == j:
                continue
            exponent = neg_g * (mu - other_mu) / unit
            if exponent > 300.0:
                exponent = 300.0
            elif exponent < -300.0:
                exponent = -300.0
            expected = 1.0 / (1.0 + 10.0**exponent)
            information += g_squared * expected * (1.0 - expected)
            pull += g * (row[j] - slope * (expected - 0.5))
        precision = 1.0 / sigmas[i] ** 2 + info_weight * information
        change = q / precision * pair_weight * pull
        if change > max_change:
            change = max_change
        elif change < -max_change:
            change = -max_change
        if i == winner and change < 0.0:
            change = 0.0
        new_sigma = sqrt(1.0 / precision)
        # last_played never moves backwards: max(now, last), None meaning "not known".
        last = player[3]
        played = last if now is None or (last is not None and last > now) else now
        result.append(
            (
                mu + change,
                min_sigma if min_sigma > new_sigma else new_sigma,
                player[2] + 1,
                played,
            )
        )
    return result


def unique_winner(totals: Sequence[float]) -> int | None:
    """Index of the one player with the lowest total, or None when the lowest is shared."""
    best = min(totals)
    first = totals.index(best)
    return None if best in totals[first + 1 :] else first


def _check_totals(totals: Sequence[Any]) -> None:
    for index, total in enumerate(totals):
        _check_number(total, f"total of player {index}")


def _check_scale(scale: Any) -> None:
    _check_number(scale, "scale")
    if scale <= 0.0:
        raise ValueError(f"scale must be a positive number, got {scale!r}")


def _check_ratings(players: Sequence[Rating]) -> None:
    for index, player in enumerate(players):
        _check_number(player.mu, f"mu of player {index}")
        _check_number(player.sigma, f"sigma of player {index}")


def _check_number(value: Any, name: str) -> None:
    """``ValueError`` naming ``value`` unless it is a finite real number (not a boolean)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a finite number, got {value!r}")
    if not math.isfinite(value):
        raise ValueError(f"{name} must be a finite number, got {value!r}")


_PI_SQUARED = math.pi**2
# pair_score depends only on the lead (for given parameters); totals are small integers, so
# the default parameters keep a bounded table of the scores already computed.
_SCORE_CACHE_SIZE = 4096
_DEFAULT_SCORES: dict[float, float] = {}


def _score_table(params: Params) -> dict[float, float] | None:
    return _DEFAULT_SCORES if params is DEFAULT_PARAMS else None


# Typical head-to-head margin (median difference of two Partie totals, docs/ratings.md) at a
# table of 3 / 4 / 5 / 6 players: the margin a "finish first" or "finish last" is shown with.
TYPICAL_MARGIN = {3: 11.0, 4: 10.0, 5: 9.0, 6: 8.0}


@dataclass(frozen=True)
class SeatOdds:
    """What a seated player may expect before the first card.

    ``expected_place`` is 1 + the expected number of players finishing ahead (a draw counting
    half). ``change_if_first`` / ``change_if_last`` are the ``mu`` changes if the player
    finishes ahead of / behind every other player by the table's typical margin.
    """

    expected_place: float
    change_if_first: float
    change_if_last: float


def table_odds(
    players: Sequence[Rating],
    now: float | None = None,
    params: Params = DEFAULT_PARAMS,
    scale: float = 1.0,
) -> list[SeatOdds]:
    """Expected place and the rating change for first and last place, one per seat.

    The same arithmetic as ``predict`` and ``update`` at ``now``, so what a player is shown
    before the Partie is what the rating will do: a player's update depends only on the point
    differences to the others, so "first by the typical margin against everyone" is one
    well-defined result (and with ``winner_never_loses`` it is never negative). ``scale`` is
    the pool's calibration of the odds (``predict``); it changes the expected places only.
    """
    n = len(players)
    if not 3 <= n <= 6:
        raise ValueError(f"a Partie has 3 to 6 players, got {n}")
    matrix = predict(players, now, params, scale)
    margin = TYPICAL_MARGIN[n]
    odds = []
    for i, player in enumerate(players):
        ahead = sum(1.0 - matrix[i][j] for j in range(n) if j != i)
        first = update(players, [0.0 if k == i else margin for k in range(n)], now, params)
        last = update(players, [margin if k == i else 0.0 for k in range(n)], now, params)
        odds.append(
            SeatOdds(
                expected_place=1.0 + ahead,
                change_if_first=first[i].mu - player.mu,
                change_if_last=last[i].mu - player.mu,
            )
        )
    return odds


def explain_change(
    players: Sequence[Rating],
    totals: Sequence[float],
    index: int,
    now: float | None = None,
    params: Params = DEFAULT_PARAMS,
) -> list[float]:
    """How much each other player contributed to player ``index``'s change (0 for itself).

    The update is a sum over the other players; each term is that head-to-head result (beaten
    or lost to, by how many points) against what the ratings expected. The terms are scaled
    by the same factor as the sum when the cap or the winner rule cut it, so they add up to
    ``update(...)[index].mu - players[index].mu`` (exactly zero when a winner's loss was
    floored at 0).
    """
    n = len(players)
    if not 3 <= n <= 6:
        raise ValueError(f"a Partie has 3 to 6 players, got {n}")
    _check_ratings(players)
    _check_totals(totals)
    current = [widen_for_partie(p, now, params) for p in players]
    me = current[index]
    pair_weight = params.pair_weight / (n - 1) ** params.pair_exponent
    slope = (1.0 - params.margin_weight) + params.margin_weight * params.margin_slope
    q = _LN10 / params.unit
    information = 0.0
    terms = [0.0] * n
    for j, other in enumerate(current):
        if j == index:
            continue
        g = _g(other.sigma, q)
        expected = _expected(me.mu, other.mu, other.sigma, 1.0, params.unit)
        information += g * g * expected * (1.0 - expected)
        score = pair_score(totals[index], totals[j], params)
        terms[j] = g * (score - 0.5 - slope * (expected - 0.5))
    precision = 1.0 / me.sigma**2 + q * q * pair_weight * information
    terms = [q / precision * pair_weight * term for term in terms]
    raw = sum(terms)
    actual = update(players, totals, now, params)[index].mu - players[index].mu
    if raw == 0.0:
        return terms
    return [term * actual / raw for term in terms]
