"""A round's life: seat, re-seat, release (start), hand no-shows to bots, finish; the
organiser's "start the next round now" and rescheduling."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from games import lobby
from games.events import ServiceError
from tournaments import selectors
from tournaments.common import (
    NOTIFY_EVENT_TASK,
    NOTIFY_REGISTRATION_TASK,
    NOTIFY_RESULTS_TASK,
    NOTIFY_ROUND_SOON_TASK,
    NOTIFY_TABLE_READY_TASK,
    RECOMPUTE_STANDINGS_TASK,
    TournamentError,
    enqueue,
    locked_round,
    locked_tournament,
    log_action,
    require_date,
    require_manager,
)
from tournaments.models import Entry, Round, RoundBye, RoundSeat, RoundTable, Tournament
from tournaments.notify import ROUND_SOON, push_changed
from tournaments.results import recompute_standings
from tournaments.round_seating import ready_player_count, rewrite_seating, write_seating


def seat_round(round_id: int, by: Any = None) -> bool:
    """Seat a pending round (organisers may then re-seat it until it is released)."""

    def work(tournament: Tournament, round_: Round) -> bool:
        require_manager(by, tournament)
        if round_.status != Round.Status.PENDING:
            return False
        previous = Round.objects.filter(tournament=tournament, number=round_.number - 1).first()
        if previous is not None and previous.status != Round.Status.FINISHED:
            raise TournamentError(_("The previous round is not finished."))
        tables = write_seating(tournament, round_)
        round_.status = Round.Status.SEATED
        round_.seated_at = timezone.now()
        round_.save(update_fields=["status", "seated_at"])
        log_action(tournament, by, "seat_round", round=round_.number, tables=tables)
        enqueue(RECOMPUTE_STANDINGS_TASK, tournament.pk)  # late entrants join the list
        push_changed(tournament.pk)
        return True

    return locked_round(round_id, work)


def reseat_round(round_id: int, by: Any = None) -> bool:
    """Seat a seated round again from the current entries (withdrawals, late check-ins)."""

    def work(tournament: Tournament, round_: Round) -> bool:
        require_manager(by, tournament)
        if round_.status != Round.Status.SEATED:
            raise TournamentError(_("Only a seated round that is not released can be re-seated."))
        tables = rewrite_seating(round_, tournament)
        log_action(tournament, by, "reseat_round", round=round_.number, tables=tables)
        push_changed(tournament.pk)
        return True

    return locked_round(round_id, work)


def _open_round_tables(tournament: Tournament, round_: Round) -> None:
    """Open and start the round's online game tables (a physical table only starts playing)."""
    for table in selectors.seating_of(round_):
        if not table.physical:
            game = lobby.create_table(
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
                club_id=tournament.club_id,
                allow_bots=tournament.allow_bots,
            )
            for seat in table.seats.all():
                lobby.join_table(game.pk, seat.entry.user, seat=seat.seat, invite=game.invite_code)
            lobby.start_table(game.pk, fill_with_bots=False, seed=table.deal_seed)
            for seat in table.seats.all():
                if seat.forfeit:  # withdrawn, kept only so three can play: a bot plays
                    lobby.leave_table(game.pk, seat.entry.user)
            table.game_table = game
        table.status = RoundTable.Status.PLAYING
        table.save(update_fields=["game_table", "status"])


def start_round(round_id: int, by: Any = None) -> bool:
    """Release a seated round: open and start every online table (duplicate: shared seeds).

    The game tables take bot accounts exactly when the event does. A table the games app
    refuses to open or start (``ServiceError``) refuses the whole release with its sentence
    (``TournamentError``): everything rolls back and the round stays seated, so the organiser
    can re-seat or withdraw the player and start again; never a server error."""

    def work(tournament: Tournament, round_: Round) -> bool:
        require_manager(by, tournament)
        if round_.status != Round.Status.SEATED:
            return False
        try:
            _open_round_tables(tournament, round_)
        except ServiceError as error:
            raise TournamentError(
                _("Round %(round)s cannot start: %(reason)s")
                % {"round": round_.number, "reason": error.message}
            ) from error
        now = timezone.now()
        round_.status = Round.Status.STARTED
        round_.started_at = now
        round_.save(update_fields=["status", "started_at"])
        if tournament.status == Tournament.Status.PLANNED:
            tournament.status = Tournament.Status.RUNNING
            tournament.save(update_fields=["status"])
        log_action(tournament, by, "start_round", round=round_.number)
        enqueue(NOTIFY_TABLE_READY_TASK, round_.pk)
        push_changed(tournament.pk)
        return True

    return locked_round(round_id, work)


