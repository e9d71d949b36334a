"""Read-only tournament queries, and the standings as a pure function of the stored results."""

from __future__ import annotations

import contextlib
import datetime as dt
import zoneinfo
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.utils import formats, timezone

from games import selectors as games_selectors
from rosbi_platform.accounts import permissions
from rosbi_platform.accounts.models import Club
from rosbi_platform.notifications import selectors as notifications_selectors
from tournaments import duplicate as duplicate_algorithms
from tournaments import knockout
from tournaments.models import (
    AuditLog,
    CalendarToken,
    Entry,
    PhysicalResult,
    Round,
    RoundBye,
    RoundSeat,
    RoundTable,
    Series,
    Standing,
    Tournament,
)
from tournaments.standings import (
    DEFAULT_TIEBREAKS,
    AbsentScore,
    StandingRow,
    StandingsConfig,
    TableResult,
    compute_standings,
)

DEFAULT_RATING = 1500.0
FORFEIT_TOTAL = 10**6  # a knockout forfeit always places last at its table


def list_upcoming_tournaments(limit: int | None = None) -> QuerySet[Tournament]:
    """Planned, waiting (for the organiser's decision) or running tournaments that start from
    today on, soonest first."""
    start_of_today = timezone.localtime().replace(hour=0, minute=0, second=0, microsecond=0)
    tournaments = (
        Tournament.objects.filter(
            status__in=[
                Tournament.Status.PLANNED,
                Tournament.Status.ON_HOLD,
                Tournament.Status.RUNNING,
            ],
            starts_at__gte=start_of_today,
        )
        .select_related("club")
        .order_by("starts_at", "name")
    )
    return tournaments[:limit] if limit is not None else tournaments


# --------------------------------------------------------------------------- permissions


def can_manage(user: Any, tournament: Tournament) -> bool:
    """Whether ``user`` runs this event: its club's owners and organisers, and site moderators
    (``accounts.permissions.may_manage_club``; ``is_staff`` gives nothing)."""
    return can_manage_club(user, tournament.club_id)


def can_manage_club(user: Any, club_id: int) -> bool:
    return permissions.may_manage_club(user, club_id)


def managed_clubs(user: Any) -> QuerySet[Club]:
    """The clubs whose events the user runs: their own as owner or organiser; every club for
    site moderators."""
    ids = permissions.managed_club_ids(user)
    return Club.objects.all() if ids is None else Club.objects.filter(pk__in=ids)


def managed_club_ids(user: Any) -> list[int]:
    """The ids of ``managed_clubs``."""
    return list(managed_clubs(user).values_list("pk", flat=True))


def managed_tournaments(user: Any) -> QuerySet[Tournament]:
    if permissions.managed_club_ids(user) is None:
        return Tournament.objects.all()
    return Tournament.objects.filter(club_id__in=managed_club_ids(user))


# --------------------------------------------------------------------------- players


def player_rating(user: Any) -> float:
    """The player's ladder rating (Elo scale) from the ratings app, else 1500.

    Read through ``ratings.selectors.rating_of`` when the ratings app provides it; the
    fallback keeps entries working while that app is absent or has no row for the player.
    """
    try:
        from ratings.selectors import rating_of
    except ImportError:
        return DEFAULT_RATING
    row = rating_of(user)
    return float(row.mu) if row is not None else DEFAULT_RATING


def entry_name(entry: Entry) -> str:
    profile = getattr(entry.user, "profile", None)
    if profile is not None and profile.display_name:
        return profile.display_name
    return entry.user.get_username()


# --------------------------------------------------------------------------- rounds


def current_round(tournament: Tournament) -> Round | None:
    """The first round that is not finished (the one the page counts down to)."""
    return (
        Round.objects.filter(tournament=tournament)
        .exclude(status=Round.Status.FINISHED)
        .order_by("number")
        .first()
    )


def seating_of(round_: Round) -> list[RoundTable]:
    return list(
        RoundTable.objects.filter(round=round_)
        .prefetch_related("seats__entry__user__profile")
        .select_related("game_table")
        .order_by("number")
    )


