"""Every write of the tournaments app: entries, seating, starting rounds, results, standings.

Views, admin actions, Celery tasks and the ``partie_finished`` receiver all call these
functions. Each automatic step is a status transition taken inside a transaction that holds a
row lock (``SELECT ... FOR UPDATE`` on PostgreSQL; on SQLite the transaction takes the database
write lock first), so a retried task or a second worker finds the work done and does nothing.
Constraints back this up: one seat per entrant per round, one table number per round.
Follow-up work (standings, the next step, e-mails, websocket pushes) is queued with
``transaction.on_commit`` so it only ever sees committed state.
"""

from __future__ import annotations

import datetime as dt
import functools
import logging
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any, TypeVar

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Model
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.broadcast import send_to_group
from games.outcomes import PartieOutcome
from rosbi_platform.accounts.models import ClubMembership
from rosbi_platform.locking import retry_on_conflict, with_row_lock
from tournaments import duplicate as duplicate_algorithms
from tournaments import knockout, schedule, seating, selectors, sheets
from tournaments.models import (
    AuditLog,
    Entry,
    Notice,
    PhysicalResult,
    Round,
    RoundBye,
    RoundSeat,
    RoundTable,
    Standing,
    Tournament,
)
from tournaments.sheets import SheetProblem, sheet_errors

logger = logging.getLogger(__name__)
T = TypeVar("T")


class TournamentError(Exception):
    """A refused action, with a sentence for people."""


# --------------------------------------------------------------------------- infrastructure


def _locked(model: type[Model], pk: int, work: Callable[[Any], T]) -> T:
    """Run ``work(row)`` in a transaction holding ``row``'s lock (``rosbi_platform.locking``)."""
    return with_row_lock(model, work, pk=pk)


def retry_when_busy(function: Callable[..., T]) -> Callable[..., T]:
    """Run an idempotent service again when SQLite reports a lock outside ``_locked``.

    SQLite's shared-cache databases (the test database) answer "table is locked" at once where
    PostgreSQL would wait; the services are idempotent, so the whole call is simply repeated.
    """

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> T:
        return retry_on_conflict(lambda: function(*args, **kwargs))

    return wrapper


def _log(tournament: Tournament, actor: Any, action: str, **details: Any) -> None:
    AuditLog.objects.create(
        tournament=tournament,
        actor=actor if actor is not None and actor.is_authenticated else None,
        action=action,
        details=details,
    )


def _require_manager(user: Any, tournament: Tournament) -> None:
    if user is not None and not selectors.can_manage(user, tournament):
        raise TournamentError(_("Only the club's organisers can do this."))


def _after_commit(task_name: str, *args: Any) -> None:
    """Queue a task of ``tournaments.tasks`` once the transaction has committed."""

    def send() -> None:
        from tournaments import tasks

        getattr(tasks, task_name).delay(*args)

    transaction.on_commit(send)


def _push(tournament_id: int, message: dict[str, Any]) -> None:
    """Publish to the live page's group after commit; a lost push is healed by a reload.

    Uses the games app's one-loop publisher: ``async_to_sync`` per push from Celery workers
    would open a new event loop and Redis connection every time.
    """
    transaction.on_commit(partial(send_to_group, f"tournament.{tournament_id}", message))


# --------------------------------------------------------------------------- set-up


def create_tournament(
    *,
    club: Any,
    by: Any,
    name: str,
    slug: str,
    starts_at: dt.datetime,
    rounds: int = 3,
    round_times: Iterable[dt.datetime] = (),
    **fields: Any,
) -> Tournament:
    """A new event with its rounds; ``round_times`` fixes each round's start (fixed times)."""
    if by is not None and not selectors.can_manage_club(by, club.pk):
        raise TournamentError(_("Only the club's organisers can announce its events."))
    tournament = Tournament(
        club=club, name=name, slug=slug, starts_at=starts_at, rounds=rounds, **fields
    )
    if tournament.mode == Tournament.Mode.HYBRID and tournament.format in (
        Tournament.Format.KNOCKOUT,
        Tournament.Format.FIXED,
    ):
        raise TournamentError(_("Hybrid events use Swiss or duplicate seating."))
    tournament.full_clean(exclude=["seed"])
    times = list(round_times)
    with transaction.atomic():
        tournament.save()
        _create_rounds(tournament, 1, rounds, times)
        _log(tournament, by, "create_tournament", format=tournament.format, rounds=rounds)
    return tournament


def _create_rounds(
    tournament: Tournament, first: int, last: int, times: list[dt.datetime] | None = None
) -> None:
    times = times or []
    interval = dt.timedelta(minutes=tournament.round_interval_minutes)
    rows = []
    for number in range(first, last + 1):
        if number - 1 < len(times):
            when = times[number - 1]
        elif number == 1:
            when = tournament.starts_at
        elif tournament.scheduling == Tournament.Scheduling.FIXED_TIMES:
            when = tournament.starts_at + (number - 1) * interval
        else:
            when = None  # interval scheduling: set when the previous round finishes
        rows.append(Round(tournament=tournament, number=number, scheduled_at=when))
    Round.objects.bulk_create(rows, ignore_conflicts=True)


