"""Reads for live tables: snapshots per viewer, missed events, lobby lists, engine rebuilds.

A snapshot is built from the database alone (no process memory), which is what lets a table
resume after every server process restarted.
"""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass, replace
from typing import Any

from asgiref.sync import sync_to_async
from django.db import connection
from django.db.models import Count, Prefetch, Q, QuerySet

from games import presence
from games.engine import Deal
from games.live import facts
from games.live.replay import replay_steps
from games.live.state import is_outdated
from games.models import (
    Abandonment,
    ChatMessage,
    Partie,
    PartieDeal,
    Seat,
    SeatResult,
    Table,
    TableEvent,
    TableInvitation,
    TableMute,
    TableVote,
    table_group_name,
)
from games.outcomes import PartieOutcome, SeatOutcome, final_places
from rosbi_platform import async_db
from rosbi_platform.accounts import permissions
from rosbi_platform.friends import selectors as friends

MAX_REPLAY_EVENTS = 200
# The chat lines a snapshot carries: a reload or a late joiner sees the recent talk.
CHAT_HISTORY = 50


def format_deadline(moment: dt.datetime | None) -> str | None:
    """ISO 8601 UTC with milliseconds and a ``Z``, the form every clock frame uses."""
    if moment is None:
        return None
    text = moment.astimezone(dt.UTC).isoformat(timespec="milliseconds")
    return text.replace("+00:00", "Z")


def user_display_name(user: Any) -> str:
    """The name other players see: the profile's display name, else the user name."""
    # Users made by createsuperuser may have no profile yet: the accessor raises an
    # AttributeError subclass then, which getattr turns into None.
    profile = getattr(user, "profile", None)
    if profile is not None and profile.display_name:
        return profile.display_name
    return user.get_username()


def seat_info(seat: Seat) -> dict[str, Any]:
    """A seat as every frame shows it; ``name`` is None for an empty seat."""
    if seat.user_id is not None:
        name: str | None = user_display_name(seat.user)
    elif seat.bot_level:
        name = f"Bot ({seat.bot_level})"
    else:
        name = None
    return {
        "seat": seat.number,
        "name": name,
        "user_id": seat.user_id,
        "bot_level": seat.bot_level or None,
        "away": seat.away,
    }


def seats_of(table: Table) -> list[Seat]:
    """The table's seats in order, with users and profiles in the same query."""
    return list(
        Seat.objects.filter(table=table).select_related("user", "user__profile").order_by("number")
    )


def play_seats(table: Table) -> list[Seat]:
    """The table's seats in order without users or profiles: what a move needs (the mover's
    seat, who is on turn, bots and away flags). A name is loaded lazily if an event needs it."""
    return list(Seat.objects.filter(table_id=table.pk).order_by("number"))


def rebuild_deal(row: PartieDeal, table: Table) -> Deal:
    """The engine's deal after every stored move: the one source of truth for rules checks."""
    deal = Deal(table.size, row.contract, row.dealer, row.hands, table.rules)
    for move in row.moves:
        deal.play(move)
    return deal


def current_deal_row(table: Table, *, with_partie: bool = True) -> PartieDeal | None:
    """The table's latest deal row; ``with_partie=False`` for moves, which need the Partie
    (its seed, the score sheet) only when a deal ends or a bot chooses."""
    deals = PartieDeal.objects.filter(partie__table_id=table.pk).order_by("-number")
    if with_partie:
        deals = deals.select_related("partie")
    return deals.first()


@dataclass(frozen=True)
class ViewerAccess:
    """Who is looking at a table: the seat (None for spectators) and whether they may look."""

    table_id: int
    seat: int | None
    allowed: bool
    group: str
    card_look: str = "german"


def viewer_access(table_id: int, user: Any, invite: str | None) -> ViewerAccess | None:
    """None when the table does not exist; spectators of private tables need the invite code.

    One prepared statement (seat, card look and invitation as subqueries): a socket's handshake
    runs it, and a reconnect storm runs it thousands of times in seconds. Built by the ORM it
    cost about 5 ms of CPU per call in query construction and compilation alone
    (``bench/live_handshake.py``), more than the rest of the handshake.
    """
    with connection.cursor() as cursor:
        cursor.execute(_viewer_access_sql(), {"table": table_id, "user": user.pk})
        row = cursor.fetchone()
    access = _viewer_access_from_row(table_id, invite, row)
    if access is not None and not access.allowed and permissions.is_site_moderator(user):
        access = replace(access, allowed=True)
    return access


