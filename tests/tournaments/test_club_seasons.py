"""Club seasons (tournaments/seasons.py): creating with validated points, events in a season
(same club, within the days), opening and closing by organisers, by the beat task on the
dates, idempotent twice and at once, the stored table (best N of M), the ladder season."""

from __future__ import annotations

import contextlib
import datetime as dt
import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.utils import timezone

from games.models import Partie, Table
from ratings.models import RatingChange
from rosbi_platform.accounts.models import ClubMembership
from tests.tournaments.factories import (
    ClubFactory,
    MembershipFactory,
    TournamentFactory,
    UserFactory,
    finished_event,
)
from tests.tournaments.helpers import organiser_of
from tournaments import club_selectors, seasons, tasks
from tournaments.common import TournamentError
from tournaments.models import ClubSeason, ClubSeasonStanding

pytestmark = [pytest.mark.django_db]

TODAY = dt.date(2026, 3, 10)


def make_season(club, by, **fields):
    values = {
        "name": "Frühjahr 2026",
        "starts_on": dt.date(2026, 3, 1),
        "ends_on": dt.date(2026, 5, 31),
        "best_of": 2,
        "place_points": [5, 3, 1],
    }
    values.update(fields)
    return seasons.create_season(club=club, by=by, **values)


def noon(day: dt.date) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(12), tzinfo=dt.UTC)


def test_points_per_place_are_validated_with_a_clear_message():
    club = ClubFactory()
    organiser = organiser_of(club)
    with pytest.raises(TournamentError, match="worse place cannot earn more"):
        make_season(club, organiser, place_points=[3, 5])
    with pytest.raises(TournamentError, match="last day is before"):
        make_season(club, organiser, ends_on=dt.date(2026, 2, 1))
    with pytest.raises(TournamentError, match="organisers"):
        make_season(club, UserFactory())
    make_season(club, organiser)
    with pytest.raises(TournamentError, match="another season"):
        make_season(
            club,
            organiser,
            name="Overlap",
            starts_on=dt.date(2026, 5, 1),
            ends_on=dt.date(2026, 6, 30),
        )
    assert ClubSeason.objects.filter(club=club).count() == 1


def test_an_event_belongs_to_a_season_of_its_club_within_its_days():
    club = ClubFactory()
    organiser = organiser_of(club)
    season = make_season(club, organiser)
    inside = TournamentFactory(club=club, starts_at=noon(dt.date(2026, 3, 12)))
    outside = TournamentFactory(club=club, starts_at=noon(dt.date(2026, 6, 2)))
    elsewhere = TournamentFactory(starts_at=noon(dt.date(2026, 3, 12)))
    seasons.assign_event_to_season(inside.pk, season.pk, organiser)
    with pytest.raises(TournamentError, match="outside the season"):
        seasons.assign_event_to_season(outside.pk, season.pk, organiser)
    with pytest.raises(TournamentError):
        seasons.assign_event_to_season(elsewhere.pk, season.pk, organiser)
    assert list(season.events.all()) == [inside]
    # The model's validation (admin, forms) says the same.
    outside.season = season
    with pytest.raises(ValidationError, match="outside the season"):
        outside.full_clean()
    # An event late on the last day in its own zone (already the next day in UTC) is inside.
    late = TournamentFactory(
        club=club,
        time_zone="America/New_York",
        starts_at=dt.datetime(2026, 6, 1, 2, 0, tzinfo=dt.UTC),  # 31 May, 22:00 in New York
    )
    seasons.assign_event_to_season(late.pk, season.pk, organiser)