def _set_window(tournament_id: int, field: str, state: str, by: Any) -> bool:
    def work(tournament: Tournament) -> bool:
        _require_manager(by, tournament)
        if getattr(tournament, field) == state:
            return False
        setattr(tournament, field, state)
        tournament.save(update_fields=[field])
        _log(tournament, by, f"{field}_{state}")
        _push(tournament.pk, {"type": "tournament.changed"})
        return True

    return _locked(Tournament, tournament_id, work)


def open_registration(tournament_id: int, by: Any = None) -> bool:
    return _set_window(tournament_id, "registration", Tournament.Window.OPEN, by)


def close_registration(tournament_id: int, by: Any = None) -> bool:
    return _set_window(tournament_id, "registration", Tournament.Window.CLOSED, by)


def open_check_in(tournament_id: int, by: Any = None) -> bool:
    return _set_window(tournament_id, "check_in", Tournament.Window.OPEN, by)


def close_check_in(tournament_id: int, by: Any = None) -> bool:
    return _set_window(tournament_id, "check_in", Tournament.Window.CLOSED, by)


# --------------------------------------------------------------------------- entries


def _next_unseated_round(tournament: Tournament) -> int | None:
    return (
        Round.objects.filter(tournament=tournament, status=Round.Status.PENDING)
        .order_by("number")
        .values_list("number", flat=True)
        .first()
    )


def register_entry(tournament_id: int, user: Any, *, plays_online: bool = True) -> Entry:
    """Enter ``user``: registration open, entry conditions met, capacity left; late entries
    (after round 1 was seated) until ``late_entry_until_round`` and they count as checked in."""

    def work(tournament: Tournament) -> Entry:
        if tournament.registration != Tournament.Window.OPEN:
            raise TournamentError(_("Registration is not open."))
        if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            raise TournamentError(_("This event is over."))
        started = Round.objects.filter(tournament=tournament).exclude(status=Round.Status.PENDING)
        first_round = 1
        late = started.exists()
        if late:
            next_round = _next_unseated_round(tournament)
            if next_round is None or next_round > tournament.late_entry_until_round:
                raise TournamentError(_("Late entry has closed."))
            if tournament.format in (Tournament.Format.KNOCKOUT, Tournament.Format.FIXED):
                raise TournamentError(_("This format takes no late entries."))
            first_round = next_round
        if (
            tournament.members_only
            and not ClubMembership.objects.filter(club_id=tournament.club_id, user=user).exists()
        ):
            raise TournamentError(_("This event is for club members only."))
        rating = selectors.player_rating(user)
        if tournament.min_rating is not None and rating < tournament.min_rating:
            raise TournamentError(
                _("Your rating %(rating)s is below %(minimum)s.")
                % {"rating": f"{rating:.0f}", "minimum": tournament.min_rating}
            )
        if tournament.max_rating is not None and rating > tournament.max_rating:
            raise TournamentError(
                _("Your rating %(rating)s is above %(maximum)s.")
                % {"rating": f"{rating:.0f}", "maximum": tournament.max_rating}
            )
        if tournament.mode == Tournament.Mode.ONLINE:
            online = True
        elif tournament.mode == Tournament.Mode.PHYSICAL:
            online = False
        else:
            online = plays_online
        entry = Entry.objects.filter(tournament=tournament, user=user).first()
        if entry is not None and entry.status != Entry.Status.WITHDRAWN:
            raise TournamentError(_("You are already registered."))
        active = (
            Entry.objects.filter(tournament=tournament)
            .exclude(status=Entry.Status.WITHDRAWN)
            .count()
        )
        if tournament.capacity is not None and active >= tournament.capacity:
            raise TournamentError(_("The event is full."))
        status = Entry.Status.CHECKED_IN if late else Entry.Status.REGISTERED
        now = timezone.now()
        if entry is None:
            entry = Entry.objects.create(
                tournament=tournament,
                user=user,
                status=status,
                plays_online=online,
                rating=rating,
                first_round=first_round,
                checked_in_at=now if late else None,
            )
        else:
            entry.status, entry.plays_online, entry.rating = status, online, rating
            entry.first_round, entry.withdrawn_at = first_round, None
            entry.checked_in_at = now if late else None
            entry.save()
        _log(tournament, user, "register_entry", entry=entry.pk, late=late)
        _push(tournament.pk, {"type": "tournament.changed"})
        return entry

    return _locked(Tournament, tournament_id, work)


def check_in(tournament_id: int, user: Any) -> Entry:
    """Confirm that a registered player will play; only while check-in is open."""

    def work(tournament: Tournament) -> Entry:
        if tournament.check_in != Tournament.Window.OPEN:
            raise TournamentError(_("Check-in is not open."))
        entry = Entry.objects.filter(tournament=tournament, user=user).first()
        if entry is None or entry.status == Entry.Status.WITHDRAWN:
            raise TournamentError(_("You are not registered."))
        if entry.status == Entry.Status.CHECKED_IN:
            return entry
        entry.status = Entry.Status.CHECKED_IN
        entry.checked_in_at = timezone.now()
        entry.save(update_fields=["status", "checked_in_at"])
        _push(tournament.pk, {"type": "tournament.changed"})
        return entry

    return _locked(Tournament, tournament_id, work)