async def aviewer_access(table_id: int, user: Any, invite: str | None) -> ViewerAccess | None:
    """`viewer_access` on the event loop (`rosbi_platform.async_db`): the handshake's read."""
    row = await async_db.fetch_one(_viewer_access_sql(), {"table": table_id, "user": user.pk})
    access = _viewer_access_from_row(table_id, invite, row)
    # The rare refusal asks the moderator rule on a thread (a query of Django's permissions).
    if (
        access is not None
        and not access.allowed
        and await sync_to_async(permissions.is_site_moderator)(user)
    ):
        access = replace(access, allowed=True)
    return access


def _viewer_access_from_row(
    table_id: int, invite: str | None, row: tuple | None
) -> ViewerAccess | None:
    if row is None:
        return None
    public, invite_code, seat, look, invited = row
    allowed = open_to_viewer(
        public=public,
        invite_matches=invite is not None and invite == invite_code,
        seated=seat is not None,
        invited=bool(invited),
    )
    return ViewerAccess(
        table_id=table_id,
        seat=seat,
        allowed=allowed,
        group=table_group_name(table_id, invite_code),
        card_look=look or "german",
    )


@functools.cache
def _viewer_access_sql() -> str:
    from rosbi_platform.accounts.models import Profile

    def column(model: Any, name: str) -> str:
        return connection.ops.quote_name(model._meta.get_field(name).column)

    def table(model: Any) -> str:
        return connection.ops.quote_name(model._meta.db_table)

    return (
        f"SELECT t.{column(Table, 'public')}, t.{column(Table, 'invite_code')}, "
        f"(SELECT s.{column(Seat, 'number')} FROM {table(Seat)} s "
        f"WHERE s.{column(Seat, 'table')} = t.{column(Table, 'id')} "
        f"AND s.{column(Seat, 'user')} = %(user)s LIMIT 1), "
        f"(SELECT p.{column(Profile, 'card_look')} FROM {table(Profile)} p "
        f"WHERE p.{column(Profile, 'user')} = %(user)s LIMIT 1), "
        f"EXISTS (SELECT 1 FROM {table(TableInvitation)} i "
        f"WHERE i.{column(TableInvitation, 'table')} = t.{column(Table, 'id')} "
        f"AND i.{column(TableInvitation, 'user')} = %(user)s) "
        f"FROM {table(Table)} t WHERE t.{column(Table, 'id')} = %(table)s"
    )


def is_invited(table_id: int, user: Any) -> bool:
    """Whether ``user`` holds an invitation to the table (private tables let them in)."""
    return TableInvitation.objects.filter(table_id=table_id, user_id=user.pk).exists()


def invitations_for(user: Any, limit: int = 20) -> list[TableInvitation]:
    """The open tables ``user`` is invited to (the lobby lists them), newest first."""
    return list(
        TableInvitation.objects.filter(user=user, table__status=Table.Status.OPEN)
        .select_related("table", "invited_by", "invited_by__profile")
        .order_by("-created")[:limit]
    )


def user_by_id(user_id: Any) -> Any:
    """The user with this id, or None (also for ids that are not whole numbers)."""
    from django.contrib.auth import get_user_model

    if not isinstance(user_id, int) or isinstance(user_id, bool):
        return None
    return get_user_model().objects.filter(pk=user_id).first()


def card_look_of(user: Any) -> str:
    """The pack a player's table shows: their profile's card look ("german" by default)."""
    from rosbi_platform.accounts.models import Profile

    look = Profile.objects.filter(user_id=user.pk).values_list("card_look", flat=True).first()
    return look or "german"


def seat_of_user(table_id: int, user: Any) -> int | None:
    """The seat ``user`` holds at the table, or None. A visitor (no ``pk``) holds none: a
    bot's seat also has no user, and ``user_id=None`` would find it."""
    if getattr(user, "pk", None) is None:
        return None
    return (
        Seat.objects.filter(table_id=table_id, user_id=user.pk)
        .values_list("number", flat=True)
        .first()
    )


