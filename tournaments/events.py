"""Setting an event up: create it with its rounds, save the admin's form, open and close the
registration and check-in windows."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.common import (
    NOTIFY_CHECK_IN_TASK,
    NOTIFY_EVENT_TASK,
    TournamentError,
    enqueue,
    lock_row,
    locked,
    log_action,
    require_date,
    require_manager,
)
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
    for when in times:
        require_date(when)
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
        audit = log_action(tournament, by, f"{field}_{state}")
        if field == "check_in" and state == Tournament.Window.OPEN:
            enqueue(NOTIFY_CHECK_IN_TASK, tournament.pk, audit.pk)
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


# --------------------------------------------------------------------------- the organiser decides


def hold_tournament(tournament_id: int, reason: str, details: dict | None = None) -> bool:
    """The first round is due but cannot start (too few players ready): instead of cancelling,
    the event waits for the organiser's decision, with the reason on its page and in the admin;
    organisers and registered players are told (after commit). False when not planned.

    ``reason`` is stored as written (audit, admin); ``details`` (e.g. ``{"code": "too_few",
    "ready": 2, "minimum": 3}``) lets ``selectors.hold_reason_text`` word it again in each
    reader's language."""

    def work(tournament: Tournament) -> bool:
        if tournament.status != Tournament.Status.PLANNED:
            return False
        tournament.status = Tournament.Status.ON_HOLD
        tournament.hold_reason = reason[:300]
        tournament.hold_details = details or {}
        tournament.save(update_fields=["status", "hold_reason", "hold_details"])
        audit = log_action(tournament, None, "hold", reason=reason)
        enqueue(NOTIFY_EVENT_TASK, tournament.pk, "on_hold", audit.pk)
        push_changed(tournament.pk)
        return True

    return locked(Tournament, tournament_id, work)


def _window_after_postponing(state: str, opens: dt.datetime | None, closes: dt.datetime | None):
    """A window's state for the shifted times: closed once its close time has passed, not open
    before its open time, otherwise open again (a window never used stays not open)."""
    now = timezone.now()
    if closes is not None and closes <= now:
        return Tournament.Window.CLOSED
    if opens is not None and opens > now:
        return Tournament.Window.NOT_OPEN
    if opens is None and state == Tournament.Window.NOT_OPEN:
        return state
    return Tournament.Window.OPEN


def postpone_tournament(tournament_id: int, when: dt.datetime, by: Any) -> bool:
    """Move an event that has not started (planned or waiting for a decision) to ``when``: the
    rounds with fixed times, the registration close and the check-in times move with it (the
    registration opening stays), windows open again where their times say so, and the
    registered players are told."""

    def work(tournament: Tournament) -> bool:
        require_manager(by, tournament)
        if tournament.status not in (Tournament.Status.PLANNED, Tournament.Status.ON_HOLD):
            raise TournamentError(_("Only an event that has not started can be postponed."))
        if when <= timezone.now():
            raise TournamentError(_("The new start must be in the future."))
        require_date(when)
        if (
            Round.objects.filter(tournament=tournament)
            .exclude(status=Round.Status.PENDING)
            .exists()
        ):
            raise TournamentError(_("Only an event that has not started can be postponed."))
        shift = when - tournament.starts_at
        for round_ in Round.objects.filter(tournament=tournament).order_by("number"):
            round_ = lock_row(Round, round_.pk)  # the lock order: event, then rounds
            if round_.scheduled_at is not None:
                round_.scheduled_at = when if round_.number == 1 else round_.scheduled_at + shift
                round_.save(update_fields=["scheduled_at"])
        fields = ["status", "hold_reason", "hold_details", "starts_at", "registration", "check_in"]
        for name in ("registration_closes_at", "check_in_opens_at", "check_in_closes_at"):
            moment = getattr(tournament, name)
            if moment is not None:  # set relative to the start: they move with it
                setattr(tournament, name, moment + shift)
                fields.append(name)
        tournament.registration = _window_after_postponing(
            tournament.registration,
            tournament.registration_opens_at,
            tournament.registration_closes_at,
        )
        tournament.check_in = _window_after_postponing(
            tournament.check_in, tournament.check_in_opens_at, tournament.check_in_closes_at
        )
        previous = tournament.starts_at
        tournament.starts_at = when
        tournament.status = Tournament.Status.PLANNED
        tournament.hold_reason = ""
        tournament.hold_details = {}
        tournament.save(update_fields=fields)
        audit = log_action(
            tournament, by, "postpone_tournament", at=when.isoformat(), was=previous.isoformat()
        )
        enqueue(NOTIFY_EVENT_TASK, tournament.pk, "postponed", audit.pk)
        push_changed(tournament.pk)
        return True

    return locked(Tournament, tournament_id, work)


def cancel_tournament(tournament_id: int, by: Any) -> bool:
    """Cancel an event that has not started (planned or waiting for a decision); its players
    and organisers are told. False when it is already cancelled."""

    def work(tournament: Tournament) -> bool:
        require_manager(by, tournament)
        if tournament.status == Tournament.Status.CANCELLED:
            return False
        if tournament.status not in (Tournament.Status.PLANNED, Tournament.Status.ON_HOLD):
            raise TournamentError(_("Only an event that has not started can be cancelled."))
        tournament.status = Tournament.Status.CANCELLED
        tournament.save(update_fields=["status"])
        log_action(tournament, by, "cancel_tournament", reason=tournament.hold_reason)
        enqueue(NOTIFY_EVENT_TASK, tournament.pk, "cancelled")
        push_changed(tournament.pk)
        return True

    return locked(Tournament, tournament_id, work)