def stored_rounds(tournament: Tournament) -> list[tuple[int, list[list[int]], list[int]]]:
    """Every seated round as (number, tables of entry ids in seat order, byes)."""
    seats = (
        RoundSeat.objects.filter(round__tournament=tournament)
        .exclude(round__status=Round.Status.PENDING)
        .values_list("round__number", "table__number", "seat", "entry_id")
        .order_by("round__number", "table__number", "seat")
    )
    tables: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for round_number, table_number, _seat, entry_id in seats:
        tables[round_number][table_number].append(entry_id)
    byes: dict[int, list[int]] = defaultdict(list)
    for round_number, entry_id in RoundBye.objects.filter(round__tournament=tournament).values_list(
        "round__number", "entry_id"
    ):
        byes[round_number].append(entry_id)
    numbers = sorted(set(tables) | set(byes))
    return [
        (n, [tables[n][t] for t in sorted(tables[n])], sorted(byes.get(n, []))) for n in numbers
    ]


def latest_sheet(table: RoundTable) -> PhysicalResult | None:
    return PhysicalResult.objects.filter(table=table).order_by("-version").first()


def can_confirm_sheet(user: Any, sheet: PhysicalResult | None, tournament: Tournament) -> bool:
    """Whether the page offers ``user`` the Confirm button for ``sheet``: an unconfirmed latest
    version, and a second person (a tablemate or an organiser, never whoever entered it); once
    the event has closed only an organiser, who may confirm their own amendment. The service
    (``results.confirm_physical_result``) refuses the same cases."""
    if sheet is None or sheet.confirmed_at is not None or not user.is_authenticated:
        return False
    manager = can_manage(user, tournament)
    if tournament.status == Tournament.Status.FINISHED:
        return manager
    if user.pk == sheet.submitted_by_id:
        return False
    return manager or sheet.table.seats.filter(entry__user=user).exists()


def sheets_of(table: RoundTable) -> QuerySet[PhysicalResult]:
    return PhysicalResult.objects.filter(table=table).select_related("submitted_by", "confirmed_by")


def present_seats(table: RoundTable) -> set[int]:
    """Seats whose player showed: confirmed presence, or made a move of their own online."""
    shown = set(table.seats.filter(present=True).values_list("seat", flat=True))
    if table.game_table_id is not None:
        shown |= games_selectors.seats_with_own_moves(table.game_table_id)
    return shown


# --------------------------------------------------------------------------- standings


@dataclass(frozen=True)
class ComputedStanding:
    """One standings line computed from stored results (``percent`` only in duplicate)."""

    entry_id: int
    rank: int
    points: float
    penalty: float
    opponents_points: float
    table_wins: int
    rounds_played: int
    rounds_absent: int
    percent: float | None = None


def standings_config(tournament: Tournament) -> StandingsConfig:
    penalty: float | str = tournament.missed_round_penalty
    with contextlib.suppress(ValueError):
        penalty = float(penalty)
    points_by_size = dict(StandingsConfig().points_by_size)
    for size, scale in (tournament.placement_points or {}).items():
        points_by_size[int(size)] = tuple(float(p) for p in scale)
    return StandingsConfig(
        points_by_size=points_by_size,
        missed_round=AbsentScore(points=tournament.missed_round_points, penalty=penalty),
    )


def _finished_tables(tournament: Tournament) -> list[tuple[int, int, list[tuple[int, int, Any]]]]:
    """(round, table, [(seat, player id, total)]) of every finished table; forfeited seats
    carry a phantom id (negative) so the others keep their places as played."""
    rows = (
        RoundSeat.objects.filter(
            round__tournament=tournament, table__status=RoundTable.Status.FINISHED
        )
        .values_list("round__number", "table__number", "seat", "entry_id", "total", "forfeit", "pk")
        .order_by("round__number", "table__number", "seat")
    )
    grouped: dict[tuple[int, int], list[tuple[int, int, Any]]] = defaultdict(list)
    for round_number, table_number, seat, entry_id, total, forfeit, pk in rows:
        if total is None:
            continue
        player = -pk if forfeit else entry_id
        grouped[(round_number, table_number)].append((seat, player, total))
    return [(r, t, seats) for (r, t), seats in sorted(grouped.items())]