def test_open_and_close_store_the_best_n_of_m_table_once():
    club = ClubFactory()
    organiser = organiser_of(club)
    ana, ben, cem = UserFactory(), UserFactory(), UserFactory()
    season = make_season(club, organiser)
    for day, ranking in [(3, [ana, ben, cem]), (10, [ben, ana, cem]), (17, [ben, cem, ana])]:
        finished_event(club, ranking, starts_at=noon(dt.date(2026, 4, day)), season=season)
    with pytest.raises(TournamentError, match="not opened yet"):
        seasons.close_season(season.pk, organiser)
    with pytest.raises(TournamentError, match="organisers"):
        seasons.open_season(season.pk, UserFactory())
    seasons.open_season(season.pk, organiser)
    seasons.open_season(season.pk, organiser)  # twice: still open, nothing else
    rows = club_selectors.season_rows(season)
    # ben 3+5+5 -> best two 10; ana 5+3+1 -> 8; cem 1+1+3 -> 4
    assert [(r.username, r.rank, r.points, r.counted, r.played) for r in rows] == [
        (ben.username, 1, 10, 2, 3),
        (ana.username, 2, 8, 2, 3),
        (cem.username, 3, 4, 2, 3),
    ]
    seasons.close_season(season.pk, organiser)
    seasons.close_season(season.pk, organiser)
    stored = list(ClubSeasonStanding.objects.filter(season=season).order_by("rank"))
    assert [(s.user_id, s.rank, s.points, s.results) for s in stored] == [
        (ben.pk, 1, 10, [5, 5, 3]),
        (ana.pk, 2, 8, [5, 3, 1]),
        (cem.pk, 3, 4, [3, 1, 1]),
    ]
    # A later change to an event does not change the stored table.
    finished_event(club, [cem, ana, ben], starts_at=noon(dt.date(2026, 4, 24)))
    with pytest.raises(TournamentError, match="closed"):
        seasons.open_season(season.pk, organiser)
    assert [r.points for r in club_selectors.season_rows(season)] == [10, 8, 4]


def test_only_one_season_of_a_club_is_open():
    club = ClubFactory()
    organiser = organiser_of(club)
    first = make_season(club, organiser)
    second = make_season(
        club, organiser, name="Herbst", starts_on=dt.date(2026, 9, 1), ends_on=dt.date(2026, 11, 30)
    )
    seasons.open_season(first.pk, organiser)
    with pytest.raises(TournamentError, match="Another season"):
        seasons.open_season(second.pk, organiser)
    assert ClubSeason.objects.get(pk=second.pk).status == ClubSeason.Status.PLANNED


def test_the_beat_task_opens_and_closes_on_the_dates_and_twice_changes_nothing():
    club = ClubFactory()
    organiser = organiser_of(club)
    spring = make_season(club, organiser)
    manual = make_season(
        club,
        organiser,
        name="Sommer",
        starts_on=dt.date(2026, 6, 1),
        ends_on=dt.date(2026, 8, 31),
        automatic=False,
    )
    assert seasons.advance_seasons(dt.date(2026, 2, 28)) == {"closed": [], "opened": []}
    assert seasons.advance_seasons(dt.date(2026, 3, 1)) == {"closed": [], "opened": [spring.pk]}
    assert seasons.advance_seasons(dt.date(2026, 3, 1)) == {"closed": [], "opened": []}
    assert seasons.advance_seasons(dt.date(2026, 6, 1)) == {"closed": [spring.pk], "opened": []}
    assert ClubSeason.objects.get(pk=spring.pk).status == ClubSeason.Status.CLOSED
    assert ClubSeason.objects.get(pk=manual.pk).status == ClubSeason.Status.PLANNED


def test_the_celery_task_runs_the_same_service(monkeypatch):
    club = ClubFactory()
    season = make_season(
        club,
        organiser_of(club),
        starts_on=timezone.localdate(),
        ends_on=timezone.localdate() + dt.timedelta(days=30),
    )
    assert tasks.advance_club_seasons() == {"closed": [], "opened": [season.pk]}


@pytest.mark.django_db(transaction=True)
def test_two_closes_at_once_store_the_table_once(monkeypatch):
    club = ClubFactory()
    organiser = organiser_of(club)
    players = [UserFactory() for _ in range(3)]
    season = make_season(club, organiser)
    finished_event(club, players, starts_at=noon(dt.date(2026, 3, 5)), season=season)
    seasons.open_season(season.pk, organiser)
    # Each close waits (up to a second) after reading the table for the other to get there
    # too: were the two not serialised, both would store the table.
    at_read = threading.Barrier(2, timeout=1.0)
    read_table = club_selectors.live_season_table

    def read_when_both_are_here(season):
        with contextlib.suppress(threading.BrokenBarrierError):
            at_read.wait()
        return read_table(season)

    monkeypatch.setattr(club_selectors, "live_season_table", read_when_both_are_here)
    errors: list[Exception] = []

    def close():
        try:
            seasons.close_season(season.pk)
        except Exception as error:  # noqa: BLE001 - any failure fails the test below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=close) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert ClubSeasonStanding.objects.filter(season=season).count() == 3


