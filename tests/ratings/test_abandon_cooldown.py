"""Leaving rated games has a cost: below the threshold a record only, past it a wait."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone, translation
from hypothesis import given
from hypothesis import strategies as st

from games.models import Abandonment
from ratings import abandon_cooldown
from tests.games.factories import UserFactory
from tests.ratings.factories import BOT, finished_partie

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english_afterwards():
    """A German page request leaves German active in this thread: the next test reads English."""
    yield
    translation.activate("en")


NOW = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)


def abandon(user, when: dt.datetime, kind: str = Abandonment.Kind.LEFT) -> Abandonment:
    partie = finished_partie([user, BOT, BOT], [10, 20, 30], when)
    return Abandonment.objects.create(user=user, partie=partie, kind=kind, created=when)


def test_one_abandonment_costs_nothing_but_the_record():
    player = UserFactory()
    abandon(player, NOW - dt.timedelta(minutes=1))
    assert abandon_cooldown.cooldown_until(player, NOW) is None
    assert abandon_cooldown.abandon_cooldown_refusal(player, NOW) is None


@pytest.mark.parametrize(
    ("count", "wait"),
    [(2, dt.timedelta(minutes=10)), (3, dt.timedelta(hours=1)), (4, dt.timedelta(hours=24))],
)
def test_past_the_threshold_the_wait_grows_and_then_ends(count, wait):
    player = UserFactory()
    latest = NOW - dt.timedelta(minutes=1)
    for hours_before in range(count):
        abandon(player, latest - dt.timedelta(hours=hours_before))
    assert abandon_cooldown.cooldown_until(player, NOW) == (latest + wait, count)
    assert abandon_cooldown.abandon_cooldown_refusal(player, NOW)
    after = latest + wait + dt.timedelta(seconds=1)
    assert abandon_cooldown.abandon_cooldown_refusal(player, after) is None


def test_abandonments_older_than_the_window_are_forgotten():
    player = UserFactory()
    abandon(player, NOW - dt.timedelta(hours=25))
    abandon(player, NOW - dt.timedelta(minutes=1))
    assert abandon_cooldown.abandon_cooldown_refusal(player, NOW) is None


def test_the_refusal_names_the_time_in_the_players_zone_and_the_readers_language():
    player = UserFactory()
    player.profile.time_zone = "Asia/Tokyo"
    player.profile.save()
    latest = dt.datetime(2026, 6, 1, 11, 55, tzinfo=dt.UTC)
    abandon(player, latest - dt.timedelta(hours=1))
    abandon(player, latest)
    with translation.override("en"):
        english = abandon_cooldown.abandon_cooldown_refusal(player, NOW)
    with translation.override("de"):
        german = abandon_cooldown.abandon_cooldown_refusal(player, NOW)
    # 12:05 UTC is 21:05 in Tokyo.
    assert "21:05" in english and "Asia/Tokyo" in english and "2 rated Parties" in english
    assert "21:05" in german and "Partien" in german


def test_the_record_is_on_the_profile_and_the_ladder_page(client):
    player = UserFactory()
    recent = timezone.now() - dt.timedelta(minutes=5)
    abandon(player, recent - dt.timedelta(minutes=5))
    abandon(player, recent, Abandonment.Kind.TIMEOUT)
    abandon(player, timezone.now() - dt.timedelta(days=40))

    client.force_login(player)
    own = client.get(reverse("accounts:profile")).content.decode()
    assert "2 abandoned rated Parties in the last 30 days." in own
    assert "Timed out and did not come back" in own
    assert "you may play rated again from" in own

    client.logout()
    public = client.get(reverse("ratings:player", args=[player.username])).content.decode()
    assert "2 abandoned rated Parties in the last 30 days." in public
    assert "you may play rated again" not in public


def test_a_clean_record_says_so_in_german(client):
    player = UserFactory()
    player.profile.language = "de"
    player.profile.save()
    client.force_login(player)
    page = client.get(reverse("accounts:profile"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Keine abgebrochenen gewerteten Partien in den letzten 30 Tagen." in page


def test_the_one_rated_play_check_makes_them_wait_and_casual_play_stays_open():
    """Wired into ``ratings.eligibility``: every rated door (tables, the ranked queue) refuses
    during the wait with the same sentence; casual tables do not ask."""
    from games import lobby
    from games.events import ServiceError
    from ratings import eligibility, ranked_queue

    player = UserFactory()
    latest = timezone.now() - dt.timedelta(minutes=1)
    abandon(player, latest - dt.timedelta(minutes=30))
    assert eligibility.rated_play_refusal(player) is None
    abandon(player, latest)
    refusal = eligibility.rated_play_refusal(player)
    assert refusal and "you may play rated again from" in refusal
    with pytest.raises(ServiceError, match="you may play rated again"):
        lobby.create_table(owner=player, size=3, rated=True)
    with pytest.raises(ranked_queue.QueueError, match="you may play rated again"):
        ranked_queue.join_queue(player)
    assert lobby.create_table(owner=player, size=3).rated is False


moments = st.lists(
    st.integers(min_value=0, max_value=72 * 60).map(lambda m: NOW - dt.timedelta(minutes=m)),
    max_size=8,
)


@given(times=moments, extra=st.integers(min_value=0, max_value=72 * 60))
def test_one_more_abandonment_never_shortens_the_wait(times, extra):
    before = abandon_cooldown.cooldown_end(times)
    after = abandon_cooldown.cooldown_end([*times, NOW - dt.timedelta(minutes=extra)])
    if before is not None:
        assert after is not None and after[0] >= before[0]


@given(times=moments)
def test_a_wait_exactly_when_two_fall_within_a_day(times):
    ordered = sorted(times)
    close_pair = any(
        later - earlier <= abandon_cooldown.WINDOW
        for earlier, later in zip(ordered, ordered[1:], strict=False)
    )
    assert (abandon_cooldown.cooldown_end(times) is not None) == close_pair