def compute_tournament_standings(tournament: Tournament) -> list[ComputedStanding]:
    """Standings from the stored table results alone: same results, same standings."""
    finished = _finished_tables(tournament)
    results = [
        TableResult(round=r, table=t, penalties={player: total for _s, player, total in seats})
        for r, t, seats in finished
    ]
    # Everyone who was seated or had a bye at least once; late entrants join when first seated.
    entries = sorted(
        set(
            RoundSeat.objects.filter(round__tournament=tournament).values_list(
                "entry_id", flat=True
            )
        )
        | set(
            RoundBye.objects.filter(round__tournament=tournament).values_list("entry_id", flat=True)
        )
    )
    byes: dict[int, list[int]] = defaultdict(list)
    for number, entry_id in RoundBye.objects.filter(round__tournament=tournament).values_list(
        "round__number", "entry_id"
    ):
        byes[number].append(entry_id)
    rounds_done = (
        Round.objects.filter(tournament=tournament, status=Round.Status.FINISHED)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
        or 0
    )
    rows = compute_standings(
        results,
        tournament.tiebreaks or DEFAULT_TIEBREAKS,
        players=entries,
        rounds=rounds_done,
        byes=byes,
        config=standings_config(tournament),
    )
    real = [row for row in rows if not (isinstance(row.player, int) and row.player < 0)]
    percent: dict[int, float] = {}
    if tournament.format == Tournament.Format.DUPLICATE:
        percent = _duplicate_percentages(finished)
        ordered = sorted(real, key=lambda row: (-round(percent.get(row.player, 0.0), 9), row.rank))
        return _ranked(
            ordered, lambda row: (round(percent.get(row.player, 0.0), 9), row.rank), percent
        )
    if tournament.format == Tournament.Format.KNOCKOUT:
        order = _knockout_order(tournament)
        if order:
            ordered = sorted(real, key=lambda row: order.get(row.player, (1, 0, 0.0, 0)))
            return _ranked(ordered, lambda row: order.get(row.player, row.player), percent)
    return _ranked(real, lambda row: row.rank, percent)


def _knockout_order(tournament: Tournament) -> dict[int, tuple]:
    """A knockout's ranking comes from its bracket: who got further ranks higher; in the same
    round by place at the table, then penalty, then seed (the bracket's own order), so the
    champion is first and the final table follows in its order. Rounds still open rank their
    players by seed (provisional)."""
    bracket = knockout_bracket(tournament)
    if bracket is None:
        return {}
    order: dict[int, tuple] = {}
    for round_ in bracket.rounds:
        for table in round_.tables:
            for seat in table.seats:
                if seat.player is None:
                    continue
                order[seat.player] = (
                    -round_.number,
                    seat.place if seat.place is not None else 0,
                    seat.penalty if seat.place is not None else 0.0,
                    seat.seed,
                )
    return order


def _ranked(rows: list[StandingRow], key, percent: dict[int, float]) -> list[ComputedStanding]:
    """Renumber after phantoms are dropped: equal keys share the rank (1, 2, 2, 4)."""
    out: list[ComputedStanding] = []
    previous = object()
    rank = 0
    for position, row in enumerate(rows, start=1):
        current = key(row)
        if current != previous:
            rank = position
            previous = current
        out.append(
            ComputedStanding(
                entry_id=row.player,
                rank=rank,
                points=row.points,
                penalty=row.penalty,
                opponents_points=row.opponents_points,
                table_wins=row.table_wins,
                rounds_played=row.rounds_played,
                rounds_absent=row.rounds_absent,
                percent=percent.get(row.player) if percent else None,
            )
        )
    return out


def _duplicate_percentages(
    finished: list[tuple[int, int, list[tuple[int, int, Any]]]],
) -> dict[int, float]:
    by_round: dict[int, list[duplicate_algorithms.DuplicateTable]] = defaultdict(list)
    for round_number, _table, seats in finished:
        by_round[round_number].append(
            duplicate_algorithms.DuplicateTable(
                players=[player for _s, player, _t in seats],
                penalties=[total for _s, _p, total in seats],
            )
        )
    scores = [duplicate_algorithms.matchpoints(tables) for tables in by_round.values()]
    totals = duplicate_algorithms.duplicate_totals(scores)
    return {p: v for p, v in totals.items() if not (isinstance(p, int) and p < 0)}


