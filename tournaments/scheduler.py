"""The scheduler's side: every step whose time has come (windows, seat, start, no-shows,
finish; an event that cannot start waits for its organiser), and which events the sweeper
looks at."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Callable
from functools import partial

from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.common import TournamentError
from tournaments.events import hold_tournament, set_window
from tournaments.models import Round, Tournament
from tournaments.notify import ROUND_SOON
from tournaments.round_seating import ready_player_count
from tournaments.rounds import finish_round, handle_no_shows, remind_round, seat_round, start_round

logger = logging.getLogger(__name__)

STOPPED = (Tournament.Status.FINISHED, Tournament.Status.CANCELLED, Tournament.Status.ON_HOLD)


def _windows_due(tournament: Tournament, now: dt.datetime) -> list[Callable[[], bool]]:
    steps: list[Callable[[], bool]] = []
    pairs = [
        ("registration", tournament.registration_opens_at, tournament.registration_closes_at),
        ("check_in", tournament.check_in_opens_at, tournament.check_in_closes_at),
    ]
    for field, opens, closes in pairs:
        state = getattr(tournament, field)
        if closes is not None and closes <= now and state != Tournament.Window.CLOSED:
            steps.append(partial(set_window, tournament.pk, field, Tournament.Window.CLOSED, None))
        elif (
            opens is not None
            and opens <= now
            and state == Tournament.Window.NOT_OPEN
            and (closes is None or closes > now)
        ):
            steps.append(partial(set_window, tournament.pk, field, Tournament.Window.OPEN, None))
    return steps


def _round_step(tournament: Tournament, round_: Round, now: dt.datetime) -> bool:
    """Take the one step that is due for the current round, if any (a paused event seats and
    starts nothing; its playing tables still finish)."""
    if tournament.paused_at is not None and round_.status != Round.Status.STARTED:
        return False
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
            ready = ready_player_count(tournament)
            minimum = max(3, tournament.min_players)
            if ready < minimum:
                if not due:
                    return False  # check-in closed early: wait for the start time
                # Never cancel silently: the organiser decides (postpone, cancel, fewer).
                return hold_tournament(
                    tournament.pk,
                    _("Only %(ready)s players are ready to play; at least %(minimum)s are needed.")
                    % {"ready": ready, "minimum": minimum},
                    {"code": "too_few", "ready": ready, "minimum": minimum},
                )
        try:
            return seat_round(round_.pk)
        except TournamentError as error:
            if round_.number == 1 and (round_.scheduled_at or now) <= now:
                return hold_tournament(tournament.pk, str(error))
            return False
    if round_.status == Round.Status.SEATED:
        if round_.scheduled_at is None or round_.scheduled_at > now:
            return False
        try:
            return start_round(round_.pk)
        except TournamentError as error:
            # A table refused to start (the round stays seated): the organiser decides. The
            # first round puts the event on hold with the reason; a later one is logged and
            # waits for the organiser's re-seat or "start the next round now".
            if round_.number == 1:
                return hold_tournament(tournament.pk, str(error))
            logger.warning(
                "tournament %s round %s not started: %s", tournament.pk, round_.number, error
            )
            return False
    if round_.status == Round.Status.STARTED:
        handled = handle_no_shows(round_.pk, now) > 0
        return finish_round(round_.pk, now) or handled
    return False


def advance_tournament(tournament_id: int, now: dt.datetime | None = None) -> int:
    """Take every step whose time has come (windows, seat, start, no-shows, finish); each step
    is its own locked transition, so running this twice or concurrently changes nothing more.
    Returns the number of steps taken."""
    now = now or timezone.now()
    taken = 0
    for _step in range(64):
        tournament = Tournament.objects.get(pk=tournament_id)
        if tournament.status in STOPPED:
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
    _remind_if_due(tournament_id, now)
    return taken


def _remind_if_due(tournament_id: int, now: dt.datetime) -> None:
    """Queue the current round's "starts in 10 minutes" when its time comes (not a step: it
    changes nothing the event's progress depends on)."""
    tournament = Tournament.objects.get(pk=tournament_id)
    if tournament.status not in (Tournament.Status.PLANNED, Tournament.Status.RUNNING):
        return
    round_ = selectors.current_round(tournament)
    if (
        round_ is not None
        and round_.scheduled_at is not None
        and round_.reminded_for != round_.scheduled_at
        and now < round_.scheduled_at <= now + ROUND_SOON
    ):
        remind_round(round_.pk, now)


def due_tournament_ids(now: dt.datetime | None = None) -> list[int]:
    """Events the sweeper should look at: running ones, and planned ones with a time passed."""
    now = now or timezone.now()
    planned = Tournament.objects.filter(status=Tournament.Status.PLANNED)
    due = planned.filter(starts_at__lte=now + ROUND_SOON)  # from the reminder before round 1
    for field in (
        "registration_opens_at",
        "registration_closes_at",
        "check_in_opens_at",
        "check_in_closes_at",
    ):
        due = due | planned.filter(**{f"{field}__lte": now})
    running = Tournament.objects.filter(status=Tournament.Status.RUNNING)
    return sorted(set(due.values_list("pk", flat=True)) | set(running.values_list("pk", flat=True)))
