"""Lobby actions: create a table, change it while open, join it, leave it, start its Partie."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import queue, selectors
from games.deals import dealing_rng, start_deal
from games.engine import Deal, draw_first_dealer
from games.events import (
    EventLog,
    ServiceError,
    bot_must_move,
    change_seat,
    default_bot_level,
    notify_lobby,
    set_clock,
    with_locked_table,
)
from games.live.positions import Position, positions
from games.models import BOT_LEVEL_CHOICES, Partie, Seat, Table, TableInvitation
from games.rated_play import require_rated_play
from rosbi_platform.accounts.selectors import is_bot_account
from rosbi_platform.friends import selectors as friends

BOT_LEVELS = frozenset(level for level, _label in BOT_LEVEL_CHOICES)
# What may change on a table that has not started (``change_open_table``); all else is fixed
# at creation or belongs to the game.
OPEN_TABLE_SETTINGS = ("name", "public", "turn_seconds", "bot_level")


def _check_settings(bot_level: str | None = None, turn_seconds: int | None = None) -> None:
    if bot_level is not None and bot_level not in BOT_LEVELS:
        raise ServiceError("bad_request", _("Unknown bot level %(level)r.") % {"level": bot_level})
    if turn_seconds is not None and turn_seconds < 0:
        raise ServiceError("bad_request", _("The time per move cannot be negative."))


def create_table(
    *,
    owner: Any,
    name: str = "",
    size: int = 4,
    doubling: bool = True,
    layout: str = "extend_first",
    turn_seconds: int = 30,
    rated: bool = False,
    public: bool = True,
    fill_with_bots: bool = False,
    bot_level: str = "heuristic",
    tournament_round_id: int | None = None,
    rating_pool: str = "",
    ranked_queue: bool = False,
    seat_owner: bool = True,
    club_id: int | None = None,
    rematch_of: Table | None = None,
    allow_bots: bool = False,
) -> Table:
    """A new open table with empty seats; the owner takes seat 0 unless told otherwise.

    ``club_id`` names the club whose organisers moderate the table (tournament tables);
    ``rematch_of`` the finished table this one replays (``games.rematches``). A bot
    account's own table always allows bot accounts (it sits there itself).
    """
    if size not in (3, 4, 5, 6):
        raise ServiceError("bad_request", _("A table has 3 to 6 seats."))
    _check_settings(bot_level=bot_level)
    if layout not in ("extend_first", "free"):
        raise ServiceError("bad_request", _("Unknown layout rule %(rule)r.") % {"rule": layout})
    _check_settings(turn_seconds=turn_seconds)
    if is_bot_account(owner) and (rated or ranked_queue):
        raise ServiceError("bots_refused", _("Bot accounts cannot open rated tables."))
    if (rated or ranked_queue) and tournament_round_id is None and seat_owner:
        require_rated_play(owner)
    allow_bots = allow_bots or (seat_owner and is_bot_account(owner))
    with transaction.atomic():
        table = Table.objects.create(
            name=name or _("%(owner)s's table") % {"owner": owner.get_username()},
            owner=owner,
            size=size,
            doubling=doubling,
            layout=layout,
            turn_seconds=turn_seconds,
            rated=rated,
            public=public,
            fill_with_bots=fill_with_bots,
            bot_level=bot_level,
            tournament_round_id=tournament_round_id,
            rating_pool=rating_pool,
            ranked_queue=ranked_queue,
            club_id=club_id,
            rematch_of=rematch_of,
            allow_bots=allow_bots,
        )
        Seat.objects.bulk_create(
            [
                Seat(table=table, number=n, user=owner if seat_owner and n == 0 else None)
                for n in range(size)
            ]
        )
        notify_lobby()
    return table


def change_open_table(table_id: int, by_user: Any, **changes: Any) -> None:
    """Change the ``OPEN_TABLE_SETTINGS`` of a table that has not started (its organiser or
    staff). Only the given fields are written, under the table lock, so nothing a concurrent
    join or start wrote is overwritten; the lobby is told after the commit. No table event:
    the settings are not play, and the start's events carry what the clocks use."""
    unknown = set(changes) - set(OPEN_TABLE_SETTINGS)
    if unknown:
        raise TypeError(f"not a setting of an open table: {sorted(unknown)}")
    _check_settings(changes.get("bot_level"), changes.get("turn_seconds"))

    def work(table: Table) -> None:
        if table.status != Table.Status.OPEN:
            raise ServiceError("not_open", _("This table has already started."))
        if by_user.pk != table.owner_id and not by_user.is_staff:
            raise ServiceError("forbidden", _("Only the table's organiser or staff can change it."))
        if not changes:
            return
        for field, value in changes.items():
            setattr(table, field, value)
        table.save(update_fields=sorted(changes))
        notify_lobby()

    with_locked_table(table_id, work)