def standings_rows(tournament: Tournament) -> QuerySet[Standing]:
    return Standing.objects.filter(tournament=tournament).select_related("entry__user__profile")


STANDINGS_CACHE_SECONDS = 60


def standings_payload(tournament: Tournament) -> dict[str, Any]:
    """The standings as the live page's JSON (pushed over the websocket after a recompute);
    ``provisional`` marks players whose table is still playing the current round.

    The rows change only with a recompute, which bumps ``standings_version``: they are kept
    in the cache under that version (a 1,000-entrant event's rows take ~0.1 s to build, and
    every reader of the page and the API asks for them). ``provisional`` changes when a round
    starts, without a recompute, so it is read for every call (one query). A display name
    changed since shows after at most ``STANDINGS_CACHE_SECONDS``.
    """
    from django.core.cache import cache

    # The creation time tells this event from another database's event with the same id
    # (test runs and staging share a Redis).
    created = tournament.created.timestamp() if tournament.created else 0
    key = f"tournaments:standings:{tournament.pk}:{created}:{tournament.standings_version}"
    rows = cache.get(key)
    if rows is None:
        rows = [
            {
                "rank": row.rank,
                "entry_id": row.entry_id,
                "name": entry_name(row.entry),
                "points": round(row.points, 2),
                "penalty": round(row.penalty, 2),
                "opponents_points": round(row.opponents_points, 2),
                "table_wins": row.table_wins,
                "percent": None if row.percent is None else round(row.percent, 1),
            }
            for row in standings_rows(tournament)
        ]
        cache.set(key, rows, STANDINGS_CACHE_SECONDS)
    provisional = provisional_entry_ids(tournament)
    return {
        "version": tournament.standings_version,
        "rows": [
            {
                **{name: value for name, value in row.items() if name != "entry_id"},
                "provisional": row["entry_id"] in provisional,
            }
            for row in rows
        ],
    }


# --------------------------------------------------------------------------- knockout


def knockout_bracket(tournament: Tournament) -> knockout.Bracket | None:
    seeds = list(
        Entry.objects.filter(tournament=tournament, seed_number__isnull=False)
        .order_by("seed_number")
        .values_list("pk", flat=True)
    )
    if len(seeds) < knockout.MIN_PLAYERS:
        return None
    return knockout.build_bracket(seeds, knockout_results(tournament), knockout_config(tournament))


def knockout_config(tournament: Tournament) -> knockout.KnockoutConfig:
    return knockout.KnockoutConfig(
        table_size=tournament.table_size,
        allowed=tournament.allowed_sizes,
        advance=tournament.knockout_advance,
    )


def knockout_results(tournament: Tournament) -> list[dict[int, float]]:
    """Per round, each seated entrant's total (forfeits last); stops at the first open round.

    A seeded player who withdrew and so has no seat in a round counts as a forfeit there (the
    bracket still holds their place; they can only go out)."""
    withdrawn = set(
        Entry.objects.filter(
            tournament=tournament, status=Entry.Status.WITHDRAWN, seed_number__isnull=False
        ).values_list("pk", flat=True)
    )
    results: list[dict[int, float]] = []
    for round_ in Round.objects.filter(tournament=tournament).order_by("number"):
        seats = list(
            RoundSeat.objects.filter(
                round=round_, table__status=RoundTable.Status.FINISHED
            ).values_list("entry_id", "total", "forfeit")
        )
        if not seats:
            break
        totals = {entry: (FORFEIT_TOTAL if forfeit else total) for entry, total, forfeit in seats}
        seated = set(RoundSeat.objects.filter(round=round_).values_list("entry_id", flat=True))
        for entry in withdrawn - seated:
            totals[entry] = FORFEIT_TOTAL
        results.append(totals)
    return results


# --------------------------------------------------------------------------- pages


