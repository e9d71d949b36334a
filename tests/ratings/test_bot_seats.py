"""Bot seats count as their level's measured rating, so weak bots cannot farm the ladder.

A bot seat's rating is frozen into the rated Partie when it is recorded (``participants_of``),
so a recompute from history equals the live update even after the levels are re-measured.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from games.bots import ratings_table
from games.bots.ratings_table import BOT_RATING_SIGMAS, BOT_RATINGS
from ratings import elo, recording, replay, updates
from ratings.models import PlayerRating, RatedPartie, RatingChange, RatingLedger
from tests.games.factories import UserFactory
from tests.ratings.factories import BOT, EPOCH, finished_partie, outcome_of

MIGRATION_BEFORE = [("ratings", "0012_rating_units_after_margin_32")]


def record(partie) -> RatedPartie:
    return recording.record_finished_partie(outcome_of(partie))


def snapshot() -> tuple[dict, dict]:
    ratings = {r.user_id: (r.mu, r.sigma, r.games) for r in PlayerRating.objects.all()}
    changes = {
        (c.partie_id, c.user_id): (c.mu_before, c.mu_after, c.sigma_after)
        for c in RatingChange.objects.all()
    }
    return ratings, changes


@pytest.mark.django_db
def test_beating_random_bots_moves_a_player_less_than_beating_expert_bots():
    """The farming of issue 25: with every bot at 1500, beating two random bots was worth as
    much as beating two expert bots."""
    gains = {}
    for level in ("random", "expert"):
        winner, second = UserFactory.create_batch(2)
        record(finished_partie([winner, BOT, second, BOT], [0, 30, 10, 25], EPOCH, bot_level=level))
        updates.apply_pending_ratings()
        gains[level] = PlayerRating.objects.get(user=winner).mu - elo.INITIAL_MU
    assert 0 < gains["random"] < gains["expert"]


@pytest.mark.django_db
def test_a_bot_seat_records_its_level_rating_and_a_leavers_seat_stays_theirs():
    stayer, leaver, other = UserFactory.create_batch(3)
    partie = finished_partie(
        [stayer, leaver, other, BOT], [10, 20, 30, 5], EPOCH, left={1}, bot_level="random"
    )
    people = record(partie).participants
    bot = people[3]
    assert (bot["user_id"], bot["bot_level"]) == (None, "random")
    assert (bot["bot_mu"], bot["bot_sigma"]) == (BOT_RATINGS["random"], BOT_RATING_SIGMAS["random"])
    # A bot finished the leaver's seat, but it is the leaver's: rated as them, last.
    assert people[1]["user_id"] == leaver.pk and people[1]["left"]
    assert people[1]["bot_mu"] is None
    updates.apply_pending_ratings()
    assert RatingChange.objects.get(user=leaver).place == 4
    assert not RatingChange.objects.filter(seat=3).exists()


def test_a_level_without_a_measured_rating_counts_as_the_fixed_bot_rating():
    assert replay.bot_rating("grandmaster") == replay.fallback_bot_rating()
    assert replay.bot_rating(None).mu == elo.INITIAL_MU
    assert replay.recorded_bot_rating({"user_id": None, "bot_level": "expert"}).mu == 1500.0
    assert replay.bot_rating("expert") == elo.Rating(
        mu=BOT_RATINGS["expert"], sigma=BOT_RATING_SIGMAS["expert"]
    )


def _after(own: float, bot_mu: float, totals: tuple[int, int, int]) -> float:
    """The player's rating after one Partie with another player and a bot of ``bot_mu``."""
    job = replay.Job(
        partie_id=1,
        finished_at=EPOCH,
        participants=[
            {"seat": 0, "user_id": 1, "total": totals[0], "place": 1, "left": False},
            {"seat": 1, "user_id": 2, "total": totals[1], "place": 1, "left": False},
            {
                "seat": 2,
                "user_id": None,
                "bot_level": "x",
                "bot_mu": bot_mu,
                "bot_sigma": 205.0,
                "total": totals[2],
                "place": 1,
                "left": False,
            },
        ],
    )
    states: dict[int, replay.State] = {
        1: (own, 200.0, 30, None, None),
        2: (1500.0, 200.0, 30, None, None),
    }
    replay.replay_jobs([job], states, [])
    return states[1][0]


bot_mus = st.floats(min_value=1000.0, max_value=2000.0)
totals = st.integers(min_value=0, max_value=60)