def rated_seating_checked(table: Table) -> bool:
    """Whether a seat at ``table`` needs ``ratings.eligibility``'s yes: rated tables and the
    ranked queue's. A tournament table is filled by its event, under the event's rules."""
    return (table.rated or table.ranked_queue) and table.tournament_round_id is None


def join_table(table_id: int, user: Any, seat: int | None = None, invite: str | None = None) -> int:
    """Sit ``user`` down at an open table (the first free seat unless ``seat`` is given).

    An invited player needs no invite link and sits in the seat held for them; a seat held
    for someone else is not free. Players blocked by the table's owner or by anyone seated
    are refused (not at tournament or ranked-queue tables, which are seated for them).
    """

    def work(table: Table) -> int:
        if table.status != Table.Status.OPEN:
            raise ServiceError("not_open", _("This table has already started."))
        invitations = list(TableInvitation.objects.filter(table=table))
        mine = next((i for i in invitations if i.user_id == user.pk), None)
        if not table.public and invite != table.invite_code and mine is None:
            raise ServiceError("forbidden", _("This table is private: you need the invite link."))
        if not table.allow_bots and is_bot_account(user):
            raise ServiceError("bots_refused", _("This table does not take bot accounts."))
        if rated_seating_checked(table):
            require_rated_play(user)
        seats = selectors.seats_of(table)
        if any(s.user_id == user.pk for s in seats):
            raise ServiceError("already_seated", _("You already have a seat at this table."))
        if not (table.tournament_round_id or table.ranked_queue) and friends.any_blocks(
            [table.owner_id, *(s.user_id for s in seats)], user.pk
        ):
            raise ServiceError(
                "blocked", _("You cannot join this table: a player there has blocked you.")
            )
        held = {i.seat: i.user_id for i in invitations if i.seat is not None}
        wanted = seat
        if wanted is None and mine is not None and mine.seat is not None:
            wanted = mine.seat
        free = [
            s
            for s in seats
            if s.is_empty
            and (wanted is None or s.number == wanted)
            and held.get(s.number, user.pk) == user.pk
        ]
        if not free:
            if wanted is not None and held.get(wanted, user.pk) != user.pk:
                raise ServiceError("seat_held", _("That seat is held for an invited player."))
            if wanted is None and any(s.is_empty for s in seats):
                raise ServiceError("seat_held", _("The free seats are held for invited players."))
            raise ServiceError(
                "seat_taken",
                _("That seat is taken.") if wanted is not None else _("The table is full."),
            )
        chosen = free[0]
        chosen.user = user
        log = EventLog(table)
        change_seat(table, chosen, log)
        if mine is not None:
            mine.delete()  # the seat_changed event tells clients the invitation is used
        log.flush()
        notify_lobby()
        return chosen.number

    return with_locked_table(table_id, work)


def leave_table(table_id: int, user: Any) -> None:
    """Leave a seat: an open table frees it, a started one hands it to a bot for good."""

    def work(table: Table) -> None:
        seats = selectors.seats_of(table)
        seat = next((s for s in seats if s.user_id == user.pk), None)
        if seat is None:
            raise ServiceError("not_seated", _("You have no seat at this table."))
        if table.status == Table.Status.FINISHED:
            return
        log = EventLog(table)
        deal = None
        if table.status == Table.Status.PLAYING:
            deal = hand_seat_to_bot(table, seats, seat, log)
        else:
            seat.user = None
            seat.away = False
            change_seat(table, seat, log)
        if table.status == Table.Status.OPEN and table.owner_id == user.pk:
            _hand_over_open_table(table, seats, seat.number, log)
        log.flush("owner", "status")
        if bot_must_move(seats, deal):
            queue.queue_bot_turns_after_commit(table.pk, table.state_version)
        notify_lobby()

    with_locked_table(table_id, work)


