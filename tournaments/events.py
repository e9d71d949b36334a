"""Setting an event up: create it with its rounds, save the admin's form, open and close the
registration and check-in windows."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.common import TournamentError, locked, log_action, require_manager
from tournaments.models import Round, Tournament
from tournaments.notify import push_changed


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
        create_rounds(tournament, 1, rounds, times)
        log_action(tournament, by, "create_tournament", format=tournament.format, rounds=rounds)
    return tournament


def create_rounds(
    tournament: Tournament, first: int, last: int, times: list[dt.datetime] | None = None
) -> None:
    """Rounds ``first..last`` (existing numbers are kept), with their start times where known."""
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


def save_tournament(tournament: Tournament, by: Any, *, adding: bool) -> Tournament:
    """Store an event edited in the admin's form: rounds 1..``rounds`` exist after it, and the
    audit log says who added or changed it (the form's permissions check the club)."""
    with transaction.atomic():
        tournament.save()
        create_rounds(tournament, 1, tournament.rounds)
        log_action(tournament, by, "admin_add" if adding else "admin_change")
    return tournament


def set_window(tournament_id: int, field: str, state: str, by: Any = None) -> bool:
    """Move the ``registration`` or ``check_in`` window to ``state``; False when already there."""

    def work(tournament: Tournament) -> bool:
        require_manager(by, tournament)
        if getattr(tournament, field) == state:
            return False
        setattr(tournament, field, state)
        tournament.save(update_fields=[field])
        log_action(tournament, by, f"{field}_{state}")
        push_changed(tournament.pk)
        return True

    return locked(Tournament, tournament_id, work)


def open_registration(tournament_id: int, by: Any = None) -> bool:
    return set_window(tournament_id, "registration", Tournament.Window.OPEN, by)


def close_registration(tournament_id: int, by: Any = None) -> bool:
    return set_window(tournament_id, "registration", Tournament.Window.CLOSED, by)


def open_check_in(tournament_id: int, by: Any = None) -> bool:
    return set_window(tournament_id, "check_in", Tournament.Window.OPEN, by)


def close_check_in(tournament_id: int, by: Any = None) -> bool:
    return set_window(tournament_id, "check_in", Tournament.Window.CLOSED, by)
