"""Behaviour of the Rosbi rating (ratings.elo): the promises made to players."""

from __future__ import annotations

import dataclasses
import itertools
import math
import re
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings import elo
from ratings.elo import Rating

DAY = elo.SECONDS_PER_DAY
NOW = 1_800_000_000.0

# No per-example deadline: the machine is shared and speed is measured in bench/, not here.
properties = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])

ratings = st.builds(
    Rating,
    mu=st.floats(800.0, 2400.0),
    sigma=st.floats(elo.MIN_SIGMA, elo.INITIAL_SIGMA),
    games=st.integers(0, 500),
    last_played=st.one_of(st.none(), st.floats(NOW - 400 * DAY, NOW)),
)


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[Rating], list[int]]:
    n = draw(st.integers(3, 6))
    players = draw(st.lists(ratings, min_size=n, max_size=n))
    totals = draw(st.lists(st.integers(-8, 120), min_size=n, max_size=n))
    return players, totals


@properties
@given(tables(), st.data())
def test_fewer_points_never_lowers_the_new_rating(table, data) -> None:
    players, totals = table
    seat = data.draw(st.integers(0, len(players) - 1))
    saved = data.draw(st.integers(1, 60))
    better = list(totals)
    better[seat] -= saved
    before = elo.update(players, totals, NOW)[seat].mu
    after = elo.update(players, better, NOW)[seat].mu
    assert after >= before - 1e-9


@properties
@given(tables(), st.data())
def test_a_better_place_never_lowers_the_new_rating(table, data) -> None:
    players, totals = table
    seat = data.draw(st.integers(0, len(players) - 1))
    ahead = [j for j, total in enumerate(totals) if total < totals[seat]]
    if not ahead:
        ahead_seat = (seat + 1) % len(players)
        totals = list(totals)
        totals[ahead_seat] = totals[seat] - 1
        ahead = [ahead_seat]
    swap_with = data.draw(st.sampled_from(ahead))
    swapped = list(totals)
    swapped[seat], swapped[swap_with] = totals[swap_with], totals[seat]
    before = elo.update(players, totals, NOW)[seat].mu
    after = elo.update(players, swapped, NOW)[seat].mu
    assert after >= before - 1e-9


@properties
@given(tables(), st.randoms(use_true_random=False))
def test_seat_order_never_matters(table, rng) -> None:
    players, totals = table
    order = list(range(len(players)))
    rng.shuffle(order)
    plain = elo.update(players, totals, NOW)
    permuted = elo.update([players[i] for i in order], [totals[i] for i in order], NOW)
    for position, original in enumerate(order):
        assert permuted[position].mu == pytest.approx(plain[original].mu, abs=1e-9)
        assert permuted[position].sigma == pytest.approx(plain[original].sigma, abs=1e-9)


@properties
@given(tables())
def test_one_partie_moves_a_rating_at_most_the_cap(table) -> None:
    players, totals = table
    inflated = [elo.inflate_for_inactivity(p, NOW) for p in players]
    for old, new in zip(inflated, elo.update(players, totals, NOW), strict=True):
        assert abs(new.mu - old.mu) <= elo.MAX_CHANGE + 1e-9


def test_the_cap_binds_for_a_newcomer_who_crushes_strong_players() -> None:
    strong = Rating(mu=2300.0, sigma=elo.MIN_SIGMA, games=200, last_played=NOW)
    newcomer = elo.new_rating()
    params = elo.Params(max_change=40.0)
    new = elo.update([newcomer, strong, strong, strong], [-8, 60, 60, 60], NOW, params)
    assert new[0].mu == pytest.approx(newcomer.mu + 40.0)


@properties
@given(tables())
def test_uncertainty_shrinks_with_play(table) -> None:
    players, totals = table
    # The Partie starts from the rating widened for the days away and the drift tau.
    widened = [elo.widen_for_partie(p, NOW) for p in players]
    for old, new in zip(widened, elo.update(players, totals, NOW), strict=True):
        assert new.sigma <= old.sigma
        assert new.sigma >= elo.MIN_SIGMA
        assert new.games == old.games + 1
        assert new.last_played == NOW


