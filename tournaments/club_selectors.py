"""Reads of the club pages, club seasons and a player's history (no writes here).

The club ladder and the rating changes come from ``ratings.selectors`` (its public
functions); members and roles from ``rosbi_platform.accounts.selectors``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet
from django.utils import timezone

from games import selectors as games_selectors
from ratings import selectors as ratings_selectors
from rosbi_platform.accounts import selectors as accounts_selectors
from rosbi_platform.accounts.models import Club, ClubMembership
from tournaments.models import (
    ClubSeason,
    ClubSeasonStanding,
    Entry,
    RoundTable,
    Standing,
    Tournament,
)
from tournaments.season_scoring import SeasonLine, points_for_place, season_table
from tournaments.selectors import entry_name

ARCHIVE_SIZE = 20


# --------------------------------------------------------------------------- club page


def upcoming_events(club: Club) -> QuerySet[Tournament]:
    """The club's events that have not finished, soonest first (cancelled ones left out)."""
    since = timezone.now() - dt.timedelta(hours=12)
    return Tournament.objects.filter(
        club=club,
        status__in=[
            Tournament.Status.PLANNED,
            Tournament.Status.ON_HOLD,
            Tournament.Status.RUNNING,
        ],
        starts_at__gte=since,
    ).order_by("starts_at", "name")


@dataclass
class ArchivedEvent:
    tournament: Tournament
    winners: list[str]
    entrants: int


def results_archive(club: Club, limit: int = ARCHIVE_SIZE) -> list[ArchivedEvent]:
    """The club's finished events, latest first, each with its winner(s) (rank 1)."""
    events = list(
        Tournament.objects.filter(club=club, status=Tournament.Status.FINISHED)
        .select_related("season")
        .order_by("-starts_at")[:limit]
    )
    winners: dict[int, list[str]] = {t.pk: [] for t in events}
    for standing in (
        Standing.objects.filter(tournament__in=events, rank=1)
        .select_related("entry__user__profile")
        .order_by("entry__user__username")
    ):
        winners[standing.tournament_id].append(entry_name(standing.entry))
    counts: dict[int, int] = {}
    for tournament_id in (
        Entry.objects.filter(tournament__in=events)
        .exclude(status=Entry.Status.WITHDRAWN)
        .values_list("tournament_id", flat=True)
    ):
        counts[tournament_id] = counts.get(tournament_id, 0) + 1
    return [ArchivedEvent(t, winners[t.pk], counts.get(t.pk, 0)) for t in events]


def club_ladder(club: Club) -> list[ratings_selectors.StandingRow]:
    """The club's members on the ladder, in the ladder's order, ranked among themselves."""
    return ratings_selectors.standings_of(accounts_selectors.club_member_ids(club))


ROLE_ORDER = {
    ClubMembership.Role.OWNER: 0,
    ClubMembership.Role.ORGANISER: 1,
    ClubMembership.Role.MEMBER: 2,
}


def club_memberships(club: Club) -> list[ClubMembership]:
    """Owners first, then organisers, then members, by user name."""
    return sorted(
        accounts_selectors.club_members(club),
        key=lambda m: (ROLE_ORDER.get(m.role, 3), m.user.get_username()),
    )


def seasons_of(club: Club) -> QuerySet[ClubSeason]:
    return ClubSeason.objects.filter(club=club).order_by("-starts_on", "name")


def current_season(club: Club) -> ClubSeason | None:
    return ClubSeason.objects.filter(club=club, status=ClubSeason.Status.OPEN).first()


# --------------------------------------------------------------------------- seasons


def season_events(season: ClubSeason) -> QuerySet[Tournament]:
    return Tournament.objects.filter(season=season).order_by("starts_at", "name")


def assignable_events(season: ClubSeason) -> list[Tournament]:
    """The club's events on the season's days that are in no season yet (for the organiser's
    "add an event" choice)."""
    start = dt.datetime.combine(season.starts_on, dt.time.min) - dt.timedelta(days=1)
    end = dt.datetime.combine(season.ends_on, dt.time.max) + dt.timedelta(days=1)
    zone = timezone.get_current_timezone()
    candidates = Tournament.objects.filter(
        club_id=season.club_id,
        season__isnull=True,
        starts_at__gte=start.replace(tzinfo=zone),
        starts_at__lte=end.replace(tzinfo=zone),
    ).exclude(status=Tournament.Status.CANCELLED)
    return [t for t in candidates.order_by("starts_at") if season.refusal_for(t) is None]


