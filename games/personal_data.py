"""Games' part of a person's data: the Parties they played (their own seat, never another
player's hand), tables they own or sit at, chat, votes, invitations, reports and abandoned rated
Parties; and at the account's deletion, leaving the open tables (refused while they play).

Every result stays: ``SeatResult`` and the deals keep pointing at the (anonymised) user, so
the others' score sheets, replays and ratings do not change.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.utils.translation import gettext as _

from games import lobby
from games.models import (
    Abandonment,
    ChatMessage,
    ChatReport,
    Seat,
    SeatResult,
    Table,
    TableInvitation,
    TableMute,
    TableVote,
)
from rosbi_platform.accounts.personal_data import DataSection


def export_games(user: Any) -> dict[str, Any]:
    """The person's Parties with their own seat and result, and their rows at tables. No deal
    of any Partie is included, so no hand of anyone (theirs neither) leaves through here."""
    results = (
        SeatResult.objects.filter(Q(started_by=user) | Q(user=user, started_by__isnull=True))
        .select_related("partie__table")
        .order_by("partie__finished_at", "partie_id")
    )
    return {
        "parties": [
            {
                "partie_id": r.partie_id,
                "table_id": r.partie.table_id,
                "table": r.partie.table.name,
                "players": r.partie.table.size,
                "rated": r.partie.table.rated,
                "started_at": r.partie.started_at,
                "finished_at": r.partie.finished_at,
                "seat": r.seat,
                "total": r.total,
                "place": r.place,
                "left_at": r.left_at,
                "resigned": r.resigned,
            }
            for r in results
        ],
        "tables_owned": list(
            Table.objects.filter(owner=user)
            .order_by("created", "pk")
            .values("id", "name", "status", "rated", "public", "created", "finished_at")
        ),
        "seats_at_unfinished_tables": list(
            Seat.objects.filter(Q(user=user) | Q(started_by=user))
            .exclude(table__status=Table.Status.FINISHED)
            .order_by("table_id", "number")
            .values("table_id", "table__name", "table__status", "number", "away", "left_at")
        ),
        "chat_messages": list(
            ChatMessage.objects.filter(author=user)
            .order_by("created", "pk")
            .values("table_id", "channel", "text", "created")
        ),
        "muted_at": list(
            TableMute.objects.filter(user=user).order_by("created").values("table_id", "created")
        ),
        "mutes_given": list(
            TableMute.objects.filter(muted_by=user)
            .order_by("created")
            .values("table_id", "user__username", "created")
        ),
        "votes": list(
            TableVote.objects.filter(user=user)
            .order_by("created")
            .values("table_id", "kind", "seat", "created")
        ),
        "invitations_received": list(
            TableInvitation.objects.filter(user=user)
            .order_by("created")
            .values("table_id", "invited_by__username", "seat", "created")
        ),
        "invitations_sent": list(
            TableInvitation.objects.filter(invited_by=user)
            .order_by("created")
            .values("table_id", "user__username", "seat", "created")
        ),
        "chat_reports": list(
            ChatReport.objects.filter(reporter=user)
            .order_by("created")
            .values("message_id", "reason", "status", "created")
        ),
        "abandoned_rated_parties": list(
            Abandonment.objects.filter(user=user)
            .order_by("created")
            .values("partie_id", "partie__table_id", "kind", "created")
        ),
    }


def playing_refusal(user: Any) -> str | None:
    """An account is not deleted in the middle of a Partie: the others would suddenly play
    against a stranger's bot. The person finishes it, or leaves the table (a bot takes over)."""
    names = list(
        Seat.objects.filter(user=user, table__status=Table.Status.PLAYING)
        .order_by("table_id")
        .values_list("table__name", flat=True)
    )
    if not names:
        return None
    return _(
        "You are playing at %(tables)s: finish the Partie or leave the table first, "
        "then delete your account."
    ) % {"tables": ", ".join(f"“{name}”" for name in names)}


def leave_open_tables(user: Any) -> None:
    """At deletion: leave every table that has not started (the next player runs a table the
    person owned), drop invitations and votes at tables not finished, and the abandonment
    record (the results stay). Tournament tables are the tournaments app's: its withdrawal
    reseats the round."""
    open_seats = Seat.objects.filter(
        user=user, table__status=Table.Status.OPEN, table__tournament_round_id__isnull=True
    ).values_list("table_id", flat=True)
    for table_id in list(open_seats):
        lobby.leave_table(table_id, user)
    unfinished = ~Q(table__status=Table.Status.FINISHED)
    TableInvitation.objects.filter(unfinished, user=user).delete()
    TableVote.objects.filter(unfinished, user=user).delete()
    Abandonment.objects.filter(user=user).delete()


SECTION = DataSection(
    name="games",
    export=export_games,
    covers=(
        "games.SeatResult.user",
        "games.SeatResult.started_by",
        "games.Table.owner",
        "games.Seat.user",
        "games.Seat.started_by",
        "games.ChatMessage.author",
        "games.TableMute.user",
        "games.TableMute.muted_by",
        "games.TableVote.user",
        "games.TableInvitation.user",
        "games.TableInvitation.invited_by",
        "games.ChatReport.reporter",
        "games.Abandonment.user",
    ),
    excludes={
        "games.ChatReport.handled_by": "a moderator's handling of another person's report "
        "belongs to that report, kept for the moderation record",
    },
    refusal=playing_refusal,
    erase=leave_open_tables,
)