def withdraw_entry(tournament_id: int, user: Any, by: Any = None) -> Entry:
    """Withdraw (the player, or an organiser for them); a seated, unreleased round is re-seated."""

    def work(tournament: Tournament) -> Entry:
        if by is not None and by != user:
            _require_manager(by, tournament)
        entry = Entry.objects.filter(tournament=tournament, user=user).first()
        if entry is None:
            raise TournamentError(_("There is no such entry."))
        if entry.status == Entry.Status.WITHDRAWN:
            return entry
        entry.status = Entry.Status.WITHDRAWN
        entry.withdrawn_at = timezone.now()
        entry.save(update_fields=["status", "withdrawn_at"])
        _log(tournament, by or user, "withdraw_entry", entry=entry.pk)
        seated = Round.objects.filter(
            tournament=tournament, status=Round.Status.SEATED, seats__entry=entry
        ).first()
        if seated is not None:
            _reseat_locked(seated, tournament)
        _push(tournament.pk, {"type": "tournament.changed"})
        return entry

    return _locked(Tournament, tournament_id, work)


def confirm_presence(round_table_id: int, user: Any) -> bool:
    """ "I am at my table": a seated player shows up (no-show handling leaves them alone)."""
    updated = RoundSeat.objects.filter(table_id=round_table_id, entry__user=user).update(
        present=True
    )
    return bool(updated)


# --------------------------------------------------------------------------- seating


def _eligible_entries(tournament: Tournament, round_number: int) -> list[Entry]:
    """Who plays this round: active entrants whose first round has come; with check-in in use
    (a window or a state other than not-open) only the checked-in ones."""
    uses_check_in = (
        tournament.check_in_opens_at is not None
        or tournament.check_in != Tournament.Window.NOT_OPEN
    )
    statuses = (
        [Entry.Status.CHECKED_IN]
        if uses_check_in
        else [
            Entry.Status.REGISTERED,
            Entry.Status.CHECKED_IN,
        ]
    )
    return list(
        Entry.objects.filter(
            tournament=tournament, status__in=statuses, first_round__lte=round_number
        )
        .select_related("user")
        .order_by("pk")
    )


def _club_of(entry: Entry) -> str | None:
    club_id = (
        ClubMembership.objects.filter(user_id=entry.user_id)
        .order_by("club_id")
        .values_list("club_id", flat=True)
        .first()
    )
    return None if club_id is None else str(club_id)


def _points_so_far(tournament: Tournament) -> dict[int, float]:
    return {row.entry_id: row.points for row in selectors.compute_tournament_standings(tournament)}


def _swiss_tables(
    tournament: Tournament, round_number: int, entries: list[Entry]
) -> tuple[list[list[int]], list[int]]:
    """Swiss (and duplicate) seating of one pool of entrants."""
    if not entries:
        return [], []
    points = _points_so_far(tournament) if round_number > 1 else {}
    entrants = [
        seating.Entrant(
            id=e.pk,
            score=points.get(e.pk, 0.0),
            rating=e.rating,
            club=_club_of(e) if tournament.avoid_same_club else None,
        )
        for e in entries
    ]
    history = seating.SeatingHistory.from_rounds(
        [tables for _n, tables, _b in selectors.stored_rounds(tournament)],
        [byes for _n, _t, byes in selectors.stored_rounds(tournament)],
    )
    options = seating.SeatingOptions(
        preferred=tournament.table_size,
        allowed=tournament.allowed_sizes,
        seed=tournament.seed,
        first_round=tournament.first_round,
        avoid_same_club=tournament.avoid_same_club,
    )
    result = seating.seat_round(entrants, round_number, history, options)
    return [list(t) for t in result.tables], list(result.byes)


def _knockout_tables(
    tournament: Tournament, round_number: int, entries: list[Entry]
) -> tuple[list[list[int]], list[int]]:
    if round_number == 1:
        lot = seating._rng(tournament.seed, 0, "knockout-seeds")
        keys = {e.pk: lot.random() for e in entries}
        if tournament.first_round == Tournament.FirstRound.RATING:
            ordered = sorted(entries, key=lambda e: (-e.rating, keys[e.pk]))
        else:
            ordered = sorted(entries, key=lambda e: keys[e.pk])
        for number, entry in enumerate(ordered, start=1):
            Entry.objects.filter(pk=entry.pk).update(seed_number=number)
        plan = knockout.plan_rounds(len(ordered), selectors.knockout_config(tournament))
        if len(plan) != tournament.rounds:
            Round.objects.filter(tournament=tournament, number__gt=len(plan)).delete()
            _create_rounds(tournament, tournament.rounds + 1, len(plan))
            tournament.rounds = len(plan)
            tournament.save(update_fields=["rounds"])
    bracket = selectors.knockout_bracket(tournament)
    if bracket is None or round_number > len(bracket.rounds):
        raise TournamentError(_("The knockout has no such round."))
    tables = [
        [seat.player for seat in table.seats] for table in bracket.rounds[round_number - 1].tables
    ]
    if any(player is None for table in tables for player in table):
        raise TournamentError(_("The previous knockout round is not finished."))
    return tables, []


