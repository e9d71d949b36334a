"""A pool rated under older rules is recomputed under today's, once, on its next update."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from ratings import elo, recording, updates
from ratings.models import PlayerRating, RatingChange, RatingLedger
from tests.games.factories import UserFactory
from tests.ratings.factories import EPOCH, finished_partie, outcome_of
from tests.ratings.test_recompute import snapshot


def _play(users, hours: range) -> None:
    for i in hours:
        partie = finished_partie(users, [i, 12, 25 - i, 40], EPOCH + dt.timedelta(hours=i))
        recording.record_finished_partie(outcome_of(partie))


def _rated_under_old_rules() -> None:
    """What the stored rows of a pool rated under version 1 look like to version 2."""
    RatingLedger.objects.update(model_version=elo.MODEL_VERSION - 1)
    PlayerRating.objects.update(mu=1234.0, sigma=99.0)
    RatingChange.objects.update(mu_after=1234.0)


@pytest.mark.django_db
def test_the_next_update_recomputes_a_pool_rated_under_older_rules_once():
    users = UserFactory.create_batch(4)
    _play(users, range(5))
    updates.apply_pending_ratings()
    expected = snapshot()
    assert RatingLedger.objects.get().model_version == elo.MODEL_VERSION

    _rated_under_old_rules()
    assert updates.apply_pending_ratings() == 0  # nothing was pending ...
    assert snapshot() == expected  # ... and yet every rating follows today's rules
    assert RatingLedger.objects.get().model_version == elo.MODEL_VERSION

    # Once: with the version recorded, an update leaves stored rows alone.
    PlayerRating.objects.filter(user=users[0]).update(mu=2222.0)
    assert updates.apply_pending_ratings() == 0
    assert PlayerRating.objects.get(user=users[0]).mu == 2222.0


@pytest.mark.django_db
def test_pending_parties_are_applied_by_the_recompute():
    users = UserFactory.create_batch(5)
    _play(users[:4], range(3))
    updates.apply_pending_ratings()
    _play(users[1:], range(3, 5))
    _rated_under_old_rules()
    assert updates.apply_pending_ratings() == 2
    reference = snapshot()
    assert len(reference[1]) == 5 * 4
    updates.recompute_all_ratings()
    assert snapshot() == reference
    assert RatingLedger.objects.get().applied == 5


@pytest.mark.django_db(transaction=True)
def test_the_migration_marks_existing_ledgers_as_rated_under_version_1():
    executor = MigrationExecutor(connection)
    before = [("ratings", "0011_leaderboard_digest")]
    after = [("ratings", "0012_rating_units_after_margin_32")]
    try:
        executor.migrate(before)
        executor.loader.build_graph()
        old = executor.loader.project_state(before).apps
        old.get_model("ratings", "RatingLedger").objects.create(pool="ladder", applied=3)
        old.get_model("ratings", "Season").objects.create(
            number=1, reset_sigma=150.0, started_at=dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
        )
        executor.migrate(after)
        executor.loader.build_graph()
        new = executor.loader.project_state(after).apps
        ledgers = new.get_model("ratings", "RatingLedger").objects
        assert ledgers.get(pool="ladder").model_version == 1
        # New ledgers of that state start at 2 (version 3 is migration 0013's).
        assert ledgers.create(pool="club").model_version == 2
        # A past season's bump is in rating points: converted, as the recompute replays it.
        season = new.get_model("ratings", "Season").objects.get(number=1)
        assert season.reset_sigma == pytest.approx(270.0)
        executor.migrate(before)
        executor.loader.build_graph()
        old = executor.loader.project_state(before).apps
        assert old.get_model("ratings", "Season").objects.get().reset_sigma == pytest.approx(150)
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