@properties
@given(ratings, st.floats(0.0, 3000.0), st.floats(0.0, 3000.0))
def test_uncertainty_grows_with_inactivity_and_is_capped(rating, days_a, days_b) -> None:
    rating = Rating(rating.mu, rating.sigma, rating.games, NOW)
    shorter, longer = sorted((days_a, days_b))
    after_short = elo.inflate_for_inactivity(rating, NOW + shorter * DAY)
    after_long = elo.inflate_for_inactivity(rating, NOW + longer * DAY)
    assert rating.sigma <= after_short.sigma <= after_long.sigma <= elo.INITIAL_SIGMA
    assert after_long.mu == rating.mu


def test_a_year_away_makes_an_established_player_provisional_again() -> None:
    # At any table size a regular's settled sigma is established, and stays so for a week.
    for n in range(3, 7):
        regular = Rating(mu=1800.0, sigma=elo.settled_sigma(n), games=300, last_played=NOW)
        assert not elo.is_provisional(regular)
        assert not elo.is_provisional(elo.inflate_for_inactivity(regular, NOW + 7 * DAY))
    back = elo.inflate_for_inactivity(regular, NOW + 365 * DAY)
    assert elo.is_provisional(back)
    assert elo.inflate_for_inactivity(regular, NOW + 100 * 365 * DAY).sigma == elo.INITIAL_SIGMA


@properties
@given(
    st.floats(800.0, 2400.0),
    st.floats(elo.MIN_SIGMA, elo.INITIAL_SIGMA),
    st.integers(3, 6),
    st.integers(-8, 120),
)
def test_a_draw_between_equal_players_changes_no_mu(mu, sigma, n, total) -> None:
    equal = Rating(mu=mu, sigma=sigma, games=10, last_played=NOW)
    for new in elo.update([equal] * n, [total] * n, NOW):
        assert new.mu == pytest.approx(mu, abs=1e-9)


def test_newcomers_start_at_1500_and_are_provisional() -> None:
    newcomer = elo.new_rating()
    assert newcomer.mu == 1500.0
    assert newcomer.games == 0
    assert newcomer.last_played is None
    assert elo.is_provisional(newcomer)
    assert elo.display(newcomer) == "1500?"


def test_display_rounds_and_drops_the_question_mark_once_established() -> None:
    assert elo.display(Rating(mu=1622.6, sigma=60.0, games=40)) == "1623"
    assert elo.display(Rating(mu=1622.4, sigma=360.0, games=2)) == "1622?"


def test_ratings_settle_after_enough_parties() -> None:
    """A steady player stops being provisional within a few dozen Parties."""
    me = elo.new_rating()
    field = Rating(mu=1500.0, sigma=80.0, games=100, last_played=NOW)
    for partie in range(40):
        me = elo.update([me, field, field, field], [12, 12, 12, 12], NOW + partie * 3600)[0]
    assert not elo.is_provisional(me)


def test_winning_raises_and_losing_lowers() -> None:
    table = [elo.new_rating() for _ in range(4)]
    new = elo.update(table, [4, 10, 16, 22], NOW)
    assert new[0].mu > new[1].mu > 1500.0 > new[2].mu > new[3].mu
    assert sum(r.mu for r in new) == pytest.approx(6000.0)


@properties
@given(st.lists(ratings, min_size=3, max_size=6))
def test_predict_gives_complementary_probabilities(players) -> None:
    matrix = elo.predict(players)
    for i, j in itertools.product(range(len(players)), repeat=2):
        assert 0.0 < matrix[i][j] < 1.0
        assert matrix[i][j] + matrix[j][i] == pytest.approx(1.0, abs=1e-12)
    for i in range(len(players)):
        assert matrix[i][i] == 0.5


@properties
@given(ratings, ratings)
def test_the_higher_rating_is_favoured(a, b) -> None:
    p = elo.win_probability(a, b)
    if a.mu > b.mu:
        assert p > 0.5
    elif a.mu == b.mu:
        assert p == 0.5


def test_predict_matches_elo_for_certain_ratings() -> None:
    """With little uncertainty a gap of ``UNIT`` points means 10:1 odds (Elo's 400 points)."""
    a = Rating(mu=1500.0 + elo.UNIT, sigma=1e-6)
    b = Rating(mu=1500.0, sigma=1e-6)
    assert elo.win_probability(a, b) == pytest.approx(10.0 / 11.0, abs=1e-9)
    assert elo.win_probability(elo.new_rating(), elo.new_rating()) == 0.5