def season_results(season: ClubSeason) -> dict[int, list[int]]:
    """user id -> the season points of each finished event they were ranked in."""
    results: dict[int, list[int]] = {}
    for user_id, rank in Standing.objects.filter(
        tournament__season=season, tournament__status=Tournament.Status.FINISHED
    ).values_list("entry__user_id", "rank"):
        results.setdefault(user_id, []).append(points_for_place(rank, season.place_points))
    return results


def live_season_table(season: ClubSeason) -> list[SeasonLine]:
    """The season table from the finished events as they stand now (best N of M)."""
    return season_table(season_results(season), season.best_of)


@dataclass
class SeasonRow:
    rank: int
    user_id: int
    name: str
    username: str
    points: int
    played: int
    counted: int
    results: list[int]
    rating_start: float | None = None
    rating_end: float | None = None
    rated_parties: int = 0

    @property
    def rating_gain(self) -> int | None:
        if self.rating_start is None or self.rating_end is None:
            return None
        return round(self.rating_end) - round(self.rating_start)


def _names(user_ids: list[int]) -> dict[int, tuple[str, str]]:
    users = get_user_model().objects.filter(pk__in=user_ids).select_related("profile")
    names = {}
    for user in users:
        profile = getattr(user, "profile", None)
        display = (profile.display_name if profile is not None else "") or user.get_username()
        names[user.pk] = (display, user.get_username())
    return names


def season_rows(season: ClubSeason) -> list[SeasonRow]:
    """The season table as the page shows it: the stored lines of a closed season, the live
    computation of an open (or planned) one."""
    if season.status == ClubSeason.Status.CLOSED:
        stored = list(ClubSeasonStanding.objects.filter(season=season).order_by("rank", "user_id"))
        names = _names([s.user_id for s in stored])
        return [
            SeasonRow(
                rank=s.rank,
                user_id=s.user_id,
                name=names[s.user_id][0],
                username=names[s.user_id][1],
                points=s.points,
                played=s.events_played,
                counted=s.events_counted,
                results=list(s.results),
                rating_start=s.rating_start,
                rating_end=s.rating_end,
                rated_parties=s.rated_parties,
            )
            for s in stored
        ]
    lines = live_season_table(season)
    names = _names([line.player for line in lines])
    return [
        SeasonRow(
            rank=line.rank,
            user_id=line.player,
            name=names[line.player][0],
            username=names[line.player][1],
            points=line.points,
            played=line.played,
            counted=len(line.counted),
            results=list(line.results),
        )
        for line in lines
    ]


def season_ladder(
    season: ClubSeason, until: dt.datetime | None = None
) -> list[ratings_selectors.RatingGain]:
    """A ladder season's members by ladder rating gained while the season was open."""
    if not season.ladder or season.opened_at is None:
        return []
    end = season.closed_at or until or timezone.now()
    members = accounts_selectors.club_member_ids(season.club)
    return ratings_selectors.rating_gains(members, season.opened_at, end)


def season_ladder_rows(season: ClubSeason) -> list[SeasonRow]:
    """The ladder table of a ladder season: stored when closed, live while open."""
    if not season.ladder:
        return []
    if season.status == ClubSeason.Status.CLOSED:
        rows = [r for r in season_rows(season) if r.rating_start is not None]
    else:
        gains = season_ladder(season)
        names = _names([g.user_id for g in gains])
        rows = [
            SeasonRow(
                rank=0,
                user_id=g.user_id,
                name=names[g.user_id][0],
                username=names[g.user_id][1],
                points=0,
                played=0,
                counted=0,
                results=[],
                rating_start=g.start,
                rating_end=g.end,
                rated_parties=g.parties,
            )
            for g in gains
        ]
    rows.sort(key=lambda r: (-(r.rating_gain or 0), -r.rated_parties, r.user_id))
    for index, row in enumerate(rows):
        row.rank = index + 1
    return rows


def seasons_due_to_close(today: dt.date) -> list[int]:
    return list(
        ClubSeason.objects.filter(
            automatic=True, status=ClubSeason.Status.OPEN, ends_on__lt=today
        ).values_list("pk", flat=True)
    )


def seasons_due_to_open(today: dt.date) -> list[int]:
    return list(
        ClubSeason.objects.filter(
            automatic=True,
            status=ClubSeason.Status.PLANNED,
            starts_on__lte=today,
            ends_on__gte=today,
        )
        .order_by("starts_on")
        .values_list("pk", flat=True)
    )


# --------------------------------------------------------------------------- player history


@dataclass
class PartieLine:
    table_id: int
    table: str
    finished_at: dt.datetime
    place: int
    size: int
    total: int
    rating_change: int | None
    replay: bool
    tournament: Tournament | None
    round_number: int | None
    left: bool = False  # the player left; a bot finished the seat (place and total are its)


