"""Rematches: the players of a finished Partie play another one, at a new table, same seats.

Any seated human offers (a ``rematch`` vote); the others accept by voting too or decline
(which withdraws every vote). When every seated human has voted, a new table with the same
size, rules, clock, bot level, rating and visibility starts at once: each human in the same
seat, bots in the bot seats (seats whose player resigned included). ``Table.rematch_of`` is
one-to-one, so a table has at most one rematch, and the votes are taken under the finished
table's row lock, so the rematch starts exactly once. Tournament and ranked-queue tables have
no rematch: their rounds and the queue pair players.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games import selectors
from games.events import EventLog, ServiceError, record_vote, with_locked_table
from games.lobby import create_table, start_table
from games.models import Seat, Table, TableVote
from games.rated_play import require_rated_play


def _check_rematch(table: Table) -> None:
    if table.status != Table.Status.FINISHED:
        raise ServiceError("not_finished", _("A rematch can be offered once the Partie is over."))
    if table.tournament_round_id is not None:
        raise ServiceError("forbidden", _("Tournament tables are paired by the event's rounds."))
    if table.ranked_queue:
        raise ServiceError("forbidden", _("Ranked Parties are paired by the queue: join it again."))


def _seat_of(seats: list[Seat], user: Any) -> Seat:
    seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is None:
        raise ServiceError("not_seated", _("Only the players of this Partie can answer a rematch."))
    return seat


def offer_rematch(table_id: int, user: Any) -> int | None:
    """Offer or accept a rematch; returns the rematch table's id once it has started (at
    once when ``user`` was the last human to agree, or when it had started already)."""

    def work(table: Table) -> int | None:
        _check_rematch(table)
        started = selectors.rematch_table_id(table)
        if started is not None:
            return started
        seats = selectors.seats_of(table)
        seat = _seat_of(seats, user)
        if table.rated:
            require_rated_play(user)
        log = EventLog(table)
        if not record_vote(table, seats, TableVote.Kind.REMATCH, seat, log):
            log.flush()
            return None
        rematch = _start_rematch(table, seats)
        log.add("rematch_started", {"table_id": rematch.pk})
        log.flush()
        return rematch.pk

    return with_locked_table(table_id, work)


def decline_rematch(table_id: int, user: Any) -> None:
    """Say no to the rematch on offer: every vote is withdrawn, everyone is told."""

    def work(table: Table) -> None:
        _check_rematch(table)
        if selectors.rematch_table_id(table) is not None:
            raise ServiceError("too_late", _("The rematch has already started."))
        seats = selectors.seats_of(table)
        seat = _seat_of(seats, user)
        votes = TableVote.objects.filter(table=table, kind=TableVote.Kind.REMATCH)
        if not votes.exists():
            raise ServiceError("no_offer", _("Nobody has offered a rematch."))
        votes.delete()
        log = EventLog(table)
        log.add(
            "rematch_declined",
            {"seat": seat.number, "name": selectors.user_display_name(seat.user)},
        )
        log.flush()

    with_locked_table(table_id, work)


def _start_rematch(table: Table, seats: list[Seat]) -> Table:
    humans = [s for s in seats if s.user_id is not None]
    owner = next((s.user for s in humans if s.user_id == table.owner_id), humans[0].user)
    rematch = create_table(
        owner=owner,
        name=(_("Rematch: %(name)s") % {"name": table.name})[:80],
        size=table.size,
        doubling=table.doubling,
        layout=table.layout,
        turn_seconds=table.turn_seconds,
        rated=table.rated,
        public=table.public,
        fill_with_bots=True,
        bot_level=table.bot_level,
        rating_pool=table.rating_pool,
        seat_owner=False,
        club_id=table.club_id,
        rematch_of=table,
    )
    for seat in humans:
        Seat.objects.filter(table=rematch, number=seat.number).update(user_id=seat.user_id)
    start_table(rematch.pk, fill_with_bots=True)
    return rematch