def handle_no_shows(round_id: int, now: dt.datetime | None = None) -> int:
    """After the grace time, seats whose player never showed go to a bot (forfeit scoring);
    with the forfeit policy the player is also withdrawn. Physical tables are left to the
    organiser. Returns the number of no-shows."""
    now = now or timezone.now()

    def work(tournament: Tournament, round_: Round) -> int:
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
                lobby.leave_table(table.game_table_id, seat.entry.user)
                seat.forfeit = True
                seat.save(update_fields=["forfeit"])
                if tournament.no_show_policy == Tournament.NoShow.FORFEIT:
                    Entry.objects.filter(pk=seat.entry_id).update(
                        status=Entry.Status.WITHDRAWN, withdrawn_at=now
                    )
                log_action(
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

    return locked_round(round_id, work)


def finish_round(round_id: int, now: dt.datetime) -> bool:
    """Close a started round once every table has its result: standings in the same
    transaction, then the next round's time (interval scheduling) or the event is finished."""

    def work(tournament: Tournament, round_: Round) -> bool:
        if round_.status != Round.Status.STARTED:
            return False
        if round_.tables.exclude(status=RoundTable.Status.FINISHED).exists():
            return False
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
        log_action(tournament, None, "finish_round", round=round_.number)
        enqueue(NOTIFY_RESULTS_TASK, round_.pk)
        # In the same transaction: a finished round (and event) always shows its standings.
        recompute_standings(tournament.pk)
        push_changed(tournament.pk)
        return True

    return locked_round(round_id, work)


def start_next_round(tournament_id: int, by: Any = None) -> bool:
    """Organiser's "start the next round now": seat it if needed, then release it at once."""
    tournament = Tournament.objects.get(pk=tournament_id)
    require_manager(by, tournament)
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

    def work(tournament: Tournament, round_: Round) -> bool:
        require_manager(by, tournament)
        if round_.status in (Round.Status.STARTED, Round.Status.FINISHED):
            raise TournamentError(_("This round has already started."))
        require_date(when)
        round_.scheduled_at = when
        round_.save(update_fields=["scheduled_at"])
        if round_.number == 1:
            tournament.starts_at = when
            tournament.save(update_fields=["starts_at"])
        audit = log_action(
            tournament, by, "reschedule_round", round=round_.number, at=when.isoformat()
        )
        if when > timezone.now():  # "starts now" is told by "your table is ready"
            enqueue(NOTIFY_EVENT_TASK, tournament.pk, "event_changed", audit.pk)
        push_changed(tournament.pk)
        return True

    return locked_round(round_id, work)


def start_with_fewer_players(tournament_id: int, by: Any) -> bool:
    """The organiser's decision for an event waiting at its start: play with the players who
    are ready (at least three), seating and releasing round 1 now, in one transaction."""

    def work(tournament: Tournament) -> bool:
        require_manager(by, tournament)
        if tournament.status not in (Tournament.Status.ON_HOLD, Tournament.Status.PLANNED):
            raise TournamentError(_("Only an event that has not started can be started."))
        if ready_player_count(tournament) < 3:
            raise TournamentError(_("At least three players must be ready to play."))
        first = Round.objects.get(tournament=tournament, number=1)
        if first.status != Round.Status.PENDING:
            raise TournamentError(_("This round has already started."))
        reason = tournament.hold_reason
        tournament.status = Tournament.Status.PLANNED
        tournament.hold_reason = ""
        tournament.hold_details = {}
        tournament.save(update_fields=["status", "hold_reason", "hold_details"])
        log_action(tournament, by, "start_with_fewer_players", reason=reason)
        seat_round(first.pk, by)  # nested: the event's lock is held, then the round's
        Round.objects.filter(pk=first.pk).update(scheduled_at=timezone.now())
        return start_round(first.pk, by)

    return locked_tournament(tournament_id, work)


def remind_round(round_id: int, now: dt.datetime | None = None) -> bool:
    """Queue "round N starts in 10 minutes" once per start time, when that time is at most
    ``notify.ROUND_SOON`` away and the round has not started (a locked transition: two
    sweepers queue it once). False when not due or already queued."""
    now = now or timezone.now()

    def work(tournament: Tournament, round_: Round) -> bool:
        when = round_.scheduled_at
        if (
            when is None
            or round_.status not in (Round.Status.PENDING, Round.Status.SEATED)
            or tournament.status not in (Tournament.Status.PLANNED, Tournament.Status.RUNNING)
            or round_.reminded_for == when
            or not (now < when <= now + ROUND_SOON)
        ):
            return False
        round_.reminded_for = when
        round_.save(update_fields=["reminded_for"])
        enqueue(NOTIFY_ROUND_SOON_TASK, round_.pk, when.isoformat())
        return True

    return locked_round(round_id, work)


# --------------------------------------------------------------------------- seats after seating


def _changeable_table(round_: Round, table: RoundTable) -> None:
    """A seat changes hands in a seated round, or at a physical table of a playing round
    whose result is not in; an online table that is being played keeps its players."""
    if round_.status == Round.Status.SEATED:
        return
    if round_.status != Round.Status.STARTED:
        raise TournamentError(_("Seats change only in a seated or playing round."))
    if table.status == RoundTable.Status.FINISHED:
        raise TournamentError(
            _("Table %(number)s has finished: its seats stay.") % {"number": table.number}
        )
    if not table.physical:
        raise TournamentError(
            _(
                "Online table %(number)s is being played and keeps its players: withdraw the "
                "player instead (a bot plays on)."
            )
            % {"number": table.number}
        )


def substitute_player(round_id: int, leaving_entry_id: int, arriving: Any, by: Any) -> bool:
    """The ``arriving`` user takes the seat of ``leaving_entry_id`` in a seated round (or at a
    physical table of a playing round); the leaving player is withdrawn from the event (their
    earlier results stay) and the substitute is entered, checked in, from this round on.
    False when it is already done (a repeated request)."""

    def work(tournament: Tournament, round_: Round) -> bool:
        require_manager(by, tournament)
        seats = RoundSeat.objects.select_related("table", "entry")
        seat = seats.filter(round=round_, entry_id=leaving_entry_id).first()
        arriving_seat = seats.filter(round=round_, entry__user=arriving).first()
        if seat is None:
            if arriving_seat is not None:
                return False  # done by an earlier request
            raise TournamentError(
                _("That player has no seat in round %(round)s.") % {"round": round_.number}
            )
        if arriving_seat is not None:
            raise TournamentError(
                _("%(name)s already plays in round %(round)s.")
                % {"name": selectors.entry_name(arriving_seat.entry), "round": round_.number}
            )
        _changeable_table(round_, seat.table)
        now = timezone.now()
        entry = Entry.objects.filter(tournament=tournament, user=arriving).first()
        # The same rules as any entry an organiser makes (``entries.add_entry``).
        if entry is not None and entry.status == Entry.Status.WITHDRAWN:
            raise TournamentError(
                _("%(name)s has withdrawn from this event: only they can enter again.")
                % {"name": selectors.entry_name(entry)}
            )
        refusal = selectors.entry_refusal(tournament, arriving)
        if refusal is not None:
            raise TournamentError(refusal)
        values = {
            "status": Entry.Status.CHECKED_IN,
            "checked_in_at": now,
            "withdrawn_at": None,
            "plays_online": not seat.table.physical,
        }
        created = entry is None
        if entry is None:
            entry = Entry.objects.create(
                tournament=tournament,
                user=arriving,
                rating=selectors.player_rating(arriving),
                first_round=round_.number,
                confirmed=by is not None and by.pk == arriving.pk,
                **values,
            )
        else:
            for field, value in values.items():
                setattr(entry, field, value)
            entry.save()
        RoundBye.objects.filter(round=round_, entry=entry).delete()
        leaving = seat.entry
        seat.entry, seat.present = entry, False
        seat.save(update_fields=["entry", "present"])
        Entry.objects.filter(pk=leaving.pk).update(status=Entry.Status.WITHDRAWN, withdrawn_at=now)
        audit = log_action(
            tournament,
            by,
            "substitute_player",
            round=round_.number,
            table=seat.table.number,
            seat=seat.seat,
            leaving=leaving.pk,
            arriving=entry.pk,
        )
        if created:
            enqueue(NOTIFY_REGISTRATION_TASK, entry.pk, audit.pk)  # asks for the player's yes
        push_changed(tournament.pk)
        return True

    return locked_round(round_id, work)


def swap_seats(
    round_id: int,
    first_entry_id: int,
    second_entry_id: int,
    by: Any,
    *,
    first_at: tuple[int, int] | None = None,
) -> bool:
    """Two players change seats in a seated round (or at physical tables of a playing round).
    ``first_at`` is where the organiser saw the first player (table, seat as stored): when they
    are no longer there the swap was already made, and a repeated request changes nothing."""

    def work(tournament: Tournament, round_: Round) -> bool:
        require_manager(by, tournament)
        if first_entry_id == second_entry_id:
            raise TournamentError(_("Choose two different players."))
        seats = {
            s.entry_id: s
            for s in RoundSeat.objects.select_related("table").filter(
                round=round_, entry_id__in=[first_entry_id, second_entry_id]
            )
        }
        if len(seats) != 2:
            raise TournamentError(
                _("Both players need a seat in round %(round)s.") % {"round": round_.number}
            )
        first, second = seats[first_entry_id], seats[second_entry_id]
        if first_at is not None and (first.table.number, first.seat) != tuple(first_at):
            return False
        for seat in (first, second):
            _changeable_table(round_, seat.table)
        if first.table.physical != second.table.physical:
            raise TournamentError(
                _("One plays online and the other at a physical table: they cannot swap.")
            )
        places = [(s.table, s.seat, s.present) for s in (first, second)]
        RoundSeat.objects.filter(pk__in=[first.pk, second.pk]).delete()
        for (table, number, _present), entry_id in zip(
            places, [second_entry_id, first_entry_id], strict=True
        ):
            RoundSeat.objects.create(table=table, round=round_, entry_id=entry_id, seat=number)
        log_action(
            tournament,
            by,
            "swap_seats",
            round=round_.number,
            first=first_entry_id,
            second=second_entry_id,
            tables=[first.table.number, second.table.number],
        )
        push_changed(tournament.pk)
        return True

    return locked_round(round_id, work)
