"""Club seasons: create one, open it, put events in it, close it (the table is stored).

Every step is a status transition under the club's and the season's row locks, with
the constraints ``one_open_season_per_club`` and ``one_line_per_club_season`` behind it: a
second open or close (a double click, the beat task and an organiser at once, a retried task)
waits for the first and then finds nothing to do. Lock order: Club -> ClubSeason ->
Tournament.

A ladder season (``ClubSeason.ladder``) never touches anybody's rating: the site-wide ladder
is shared by every club and the ranked queue. Its season table ranks the club's members by the
rating they gained while the season was open, so each season starts everyone at zero
(docs/clubs.md, "Seasons and the club ladder").
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from rosbi_platform.accounts.models import Club
from rosbi_platform.locking import retry_on_conflict
from tournaments import club_selectors, selectors
from tournaments.common import TournamentError
from tournaments.models import ClubSeason, ClubSeasonStanding, Tournament

logger = logging.getLogger(__name__)

Status = ClubSeason.Status


def _require_organiser(by: Any, club_id: int) -> None:
    """``None`` is the scheduler (the beat task); anyone else must run the club's events."""
    if by is not None and not selectors.can_manage_club(by, club_id):
        raise TournamentError(_("Only the club's organisers can do this."))


def _overlapping(season: ClubSeason):
    return (
        ClubSeason.objects.filter(club_id=season.club_id)
        .exclude(pk=season.pk)
        .filter(starts_on__lte=season.ends_on, ends_on__gte=season.starts_on)
    )


def create_season(
    *,
    club: Any,
    by: Any,
    name: str,
    starts_on: dt.date,
    ends_on: dt.date,
    best_of: int | None = None,
    place_points: list[int] | None = None,
    ladder: bool = False,
    automatic: bool = True,
) -> ClubSeason:
    """A new (planned) season of the club; its days may not overlap another season's."""
    _require_organiser(by, club.pk)
    season = ClubSeason(
        club=club,
        name=name.strip(),
        starts_on=starts_on,
        ends_on=ends_on,
        best_of=best_of,
        ladder=ladder,
        automatic=automatic,
    )
    if place_points is not None:
        season.place_points = list(place_points)
    try:
        season.full_clean()
    except ValidationError as error:
        raise TournamentError(" ".join(error.messages)) from error
    with transaction.atomic():
        # The club's seasons are created one at a time, so two overlapping ones cannot both
        # pass the check below.
        Club.objects.select_for_update().get(pk=club.pk)
        if _overlapping(season).exists():
            raise TournamentError(_("The club has another season on some of these days."))
        season.save()
    return season


def _locked(season_id: int, work) -> Any:
    """Run ``work(season)`` holding the club's lock, then the season's: the club's seasons
    open and close one at a time (two different seasons opened at once: the second finds the
    first open and is refused in words)."""

    def attempt() -> Any:
        with transaction.atomic():
            club_id = ClubSeason.objects.values_list("club_id", flat=True).get(pk=season_id)
            Club.objects.select_for_update().get(pk=club_id)
            return work(ClubSeason.objects.select_for_update().get(pk=season_id))

    return retry_on_conflict(attempt)


def open_season(season_id: int, by: Any = None, now: dt.datetime | None = None) -> ClubSeason:
    """Open the season (its events then count in the season table). Opening an open season
    changes nothing; a closed season stays closed."""
    now = now or timezone.now()

    def work(season: ClubSeason) -> ClubSeason:
        _require_organiser(by, season.club_id)
        if season.status == Status.OPEN:
            return season
        if season.status == Status.CLOSED:
            raise TournamentError(_("This season is closed; it cannot open again."))
        if (
            ClubSeason.objects.filter(club_id=season.club_id, status=Status.OPEN)
            .exclude(pk=season.pk)
            .exists()
        ):
            raise TournamentError(_("Another season of the club is open: close it first."))
        season.status = Status.OPEN
        season.opened_at = now
        season.save(update_fields=["status", "opened_at"])
        return season

    return _locked(season_id, work)


