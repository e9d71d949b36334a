"""The rating benchmark's ceiling: ordering pairs by the hidden skill, on the evaluated part."""

from __future__ import annotations

import sys
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parents[2] / "bench" / "ratings"
sys.path.insert(0, str(BENCH_DIR))

from evaluate import CALIBRATION_SHARE, ceiling_accuracy  # noqa: E402
from simulate import Stream, Table  # noqa: E402


def _stream(tables: list[Table]) -> Stream:
    return Stream(tables, dict.fromkeys(range(4), 0.0))


def test_ceiling_counts_only_decided_pairs_after_the_calibration_part() -> None:
    # The calibration part (first 30%) is upset-only: it must not count.
    upsets = [Table(0.0, [0, 1, 2], [20, 10, 0], [1.0, 0.0, -1.0]) for _ in range(3)]
    # Evaluated part: skill order holds in 2 of 3 pairs; a drawn pair is left out.
    evaluated = [
        Table(1.0, [0, 1, 2], [0, 10, 5], [1.0, 0.0, -1.0]),
        Table(2.0, [0, 1, 3], [0, 5, 5], [1.0, 0.0, -1.0]),
    ]
    stream = _stream(upsets + evaluated * 4)
    assert int(CALIBRATION_SHARE * len(stream.tables)) == len(upsets)
    # Per evaluated pair of tables: (1, 1, 0) from the first, (1, 1) and a draw from the second.
    assert abs(ceiling_accuracy(stream) - 4 / 5) < 1e-12


def test_equal_hidden_skills_score_half() -> None:
    tables = [Table(float(k), [0, 1, 2], [0, 8, 16], [0.0, 0.0, 0.0]) for k in range(10)]
    assert ceiling_accuracy(_stream(tables)) == 0.5


def test_named_variants_build_the_systems_they_name() -> None:
    from evaluate import TUNED_BETA, make_system

    from ratings import elo

    ours = make_system("ours:tau=0:min_sigma=30:calibrate=0", "normal")
    assert ours.params.tau == 0.0 and ours.params.min_sigma == 30.0 and not ours.calibrate
    assert make_system("ours", "heavy").params == elo.DEFAULT_PARAMS
    tuned = make_system("trueskill-tuned", "engine")
    assert tuned.env.beta == 25.0 / 6.0 * TUNED_BETA["trueskill"]["engine"]
    assert make_system("openskill-PL:beta=2", "normal").model.beta == 25.0 / 3.0


def test_ours_learns_the_pool_scale_from_what_it_observed() -> None:
    """Favourites who always win make the calibrated odds bolder than the bare model's."""
    from systems import Ours

    system = Ours(refit_every=5)
    for p, mu in enumerate((1800.0, 1600.0, 1400.0, 1200.0)):
        system.state[p] = system.fresh().__class__(mu, 100.0, 50, 0.0)
    for k in range(20):
        system.observe([0, 1, 2, 3], [0, 10, 20, 30], float(k))
    assert system.scale > 1.0
    bare = Ours(calibrate=False)
    bare.state = dict(system.state)
    assert system.predict([0, 3], 20.0)[0][1] > bare.predict([0, 3], 20.0)[0][1] > 0.5


def test_half_recovery_interpolates_and_says_when_it_never_came() -> None:
    from drift import half_recovery

    assert half_recovery([0.0, 0.2, 0.4, 0.6, 0.8]) == 2.5
    assert half_recovery([0.0, 0.5]) == 1.0
    assert half_recovery([0.0, 0.1, 0.2]) == float("inf")


def test_the_rating_before_a_change_keeps_its_old_margin_scale() -> None:
    """``ours-m12`` and ``ours-v1`` name past ratings; a new default must not change them."""
    from evaluate import make_system

    assert make_system("ours-m12", "engine").params.margin_scale == 12.0
    assert make_system("ours-v1", "engine").params.margin_scale == 12.0
    # In the units of then: Elo's 400 and the rating-point constants 1.8 times smaller.
    before = make_system("ours-m12", "engine").params
    assert (before.unit, before.initial_sigma, before.tau) == (400.0, 350.0, 20.0)
    assert make_system("ours-v1", "engine").params.tau == 0.0


def test_a_rescaled_variant_scales_every_rating_point_constant() -> None:
    import dataclasses

    from evaluate import make_system

    from ratings import elo

    doubled = make_system("ours:margin_scale=12:rescale=2", "normal").params
    assert doubled == elo.rescaled(dataclasses.replace(elo.DEFAULT_PARAMS, margin_scale=12.0), 2.0)
    assert doubled.unit == 2 * elo.UNIT and doubled.margin_scale == 12.0
    assert make_system("ours:rescale=2", "normal").fresh().sigma == 2 * elo.INITIAL_SIGMA


def test_the_paired_differences_are_taken_from_the_named_reference() -> None:
    from evaluate import report

    keys = ("accuracy", "log_loss", "log_loss_cal", "temperature", "rho@1", "rho@3", "rho@5")
    base = dict.fromkeys(keys, 0.5) | {"rho@10": 0.5, "rho@20": 0.5, "ms_per_table": 0.1}
    base |= {"violations": 0, "probes": 0, "winner_tables": 1, "winner_drops": 0}
    base |= {"spread": 100.0, "winner_gain": 10.0}
    seeds = [
        {"a": base | {"accuracy": 0.60 + k / 1000}, "b": base | {"accuracy": 0.58 + k / 1000}}
        for k in range(3)
    ]
    text = report("t", seeds, ["a", "b"], reference="a")
    assert "a minus each" in text
    assert "| b | +0.0200 ± 0.0000 |" in text


def test_the_adapted_pair_weight_follows_the_pool_scale() -> None:
    """With ``adapt`` a pool whose favourites keep winning (scale > 1) learns more per Partie."""
    from evaluate import make_system
    from systems import Ours

    from ratings import elo

    adapted = make_system("ours:adapt=2:adapt_high=1.5", "normal")
    assert adapted.adapt == 2.0 and adapted.adapt_bounds == (0.25, 1.5)
    plain = Ours(refit_every=5)
    adapted.refit_every = 5
    for system in (plain, adapted):
        for p, mu in enumerate((1800.0, 1600.0, 1400.0, 1200.0)):
            system.state[p] = elo.Rating(mu, 100.0, 50, 0.0)
        for k in range(20):
            system.observe([0, 1, 2, 3], [0, 10, 20, 30], float(k))
    assert adapted.scale > 1.0
    assert adapted.learning == min(adapted.scale**2, 1.5)
    gain = [s.compute([0, 1, 2, 3], [30, 20, 10, 0], 20.0)[3].mu for s in (plain, adapted)]
    assert gain[1] > gain[0] > 1200.0