def _fixed_tables(
    tournament: Tournament, round_number: int, entries: list[Entry]
) -> tuple[list[list[int]], list[int]]:
    """The schedule is built once from the round-1 field (seated and byes) and replayed."""
    if round_number == 1:
        field = [e.pk for e in entries]
    else:
        first = selectors.stored_rounds(tournament)[0]
        field = sorted({p for t in first[1] for p in t} | set(first[2]))
    plan = schedule.fixed_schedule(
        len(field),
        tournament.table_size,
        tournament.rounds,
        seed=tournament.seed,
        allowed=tournament.allowed_sizes,
    )
    active = {e.pk for e in entries}
    tables: list[list[int]] = []
    byes = [field[i] for i in plan.byes[round_number - 1] if field[i] in active]
    for table in plan.rounds[round_number - 1]:
        players = [field[i] for i in table if field[i] in active]
        if len(players) >= 3:
            tables.append(players)
        else:
            byes.extend(players)  # withdrawals left too few for a Partie
    return tables, byes


def _seating_for(
    tournament: Tournament, round_: Round
) -> tuple[list[tuple[list[int], bool]], list[int]]:
    """Tables (entry ids in seat order, physical or not) and byes of one round."""
    entries = _eligible_entries(tournament, round_.number)
    if tournament.format == Tournament.Format.KNOCKOUT:
        tables, byes = _knockout_tables(tournament, round_.number, entries)
        pools = [(tables, tournament.mode == Tournament.Mode.PHYSICAL)]
    elif tournament.format == Tournament.Format.FIXED:
        tables, byes = _fixed_tables(tournament, round_.number, entries)
        pools = [(tables, tournament.mode == Tournament.Mode.PHYSICAL)]
    else:
        online = [e for e in entries if e.plays_online]
        offline = [e for e in entries if not e.plays_online]
        if len(online) + len(offline) < 3:
            raise TournamentError(_("At least three players are needed to seat a round."))
        online_tables, online_byes = _swiss_tables(tournament, round_.number, online)
        offline_tables, offline_byes = _swiss_tables(tournament, round_.number, offline)
        pools = [(online_tables, False), (offline_tables, True)]
        byes = online_byes + offline_byes
    seated = [(table, physical) for tables, physical in pools for table in tables]
    if not seated:
        raise TournamentError(_("At least three players are needed to seat a round."))
    return seated, byes


def _write_seating(tournament: Tournament, round_: Round) -> int:
    seated, byes = _seating_for(tournament, round_)
    duplicate = tournament.format == Tournament.Format.DUPLICATE
    for number, (players, physical) in enumerate(seated, start=1):
        table = RoundTable.objects.create(
            round=round_,
            number=number,
            size=len(players),
            physical=physical,
            deal_seed=(
                duplicate_table_seed(tournament.seed, round_.number, len(players))
                if duplicate
                else None
            ),
        )
        RoundSeat.objects.bulk_create(
            [
                RoundSeat(table=table, round=round_, entry_id=entry_id, seat=seat)
                for seat, entry_id in enumerate(players)
            ]
        )
    RoundBye.objects.bulk_create([RoundBye(round=round_, entry_id=e) for e in byes])
    return len(seated)


def duplicate_table_seed(tournament_seed: str, round_number: int, table_size: int) -> int:
    """``duplicate.deal_seed`` folded into 63 bits: the database stores signed 64-bit seeds."""
    seed = duplicate_algorithms.deal_seed(tournament_seed, round_number, table_size)
    return seed & 0x7FFF_FFFF_FFFF_FFFF


def seat_round(round_id: int, by: Any = None) -> bool:
    """Seat a pending round (organisers may then re-seat it until it is released)."""

    def work(round_: Round) -> bool:
        tournament = Tournament.objects.get(pk=round_.tournament_id)
        _require_manager(by, tournament)
        if round_.status != Round.Status.PENDING:
            return False
        previous = Round.objects.filter(tournament=tournament, number=round_.number - 1).first()
        if previous is not None and previous.status != Round.Status.FINISHED:
            raise TournamentError(_("The previous round is not finished."))
        tables = _write_seating(tournament, round_)
        round_.status = Round.Status.SEATED
        round_.seated_at = timezone.now()
        round_.save(update_fields=["status", "seated_at"])
        _log(tournament, by, "seat_round", round=round_.number, tables=tables)
        _after_commit("recompute_standings", tournament.pk)  # late entrants join the list
        _push(tournament.pk, {"type": "tournament.changed"})
        return True

    return _locked(Round, round_id, work)


def _reseat_locked(round_: Round, tournament: Tournament) -> int:
    RoundTable.objects.filter(round=round_).delete()
    RoundBye.objects.filter(round=round_).delete()
    return _write_seating(tournament, round_)


def reseat_round(round_id: int, by: Any = None) -> bool:
    """Seat a seated round again from the current entries (withdrawals, late check-ins)."""

    def work(round_: Round) -> bool:
        tournament = Tournament.objects.get(pk=round_.tournament_id)
        _require_manager(by, tournament)
        if round_.status != Round.Status.SEATED:
            raise TournamentError(_("Only a seated round that is not released can be re-seated."))
        tables = _reseat_locked(round_, tournament)
        _log(tournament, by, "reseat_round", round=round_.number, tables=tables)
        _push(tournament.pk, {"type": "tournament.changed"})
        return True

    return _locked(Round, round_id, work)


