"""A round's life: seat, re-seat, release (start), hand no-shows to bots, finish; the
organiser's "start the next round now" and rescheduling."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from games import lobby
from tournaments import selectors
from tournaments.common import (
    NOTIFY_EVENT_TASK,
    NOTIFY_RESULTS_TASK,
    NOTIFY_ROUND_SOON_TASK,
    NOTIFY_TABLE_READY_TASK,
    RECOMPUTE_STANDINGS_TASK,
    TournamentError,
    enqueue,
    locked_round,
    locked_tournament,
    log_action,
    require_manager,
)
from tournaments.models import Entry, Round, RoundTable, Tournament
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


def start_round(round_id: int, by: Any = None) -> bool:
    """Release a seated round: open and start every online table (duplicate: shared seeds)."""

    def work(tournament: Tournament, round_: Round) -> bool:
        require_manager(by, tournament)
        if round_.status != Round.Status.SEATED:
            return False
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
                )
                for seat in table.seats.all():
                    lobby.join_table(
                        game.pk, seat.entry.user, seat=seat.seat, invite=game.invite_code
                    )
                lobby.start_table(game.pk, fill_with_bots=False, seed=table.deal_seed)
                for seat in table.seats.all():
                    if seat.forfeit:  # withdrawn, kept only so three can play: a bot plays
                        lobby.leave_table(game.pk, seat.entry.user)
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
