"""Invitations: a player at an open table invites a named player (a friend, say) to it.

The invitee is told at once on their lobby page (the user's channel group) and finds the
invitation listed there; a private table lets them in without the invite link, and a seat
named in the invitation is held for them until they take it or decline.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _

from games import selectors
from games.broadcast import send_to_group
from games.events import EventLog, ServiceError, with_locked_table
from games.models import Table, TableInvitation, user_group_name
from rosbi_platform.friends import selectors as friends


def invite_player(
    table_id: int, by_user: Any, username: str, seat: int | None = None
) -> TableInvitation:
    """Invite the player called ``username`` to the open table (to ``seat`` when given)."""
    username = (username or "").strip()
    invitee = get_user_model().objects.filter(username__iexact=username).first()
    if invitee is None:
        raise ServiceError(
            "not_found", _("There is no player called %(name)s.") % {"name": username or "…"}
        )

    def work(table: Table) -> TableInvitation:
        if table.status != Table.Status.OPEN:
            raise ServiceError("not_open", _("This table has already started."))
        seats = selectors.seats_of(table)
        if by_user.pk != table.owner_id and not any(s.user_id == by_user.pk for s in seats):
            raise ServiceError("forbidden", _("Only the players at this table can invite."))
        name = selectors.user_display_name(invitee)
        if invitee.pk == by_user.pk:
            raise ServiceError("bad_request", _("You cannot invite yourself."))
        if any(s.user_id == invitee.pk for s in seats):
            raise ServiceError(
                "already_seated", _("%(name)s already has a seat here.") % {"name": name}
            )
        if friends.any_blocks([invitee.pk], by_user.pk):
            raise ServiceError(
                "blocked", _("%(name)s does not take invitations from you.") % {"name": name}
            )
        # Nobody brings a blocked player to their blocker's table (nor the blocker to where the
        # blocked player sits): the same rule as joining, whoever sends the invitation. The
        # sentence does not say who blocked whom.
        if friends.blocks_between(invitee.pk, [table.owner_id, *(s.user_id for s in seats)]):
            raise ServiceError(
                "blocked", _("%(name)s cannot be invited to this table.") % {"name": name}
            )
        invitations = list(TableInvitation.objects.filter(table=table))
        if any(i.user_id == invitee.pk for i in invitations):
            raise ServiceError(
                "already_invited", _("%(name)s is invited already.") % {"name": name}
            )
        if seat is not None:
            if not 0 <= seat < table.size or not seats[seat].is_empty:
                raise ServiceError("seat_taken", _("That seat is taken."))
            if any(i.seat == seat for i in invitations):
                raise ServiceError("seat_held", _("That seat is held for an invited player."))
        invitation = TableInvitation.objects.create(
            table=table, user=invitee, invited_by=by_user, seat=seat
        )
        log = EventLog(table)
        log.add("player_invited", {"user_id": invitee.pk, "name": name, "seat": seat})
        log.flush()
        notice = {
            "type": "user.invited",
            "invitation": {
                "table_id": table.pk,
                "table_name": table.name,
                "by": selectors.user_display_name(by_user),
                "seat": seat,
                "url": reverse("games:table", args=[table.pk]),
            },
        }
        transaction.on_commit(partial(send_to_group, user_group_name(invitee.pk), notice))
        return invitation

    return with_locked_table(table_id, work)


def decline_invitation(table_id: int, user: Any) -> None:
    """The invitee says no: the invitation (and the seat held for them) goes."""

    def work(table: Table) -> None:
        deleted, _by_model = TableInvitation.objects.filter(table=table, user=user).delete()
        if not deleted:
            raise ServiceError("not_invited", _("You have no invitation to this table."))
        log = EventLog(table)
        log.add(
            "invitation_declined", {"user_id": user.pk, "name": selectors.user_display_name(user)}
        )
        log.flush()

    with_locked_table(table_id, work)
