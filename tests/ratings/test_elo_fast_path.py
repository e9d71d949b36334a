"""``elo.update`` is written out inline for speed; it must return the very same bits as the
straightforward formula it replaced, which is kept here as the reference."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings import elo
from ratings.elo import Rating

DAY = elo.SECONDS_PER_DAY
NOW = 1_800_000_000.0


def reference_update(
    players: Sequence[Rating],
    totals: Sequence[float],
    now: float | None = None,
    params: elo.Params = elo.DEFAULT_PARAMS,
) -> list[Rating]:
    """``elo.update`` as it was before the inline rewrite (the formulas of docs/ratings.md)."""
    n = len(players)
    current = [elo.widen_for_partie(p, now, params) for p in players]
    pair_weight = params.pair_weight / (n - 1) ** params.pair_exponent
    slope = (1.0 - params.margin_weight) + params.margin_weight * params.margin_slope
    q = math.log(10.0) / params.unit
    attenuation = [elo._g(p.sigma, q) for p in current]
    scores = [[0.5] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            scores[i][j] = elo.pair_score(totals[i], totals[j], params)
            scores[j][i] = 1.0 - scores[i][j]
    result: list[Rating] = []
    for i, me in enumerate(current):
        information = 0.0
        pull = 0.0
        for j, other in enumerate(current):
            if i == j:
                continue
            g = attenuation[j]
            exponent = max(-300.0, min(300.0, -g * (me.mu - other.mu) / params.unit))
            expected = 1.0 / (1.0 + 10.0**exponent)
            information += g * g * expected * (1.0 - expected)
            pull += g * (scores[i][j] - 0.5 - slope * (expected - 0.5))
        precision = 1.0 / me.sigma**2 + q * q * pair_weight * information
        change = q / precision * pair_weight * pull
        change = max(-params.max_change, min(params.max_change, change))
        alone_first = all(totals[i] < totals[j] for j in range(n) if j != i)
        if params.winner_never_loses and alone_first:
            change = max(0.0, change)
        sigma = max(params.min_sigma, math.sqrt(1.0 / precision))
        known = [t for t in (me.last_played, now) if t is not None]
        played = max(known) if known else None  # never moved backwards
        result.append(
            Rating(mu=me.mu + change, sigma=sigma, games=me.games + 1, last_played=played)
        )
    return result


def bits(ratings: list[Rating]) -> list[tuple]:
    """Exact representation: ``float.hex`` tells even 0.0 from -0.0."""
    return [
        (
            r.mu.hex(),
            r.sigma.hex(),
            r.games,
            None if r.last_played is None else float(r.last_played).hex(),
        )
        for r in ratings
    ]


def random_table(rng: random.Random, integer_totals: bool) -> tuple[list[Rating], list]:
    n = rng.randint(3, 6)
    players = [
        Rating(
            mu=rng.choice((elo.INITIAL_MU, rng.gauss(1500.0, 300.0), rng.uniform(0.0, 5000.0))),
            sigma=rng.choice((elo.INITIAL_SIGMA, elo.MIN_SIGMA, rng.uniform(1.0, 400.0))),
            games=rng.randint(0, 300),
            last_played=rng.choice((None, NOW, NOW - rng.uniform(0.0, 900.0) * DAY)),
        )
        for _ in range(n)
    ]
    if integer_totals:
        totals: list = [rng.randint(-8, 120) for _ in range(n)]
    else:
        totals = [rng.uniform(-8.0, 120.0) for _ in range(n)]
    return players, totals


@pytest.mark.parametrize("integer_totals", [True, False])
def test_fast_update_equals_the_reference_bit_for_bit_on_random_tables(integer_totals) -> None:
    rng = random.Random(7 if integer_totals else 8)
    other_params = elo.Params(
        margin_weight=0.6, margin_scale=9.0, max_change=40.0, tau=0.0, unit=400.0
    )
    for _ in range(3000):
        players, totals = random_table(rng, integer_totals)
        now = rng.choice((None, NOW, NOW + rng.uniform(0.0, 30.0) * DAY))
        for params in (elo.DEFAULT_PARAMS, other_params):
            assert bits(elo.update(players, totals, now, params)) == bits(
                reference_update(players, totals, now, params)
            )


# Hypothesis explores the corners random tables rarely reach (equal ratings, caps, ties).
ratings = st.builds(
    Rating,
    mu=st.floats(-1000.0, 6000.0),
    sigma=st.floats(0.5, 2000.0),
    games=st.integers(0, 500),
    last_played=st.one_of(st.none(), st.floats(NOW - 3000 * DAY, NOW + DAY)),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(3, 6).flatmap(
        lambda n: st.tuples(
            st.lists(ratings, min_size=n, max_size=n),
            st.lists(st.integers(-8, 200) | st.floats(-50.0, 200.0), min_size=n, max_size=n),
        )
    ),
    st.one_of(st.none(), st.floats(NOW - DAY, NOW + 400 * DAY)),
)
def test_fast_update_equals_the_reference_bit_for_bit_on_generated_tables(table, now) -> None:
    players, totals = table
    assert bits(elo.update(players, totals, now)) == bits(reference_update(players, totals, now))