def notices_for(user: Any, tournament: Tournament, limit: int = 10) -> list:
    """The person's newest notifications about this event (its page's side list)."""
    return notifications_selectors.recent_notifications(user, tournament.pk, limit)


def audit_of(tournament: Tournament, limit: int = 50) -> QuerySet[AuditLog]:
    return AuditLog.objects.filter(tournament=tournament).select_related("actor")[:limit]


def in_zone(moment: dt.datetime | None, zone: str) -> dt.datetime | None:
    if moment is None:
        return None
    try:
        return moment.astimezone(zoneinfo.ZoneInfo(zone))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return moment


def event_time_text(moment: dt.datetime | None, zone: str) -> str:
    """A moment as people read it in ``zone`` (the zone is named next to it by the caller):
    the date in the active language's format and the 24-hour time."""
    local = in_zone(moment, zone)
    if local is None:
        return ""
    return f"{formats.date_format(local, 'DATE_FORMAT')} {local:%H:%M}"


def uses_check_in(tournament: Tournament) -> bool:
    """Check-in is in use once it has a window or has been opened or closed by hand."""
    return (
        tournament.check_in_opens_at is not None
        or tournament.check_in != Tournament.Window.NOT_OPEN
    )


def registration_refusal(tournament: Tournament) -> str | None:
    """Why nobody new can register now (a sentence for people), or None when registration is
    open to newcomers. The page shows "Register" only then; ``register_entry`` refuses with
    the same sentence. After check-in has closed an entry could never be seated, so it is
    refused (late entry, where the event allows it, starts with the next round instead)."""
    from django.utils.translation import gettext as _

    if tournament.registration != Tournament.Window.OPEN:
        return _("Registration is not open.")
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        return _("This event is over.")
    started = Round.objects.filter(tournament=tournament).exclude(status=Round.Status.PENDING)
    if started.exists():
        next_round = (
            Round.objects.filter(tournament=tournament, status=Round.Status.PENDING)
            .order_by("number")
            .values_list("number", flat=True)
            .first()
        )
        if next_round is None or next_round > tournament.late_entry_until_round:
            return _("Late entry has closed.")
        if tournament.format in (Tournament.Format.KNOCKOUT, Tournament.Format.FIXED):
            return _("This format takes no late entries.")
        return None
    if uses_check_in(tournament) and tournament.check_in == Tournament.Window.CLOSED:
        return _(
            "Check-in has closed, so a new entry could not play in this event. "
            "Please ask the organisers."
        )
    return None


def entry_refusal(tournament: Tournament, user: Any) -> str | None:
    """Why ``user`` may not be entered in ``tournament`` (a sentence for people), or None.

    The event's conditions on the person, the same whoever makes the entry (the player, or an
    organiser for them): bot accounts only where the event takes them, a confirmed e-mail
    address (``accounts.verification``), club members only for a members-only event, the
    rating band."""
    from django.utils.translation import gettext as _

    from rosbi_platform.accounts.models import ClubMembership
    from rosbi_platform.accounts.selectors import is_bot_account
    from rosbi_platform.accounts.verification import email_verification_refusal

    if not tournament.allow_bots and is_bot_account(user):
        return _("This event does not take bot accounts.")
    unverified = email_verification_refusal(user)
    if unverified is not None:
        return unverified
    if (
        tournament.members_only
        and not ClubMembership.objects.filter(club_id=tournament.club_id, user=user).exists()
    ):
        return _("This event is for club members only.")
    rating = player_rating(user)
    if tournament.min_rating is not None and rating < tournament.min_rating:
        return _("Your rating %(rating)s is below %(minimum)s.") % {
            "rating": f"{rating:.0f}",
            "minimum": tournament.min_rating,
        }
    if tournament.max_rating is not None and rating > tournament.max_rating:
        return _("Your rating %(rating)s is above %(maximum)s.") % {
            "rating": f"{rating:.0f}",
            "maximum": tournament.max_rating,
        }
    return None