@pytest.mark.parametrize("n", [2, 7])
def test_table_size_outside_three_to_six_is_refused(n) -> None:
    with pytest.raises(ValueError):
        elo.update([elo.new_rating()] * n, [0] * n, NOW)


def test_mismatched_totals_are_refused() -> None:
    with pytest.raises(ValueError):
        elo.update([elo.new_rating()] * 4, [1, 2, 3], NOW)


@settings(max_examples=50, deadline=None)
@given(st.integers(-100, 100), st.integers(-100, 100))
def test_pair_score_is_bounded_and_monotone(own, other) -> None:
    score = elo.pair_score(own, other)
    assert 0.0 <= score <= 1.0
    assert elo.pair_score(own - 1, other) >= score
    assert math.isclose(score + elo.pair_score(other, own), 1.0)


BAD_TOTALS = [
    pytest.param(math.nan, "nan", id="nan"),
    pytest.param(math.inf, "inf", id="infinite"),
    pytest.param(-math.inf, "-inf", id="minus-infinite"),
    pytest.param(True, "True", id="boolean"),
    pytest.param("12", "'12'", id="string"),
    pytest.param(None, "None", id="none"),
    pytest.param(complex(1, 0), "(1+0j)", id="complex"),
]


@pytest.mark.parametrize(("bad", "shown"), BAD_TOTALS)
def test_a_bad_total_is_refused_by_name_before_any_rating_changes(bad, shown) -> None:
    players = [Rating(1500.0, 200.0, 3, NOW - DAY) for _ in range(4)]
    before = list(players)
    totals = [10, bad, 20, 30]
    with pytest.raises(
        ValueError, match=rf"total of player 1 must be a finite number, got {re.escape(shown)}$"
    ):
        elo.update(players, totals, NOW)
    with pytest.raises(ValueError, match=re.escape(shown)):
        elo.update_values([(p.mu, p.sigma, p.games, p.last_played) for p in players], totals, NOW)
    assert players == before


@pytest.mark.parametrize(("bad", "shown"), BAD_TOTALS)
def test_predict_refuses_a_rating_that_is_not_a_finite_number(bad, shown) -> None:
    good = Rating(1500.0, 200.0)
    with pytest.raises(
        ValueError, match=rf"mu of player 2 must be a finite number, got {re.escape(shown)}$"
    ):
        elo.predict([good, good, Rating(bad, 200.0)])
    with pytest.raises(
        ValueError, match=rf"sigma of player 0 must be a finite number, got {re.escape(shown)}$"
    ):
        elo.predict([Rating(1500.0, bad), good, good])
    with pytest.raises(ValueError, match=re.escape(shown)):
        elo.update([good, Rating(bad, 200.0), good], [1, 2, 3], NOW)


def test_other_real_numbers_are_accepted_as_totals() -> None:
    players = [Rating(1500.0, 200.0) for _ in range(3)]
    plain = elo.update(players, [10, 20, 30], NOW)
    assert elo.update(players, [10.0, Fraction(20), 30], NOW) == plain


finite_totals = st.one_of(
    st.integers(-(10**6), 10**6), st.floats(allow_nan=False, allow_infinity=False)
)


@properties
@given(
    st.integers(3, 6).flatmap(
        lambda n: st.tuples(
            st.lists(ratings, min_size=n, max_size=n),
            st.lists(finite_totals, min_size=n, max_size=n),
        )
    ),
    st.one_of(st.none(), st.floats(NOW - 400 * DAY, NOW + 400 * DAY)),
)
def test_finite_totals_never_give_a_rating_that_is_not_finite(table, now) -> None:
    players, totals = table
    for rating in elo.update(players, totals, now):
        assert math.isfinite(rating.mu) and math.isfinite(rating.sigma)
        assert elo.MIN_SIGMA <= rating.sigma <= elo.INITIAL_SIGMA
    for row in elo.predict(players):
        assert all(math.isfinite(p) and 0.0 <= p <= 1.0 for p in row)