def table_summary(table: Table, seats: list[Seat] | None = None) -> dict[str, Any]:
    seats = seats if seats is not None else seats_of(table)
    return {
        "id": table.pk,
        "name": table.name,
        "size": table.size,
        "status": table.status,
        "owner_user_id": table.owner_id,
        "rules": table.rules.to_dict(),
        "rated": table.rated,
        "public": table.public,
        "turn_seconds": table.turn_seconds,
        "seats": [seat_info(s) for s in seats],
    }


def build_snapshot(table_id: int, user: Any) -> dict[str, Any]:
    """The ``snapshot`` frame for ``user``: their seat's view, or the public one for spectators.

    A handful of queries whatever the table's history: table, seats, deals (the rebuild is in
    memory), and the talk and votes around the game (chat, mutes, votes, invitations).
    """
    table = Table.objects.get(pk=table_id)
    seats = seats_of(table)
    # A viewer without an account holds no seat, never a bot's (whose ``user_id`` is None too).
    viewer_pk = getattr(user, "pk", None)
    my_seat = next(
        (s.number for s in seats if viewer_pk is not None and s.user_id == viewer_pk), None
    )
    partie_data = None
    deal_view = None
    rows = list(
        PartieDeal.objects.filter(partie__table_id=table_id)
        .select_related("partie")
        .order_by("number")
    )
    if rows:
        partie = rows[0].partie
        score_sheet = [list(r.penalties) for r in rows if r.penalties is not None]
        totals = [sum(column) for column in zip(*score_sheet, strict=True)] or [0] * table.size
        places = None
        if table.status == Table.Status.FINISHED:
            places = final_places(totals, [s.resigned for s in seats])
        partie_data = {
            "first_dealer": partie.first_dealer,
            "deal_number": rows[-1].number,
            "score_sheet": score_sheet,
            "totals": totals,
            "places": places,
            "resigned": [s.number for s in seats if s.resigned],
        }
        if table.status != Table.Status.ABORTED:
            deal_view = facts.deal_view(rebuild_deal(rows[-1], table), my_seat)
    clock = None
    if table.turn_deadline is not None:
        clock = {
            "seat": table.turn_seat,
            "deadline": format_deadline(table.turn_deadline),
            "seconds": table.turn_seconds,
        }
    return {
        "type": "snapshot",
        "version": table.version,
        "you": {
            "user_id": user.pk,
            "seat": my_seat,
            "role": "player" if my_seat is not None else "spectator",
        },
        # A site moderator or an organiser of the table's club (the owner may mute too).
        "moderator": is_moderator(table, user),
        "table": table_summary(table, seats),
        "partie": partie_data,
        "deal": deal_view,
        "clock": clock,
        "votes": votes_of(table),
        "rematch_table_id": rematch_table_id(table),
        "invitations": invitations_of(table),
        # Not table state (no version): what the client keeps beside it, like chat frames.
        "chat": chat_history(table, user, seated=my_seat is not None),
        "mutes": mutes_of(table),
    }


def is_moderator(table: Table, user: Any) -> bool:
    """Site moderators, or an owner or organiser of the club the table belongs to (tournament
    tables): they may mute at the table (``accounts.permissions``; ``is_staff`` gives nothing).
    The table's owner may too (``may_moderate``); clients read the owner from
    ``table.owner_user_id``, which can change while the table is open."""
    if table.club_id is None:
        return permissions.is_site_moderator(user)
    return permissions.may_manage_club(user, table.club_id)


def may_moderate(table: Table, user: Any) -> bool:
    """Whether ``user`` may mute and unmute at ``table``: its owner, site moderators, the
    organisers of its club."""
    return (table.owner_id is not None and table.owner_id == user.pk) or is_moderator(table, user)


def votes_of(table: Table) -> dict[str, list[int]]:
    """The seats that voted to abort (before the first card) and for a rematch (at the end)."""
    votes: dict[str, list[int]] = {kind: [] for kind in TableVote.Kind.values}
    if table.status in (Table.Status.PLAYING, Table.Status.FINISHED):
        for kind, seat in TableVote.objects.filter(table=table).values_list("kind", "seat"):
            votes[kind].append(seat)
    return {kind: sorted(seats) for kind, seats in votes.items()}