def unconfirmed_players(outcome: Any) -> set[int]:
    """The players of a finished tournament Partie whose entry waits for their confirmation:
    the ladder does not rate them (``ratings.recording.add_unrated_rule``)."""
    round_id = getattr(outcome, "tournament_round_id", None)
    if round_id is None:
        return set()
    players = {seat.user_id for seat in outcome.seats if seat.user_id is not None}
    return set(
        Entry.objects.filter(
            tournament__round_set__pk=round_id, user_id__in=players, confirmed=False
        ).values_list("user_id", flat=True)
    )


def hold_reason_text(tournament: Tournament) -> str:
    """Why the event waits for its organiser, in the active language where it is one of the
    scheduler's own reasons (otherwise as stored)."""
    from django.utils.translation import gettext as _

    details = tournament.hold_details or {}
    if details.get("code") == "too_few":
        return _("Only %(ready)s players are ready to play; at least %(minimum)s are needed.") % {
            "ready": details.get("ready"),
            "minimum": details.get("minimum"),
        }
    return tournament.hold_reason


def provisional_entry_ids(tournament: Tournament) -> set[int]:
    """Players whose table in the round being played has not finished: their standings line
    does not count that round yet, so its rank is provisional."""
    return set(
        RoundSeat.objects.filter(round__tournament=tournament, round__status=Round.Status.STARTED)
        .exclude(table__status=RoundTable.Status.FINISHED)
        .values_list("entry_id", flat=True)
    )


def entry_of(tournament: Tournament, user: Any) -> Entry | None:
    if user is None or not user.is_authenticated:
        return None
    return Entry.objects.filter(tournament=tournament, user=user).first()


def result_rows(tournament: Tournament) -> list[tuple[int, int, int, str, int | None, bool]]:
    """(round, table, seat, player, total, forfeit) of every seat, for exports."""
    seats = (
        RoundSeat.objects.filter(round__tournament=tournament)
        .select_related("round", "table", "entry__user__profile")
        .order_by("round__number", "table__number", "seat")
    )
    return [
        (s.round.number, s.table.number, s.seat, entry_name(s.entry), s.total, s.forfeit)
        for s in seats
    ]


# --------------------------------------------------------------------------- series and calendars

RECENT_DAYS = 30


def series_of_club(club: Club) -> QuerySet[Series]:
    return Series.objects.filter(club=club).order_by("name")


def public_series(club_slug: str | None = None) -> QuerySet[Series]:
    """Every club's series (what the API lists), one club's when ``club_slug`` is given."""
    series = Series.objects.select_related("club").prefetch_related("skips").order_by("pk")
    return series.filter(club__slug=club_slug) if club_slug else series


def active_series_ids() -> list[int]:
    return list(Series.objects.filter(active=True).order_by("pk").values_list("pk", flat=True))


def upcoming_series_events(series: Series) -> QuerySet[Tournament]:
    """The series' events from today on (cancelled ones too, marked so on the page)."""
    start_of_today = timezone.now() - dt.timedelta(hours=12)
    return Tournament.objects.filter(series=series, starts_at__gte=start_of_today).order_by(
        "starts_at"
    )


def club_calendar_events(club: Club) -> QuerySet[Tournament]:
    """The club feed: its events of the last 30 days and every later one."""
    since = timezone.now() - dt.timedelta(days=RECENT_DAYS)
    return Tournament.objects.filter(club=club, starts_at__gte=since).order_by("starts_at")


def player_calendar_events(user: Any) -> QuerySet[Tournament]:
    """The player feed: every event the player entered and has not withdrawn from."""
    return (
        Tournament.objects.filter(
            entries__user=user,
            entries__status__in=[Entry.Status.REGISTERED, Entry.Status.CHECKED_IN],
        )
        .distinct()
        .order_by("starts_at")
    )


def calendar_owner(token: str) -> Any | None:
    """The user whose feed ``token`` opens (None for an unknown or revoked token)."""
    found = CalendarToken.objects.filter(token=token).select_related("user").first()
    return found.user if found else None


# --------------------------------------------------------------------------- organiser's workspace


def users_named(name: str, limit: int = 5) -> list[Any]:
    """Accounts whose user name or display name is ``name`` (case does not matter): exact
    matches only, so "Anna" never picks "Annabel"; more than one means the name is ambiguous."""
    from django.contrib.auth import get_user_model
    from django.db.models import Q

    name = name.strip()
    if not name:
        return []
    users = get_user_model().objects.filter(
        Q(username__iexact=name) | Q(profile__display_name__iexact=name), is_active=True
    )
    return list(users.select_related("profile").order_by("pk").distinct()[:limit])


