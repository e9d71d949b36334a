"""A player's entry: register, check in, withdraw, and "I am at my table"."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from games import lobby
from games.events import ServiceError
from tournaments import selectors
from tournaments.common import (
    NOTIFY_REGISTRATION_TASK,
    TournamentError,
    enqueue,
    lock_row,
    locked,
    log_action,
    require_manager,
)
from tournaments.models import Entry, Round, RoundSeat, RoundTable, Tournament
from tournaments.notify import push_changed
from tournaments.round_seating import rewrite_seating


def _next_unseated_round(tournament: Tournament) -> int | None:
    return (
        Round.objects.filter(tournament=tournament, status=Round.Status.PENDING)
        .order_by("number")
        .values_list("number", flat=True)
        .first()
    )


def register_entry(tournament_id: int, user: Any, *, plays_online: bool = True) -> Entry:
    """Enter ``user``: registration open, entry conditions met, capacity left; late entries
    (after round 1 was seated) until ``late_entry_until_round`` and they count as checked in.
    Refused once check-in has closed before round 1 (the entry could never be seated)."""

    def work(tournament: Tournament) -> Entry:
        refusal = selectors.registration_refusal(tournament)
        if refusal is not None:
            raise TournamentError(refusal)
        started = Round.objects.filter(tournament=tournament).exclude(status=Round.Status.PENDING)
        first_round = 1
        late = started.exists()
        if late:
            first_round = _next_unseated_round(tournament) or 1
        refusal = selectors.entry_refusal(tournament, user)
        if refusal is not None:
            raise TournamentError(refusal)
        rating = selectors.player_rating(user)
        if tournament.mode == Tournament.Mode.ONLINE:
            online = True
        elif tournament.mode == Tournament.Mode.PHYSICAL:
            online = False
        else:
            online = plays_online
        entry = Entry.objects.filter(tournament=tournament, user=user).first()
        if entry is not None and entry.status != Entry.Status.WITHDRAWN:
            if not entry.confirmed:  # an organiser entered them: registering is their yes
                return _confirm(tournament, entry, user)
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
            entry.confirmed = True
            entry.save()
        audit = log_action(tournament, user, "register_entry", entry=entry.pk, late=late)
        enqueue(NOTIFY_REGISTRATION_TASK, entry.pk, audit.pk)
        push_changed(tournament.pk)
        return entry

    return locked(Tournament, tournament_id, work)


def _confirm(tournament: Tournament, entry: Entry, user: Any) -> Entry:
    entry.confirmed = True
    entry.save(update_fields=["confirmed"])
    log_action(tournament, user, "confirm_entry", entry=entry.pk)
    push_changed(tournament.pk)
    return entry


def confirm_entry(tournament_id: int, user: Any) -> Entry:
    """The player says yes to an entry someone else made for them (an organiser): from then on
    their Parties in the event are rated. Confirming twice changes nothing; a withdrawn entry
    is not confirmed (the player registers again instead)."""

    def work(tournament: Tournament) -> Entry:
        entry = Entry.objects.filter(tournament=tournament, user=user).first()
        if entry is None or entry.status == Entry.Status.WITHDRAWN:
            raise TournamentError(_("You are not registered."))
        if entry.confirmed:
            return entry
        return _confirm(tournament, entry, user)

    return locked(Tournament, tournament_id, work)


def check_in(tournament_id: int, user: Any, by: Any = None) -> Entry:
    """Confirm that a registered player will play (the player, or an organiser for them, which
    is audited); only while check-in is open."""

    def work(tournament: Tournament) -> Entry:
        if by is not None and by != user:
            require_manager(by, tournament)
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
        if by is not None and by != user:
            log_action(tournament, by, "check_in", entry=entry.pk)
        push_changed(tournament.pk)
        return entry

    return locked(Tournament, tournament_id, work)


@dataclass(frozen=True)
class Withdrawal:
    """What a withdrawal did: the entry, the seated (unreleased) round seated again without the
    player, and the released round whose seat went to a bot as a forfeit (each or neither)."""

    entry: Entry
    reseated_round: int | None = None
    forfeited_round: int | None = None
    already_withdrawn: bool = False


def _forfeit_seat(round_: Round, entry: Entry) -> bool:
    """The player's seat in a released round: a bot plays it on (online) and it scores as a
    forfeit, as for a no-show. A finished table keeps its result. Called holding the event and
    the round; ``lobby.leave_table`` then locks the game table (the lock order)."""
    seat = RoundSeat.objects.select_related("table").filter(round=round_, entry=entry).first()
    if seat is None or seat.forfeit or seat.table.status == RoundTable.Status.FINISHED:
        return False
    if seat.table.game_table_id is not None:
        # Already gone from the live table (a bot plays the seat): nothing left to hand over.
        with contextlib.suppress(ServiceError):
            lobby.leave_table(seat.table.game_table_id, entry.user)
    seat.forfeit = True
    seat.save(update_fields=["forfeit"])
    return True


def withdraw_entry(tournament_id: int, user: Any, by: Any = None) -> Withdrawal:
    """Withdraw (the player, or an organiser for them) from every round not yet played.

    Under the event's lock and then each affected round's (one lock order, see
    ``tournaments.common``): a seated round that is not released is seated again without the
    player; in a released (playing) round the player's seat goes to a bot and is scored as a
    forfeit. So a withdrawal racing the release has one outcome, whichever comes first."""

    def work(tournament: Tournament) -> Withdrawal:
        if by is not None and by != user:
            require_manager(by, tournament)
        entry = Entry.objects.filter(tournament=tournament, user=user).first()
        if entry is None:
            raise TournamentError(_("There is no such entry."))
        if entry.status == Entry.Status.WITHDRAWN:
            return Withdrawal(entry, already_withdrawn=True)
        reseated = forfeited = None
        live = (
            Round.objects.filter(
                tournament=tournament, status__in=[Round.Status.SEATED, Round.Status.STARTED]
            )
            .filter(Q(seats__entry=entry) | Q(byes__entry=entry))
            .order_by("number")
            .values_list("pk", flat=True)
            .distinct()
        )
        for round_id in list(live):
            round_ = lock_row(Round, round_id)
            if round_.status == Round.Status.SEATED:
                rewrite_seating(round_, tournament, leaving=entry.pk)
                reseated = round_.number
            elif round_.status == Round.Status.STARTED and _forfeit_seat(round_, entry):
                forfeited = round_.number
        entry.status = Entry.Status.WITHDRAWN
        entry.withdrawn_at = timezone.now()
        entry.save(update_fields=["status", "withdrawn_at"])
        log_action(
            tournament,
            by or user,
            "withdraw_entry",
            entry=entry.pk,
            reseated_round=reseated,
            forfeited_round=forfeited,
        )
        push_changed(tournament.pk)
        return Withdrawal(entry, reseated_round=reseated, forfeited_round=forfeited)

    return locked(Tournament, tournament_id, work)


@dataclass(frozen=True)
class AddedEntry:
    """What adding a player did: the entry, and whether it is new (False: already entered)."""

    entry: Entry
    created: bool


def user_by_name(name: str) -> Any:
    """The one account with this user name or display name; a clear refusal when there is
    none or more than one."""
    found = selectors.users_named(name)
    if not found:
        raise TournamentError(
            _("Nobody is called “%(name)s”. Use the player's user name or display name.")
            % {"name": name.strip()}
        )
    if len(found) > 1:
        raise TournamentError(
            _("“%(name)s” is ambiguous (%(names)s): use the user name.")
            % {"name": name.strip(), "names": ", ".join(u.get_username() for u in found)}
        )
    return found[0]


def add_entry(
    tournament_id: int,
    user: Any,
    by: Any,
    *,
    plays_online: bool = True,
    check_in_now: bool = False,
) -> AddedEntry:
    """An organiser enters a player (at the door, by phone): the registration window is the
    organiser's call, but the entry obeys the event's conditions on the person as
    self-registration does (``selectors.entry_refusal``: bot accounts, members only, rating
    band), the capacity, and not a finished event or a round the player could no longer join.
    A player who withdrew is not entered again: only they can register again. The entry waits
    for the player's confirmation (``confirm_entry``; they are told), and until then their
    Parties in the event are unrated. Adding a player who is already entered changes nothing
    (only a door check-in is taken)."""

    def work(tournament: Tournament) -> AddedEntry:
        require_manager(by, tournament)
        if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            raise TournamentError(_("This event is over."))
        entry = Entry.objects.filter(tournament=tournament, user=user).first()
        if entry is not None and entry.status != Entry.Status.WITHDRAWN:
            if check_in_now and entry.status == Entry.Status.REGISTERED:
                entry.status, entry.checked_in_at = Entry.Status.CHECKED_IN, timezone.now()
                entry.save(update_fields=["status", "checked_in_at"])
                log_action(tournament, by, "check_in", entry=entry.pk)
                push_changed(tournament.pk)
            return AddedEntry(entry, created=False)
        if entry is not None:
            raise TournamentError(
                _("%(name)s has withdrawn from this event: only they can enter again.")
                % {"name": selectors.entry_name(entry)}
            )
        refusal = selectors.entry_refusal(tournament, user)
        if refusal is not None:
            raise TournamentError(refusal)
        first_round = 1
        late = Round.objects.filter(tournament=tournament).exclude(status=Round.Status.PENDING)
        if late.exists():
            first_round = _next_unseated_round(tournament) or 0
            if tournament.format in (Tournament.Format.KNOCKOUT, Tournament.Format.FIXED):
                raise TournamentError(_("This format takes no late entries."))
            if not first_round:
                raise TournamentError(_("Every round is seated: nobody can join now."))
        active = (
            Entry.objects.filter(tournament=tournament)
            .exclude(status=Entry.Status.WITHDRAWN)
            .count()
        )
        if tournament.capacity is not None and active >= tournament.capacity:
            raise TournamentError(_("The event is full."))
        online = {
            Tournament.Mode.ONLINE: True,
            Tournament.Mode.PHYSICAL: False,
        }.get(tournament.mode, plays_online)
        checked_in = check_in_now or first_round > 1
        now = timezone.now()
        values = {
            "status": Entry.Status.CHECKED_IN if checked_in else Entry.Status.REGISTERED,
            "plays_online": online,
            "rating": selectors.player_rating(user),
            "first_round": first_round,
            "checked_in_at": now if checked_in else None,
            "withdrawn_at": None,
            "confirmed": by is not None and by.pk == user.pk,
        }
        entry = Entry.objects.create(tournament=tournament, user=user, **values)
        audit = log_action(
            tournament,
            by,
            "add_entry",
            entry=entry.pk,
            first_round=first_round,
            checked_in=checked_in,
        )
        enqueue(NOTIFY_REGISTRATION_TASK, entry.pk, audit.pk)  # asks for the player's yes
        push_changed(tournament.pk)
        return AddedEntry(entry, created=True)

    return locked(Tournament, tournament_id, work)


def confirm_presence(round_table_id: int, user: Any) -> bool:
    """ "I am at my table": a seated player shows up (no-show handling leaves them alone)."""
    updated = RoundSeat.objects.filter(table_id=round_table_id, entry__user=user).update(
        present=True
    )
    return bool(updated)