def rematch_table_id(table: Table) -> int | None:
    """The table of this one's rematch, once it started."""
    if table.status != Table.Status.FINISHED:
        return None
    return Table.objects.filter(rematch_of=table).values_list("pk", flat=True).first()


def invitation_info(invitation: TableInvitation) -> dict[str, Any]:
    return {
        "user_id": invitation.user_id,
        "name": user_display_name(invitation.user),
        "seat": invitation.seat,
    }


def invitations_of(table: Table) -> list[dict[str, Any]]:
    """Who is invited to an open table (and to which seat, held for them), oldest first."""
    if table.status != Table.Status.OPEN:
        return []
    invitations = (
        TableInvitation.objects.filter(table=table)
        .select_related("user", "user__profile")
        .order_by("created", "pk")
    )
    return [invitation_info(i) for i in invitations]


def chat_event(message: ChatMessage, author: Any) -> dict[str, Any]:
    """A chat line as the ``chat`` event carries it (and the snapshot's history)."""
    return {
        "kind": "chat",
        "channel": message.channel,
        "id": message.pk,
        "author": user_display_name(author),
        "author_id": message.author_id,
        "text": message.text,
        "at": format_deadline(message.created),
    }


def chat_history(table: Table, user: Any, *, seated: bool) -> list[dict[str, Any]]:
    """The last ``CHAT_HISTORY`` lines ``user`` may read, oldest first: players read the
    players' channel, spectators both; lines of players ``user`` blocked are left out."""
    lines = ChatMessage.objects.filter(table=table)
    if seated:
        lines = lines.filter(channel=ChatMessage.Channel.PLAYERS)
    lines = lines.exclude(author_id__in=friends.blocked_by_query(user.pk))
    recent = list(
        lines.select_related("author", "author__profile").order_by("-created", "-pk")[:CHAT_HISTORY]
    )
    return [chat_event(m, m.author) for m in reversed(recent)]


def mutes_of(table: Table) -> list[dict[str, Any]]:
    """Who is muted at the table (their chat is refused)."""
    mutes = TableMute.objects.filter(table=table).select_related("user", "user__profile")
    return [{"user_id": m.user_id, "name": user_display_name(m.user)} for m in mutes.order_by("pk")]


def events_since(table_id: int, version: int) -> list[dict[str, Any]] | None:
    """Stored events after ``version`` in order, or None when a snapshot is the better answer
    (more than ``MAX_REPLAY_EVENTS`` missed, a version the table never had, or an event stored
    before its kind carried the facts clients copy)."""
    with connection.cursor() as cursor:  # the usual reconnect asks only this: kept cheap
        cursor.execute(_table_version_sql(), [table_id])
        found = cursor.fetchone()
    return _events_after(table_id, version, found[0] if found else None)


async def table_version_now(table_id: int) -> int | None:
    """The table's version on the event loop (`rosbi_platform.async_db`), None if no table:
    a reconnect that missed nothing needs no more (`events_since` answers the rest)."""
    found = await async_db.fetch_one(_table_version_sql(), [table_id])
    return found[0] if found else None


def nothing_missed(version: int, current: int | None) -> bool:
    """Whether a client at ``version`` is up to date with a table at ``current``."""
    return current is not None and version == current


def _events_after(table_id: int, version: int, current: int | None) -> list[dict[str, Any]] | None:
    if current is None or version < 0 or version > current:
        return None
    if current - version > MAX_REPLAY_EVENTS:
        return None
    if nothing_missed(version, current):
        return []  # the usual reconnect
    events = TableEvent.objects.filter(table_id=table_id, version__gt=version).order_by("version")
    messages = [e.as_message() for e in events]
    if any(is_outdated(m["event"]) for m in messages):
        return None  # stored before events carried their facts: the snapshot has them
    return messages


@functools.cache
def _table_version_sql() -> str:
    quote = connection.ops.quote_name
    return (
        f"SELECT {quote(Table._meta.get_field('version').column)} FROM {quote(Table._meta.db_table)} "
        f"WHERE {quote(Table._meta.pk.column)} = %s"
    )