@hypothesis_settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(own=bot_mus, a=bot_mus, b=bot_mus, own_total=totals, other=totals, margin=st.integers(1, 40))
def test_beating_a_weaker_bot_never_gains_more_than_beating_a_stronger_one(
    own, a, b, own_total, other, margin
):
    weaker, stronger = sorted((a, b))
    score = (own_total, other, own_total + margin)  # the player beats the bot
    gain_weaker = _after(own, weaker, score) - own
    gain_stronger = _after(own, stronger, score) - own
    assert gain_weaker <= gain_stronger + 1e-9


@hypothesis_settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(own=bot_mus, a=bot_mus, b=bot_mus, bot_total=totals, other=totals, margin=st.integers(1, 40))
def test_losing_to_a_stronger_bot_never_costs_more_than_losing_to_a_weaker_one(
    own, a, b, bot_total, other, margin
):
    weaker, stronger = sorted((a, b))
    score = (bot_total + margin, other, bot_total)  # the bot beats the player
    loss_weaker = own - _after(own, weaker, score)
    loss_stronger = own - _after(own, stronger, score)
    assert loss_stronger <= loss_weaker + 1e-9


@pytest.mark.django_db
def test_recompute_equals_the_live_update_with_every_level_even_after_a_re_measure(monkeypatch):
    users = UserFactory.create_batch(5)
    levels = list(BOT_RATINGS)
    for i in range(15):
        players = [users[i % 5], users[(i + 2) % 5], BOT, BOT][: 3 + i % 2]
        totals = [(7 * i + 11 * k) % 41 for k in range(len(players))]
        partie = finished_partie(
            players, totals, EPOCH + dt.timedelta(hours=i), bot_level=levels[i % len(levels)]
        )
        record(partie)
        updates.apply_pending_ratings()  # live: one Partie at a time
    live = snapshot()
    # The levels are re-measured later: recorded Parties keep the ratings they were rated at.
    monkeypatch.setattr(ratings_table, "BOT_RATINGS", dict.fromkeys(BOT_RATINGS, 2400))
    assert updates.recompute_all_ratings() == 15
    assert snapshot() == live
    RatingChange.objects.all().delete()
    PlayerRating.objects.all().delete()
    assert updates.recompute_all_ratings() == 15
    assert snapshot() == live


@pytest.mark.django_db(transaction=True)
def test_the_migration_rates_recorded_bot_seats_at_their_level_and_recomputes_the_pool():
    """Recorded bot seats of a known level get its rating; an unknown level keeps the fixed
    1500; the existing ledger stays at version 2, so the pool is recomputed on its next update
    under the new rule."""
    a, b = UserFactory.create_batch(2)
    known = finished_partie([a, b, BOT, BOT], [0, 10, 20, 30], EPOCH, bot_level="random")
    unknown = finished_partie(
        [a, b, BOT], [5, 0, 9], EPOCH + dt.timedelta(hours=1), bot_level="grandmaster"
    )
    record(known)
    record(unknown)
    # The pool as version 2 left it: jobs without a recorded bot rating, every bot at 1500.
    for job in RatedPartie.objects.all():
        job.participants = [
            {k: v for k, v in p.items() if k not in ("bot_mu", "bot_sigma")}
            for p in job.participants
        ]
        job.save(update_fields=["participants"])
    updates.apply_pending_ratings()
    RatingLedger.objects.update(model_version=2)
    at_1500 = snapshot()
    executor = MigrationExecutor(connection)
    try:
        executor.migrate(MIGRATION_BEFORE)
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
        people = RatedPartie.objects.get(partie=known).participants
        assert [p.get("bot_mu") for p in people] == [None, None, 1332.0, 1332.0]
        assert [p.get("bot_sigma") for p in people[2:]] == [211.0, 211.0]
        others = RatedPartie.objects.get(partie=unknown).participants
        assert all(p.get("bot_mu") is None for p in others)
        assert RatingLedger.objects.get().model_version == 2
        assert snapshot() == at_1500
        updates.apply_pending_ratings()  # nothing pending: the version alone recomputes
        assert RatingLedger.objects.get().model_version == elo.MODEL_VERSION == 3
        recomputed = snapshot()
        assert recomputed != at_1500
        # Beating random bots counted at 1332 is worth less than beating 1500s.
        assert recomputed[0][a.pk][0] < at_1500[0][a.pk][0]
        RatingChange.objects.all().delete()
        PlayerRating.objects.all().delete()
        updates.recompute_all_ratings()
        assert snapshot() == recomputed
        # Backwards, the recorded bot ratings are forgotten again.
        executor = MigrationExecutor(connection)
        executor.migrate(MIGRATION_BEFORE)
        executor.loader.build_graph()
        old = executor.loader.project_state(MIGRATION_BEFORE).apps
        jobs = old.get_model("ratings", "RatedPartie").objects.all()
        assert all("bot_mu" not in p for job in jobs for p in job.participants)
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