def test_predict_widens_ratings_for_the_days_away_like_update() -> None:
    back = Rating(mu=1750.0, sigma=60.0, games=80, last_played=NOW - 365 * DAY)
    regular = Rating(mu=1500.0, sigma=60.0, games=80, last_played=NOW - DAY)

    as_stored = elo.predict([back, regular])
    today = elo.predict([back, regular], now=NOW)

    grown = [elo.widen_for_partie(p, NOW) for p in (back, regular)]
    assert today[0][1] == elo.win_probability(*grown)
    assert 0.5 < today[0][1] < as_stored[0][1]  # a year away: the favourite is less certain
    assert today[0][1] + today[1][0] == 1.0
    assert elo.predict([back, regular], now=None) == as_stored


@properties
@given(st.lists(ratings, min_size=2, max_size=6), st.floats(NOW - 400 * DAY, NOW + 400 * DAY))
def test_predict_with_now_is_predict_of_the_inflated_ratings(players, now) -> None:
    grown = [elo.inflate_for_inactivity(p, now) for p in players]
    assert elo.predict(players, now=now) == elo.predict(grown)


def test_a_partie_older_than_the_last_one_leaves_last_played_where_it_was() -> None:
    latest = Rating(mu=1600.0, sigma=162.0, games=30, last_played=NOW)
    newcomer = Rating()
    earlier = Rating(mu=1450.0, sigma=216.0, games=8, last_played=NOW - 10 * DAY)
    late_partie = NOW - 3 * DAY

    after = elo.update([latest, newcomer, earlier], [10, 20, 30], now=late_partie)

    assert after[0].last_played == NOW  # not moved back three days
    assert after[1].last_played == late_partie
    assert after[2].last_played == late_partie
    # No inactivity is invented for it: only the per-Partie drift widens it before the update.
    assert after[0].sigma <= elo.widen_for_partie(latest, None).sigma


@properties
@given(tables(), st.one_of(st.none(), st.floats(NOW - 800 * DAY, NOW + 400 * DAY)))
def test_update_never_moves_last_played_backwards(table, now) -> None:
    players, totals = table
    for before, after in zip(players, elo.update(players, totals, now), strict=True):
        if before.last_played is not None:
            assert after.last_played is not None and after.last_played >= before.last_played
        if now is not None:
            assert after.last_played is not None and after.last_played >= now
        expected = [t for t in (before.last_played, now) if t is not None]
        assert after.last_played == (max(expected) if expected else None)


# --- A unique winner never loses rating (issue 17, rating item 4) ---------------------------


@st.composite
def narrow_wins(draw: st.DrawFn) -> tuple[list[Rating], list[int]]:
    """Tables where a unique winner often *would* lose: a favourite ahead by a few points."""
    players, totals = draw(tables())
    if draw(st.booleans()):
        best = min(totals)
        totals = [t if t == best else max(t, best + draw(st.integers(1, 4))) for t in totals]
        winner = totals.index(best)
        totals = [best + 1 if t == best and k != winner else t for k, t in enumerate(totals)]
        players[winner] = Rating(draw(st.floats(1900.0, 2400.0)), draw(st.floats(60.0, 120.0)))
    return players, totals


@properties
@given(narrow_wins(), st.one_of(st.none(), st.floats(NOW - 400 * DAY, NOW + 400 * DAY)))
def test_a_unique_winner_never_loses_rating(table, now) -> None:
    players, totals = table
    winner = elo.unique_winner(totals)
    if winner is not None:
        assert elo.update(players, totals, now)[winner].mu >= players[winner].mu


def test_a_favourite_who_wins_by_one_point_keeps_the_rating_but_would_lose_without_the_rule() -> (
    None
):
    favourite = Rating(mu=2100.0, sigma=60.0, games=300, last_played=NOW)
    field = Rating(mu=1500.0, sigma=60.0, games=300, last_played=NOW)
    table, totals = [favourite, field, field, field], [20, 21, 21, 21]
    loose = elo.update(table, totals, NOW, elo.Params(winner_never_loses=False))
    assert loose[0].mu < favourite.mu  # what the margin-only score did before the rule
    kept = elo.update(table, totals, NOW)
    assert kept[0].mu == favourite.mu
    assert [r.mu for r in kept[1:]] == [r.mu for r in loose[1:]]  # the others are unchanged


def test_a_shared_first_place_is_not_protected() -> None:
    favourite = Rating(mu=2100.0, sigma=60.0, games=300, last_played=NOW)
    field = Rating(mu=1500.0, sigma=60.0, games=300, last_played=NOW)
    assert elo.unique_winner([20, 20, 30]) is None
    new = elo.update([favourite, field, field, field], [20, 20, 21, 21], NOW)
    assert new[0].mu < favourite.mu