# --------------------------------------------------------------------------- starting


def start_round(round_id: int, by: Any = None) -> bool:
    """Release a seated round: open and start every online table (duplicate: shared seeds)."""
    from games import services as games

    def work(round_: Round) -> bool:
        tournament = Tournament.objects.get(pk=round_.tournament_id)
        _require_manager(by, tournament)
        if round_.status != Round.Status.SEATED:
            return False
        for table in selectors.seating_of(round_):
            if not table.physical:
                game = games.create_table(
                    owner=None,
                    name=f"{tournament.name} · R{round_.number} T{table.number}"[:80],
                    size=table.size,
                    doubling=tournament.doubling,
                    layout=tournament.layout,
                    turn_seconds=tournament.turn_seconds,
                    rated=tournament.rated,
                    public=False,
                    fill_with_bots=False,
                    bot_level=tournament.bot_level,
                    tournament_round_id=round_.pk,
                    seat_owner=False,
                )
                for seat in table.seats.all():
                    games.join_table(
                        game.pk, seat.entry.user, seat=seat.seat, invite=game.invite_code
                    )
                games.start_table(game.pk, fill_with_bots=False, seed=table.deal_seed)
                table.game_table = game
            table.status = RoundTable.Status.PLAYING
            table.save(update_fields=["game_table", "status"])
        now = timezone.now()
        round_.status = Round.Status.STARTED
        round_.started_at = now
        round_.save(update_fields=["status", "started_at"])
        if tournament.status == Tournament.Status.PLANNED:
            tournament.status = Tournament.Status.RUNNING
            tournament.save(update_fields=["status"])
        _log(tournament, by, "start_round", round=round_.number)
        _after_commit("notify_table_ready", round_.pk)
        _push(tournament.pk, {"type": "tournament.changed"})
        return True

    return _locked(Round, round_id, work)


def _language_of(user: Any) -> str:
    """The recipient's profile language: notices and e-mails are written outside any request."""
    profile = getattr(user, "profile", None)
    return getattr(profile, "language", None) or settings.LANGUAGE_CODE


def _table_ready_message(tournament: Tournament, round_: Round, table: RoundTable) -> str:
    """The "your table is ready" sentence in the active language (stored as the notice)."""
    if table.game_table_id is not None:
        where = _("table %(number)s (online)") % {"number": table.number}
    else:
        where = _("physical table %(number)s") % {"number": table.number}
    return _("%(event)s, round %(round)s: your table is ready (%(where)s).") % {
        "event": tournament.name,
        "round": round_.number,
        "where": where,
    }


@retry_when_busy
def notify_table_ready(round_id: int) -> int:
    """In-app notice and e-mail "your table is ready" per seated player, once each."""
    from django.core.mail import send_mail
    from django.urls import reverse

    from rosbi_platform.links import absolute_url

    sent = 0
    round_ = Round.objects.select_related("tournament").get(pk=round_id)
    tournament = round_.tournament
    for table in selectors.seating_of(round_):
        if table.game_table_id is not None:
            url = reverse("games:table", args=[table.game_table_id])
        else:
            url = reverse("tournaments:detail", args=[tournament.slug])
        for seat in table.seats.all():
            user = seat.entry.user
            language = _language_of(user)
            with translation.override(language):
                message = _table_ready_message(tournament, round_, table)
                subject = _("Rosbi: your table is ready (%(event)s)") % {"event": tournament.name}
            try:
                with transaction.atomic():
                    notice = Notice.objects.create(
                        user=user, tournament=tournament, table=table, message=message, url=url
                    )
            except IntegrityError:
                continue  # already reminded by an earlier run
            if user.email:
                send_mail(
                    subject=subject,
                    message=f"{message}\n\n{absolute_url(url)}",
                    from_email=settings.DEFAULT_FROM_EMAIL,
                    recipient_list=[user.email],
                )
                Notice.objects.filter(pk=notice.pk).update(emailed_at=timezone.now())
            sent += 1
    return sent


# --------------------------------------------------------------------------- no-shows


def handle_no_shows(round_id: int, now: dt.datetime | None = None) -> int:
    """After the grace time, seats whose player never showed go to a bot (forfeit scoring);
    with the forfeit policy the player is also withdrawn. Physical tables are left to the
    organiser. Returns the number of no-shows."""
    from games import services as games

    now = now or timezone.now()

    def work(round_: Round) -> int:
        tournament = Tournament.objects.get(pk=round_.tournament_id)
        if round_.status != Round.Status.STARTED or round_.no_shows_handled:
            return 0
        grace = dt.timedelta(minutes=tournament.no_show_grace_minutes)
        if round_.started_at is None or round_.started_at + grace > now:
            return 0
        count = 0
        for table in selectors.seating_of(round_):
            if table.physical or table.game_table_id is None:
                continue
            if table.status == RoundTable.Status.FINISHED:
                continue
            shown = selectors.present_seats(table)
            for seat in table.seats.all():
                if seat.seat in shown:
                    continue
                games.leave_table(table.game_table_id, seat.entry.user)
                seat.forfeit = True
                seat.save(update_fields=["forfeit"])
                if tournament.no_show_policy == Tournament.NoShow.FORFEIT:
                    Entry.objects.filter(pk=seat.entry_id).update(
                        status=Entry.Status.WITHDRAWN, withdrawn_at=now
                    )
                _log(
                    tournament,
                    None,
                    "no_show",
                    round=round_.number,
                    table=table.number,
                    entry=seat.entry_id,
                    policy=tournament.no_show_policy,
                )
                count += 1
        round_.no_shows_handled = True
        round_.save(update_fields=["no_shows_handled"])
        return count

    return _locked(Round, round_id, work)