def events_between(table_id: int, after: int, up_to: int) -> list[dict[str, Any]]:
    """Stored events with ``after < version <= up_to``: fills a gap the channel layer left."""
    events = TableEvent.objects.filter(
        table_id=table_id, version__gt=after, version__lte=up_to
    ).order_by("version")
    return [e.as_message() for e in events]


def open_tables(limit: int = 100) -> list[Table]:
    """Public tables waiting for players, newest first, seats prefetched (no N+1)."""
    seats = Prefetch(
        "seats", queryset=Seat.objects.select_related("user", "user__profile").order_by("number")
    )
    return list(
        Table.objects.filter(status=Table.Status.OPEN, public=True)
        .prefetch_related(seats)
        .order_by("-created")[:limit]
    )


def open_tables_json(limit: int = 100) -> list[dict[str, Any]]:
    return [table_summary(t, list(t.seats.all())) for t in open_tables(limit)]


def tables_of_user(user: Any, limit: int = 20) -> list[Table]:
    """The user's tables that are not finished (for 'your tables' in the lobby)."""
    return list(
        Table.objects.filter(seats__user=user)
        .exclude(status__in=(Table.Status.FINISHED, Table.Status.ABORTED, Table.Status.CLOSED))
        .order_by("-created")[:limit]
    )


def replay_data(table: Table, *, with_steps: bool = True) -> dict[str, Any] | None:
    """The replay page's data; None before a Partie.

    ``partie_record`` is the RULES.md Partie record (also the JSON export), ``seats`` the
    seats, and ``replay_steps`` (unless ``with_steps`` is false) every step of every deal as
    the engine computes it (``games.live.replay.replay_steps``): the page draws them and
    derives nothing.
    """
    partie = getattr(table, "partie", None)
    if partie is None:
        return None
    record = partie.to_record()
    data = {
        "partie_record": record.to_dict(),
        "seats": [seat_info(s) for s in seats_of(table)],
    }
    if with_steps:
        data["replay_steps"] = replay_steps(record)
    return data


def partie_outcome(partie_id: int) -> PartieOutcome:
    """The typed result of a finished Partie that ``partie_finished`` hands to other apps."""
    partie = Partie.objects.select_related("table").get(pk=partie_id)
    table = partie.table
    seats = tuple(
        SeatOutcome(
            seat=result.seat,
            user_id=result.started_by_id if result.started_by_id is not None else result.user_id,
            bot_level=result.bot_level or None,
            total=result.total,
            place=result.place,
            left_at=result.left_at if result.started_by_id is not None else None,
            resigned=result.resigned,
        )
        for result in partie.results.order_by("seat")
    )
    return PartieOutcome(
        partie_id=partie.pk,
        table_id=table.pk,
        players=table.size,
        started_at=partie.started_at,
        finished_at=partie.finished_at or table.finished_at or partie.started_at,
        rated=table.rated,
        rating_pool=table.rating_pool,
        ranked_queue=table.ranked_queue,
        tournament_round_id=table.tournament_round_id,
        seats=seats,
    )


def seats_with_own_moves(table_id: int) -> set[int]:
    """Seats whose player made at least one move of their own (not a bot standing in)."""
    moved = TableEvent.objects.filter(table_id=table_id, kind="move", data__by_bot=False)
    return {int(seat) for seat in moved.values_list("data__seat", flat=True)}


@dataclass(frozen=True)
class FriendOnline:
    """A followed player with a lobby or table page open: the tables ``viewer`` may open
    (public ones, or ones they sit at or are invited to) and how many other tables."""

    name: str
    username: str
    in_lobby: bool
    tables: list[tuple[int, str]]
    private_tables: int