@properties
@given(tables(), st.data())
def test_the_winner_rule_keeps_a_better_result_never_lowering_the_rating(table, data) -> None:
    players, totals = table
    i = data.draw(st.integers(0, len(players) - 1))
    better = list(totals)
    better[i] -= data.draw(st.integers(1, 30))
    assert elo.update(players, better, NOW)[i].mu >= elo.update(players, totals, NOW)[i].mu


# --- Odds before a table and a change explained (issue 17, rating item 5) -------------------


@properties
@given(tables(), st.one_of(st.none(), st.floats(NOW - 400 * DAY, NOW + 400 * DAY)))
def test_table_odds_are_the_updates_own_figures(table, now) -> None:
    players, _totals = table
    n = len(players)
    odds = elo.table_odds(players, now)
    # Expected places are 1 + the expected number of players ahead: they add up to 1 + ... + n.
    assert sum(o.expected_place for o in odds) == pytest.approx(n * (n + 1) / 2)
    margin = elo.TYPICAL_MARGIN[n]
    for i, (player, o) in enumerate(zip(players, odds, strict=True)):
        assert 1.0 < o.expected_place < n
        assert o.change_if_first >= 0.0  # a unique winner never loses
        assert o.change_if_first >= o.change_if_last
        first = elo.update(players, [0 if k == i else margin for k in range(n)], now)[i]
        assert o.change_if_first == first.mu - player.mu


def test_the_favourite_expects_a_better_place_and_risks_more() -> None:
    settled = [Rating(mu, 60.0) for mu in (1800.0, 1500.0, 1500.0, 1200.0)]
    odds = elo.table_odds(settled)
    assert odds[0].expected_place < odds[1].expected_place < odds[3].expected_place
    assert odds[0].change_if_last < odds[1].change_if_last
    assert odds[3].change_if_first > odds[1].change_if_first


@properties
@given(tables(), st.integers(0, 5), st.one_of(st.none(), st.floats(NOW - 400 * DAY, NOW)))
def test_a_change_explained_adds_up_to_the_change(table, index, now) -> None:
    players, totals = table
    index %= len(players)
    terms = elo.explain_change(players, totals, index, now)
    assert terms[index] == 0.0
    change = elo.update(players, totals, now)[index].mu - players[index].mu
    assert sum(terms) == pytest.approx(change, abs=1e-9)
    for j, term in enumerate(terms):
        # Beating someone never counts against you, unless it was far less than expected;
        # losing to someone never counts for you unless you were the big underdog: the sign
        # follows the head-to-head against its expectation, so check the plain cases.
        if j != index and totals[index] < totals[j] and players[index].mu <= players[j].mu:
            assert term >= 0.0
        if j != index and totals[index] > totals[j] and players[index].mu >= players[j].mu:
            assert term <= 0.0


# --- Reacting to change and honest odds (issue 17, rating items 1 and 2) --------------------


@properties
@given(ratings, st.one_of(st.none(), st.floats(NOW, NOW + 3000 * DAY)), st.floats(0.0, 400.0))
def test_sigma_grows_by_the_drift_before_every_partie_and_is_capped(rating, now, tau) -> None:
    rating = Rating(rating.mu, rating.sigma, rating.games, NOW)
    params = elo.Params(tau=tau)
    away = elo.inflate_for_inactivity(rating, now, params)
    widened = elo.widen_for_partie(rating, now, params)
    assert away.sigma <= widened.sigma <= elo.INITIAL_SIGMA
    assert widened.mu == rating.mu
    if math.hypot(away.sigma, tau) < elo.INITIAL_SIGMA:
        assert widened.sigma == pytest.approx(math.hypot(away.sigma, tau))
    else:
        assert widened.sigma == elo.INITIAL_SIGMA
    # The default drift is on: an established player's Partie starts less certain than stored.
    assert elo.TAU > 0.0
    assert elo.widen_for_partie(Rating(sigma=elo.MIN_SIGMA)).sigma > elo.MIN_SIGMA