# --------------------------------------------------------------------------- results


def record_table_result(round_table_id: int, totals: dict[int, int], source: str) -> bool:
    """Store a table's Partie totals (by seat) once; a changed result (a confirmed physical
    correction) replaces the old one. Standings and the next step are queued after commit."""

    def work(table: RoundTable) -> bool:
        seats = list(table.seats.all())
        if sorted(totals) != sorted(s.seat for s in seats):
            raise TournamentError(_("The result does not match the table's seats."))
        unchanged = table.status == RoundTable.Status.FINISHED and all(
            s.total == totals[s.seat] for s in seats
        )
        if unchanged:
            return False
        for seat in seats:
            seat.total = totals[seat.seat]
        RoundSeat.objects.bulk_update(seats, ["total"])
        table.status = RoundTable.Status.FINISHED
        table.finished_at = timezone.now()
        table.save(update_fields=["status", "finished_at"])
        round_ = Round.objects.get(pk=table.round_id)
        tournament_id = round_.tournament_id
        AuditLog.objects.create(
            tournament_id=tournament_id,
            action="record_table_result",
            details={"round": round_.number, "table": table.number, "source": source},
        )
        _after_commit("recompute_standings", tournament_id)
        _after_commit("advance_tournament", tournament_id)
        return True

    return _locked(RoundTable, round_table_id, work)


def record_partie_result(outcome: PartieOutcome) -> bool:
    """The ``partie_finished`` receiver's one job: record the totals of a tournament table."""
    table = RoundTable.objects.filter(game_table_id=outcome.table_id).first()
    if table is None:
        return False
    return record_table_result(table.pk, {s.seat: s.total for s in outcome.seats}, "online")


def _may_enter_sheet(user: Any, table: RoundTable, tournament: Tournament) -> bool:
    return selectors.can_manage(user, tournament) or table.seats.filter(entry__user=user).exists()


# The contract names of the game pages (templates/games/partials/labels.html): same msgids.
CONTRACT_NAMES = {
    "no_tricks": gettext_lazy("No tricks"),
    "no_hearts": gettext_lazy("No hearts"),
    "no_jacks": gettext_lazy("No jacks"),
    "no_king_of_hearts": gettext_lazy("Beware the King of Hearts"),
    "hundred": gettext_lazy("Hundred"),
    "rosbiratschka": gettext_lazy("Rosbiratschka"),
}

_SHEET_PROBLEMS = {
    sheets.UNKNOWN_CONTRACT: gettext_lazy("Deal %(deal)s: unknown contract %(contract)s."),
    sheets.WRONG_COUNT: gettext_lazy(
        "Deal %(deal)s (%(contract)s): %(values)s values for %(players)s players."
    ),
    sheets.NOT_WHOLE: gettext_lazy("Deal %(deal)s (%(contract)s): penalties are whole numbers."),
    sheets.ONE_PLAYER_EIGHT: gettext_lazy(
        "Deal %(deal)s (%(contract)s): exactly one player scores 8, everyone else 0."
    ),
    sheets.HUNDRED_CALLS_SPLIT: gettext_lazy(
        "Deal %(deal)s (%(contract)s): the calls 1, 2 and 5 go to one player each "
        "(values from 0, 1, 2, 3, 5, 6, 7, 8 that add up to 8)."
    ),
    sheets.WRONG_DEAL_COUNT: gettext_lazy("A score sheet has %(expected)s deals, not %(deals)s."),
}


def sheet_problem_text(problem: SheetProblem) -> str:
    """One problem of ``sheets.sheet_errors`` as a sentence in the active language."""
    contract = problem.contract or ""
    values: dict[str, Any] = {
        "deal": problem.deal if problem.deal is not None else "?",
        "contract": CONTRACT_NAMES.get(contract, contract),
        **problem.params,
    }
    if problem.code == sheets.IMPOSSIBLE_ROW:
        if problem.params.get("doubled"):
            text = _(
                "Deal %(deal)s (%(contract)s): these penalties cannot come from one deal "
                "(total %(total)s, doubled %(doubled)s, or a slam: %(slam)s)."
            )
        else:
            text = _(
                "Deal %(deal)s (%(contract)s): these penalties cannot come from one deal "
                "(total %(total)s or a slam: %(slam)s)."
            )
        return text % values
    return str(_SHEET_PROBLEMS[problem.code]) % values