def workspace_entries(tournament: Tournament) -> QuerySet[Entry]:
    """The entries the workspace lists: active ones first, then by registration."""
    return (
        Entry.objects.filter(tournament=tournament)
        .select_related("user__profile")
        .order_by("status", "registered_at", "pk")
    )


def announcements_of(tournament: Tournament, limit: int = 20) -> QuerySet[Any]:
    return tournament.announcements.select_related("author__profile").order_by("-created", "-pk")[
        :limit
    ]


def organised_events(user: Any) -> QuerySet[Tournament]:
    """The events ``user`` organises, the latest start first (upcoming ones on top)."""
    return managed_tournaments(user).select_related("club").order_by("-starts_at")


def next_action(tournament: Tournament) -> str:
    """What the organiser does next, as a code the workspace words (``workspace_views``)."""
    if tournament.status == Tournament.Status.CANCELLED:
        return "cancelled"
    if tournament.status == Tournament.Status.FINISHED:
        return "finished"
    if tournament.status == Tournament.Status.ON_HOLD:
        return "decide"
    if tournament.paused_at is not None:
        return "resume"
    round_ = current_round(tournament)
    if tournament.status == Tournament.Status.PLANNED:
        if tournament.registration == Tournament.Window.NOT_OPEN:
            return "open_registration"
        if uses_check_in(tournament) and tournament.check_in == Tournament.Window.NOT_OPEN:
            return "open_check_in"
    if round_ is None:
        return "finished"
    if round_.status == Round.Status.PENDING:
        return "seat_round"
    if round_.status == Round.Status.SEATED:
        return "start_round"
    return "wait_for_tables"


def results_by_round(tournament: Tournament) -> list[tuple[Round, list[RoundTable]]]:
    """Every seated round with its tables and seats (totals where known), for the workspace's
    results and amendments."""
    rounds = Round.objects.filter(tournament=tournament).exclude(status=Round.Status.PENDING)
    return [(r, seating_of(r)) for r in rounds.order_by("number")]


def deal_penalties(
    tournament: Tournament,
) -> list[tuple[int, int, list[str], list[list[int]], str]]:
    """(round, table, names by seat, penalties [deal][seat], source) of every table whose deals
    are known: online once its Partie has finished, physical from its latest confirmed sheet."""
    rows = []
    tables = (
        RoundTable.objects.filter(round__tournament=tournament)
        .select_related("round", "game_table__partie")
        .prefetch_related("seats__entry__user__profile")
        .order_by("round__number", "number")
    )
    for table in tables:
        names = [entry_name(seat.entry) for seat in sorted(table.seats.all(), key=lambda s: s.seat)]
        if table.game_table_id is not None:
            partie = getattr(table.game_table, "partie", None)
            if partie is None or partie.finished_at is None:
                continue
            rows.append(
                (
                    table.round.number,
                    table.number,
                    names,
                    games_selectors.partie_penalties(partie),
                    "online",
                )
            )
        elif table.physical:
            sheet = (
                PhysicalResult.objects.filter(table=table, confirmed_at__isnull=False)
                .order_by("-version")
                .first()
            )
            if sheet is not None:
                rows.append(
                    (
                        table.round.number,
                        table.number,
                        names,
                        sheet.penalties,
                        f"sheet v{sheet.version}",
                    )
                )
    return rows


# Literal first path segments under /tournaments/: an event's slug never takes one of them.
RESERVED_SLUGS = frozenset({"organise", "clubs", "series", "calendar", "tables", "sheets"})


def free_slug(name: str) -> str:
    """A slug for a new event from its name, unused and never a reserved path segment."""
    from django.utils.text import slugify

    base = (slugify(name) or "event")[:100]
    if base in RESERVED_SLUGS:
        base = f"{base}-event"
    taken = set(Tournament.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    slug, number = base, 2
    while slug in taken:
        slug, number = f"{base}-{number}", number + 1
    return slug