@properties
@given(tables(), st.floats(0.0, 500.0), st.one_of(st.none(), st.floats(NOW, NOW + 900 * DAY)))
def test_updates_stay_finite_and_bounded_with_any_drift(table, tau, now) -> None:
    players, totals = table
    params = elo.Params(tau=tau)
    for rating in elo.update(players, totals, now, params):
        assert math.isfinite(rating.mu) and math.isfinite(rating.sigma)
        assert elo.MIN_SIGMA <= rating.sigma <= elo.INITIAL_SIGMA
    for row in elo.predict(players, now, params):
        assert all(math.isfinite(p) and 0.0 < p < 1.0 for p in row)


def _settle(params: elo.Params, parties: int = 400) -> Rating:
    """A regular who draws with a settled field every day, as long as it takes to settle."""
    me = elo.new_rating()
    field = Rating(mu=1500.0, sigma=100.0, games=300)
    for day in range(parties):
        now = NOW + day * DAY
        me = elo.update([me, field, field, field], [12, 12, 12, 12], now, params)[0]
    return me


def test_an_established_sigma_settles_between_the_floor_and_provisional() -> None:
    """The drift keeps a regular's sigma where a Partie still moves the rating (not at the
    floor, where a jump of form took about 150 Parties to show), yet the regular is
    established: the settled value does not depend on how long the player has played."""
    settled = _settle(elo.DEFAULT_PARAMS)
    longer = _settle(elo.DEFAULT_PARAMS, parties=800)
    assert elo.MIN_SIGMA < settled.sigma < elo.PROVISIONAL_SIGMA
    # settled_sigma (the help page's "settled player") is that fixed point, drift included.
    assert elo.settled_sigma(4) == pytest.approx(settled.sigma, rel=0.02)
    assert elo.settled_sigma(4, elo.Params(tau=0.0)) == elo.MIN_SIGMA
    assert [elo.settled_sigma(n) for n in range(3, 7)] == sorted(
        (elo.settled_sigma(n) for n in range(3, 7)), reverse=True
    )  # bigger tables teach more per Partie
    assert not elo.is_provisional(settled)
    assert longer.sigma == pytest.approx(settled.sigma, rel=1e-6)
    without_drift = _settle(elo.Params(tau=0.0))
    assert without_drift.sigma == elo.MIN_SIGMA


def test_a_settled_player_who_starts_winning_moves_faster_with_the_drift() -> None:
    field = Rating(mu=1500.0, sigma=100.0, games=300)

    def after_wins(params: elo.Params) -> float:
        me = _settle(params)
        start = me.mu
        for day in range(30):
            now = NOW + (500 + day) * DAY
            me = elo.update([me, field, field, field], [4, 12, 14, 16], now, params)[0]
        return me.mu - start

    assert after_wins(elo.DEFAULT_PARAMS) > 1.5 * after_wins(elo.Params(tau=0.0))


@properties
@given(st.lists(ratings, min_size=3, max_size=6), st.floats(0.25, 4.0))
def test_a_calibration_scale_keeps_the_order_and_complementary_odds(players, scale) -> None:
    bare = elo.predict(players)
    scaled = elo.predict(players, scale=scale)
    assert elo.predict(players, scale=1.0) == bare
    for i, j in itertools.product(range(len(players)), repeat=2):
        assert 0.0 < scaled[i][j] < 1.0
        assert scaled[i][j] + scaled[j][i] == pytest.approx(1.0, abs=1e-12)
        # Same favourite (an even pair, up to rounding, has none); a larger scale is bolder,
        # a smaller one more cautious.
        if abs(bare[i][j] - 0.5) > 1e-9:
            assert (scaled[i][j] > 0.5) == (bare[i][j] > 0.5)
        if scale >= 1.0:
            assert abs(scaled[i][j] - 0.5) >= abs(bare[i][j] - 0.5) - 1e-12
        else:
            assert abs(scaled[i][j] - 0.5) <= abs(bare[i][j] - 0.5) + 1e-12


@pytest.mark.parametrize(
    ("bad", "shown"), [(0.0, "0.0"), (-1.0, "-1.0"), (math.nan, "nan"), (True, "True")]
)
def test_predict_refuses_a_scale_that_is_not_a_positive_number(bad, shown) -> None:
    with pytest.raises(ValueError, match=f"scale must be a .*{re.escape(shown)}"):
        elo.predict([elo.new_rating()] * 3, scale=bad)