def close_season(season_id: int, by: Any = None, now: dt.datetime | None = None) -> ClubSeason:
    """Close the season and store its table (and, for a ladder season, the members' rating
    gained in it). Closing a closed season changes nothing."""
    now = now or timezone.now()

    def work(season: ClubSeason) -> ClubSeason:
        _require_organiser(by, season.club_id)
        if season.status == Status.CLOSED:
            return season
        if season.status == Status.PLANNED:
            raise TournamentError(_("This season has not opened yet."))
        lines = club_selectors.live_season_table(season)
        ladder = (
            {row.user_id: row for row in club_selectors.season_ladder(season, until=now)}
            if season.ladder
            else {}
        )
        rows = [
            ClubSeasonStanding(
                season=season,
                user_id=line.player,
                rank=line.rank,
                points=line.points,
                events_played=line.played,
                events_counted=len(line.counted),
                results=list(line.results),
                rating_start=ladder[line.player].start if line.player in ladder else None,
                rating_end=ladder[line.player].end if line.player in ladder else None,
                rated_parties=ladder[line.player].parties if line.player in ladder else 0,
            )
            for line in lines
        ]
        # Ladder-only lines: members who gained rating but played no event of the season.
        in_table = {line.player for line in lines}
        last = len(lines)
        for row in ladder.values():
            if row.user_id not in in_table:
                rows.append(
                    ClubSeasonStanding(
                        season=season,
                        user_id=row.user_id,
                        rank=last + 1,
                        points=0,
                        events_played=0,
                        events_counted=0,
                        rating_start=row.start,
                        rating_end=row.end,
                        rated_parties=row.parties,
                    )
                )
        ClubSeasonStanding.objects.bulk_create(rows)
        season.status = Status.CLOSED
        season.closed_at = now
        season.save(update_fields=["status", "closed_at"])
        return season

    return _locked(season_id, work)


def assign_event_to_season(tournament_id: int, season_id: int | None, by: Any) -> Tournament:
    """Put an event into a season of its club (``None`` takes it out). A closed season's
    table is stored, so its events stay as they are."""

    def attempt() -> Tournament:
        with transaction.atomic():
            previous_id = Tournament.objects.values_list("season_id", flat=True).get(
                pk=tournament_id
            )
            ids = sorted({season_id, previous_id} - {None})
            locked = {s.pk: s for s in ClubSeason.objects.select_for_update().filter(pk__in=ids)}
            if season_id is not None and season_id not in locked:
                raise TournamentError(_("No such season."))
            season = locked.get(season_id) if season_id is not None else None
            tournament = Tournament.objects.select_for_update(no_key=True).get(pk=tournament_id)
            _require_organiser(by, tournament.club_id)
            previous = tournament.season
            for touched in (previous, season):
                if touched is not None and touched.status == Status.CLOSED:
                    raise TournamentError(_("A closed season's events cannot change."))
            if season is not None:
                problem = season.refusal_for(tournament)
                if problem:
                    raise TournamentError(problem)
            tournament.season = season
            tournament.save(update_fields=["season"])
            return tournament

    return retry_on_conflict(attempt)


def advance_seasons(today: dt.date | None = None) -> dict[str, list[int]]:
    """What beat runs daily: close the automatic open seasons whose last day has passed, then
    open the automatic planned seasons whose days have come (in the site's time zone). Safe
    to run twice or at once: each step is ``close_season``/``open_season``."""
    today = today or timezone.localdate()
    done: dict[str, list[int]] = {"closed": [], "opened": []}
    for season_id in club_selectors.seasons_due_to_close(today):
        try:
            close_season(season_id)
            done["closed"].append(season_id)
        except TournamentError:
            logger.exception("season %s could not close", season_id)
    for season_id in club_selectors.seasons_due_to_open(today):
        try:
            open_season(season_id)
            done["opened"].append(season_id)
        except TournamentError:
            logger.exception("season %s could not open", season_id)
    return done