def hand_seat_to_bot(table: Table, seats: list[Seat], seat: Seat, log: EventLog) -> Deal | None:
    """A player leaves a started table for good: a bot of the table's level takes the seat
    (``seat_changed``) and, when it is that seat's turn, its clock stops. Returns the current
    deal (None when there is none) so the caller can queue the bot after the commit."""
    seat.user = None
    seat.away = False
    seat.bot_level = table.bot_level or default_bot_level()
    seat.left_at = timezone.now()
    change_seat(table, seat, log)
    row = selectors.current_deal_row(table)
    deal = selectors.rebuild_deal(row, table) if row is not None else None
    if deal is not None and not deal.over and deal.turn == seat.number:
        set_clock(table, seats, deal, log)
    return deal


def _hand_over_open_table(table: Table, seats: list[Seat], left_seat: int, log: EventLog) -> None:
    """The organiser left a table that has not started: the next seated player clockwise runs
    it from now on (they can start it); with nobody left the table closes. Both are events, so
    everyone at the table is told at once."""
    n = len(seats)
    for step in range(1, n):
        heir = seats[(left_seat + step) % n]
        if heir.user_id is not None:
            table.owner_id = heir.user_id
            log.add(
                "owner_changed",
                {"owner_user_id": heir.user_id, "name": selectors.user_display_name(heir.user)},
            )
            return
    table.status = Table.Status.CLOSED
    log.add("table_closed", {})


def start_table(
    table_id: int,
    by_user: Any = None,
    *,
    fill_with_bots: bool | None = None,
    seed: int | None = None,
) -> Partie:
    """Start the Partie: fill empty seats with bots when chosen, draw the dealer, deal.

    ``seed`` is for tests and duplicate tournaments only; without it dealing uses the system's
    cryptographic randomness.
    """

    def work(table: Table) -> Partie:
        if table.status != Table.Status.OPEN:
            raise ServiceError("not_open", _("This table has already started."))
        if by_user is not None and by_user.pk != table.owner_id and not by_user.is_staff:
            raise ServiceError("forbidden", _("Only the table's organiser can start it."))
        seats = selectors.seats_of(table)
        if rated_seating_checked(table):
            # Seated earlier (a rematch, the queue) or changed since: asked again at the start.
            for s in seats:
                if s.user_id is not None:
                    require_rated_play(s.user, name=selectors.user_display_name(s.user))
        fill = table.fill_with_bots if fill_with_bots is None else fill_with_bots
        empty = [s for s in seats if s.is_empty]
        if empty and not fill:
            raise ServiceError("not_full", _("Every seat needs a player (or choose bots)."))
        for s in empty:
            s.bot_level = table.bot_level
        for s in seats:
            s.started_by_id = s.user_id
        Seat.objects.bulk_update(seats, ["bot_level", "started_by"])
        n = table.size
        first_dealer = draw_first_dealer(n, dealing_rng(seed, "dealer"))
        partie = Partie.objects.create(table=table, first_dealer=first_dealer, seed=seed)
        log = EventLog(table)
        log.add(
            "partie_started",
            {"first_dealer": first_dealer, "seats": [selectors.seat_info(s) for s in seats]},
            changes_play=True,
        )
        deal, row = start_deal(table, partie, 0, log)
        table.status = Table.Status.PLAYING
        table.started_at = timezone.now()
        set_clock(table, seats, deal, log)
        log.flush("status", "started_at")
        transaction.on_commit(partial(positions.put, table.pk, Position(table, seats, row, deal)))
        if bot_must_move(seats, deal):
            queue.queue_bot_turns_after_commit(table.pk, table.state_version)
        queue.queue_turn_email_after_commit(table, seats)
        notify_lobby()
        return partie

    return with_locked_table(table_id, work)