def rated(user, partie, before, after, when):
    RatingChange.objects.create(
        partie=partie,
        user=user,
        finished_at=when,
        seat=0,
        total=0,
        place=1,
        mu_before=before,
        sigma_before=100,
        games_before=10,
        mu_after=after,
        sigma_after=100,
    )


def test_a_ladder_season_ranks_members_by_rating_gained_and_stores_it():
    club = ClubFactory()
    organiser = organiser_of(club)
    ana = MembershipFactory(club=club).user
    ben = MembershipFactory(club=club).user
    outsider = UserFactory()
    season = make_season(club, organiser, ladder=True)
    opened = timezone.now() - dt.timedelta(days=2)
    season = seasons.open_season(season.pk, organiser, now=opened)
    owner = UserFactory()
    parties = [
        Partie.objects.create(
            table=Table.objects.create(name=f"t{n}", owner=owner, size=3), first_dealer=0
        )
        for n in range(4)
    ]
    rated(ana, parties[0], 1400, 1600, opened - dt.timedelta(days=1))  # before the season
    rated(ana, parties[1], 1600, 1610, opened + dt.timedelta(hours=1))
    rated(ben, parties[2], 1500, 1530, opened + dt.timedelta(hours=2))
    rated(outsider, parties[3], 1500, 1700, opened + dt.timedelta(hours=3))
    live = club_selectors.season_ladder_rows(season)
    assert [(r.username, r.rating_gain, r.rated_parties) for r in live] == [
        (ben.username, 30, 1),
        (ana.username, 10, 1),
    ]
    season = seasons.close_season(season.pk, organiser)
    stored = {s.user_id: (s.rating_start, s.rating_end) for s in season.standings.all()}
    assert stored == {ana.pk: (1600, 1610), ben.pk: (1500, 1530)}
    assert [r.username for r in club_selectors.season_ladder_rows(season)] == [
        ben.username,
        ana.username,
    ]
    assert ClubMembership.objects.filter(club=club).count() == 3


@pytest.mark.django_db(transaction=True)
def test_two_seasons_of_a_club_opened_at_once_open_one(monkeypatch):
    club = ClubFactory()
    organiser = organiser_of(club)
    first = make_season(club, organiser)
    second = make_season(
        club,
        organiser,
        name="Herbst",
        starts_on=dt.date(2026, 9, 1),
        ends_on=dt.date(2026, 11, 30),
    )
    # Each opening waits (up to a second) at its write for the other one to get there too: were
    # the two not serialised, both would have passed the "another season is open" check.
    at_save = threading.Barrier(2, timeout=1.0)
    original_save = ClubSeason.save

    def save_when_both_are_here(self, *args, **kwargs):
        if kwargs.get("update_fields") == ["status", "opened_at"]:
            with contextlib.suppress(threading.BrokenBarrierError):
                at_save.wait()
        return original_save(self, *args, **kwargs)

    monkeypatch.setattr(ClubSeason, "save", save_when_both_are_here)
    outcomes: list[str] = []

    def open_(season_id):
        try:
            seasons.open_season(season_id, organiser)
            outcomes.append("opened")
        except TournamentError:
            outcomes.append("refused")
        except Exception as error:  # noqa: BLE001 - a database error fails the test below
            outcomes.append(type(error).__name__)
        finally:
            connection.close()

    threads = [threading.Thread(target=open_, args=(s.pk,)) for s in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["opened", "refused"]
    assert ClubSeason.objects.filter(club=club, status=ClubSeason.Status.OPEN).count() == 1