@properties
@given(tables(), st.one_of(st.none(), st.floats(NOW, NOW + 400 * DAY)))
def test_table_pairs_are_the_predictions_and_the_results(table, now) -> None:
    players, totals = table
    pairs = elo.table_pairs(players, totals, now)
    matrix = elo.predict(players, now)
    n = len(players)
    index = [(i, j) for i in range(n) for j in range(i + 1, n)]
    assert len(pairs) == len(index)
    for (i, j), (z, outcome) in zip(index, pairs, strict=True):
        assert 1.0 / (1.0 + math.exp(-z)) == pytest.approx(matrix[i][j], abs=1e-12)
        expected = 1.0 if totals[i] < totals[j] else 0.0 if totals[i] > totals[j] else 0.5
        assert outcome == expected


@pytest.mark.parametrize("true_scale", [0.6, 1.0, 1.7])
def test_fit_scale_recovers_how_bold_the_odds_should_be(true_scale) -> None:
    """Outcomes drawn with log-odds ``true_scale * z``: the fit finds that multiplier."""
    import random

    rng = random.Random(17)
    pairs = []
    for _ in range(20000):
        z = rng.gauss(0.0, 1.0)
        p = 1.0 / (1.0 + math.exp(-true_scale * z))
        pairs.append((z, 1.0 if rng.random() < p else 0.0))
    assert elo.fit_scale(pairs) == pytest.approx(true_scale, abs=0.05)


def test_fit_scale_stays_at_the_bare_model_without_evidence_and_within_bounds() -> None:
    assert elo.fit_scale([]) == 1.0
    assert elo.fit_scale([(0.0, 1.0)] * 100) == 1.0  # coin-flip predictions say nothing
    always_right = [(0.5, 1.0)] * 5000 + [(-0.5, 0.0)] * 5000
    always_wrong = [(0.5, 0.0)] * 5000 + [(-0.5, 1.0)] * 5000
    assert elo.fit_scale(always_right) == elo.CALIBRATION_BOUNDS[1]
    assert elo.fit_scale(always_wrong) == elo.CALIBRATION_BOUNDS[0]
    # A few pairs move the scale less than many that say the same.
    few = elo.fit_scale([(1.0, 1.0), (-1.0, 0.0)] * 5)
    many = elo.fit_scale([(1.0, 1.0), (-1.0, 0.0)] * 500)
    assert 1.0 < few < many


def _scaled(rating: Rating, factor: float) -> Rating:
    mu = elo.INITIAL_MU + factor * (rating.mu - elo.INITIAL_MU)
    return Rating(mu, rating.sigma * factor, rating.games, rating.last_played)


@given(tables(), st.floats(0.25, 4.0), st.one_of(st.none(), st.floats(NOW - 400 * DAY, NOW)))
@settings(max_examples=200, deadline=None)
def test_a_rescaled_rating_predicts_the_same_and_moves_in_proportion(table, factor, now) -> None:
    """``rescaled`` is a change of units only: the same odds, every change times the factor.

    It is what let the margin scale go to 32 without drawing the ladder together."""
    players, totals = table
    params = elo.rescaled(elo.DEFAULT_PARAMS, 1.0 / 1.8)  # the units before December 2026
    wider = elo.rescaled(params, factor)
    scaled = [_scaled(p, factor) for p in players]
    expected = elo.predict(players, now, params)
    got = elo.predict(scaled, now, wider)
    for row, other in zip(expected, got, strict=True):
        assert row == pytest.approx(other, abs=1e-9)
    before = elo.update(players, totals, now, params)
    after = elo.update(scaled, totals, now, wider)
    for old, new in zip(before, after, strict=True):
        assert new.mu == pytest.approx(_scaled(old, factor).mu, abs=1e-6)
        assert new.sigma == pytest.approx(old.sigma * factor, rel=1e-9)
        assert (new.games, new.last_played) == (old.games, old.last_played)


def test_the_units_are_those_of_before_december_2026_times_1_8() -> None:
    """Margin scale 32 in units 1.8 times larger: the ladder keeps the spread it had."""
    now = elo.rescaled(dataclasses.replace(elo.VERSION_1_PARAMS, margin_scale=32.0), 1.8)
    for field in elo.Params.__dataclass_fields__:
        assert getattr(now, field) == pytest.approx(getattr(elo.DEFAULT_PARAMS, field)), field
    assert elo.PROVISIONAL_SIGMA == 234.0  # 130 x 1.8
