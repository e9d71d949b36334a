"""Players a rated Partie does not rate: bot accounts (never given a ladder rating, their seat
counts as a bot seat) and whoever another app names (``recording.add_unrated_rule``)."""

from __future__ import annotations

import pytest

from games.handoff import hand_off_partie_result
from ratings import recording
from ratings.models import PlayerRating, RatedPartie, RatingChange
from rosbi_platform import celery_app
from rosbi_platform.accounts.services import mark_as_bot
from tests.games.factories import UserFactory
from tests.ratings.factories import EPOCH, finished_partie

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def eager_celery():
    previous = (celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates)
    celery_app.conf.task_always_eager = True
    celery_app.conf.task_eager_propagates = True
    yield
    celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates = previous


def test_a_bot_account_at_a_rated_partie_gets_no_ladder_rating(django_capture_on_commit_callbacks):
    humans = UserFactory.create_batch(2)
    program = UserFactory()
    mark_as_bot(program)
    partie = finished_partie([*humans, program], [5, 20, 30], EPOCH)
    with django_capture_on_commit_callbacks(execute=True):
        assert hand_off_partie_result(partie.pk)
    job = RatedPartie.objects.get(partie=partie)
    assert job.status == RatedPartie.Status.APPLIED
    assert [p["user_id"] for p in job.participants] == [humans[0].pk, humans[1].pk, None]
    assert job.participants[2]["unrated"] is True
    assert not PlayerRating.objects.filter(user=program).exists()
    assert not RatingChange.objects.filter(user=program).exists()
    assert set(PlayerRating.objects.values_list("user_id", flat=True)) == {h.pk for h in humans}


def test_a_partie_with_one_rated_human_left_is_skipped(
    monkeypatch, django_capture_on_commit_callbacks
):
    humans = UserFactory.create_batch(3)
    monkeypatch.setattr(recording, "UNRATED_RULES", [lambda outcome: {humans[1].pk, humans[2].pk}])
    partie = finished_partie(humans, [5, 20, 30], EPOCH)
    with django_capture_on_commit_callbacks(execute=True):
        assert hand_off_partie_result(partie.pk)
    assert RatedPartie.objects.get(partie=partie).status == RatedPartie.Status.SKIPPED
    assert not PlayerRating.objects.exists()