def submit_physical_result(
    round_table_id: int, penalties: list[list[int]], by: Any
) -> PhysicalResult:
    """A score sheet (6 deals x seats) from the organiser or a player at the table; checked
    against RULES.md section 4 and stored as the next version (corrections included)."""

    def work(table: RoundTable) -> PhysicalResult:
        round_ = Round.objects.select_related("tournament").get(pk=table.round_id)
        tournament = round_.tournament
        if not table.physical:
            raise TournamentError(_("Online tables score themselves."))
        if round_.status not in (Round.Status.STARTED, Round.Status.FINISHED):
            raise TournamentError(_("The round has not started."))
        if not _may_enter_sheet(by, table, tournament):
            raise TournamentError(
                _("Only the organisers and the players at the table can enter it.")
            )
        rows = [[int(v) for v in row] for row in penalties]
        errors = sheet_errors(rows, players=table.size, doubling=tournament.doubling)
        if errors:
            raise TournamentError(" ".join(sheet_problem_text(e) for e in errors))
        latest = selectors.latest_sheet(table)
        sheet = PhysicalResult.objects.create(
            table=table,
            version=(latest.version + 1) if latest else 1,
            penalties=rows,
            submitted_by=by,
        )
        _log(tournament, by, "submit_physical_result", table=table.pk, version=sheet.version)
        return sheet

    return _locked(RoundTable, round_table_id, work)


def confirm_physical_result(sheet_id: int, by: Any) -> bool:
    """A second person (organiser or player at the table) confirms the latest version; its
    totals become the table's result."""
    sheet = PhysicalResult.objects.select_related("table__round__tournament").get(pk=sheet_id)
    table = sheet.table
    tournament = table.round.tournament

    def work(locked_table: RoundTable) -> bool:
        current = PhysicalResult.objects.get(pk=sheet_id)
        if current.confirmed_at is not None:
            return False
        latest = selectors.latest_sheet(locked_table)
        if latest is None or latest.pk != current.pk:
            raise TournamentError(_("A newer version of this sheet exists: confirm that one."))
        if by.pk == current.submitted_by_id:
            raise TournamentError(_("A second person must confirm the sheet."))
        if not _may_enter_sheet(by, locked_table, tournament):
            raise TournamentError(
                _("Only the organisers and the players at the table can confirm.")
            )
        current.confirmed_by = by
        current.confirmed_at = timezone.now()
        current.save(update_fields=["confirmed_by", "confirmed_at"])
        _log(tournament, by, "confirm_physical_result", table=table.pk, version=current.version)
        totals = dict(enumerate(current.totals))
        record_table_result(locked_table.pk, totals, f"sheet v{current.version}")
        return True

    return _locked(RoundTable, table.pk, work)


# --------------------------------------------------------------------------- standings


@retry_when_busy
def recompute_standings(tournament_id: int) -> int:
    """Replace the cached standings by the ones the stored results give; push after commit."""

    def work(tournament: Tournament) -> int:
        rows = selectors.compute_tournament_standings(tournament)
        Standing.objects.filter(tournament=tournament).delete()
        Standing.objects.bulk_create(
            [
                Standing(
                    tournament=tournament,
                    entry_id=row.entry_id,
                    rank=row.rank,
                    points=row.points,
                    penalty=row.penalty,
                    opponents_points=row.opponents_points,
                    table_wins=row.table_wins,
                    rounds_played=row.rounds_played,
                    rounds_absent=row.rounds_absent,
                    percent=row.percent,
                )
                for row in rows
            ]
        )
        tournament.standings_version += 1
        tournament.save(update_fields=["standings_version"])
        _push(
            tournament.pk,
            {"type": "standings.changed", "version": tournament.standings_version},
        )
        return len(rows)

    return _locked(Tournament, tournament_id, work)


# --------------------------------------------------------------------------- scheduling


def _finish_round(round_id: int, now: dt.datetime) -> bool:
    def work(round_: Round) -> bool:
        if round_.status != Round.Status.STARTED:
            return False
        if round_.tables.exclude(status=RoundTable.Status.FINISHED).exists():
            return False
        tournament = Tournament.objects.get(pk=round_.tournament_id)
        round_.status = Round.Status.FINISHED
        round_.finished_at = now
        round_.save(update_fields=["status", "finished_at"])
        following = Round.objects.filter(tournament=tournament, number=round_.number + 1).first()
        if following is None:
            tournament.status = Tournament.Status.FINISHED
            tournament.save(update_fields=["status"])
        elif following.scheduled_at is None:
            following.scheduled_at = now + dt.timedelta(minutes=tournament.round_interval_minutes)
            following.save(update_fields=["scheduled_at"])
        _log(tournament, None, "finish_round", round=round_.number)
        # In the same transaction: a finished round (and event) always shows its standings.
        recompute_standings(tournament.pk)
        _push(tournament.pk, {"type": "tournament.changed"})
        return True

    return _locked(Round, round_id, work)


def _windows_due(tournament: Tournament, now: dt.datetime) -> list[Callable[[], bool]]:
    steps: list[Callable[[], bool]] = []
    pairs = [
        ("registration", tournament.registration_opens_at, tournament.registration_closes_at),
        ("check_in", tournament.check_in_opens_at, tournament.check_in_closes_at),
    ]
    for field, opens, closes in pairs:
        state = getattr(tournament, field)
        if closes is not None and closes <= now and state != Tournament.Window.CLOSED:
            steps.append(partial(_set_window, tournament.pk, field, Tournament.Window.CLOSED, None))
        elif (
            opens is not None
            and opens <= now
            and state == Tournament.Window.NOT_OPEN
            and (closes is None or closes > now)
        ):
            steps.append(partial(_set_window, tournament.pk, field, Tournament.Window.OPEN, None))
    return steps