def friends_online(viewer: Any) -> list[FriendOnline]:
    """The players ``viewer`` follows who are online now (not those who blocked them)."""
    hidden = friends.blocker_ids(viewer.pk)
    followed = [f for f in friends.followed_users(viewer) if f.pk not in hidden]
    places = presence.places_of(f.pk for f in followed)
    table_ids = {
        int(place.split(":", 1)[1])
        for found in places.values()
        for place in found
        if place.startswith("table:") and place.split(":", 1)[1].isdigit()
    }
    tables = Table.objects.filter(pk__in=table_ids).only("id", "name", "public").in_bulk()
    mine = set(
        Seat.objects.filter(table_id__in=table_ids, user_id=viewer.pk).values_list(
            "table_id", flat=True
        )
    ) | set(
        TableInvitation.objects.filter(table_id__in=table_ids, user_id=viewer.pk).values_list(
            "table_id", flat=True
        )
    )
    online = []
    for friend in followed:
        found = places.get(friend.pk)
        if not found:
            continue
        visible, private = [], 0
        for place in found:
            if not place.startswith("table:"):
                continue
            table = tables.get(int(place.split(":", 1)[1]))
            if table is None:
                continue
            if table.public or table.pk in mine:
                visible.append((table.pk, table.name))
            else:
                private += 1
        online.append(
            FriendOnline(
                name=user_display_name(friend),
                username=friend.get_username(),
                in_lobby=presence.LOBBY in found,
                tables=visible,
                private_tables=private,
            )
        )
    return online


# --------------------------------------------------------------------------- the API's reads


def visible_tables(user: Any, statuses: list[str] | None = None) -> QuerySet[Table]:
    """Tables ``user`` may see in lists, by ``open_to_viewer`` as a filter: public ones, and
    private ones they sit at or are invited to (a list has no invite code); site moderators see
    every table (its name and seats, never a hand). Open and playing unless ``statuses`` says
    otherwise, newest first."""
    statuses = statuses or [Table.Status.OPEN, Table.Status.PLAYING]
    tables = Table.objects.filter(status__in=statuses)
    if not permissions.is_site_moderator(user):
        visible = Q(public=True)
        if getattr(user, "is_authenticated", False):
            visible |= Q(seats__user_id=user.pk) | Q(invitations__user_id=user.pk)
        tables = tables.filter(visible)
    seats = Prefetch(
        "seats", queryset=Seat.objects.select_related("user", "user__profile").order_by("number")
    )
    return tables.distinct().prefetch_related(seats).order_by("-created", "-pk")


def open_to_viewer(*, public: bool, invite_matches: bool, seated: bool, invited: bool) -> bool:
    """The one rule of who may look at a table, site moderators aside: a public table is
    everybody's; a private one its players', the holders of its invite link and the people
    invited to it. ``may_see_table`` (pages, API, lobby) and the websocket handshake's
    ``viewer_access`` both ask it, each with facts read its own way."""
    return public or invite_matches or seated or invited


def may_see_table(table: Table, user: Any, invite: str | None = None) -> bool:
    """Whether ``user`` may see the table's public facts (name, seats, status; never a hand):
    ``open_to_viewer``, or a site moderator. The facts are the handshake's own read
    (``viewer_access``: one prepared statement for seat and invitation), so pages, the API and
    the websocket decide with the same facts and the same rule."""
    access = viewer_access(table.pk, user, invite)
    return access is not None and access.allowed


# --------------------------------------------------------------------------- who sees a Partie
#
# The one rule for "what may this viewer see of that player's games": a public table's
# Parties are everybody's; a private table's Parties only those who played in them (seated at
# the end, or started and left) and, once finished, site moderators (to look into reports and
# collusion). Every page, API endpoint and export that lists Parties, their results, rating
# changes, tablemates or deals filters with ``parties_visible_to`` or asks ``may_see_partie``.
# A deal in progress is never shown through these: only finished Parties are listed, and the
# live table gives each client its own hand only.


def parties_visible_to(viewer: Any, path: str = "") -> Q:
    """A filter for the Parties ``viewer`` may see; ``path`` is the lookup from the queried
    model to its Partie (``"partie__"`` for seat results and rating changes, ``""`` for
    Parties themselves)."""
    if permissions.is_site_moderator(viewer):
        return Q()
    visible = Q(**{f"{path}table__public": True})
    if getattr(viewer, "is_authenticated", False):
        played = SeatResult.objects.filter(
            Q(user_id=viewer.pk) | Q(started_by_id=viewer.pk)
        ).values("partie_id")
        visible |= Q(**{f"{path}pk__in" if path == "" else f"{path}id__in": played})
    return visible


def may_see_partie(viewer: Any, partie: Partie) -> bool:
    """Whether ``viewer`` may see this Partie: its table, result, rating changes and, once it
    is finished, its deals (``parties_visible_to``)."""
    return Partie.objects.filter(parties_visible_to(viewer), pk=partie.pk).exists()