# --------------------------------------------------------------------------- editing


EDITABLE_FIELDS = frozenset(
    {
        "name",
        "description",
        "starts_at",
        "capacity",
        "members_only",
        "allow_bots",
        "min_rating",
        "max_rating",
        "min_players",
        "turn_seconds",
        "round_interval_minutes",
        "registration_opens_at",
        "registration_closes_at",
        "check_in_opens_at",
        "check_in_closes_at",
        "time_zone",
    }
)


# Changes the entrants are told about ("event changed").
NEWS_FIELDS = frozenset(
    {"name", "starts_at", "time_zone", "check_in_opens_at", "check_in_closes_at"}
)

# The format, the rounds, the scoring and the house rules: the organiser's workspace changes
# them until round 1 is seated (players then see the seating made with them).
SETUP_FIELDS = frozenset(
    {
        "format",
        "mode",
        "rounds",
        "table_size",
        "allow_other_sizes",
        "scheduling",
        "first_round",
        "knockout_advance",
        "rated",
        "doubling",
        "layout",
        "avoid_same_club",
        "late_entry_until_round",
        "no_show_policy",
        "no_show_grace_minutes",
        "missed_round_points",
        "placement_points",
        "tiebreaks",
    }
)


def update_tournament(tournament_id: int, by: Any, **changes: Any) -> Tournament:
    """Change an event that has not started (its club's organisers only): the fields of
    ``EDITABLE_FIELDS`` until the start, and those of ``SETUP_FIELDS`` (format, rounds,
    scoring, house rules) until round 1 is seated; validated as the model validates them,
    audited with what changed. A smaller number of rounds removes the unseated ones above it."""
    unknown = set(changes) - EDITABLE_FIELDS - SETUP_FIELDS
    if unknown:
        raise TypeError(f"not an editable field: {sorted(unknown)}")

    def work(tournament: Tournament) -> Tournament:
        require_manager(by, tournament)
        if tournament.status not in (Tournament.Status.PLANNED, Tournament.Status.ON_HOLD):
            raise TournamentError(_("A running or finished event cannot be changed here."))
        changed = {f: v for f, v in changes.items() if getattr(tournament, f) != v}
        if not changed:
            return tournament
        seated = (
            Round.objects.filter(tournament=tournament)
            .exclude(status=Round.Status.PENDING)
            .exists()
        )
        if seated and set(changed) & SETUP_FIELDS:
            raise TournamentError(
                _("Round 1 is seated: the format, rounds and scoring can no longer change.")
            )
        for field, value in changed.items():
            setattr(tournament, field, value)
        if tournament.mode == Tournament.Mode.HYBRID and tournament.format in (
            Tournament.Format.KNOCKOUT,
            Tournament.Format.FIXED,
        ):
            raise TournamentError(_("Hybrid events use Swiss or duplicate seating."))
        tournament.full_clean(exclude=["seed"])
        tournament.save(update_fields=sorted(changed))
        if "rounds" in changed:
            Round.objects.filter(
                tournament=tournament, number__gt=tournament.rounds, status=Round.Status.PENDING
            ).delete()
            create_rounds(tournament, 1, tournament.rounds)
        if "starts_at" in changed:
            Round.objects.filter(tournament=tournament, number=1, status="pending").update(
                scheduled_at=tournament.starts_at
            )
        audit = log_action(tournament, by, "update_tournament", fields=sorted(changed))
        if changed.keys() & NEWS_FIELDS:
            enqueue(NOTIFY_EVENT_TASK, tournament.pk, "event_changed", audit.pk)
        push_changed(tournament.pk)
        return tournament

    return locked(Tournament, tournament_id, work)


# --------------------------------------------------------------------------- pause


def pause_tournament(tournament_id: int, by: Any) -> bool:
    """Stop the automatic steps: no round is seated or started while paused (tables that are
    playing finish and count). The organiser may still start a round by hand. False when the
    event is already paused."""

    def work(tournament: Tournament) -> bool:
        require_manager(by, tournament)
        if tournament.status not in (Tournament.Status.PLANNED, Tournament.Status.RUNNING):
            raise TournamentError(_("Only a planned or running event can be paused."))
        if tournament.paused_at is not None:
            return False
        tournament.paused_at = timezone.now()
        tournament.save(update_fields=["paused_at"])
        log_action(tournament, by, "pause_tournament")
        push_changed(tournament.pk)
        return True

    return locked(Tournament, tournament_id, work)


def resume_tournament(tournament_id: int, by: Any) -> bool:
    """Let the scheduler go on; a round whose time passed during the pause is due at once.
    False when the event is not paused."""

    def work(tournament: Tournament) -> bool:
        require_manager(by, tournament)
        if tournament.paused_at is None:
            return False
        paused_for = timezone.now() - tournament.paused_at
        tournament.paused_at = None
        tournament.save(update_fields=["paused_at"])
        log_action(tournament, by, "resume_tournament", seconds=int(paused_for.total_seconds()))
        push_changed(tournament.pk)
        return True

    return locked(Tournament, tournament_id, work)