def _round_step(tournament: Tournament, round_: Round, now: dt.datetime) -> bool:
    """Take the one step that is due for the current round, if any."""
    if round_.status == Round.Status.PENDING:
        if round_.number == 1:
            check_in_done = (
                tournament.check_in == Tournament.Window.CLOSED
                or tournament.check_in_closes_at is None
            )
            due = round_.scheduled_at is not None and round_.scheduled_at <= now
            if not (check_in_done or due):
                return False
            if tournament.check_in_closes_at is None and not due:
                return False
        try:
            return seat_round(round_.pk)
        except TournamentError as error:
            if round_.number == 1 and (round_.scheduled_at or now) <= now:
                _cancel(tournament.pk, str(error))
                return True
            return False
    if round_.status == Round.Status.SEATED:
        if round_.scheduled_at is None or round_.scheduled_at > now:
            return False
        return start_round(round_.pk)
    if round_.status == Round.Status.STARTED:
        handled = handle_no_shows(round_.pk, now) > 0
        return _finish_round(round_.pk, now) or handled
    return False


def _cancel(tournament_id: int, reason: str) -> None:
    def work(tournament: Tournament) -> None:
        if tournament.status != Tournament.Status.PLANNED:
            return
        tournament.status = Tournament.Status.CANCELLED
        tournament.save(update_fields=["status"])
        _log(tournament, None, "cancel", reason=reason)

    _locked(Tournament, tournament_id, work)


@retry_when_busy
def advance_tournament(tournament_id: int, now: dt.datetime | None = None) -> int:
    """Take every step whose time has come (windows, seat, start, no-shows, finish); each step
    is its own locked transition, so running this twice or concurrently changes nothing more.
    Returns the number of steps taken."""
    now = now or timezone.now()
    taken = 0
    for _step in range(64):
        tournament = Tournament.objects.get(pk=tournament_id)
        if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            break
        progressed = False
        for step in _windows_due(tournament, now):
            progressed = step() or progressed
        round_ = selectors.current_round(tournament)
        if round_ is not None and _round_step(tournament, round_, now):
            progressed = True
        if not progressed:
            break
        taken += 1
    return taken


@retry_when_busy
def due_tournament_ids(now: dt.datetime | None = None) -> list[int]:
    """Events the sweeper should look at: running ones, and planned ones with a time passed."""
    now = now or timezone.now()
    planned = Tournament.objects.filter(status=Tournament.Status.PLANNED)
    due = planned.filter(starts_at__lte=now)
    for field in (
        "registration_opens_at",
        "registration_closes_at",
        "check_in_opens_at",
        "check_in_closes_at",
    ):
        due = due | planned.filter(**{f"{field}__lte": now})
    running = Tournament.objects.filter(status=Tournament.Status.RUNNING)
    return sorted(set(due.values_list("pk", flat=True)) | set(running.values_list("pk", flat=True)))


def start_next_round(tournament_id: int, by: Any = None) -> bool:
    """Organiser's "start the next round now": seat it if needed, then release it at once."""
    tournament = Tournament.objects.get(pk=tournament_id)
    _require_manager(by, tournament)
    round_ = selectors.current_round(tournament)
    if round_ is None:
        raise TournamentError(_("Every round is finished."))
    if round_.status == Round.Status.STARTED:
        raise TournamentError(_("The current round is still being played."))
    if round_.status == Round.Status.PENDING:
        seat_round(round_.pk, by)
    Round.objects.filter(pk=round_.pk).update(scheduled_at=timezone.now())
    started = start_round(round_.pk, by)
    return started


def reschedule_round(round_id: int, when: dt.datetime, by: Any = None) -> bool:
    """Move a round that has not started yet (round 1 moves the event's start with it)."""

    def work(round_: Round) -> bool:
        tournament = Tournament.objects.get(pk=round_.tournament_id)
        _require_manager(by, tournament)
        if round_.status in (Round.Status.STARTED, Round.Status.FINISHED):
            raise TournamentError(_("This round has already started."))
        round_.scheduled_at = when
        round_.save(update_fields=["scheduled_at"])
        if round_.number == 1:
            tournament.starts_at = when
            tournament.save(update_fields=["starts_at"])
        _log(tournament, by, "reschedule_round", round=round_.number, at=when.isoformat())
        _push(tournament.pk, {"type": "tournament.changed"})
        return True

    return _locked(Round, round_id, work)


def log_action(tournament: Tournament, actor: Any, action: str, **details: Any) -> None:
    """Audit an organiser action taken outside the services (admin edits, exports)."""
    _log(tournament, actor, action, **details)


def ensure_rounds(tournament: Tournament) -> None:
    """Rounds 1..``rounds`` exist (an event made in the admin gets them on save)."""
    _create_rounds(tournament, 1, tournament.rounds)