def finished_parties(user: Any, player_id: int | None = None) -> QuerySet[Partie]:
    """Finished Parties ``user`` may see (``parties_visible_to``), newest first.
    ``player_id`` keeps only the Parties that player played."""
    parties = Partie.objects.filter(parties_visible_to(user), finished_at__isnull=False)
    if player_id is not None:
        parties = parties.filter(
            pk__in=SeatResult.objects.filter(
                Q(user_id=player_id) | Q(started_by_id=player_id)
            ).values("partie_id")
        )
    results = Prefetch(
        "results",
        queryset=SeatResult.objects.select_related("user", "user__profile").order_by("seat"),
    )
    return parties.select_related("table").prefetch_related(results).order_by("-finished_at", "-pk")


def finished_parties_version() -> str:
    """What changes whenever a Partie finishes: the newest finished one (id and time). A
    list of finished Parties built at one version reads the same until the next."""
    newest = (
        Partie.objects.filter(finished_at__isnull=False)
        .order_by("-finished_at", "-pk")
        .values_list("pk", "finished_at")
        .first()
    )
    return f"{newest[0]}@{newest[1].isoformat()}" if newest else "none"


def deal_records(partie: Partie) -> list[dict[str, Any]]:
    """The Partie's deals as RULES.md deal records, each with the table's house rules so a
    line scores alone (``python -m games.engine score``)."""
    rules = partie.table.rules.to_dict()
    return [
        {**row.to_record().to_dict(), "rules": rules}
        for row in PartieDeal.objects.filter(partie=partie).order_by("number")
    ]


def scored_deals(partie_ids: list[int]) -> list[tuple[int, str, list[int]]]:
    """(Partie id, contract, penalties) of every scored deal of these Parties, for statistics
    (``ratings.profile_selectors``): no hand, no move. The caller chose Parties its viewer may
    see (``parties_visible_to``)."""
    return list(
        PartieDeal.objects.filter(partie_id__in=partie_ids, penalties__isnull=False).values_list(
            "partie_id", "contract", "penalties"
        )
    )


def partie_penalties(partie: Partie) -> list[list[int]]:
    """The stored penalties of the Partie's finished deals, in order."""
    rows = PartieDeal.objects.filter(partie=partie, penalties__isnull=False).order_by("number")
    return [list(row.penalties) for row in rows]


def finished_results_of(user: Any, viewer: Any) -> QuerySet[SeatResult]:
    """The seat results of the finished Parties ``user`` sat in (including those they left,
    where a bot finished the seat) that ``viewer`` may see (``parties_visible_to``). Finished
    Parties only: no hand of a deal in progress is ever reachable."""
    seats = SeatResult.objects.filter(
        Q(user=user) | Q(started_by=user),
        parties_visible_to(viewer, "partie__"),
        partie__finished_at__isnull=False,
    )
    return seats.select_related("partie__table")


def abandonment_times(
    user: Any, since: dt.datetime, until: dt.datetime | None = None
) -> list[dt.datetime]:
    """When ``user`` abandoned rated Parties from ``since`` (to ``until``), oldest first
    (``games.abandonments``; read by ``ratings.abandon_cooldown``)."""
    rows = Abandonment.objects.filter(user_id=user.pk, created__gte=since)
    if until is not None:
        rows = rows.filter(created__lte=until)
    return list(rows.order_by("created").values_list("created", flat=True))


def abandonments_of(user: Any) -> QuerySet[Abandonment]:
    """Every abandoned rated Partie of ``user``, newest first, with its table."""
    return Abandonment.objects.filter(user_id=user.pk).select_related("partie__table")


def tablemates_of(user: Any, viewer: Any, limit: int = 5) -> list[tuple[str, int]]:
    """The players ``user`` sat with most often in finished Parties ``viewer`` may see: (user
    name, Parties together), most first."""
    partie_ids = finished_results_of(user, viewer).values("partie_id")
    counts = (
        SeatResult.objects.filter(partie_id__in=partie_ids, user__isnull=False)
        .exclude(user_id=user.pk)
        .values("user__username")
        .annotate(n=Count("partie_id", distinct=True))
        .order_by("-n", "user__username")[:limit]
    )
    return [(row["user__username"], row["n"]) for row in counts]