def _history_seats(user: Any, viewer: Any) -> QuerySet:
    """The player's seats in finished Parties that ``viewer`` may see (the games' one rule:
    a private table's Parties only for those who played in them, and site moderators)."""
    return games_selectors.finished_results_of(user, viewer)


def history_parties(
    user: Any,
    viewer: Any,
    club: Club | None = None,
    season: ClubSeason | None = None,
) -> QuerySet:
    """Every finished Partie the player sat in, newest first, filtered by club (its event
    tables and tables it moderates) and by season (the tables of the season's events)."""
    seats = _history_seats(user, viewer)
    if season is not None:
        rounds = RoundTable.objects.filter(round__tournament__season=season)
        seats = seats.filter(partie__table__tournament_table__in=rounds.values("pk"))
    if club is not None:
        rounds = RoundTable.objects.filter(round__tournament__club=club)
        seats = seats.filter(
            Q(partie__table__tournament_table__in=rounds.values("pk"))
            | Q(partie__table__club_id=club.pk)
        )
    return seats.order_by("-partie__finished_at", "-partie_id").distinct()


def partie_lines(user: Any, seats: list[Any]) -> list[PartieLine]:
    """One page of the history: each Partie with place, total, rating change, its event."""
    partie_ids = [s.partie_id for s in seats]
    changes = ratings_selectors.rating_changes_of(user, partie_ids)
    table_ids = [s.partie.table_id for s in seats]
    events = {
        rt.game_table_id: rt
        for rt in RoundTable.objects.filter(game_table_id__in=table_ids).select_related(
            "round__tournament"
        )
    }
    lines = []
    for seat in seats:
        table = seat.partie.table
        round_table = events.get(table.pk)
        lines.append(
            PartieLine(
                table_id=table.pk,
                table=table.name,
                finished_at=seat.partie.finished_at,
                place=seat.place,
                size=table.size,
                total=seat.total,
                rating_change=changes.get(seat.partie_id),
                replay=table.status == table.Status.FINISHED,
                tournament=round_table.round.tournament if round_table else None,
                round_number=round_table.round.number if round_table else None,
                left=seat.user_id != user.pk,
            )
        )
    return lines


@dataclass
class EventLine:
    tournament: Tournament
    rank: int | None
    points: float | None
    entrants: int
    withdrawn: bool


def history_events(
    user: Any, club: Club | None = None, season: ClubSeason | None = None
) -> QuerySet[Entry]:
    """The player's entries in events that have started or finished (not cancelled ones),
    newest first."""
    entries = (
        Entry.objects.filter(user=user)
        .exclude(tournament__status__in=[Tournament.Status.PLANNED, Tournament.Status.CANCELLED])
        .select_related("tournament__club", "tournament__season")
    )
    if club is not None:
        entries = entries.filter(tournament__club=club)
    if season is not None:
        entries = entries.filter(tournament__season=season)
    return entries.order_by("-tournament__starts_at", "-pk")


def event_lines(entries: list[Entry]) -> list[EventLine]:
    standings = {
        s.entry_id: s
        for s in Standing.objects.filter(entry__in=entries).only("entry_id", "rank", "points")
    }
    counts: dict[int, int] = {}
    for tournament_id in (
        Entry.objects.filter(tournament__in=[e.tournament_id for e in entries])
        .exclude(status=Entry.Status.WITHDRAWN)
        .values_list("tournament_id", flat=True)
    ):
        counts[tournament_id] = counts.get(tournament_id, 0) + 1
    return [
        EventLine(
            tournament=entry.tournament,
            rank=standings[entry.pk].rank if entry.pk in standings else None,
            points=standings[entry.pk].points if entry.pk in standings else None,
            entrants=counts.get(entry.tournament_id, 0),
            withdrawn=entry.status == Entry.Status.WITHDRAWN,
        )
        for entry in entries
    ]


def history_clubs(user: Any) -> QuerySet[Club]:
    """The clubs a player's history can be filtered by: theirs and those of their events."""
    return (
        Club.objects.filter(Q(memberships__user=user) | Q(tournaments__entries__user=user))
        .distinct()
        .order_by("name")
    )


def history_seasons(user: Any, club: Club | None = None) -> QuerySet[ClubSeason]:
    seasons = ClubSeason.objects.filter(events__entries__user=user).select_related("club")
    if club is not None:
        seasons = seasons.filter(club=club)
    return seasons.distinct().order_by("-starts_on", "name")
