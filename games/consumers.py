"""Websocket consumers: one table (players and spectators) and the lobby's live list.

Thin by design: every write goes through the games action modules (``moves``, ``clocks``,
``chat``), every read through ``games.selectors``, and the per-viewer filtering is the pure
``games.live.state`` function.
The consumer remembers the last version it sent to its client so that it can drop events the
snapshot already contains and fill gaps the channel layer (at most once) left, from the DB.
"""

from __future__ import annotations

import json
import logging
import time
from types import SimpleNamespace
from typing import Any
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError
from django.utils import translation
from django.utils.translation import gettext as _

from games import chat, clocks, hints, moves, presence, reports, selectors
from games.events import LOBBY_GROUP, MoveResult, ServiceError
from games.live import messages
from games.live.positions import positions
from games.live.state import frame_for_viewer, viewer_key
from games.models import user_group_name
from rosbi_platform.db_threads import ThreadGroup
from rosbi_platform.friends import selectors as friends

logger = logging.getLogger(__name__)

CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
# How long a socket trusts its list of the players its user blocked before reading it again
# (when a chat line arrives): a block made in another tab applies within this time.
BLOCKS_REFRESH_SECONDS = 10.0


def _submit_move_now(*args: Any, **kwargs: Any) -> MoveResult:
    return moves.submit_move(*args, **kwargs)


# The threads (and so at most the database connections) each worker gives to moves. A move
# that met a dead connection (PostgreSQL restarted) is sent once more on a fresh one by
# ``TableConsumer.handle_move``, which the move's version makes safe (applied once, a resend
# is acknowledged).
MOVE_THREADS = 6
move_threads = ThreadGroup("games-move", MOVE_THREADS)
_submit_move = move_threads.call(_submit_move_now)

# A socket's handshake reads (access, replay) run on threads of their own, beside the one
# thread Channels gives to all sync code of a worker: in a reconnect storm thousands of
# handshakes would otherwise wait for each other's database round trips one by one.
HANDSHAKE_THREADS = 3
handshake_threads = ThreadGroup("games-handshake", HANDSHAKE_THREADS)

# Hints think for about 0.2 s of CPU each: on threads of their own, so they never hold up the
# worker's shared sync thread (or the move threads), and at most this many at once.
HINT_THREADS = 2
hint_threads = ThreadGroup("games-hint", HINT_THREADS)
_suggest_move = hint_threads.call(hints.suggest_move)


class _FrameCache:
    """Encoded ``event`` frames by (group, version, viewer key), shared by every socket of the
    process: an event is filtered and JSON-encoded once per distinct frame (two for a move:
    the seat on turn and everyone else), not once per socket. Stored events never change, so
    entries need no invalidation; the oldest go first past ``capacity``. One event loop
    thread uses it, so it needs no lock."""

    def __init__(self, capacity: int = 4096) -> None:
        self.capacity = capacity
        self._frames: dict[tuple[str, int, Any], str] = {}

    def text(self, group: str, stored: dict[str, Any], seat: int | None) -> str:
        key = (group, stored["version"], viewer_key(stored["event"], seat))
        text = self._frames.get(key)
        if text is None:
            text = json.dumps(frame_for_viewer(stored, seat))
            self._frames[key] = text
            if len(self._frames) > self.capacity:
                del self._frames[next(iter(self._frames))]
        return text


_frames = _FrameCache()


class _Bucket:
    """A token bucket: ``capacity`` frames at once, refilled at ``rate`` per second."""

    def __init__(self, capacity: float, rate: float) -> None:
        self.capacity = capacity
        self.rate = rate
        self.tokens = capacity
        self.stamp = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class _UserBuckets:
    """One frame bucket per user, shared by all of that user's sockets in this process, so
    opening more tabs (or a program opening many sockets) buys no extra rate. Dropped when
    the user's last socket closes."""

    def __init__(self) -> None:
        self._buckets: dict[int, tuple[_Bucket, int]] = {}

    def join(self, user_id: int) -> _Bucket:
        burst, per_second = getattr(settings, "GAMES_WS_USER_FRAME_LIMIT", (60, 20))
        bucket, sockets = self._buckets.get(user_id, (None, 0))
        if bucket is None:
            bucket = _Bucket(capacity=burst, rate=per_second)
        self._buckets[user_id] = (bucket, sockets + 1)
        return bucket

    def leave(self, user_id: int) -> None:
        bucket, sockets = self._buckets.get(user_id, (None, 0))
        if bucket is None:
            return
        if sockets <= 1:
            del self._buckets[user_id]
        else:
            self._buckets[user_id] = (bucket, sockets - 1)


_user_frames = _UserBuckets()


class _NoConnectionChurn:
    """Dispatch without Channels' ``aclose_old_connections`` before every message.

    Channels 4.2+ hops to the shared sync thread to close old connections before *each*
    handler: for every frame and every group message of every socket (four sockets per move
    event at a four-seat table), although these consumers reach the database only through
    ``database_sync_to_async`` (or a ``ThreadGroup``), which look after their connections
    themselves.
    """

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


class TableConsumer(_NoConnectionChurn, AsyncJsonWebsocketConsumer):
    """``/ws/tables/<id>/``: snapshot on connect, filtered events, moves, sync, chat."""

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = self.scope.get("user")
        self.seat: int | None = None
        self.sent_version = -1
        self.group: str | None = None
        self.user_frames: _Bucket | None = None
        burst, per_second = getattr(settings, "GAMES_WS_FRAME_LIMIT", (30, 10))
        self.frames = _Bucket(capacity=burst, rate=per_second)
        self.chats = _Bucket(capacity=5, rate=0.5)
        self.hints = _Bucket(capacity=3, rate=0.2)
        self.language = _language_of(self.scope)
        self.card_look = "german"
        # Accept first so that browsers can read the close code (a refused handshake has none).
        await self.accept()
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.user_frames = _user_frames.join(self.user.pk)
        query = parse_qs(self.scope.get("query_string", b"").decode())
        invite = query.get("invite", [None])[0]
        access = await selectors.aviewer_access(self.table_id, self.user, invite)
        if access is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        if not access.allowed:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.seat = access.seat
        self.group = access.group
        self.card_look = access.card_look
        # Read when the first chat line arrives (``table_chat``), not in the handshake.
        self.blocked: frozenset[int] | set[int] = frozenset()
        self.blocks_read_at: float | None = None
        # Join before reading the state: an event committed in between is then queued for us
        # and dropped by version if the snapshot already holds it.
        await self.channel_layer.group_add(self.group, self.channel_name)
        self.place = presence.table_place(self.table_id)
        presence.mark_present(self.user.pk, self.place)
        since = query.get("since", [None])[0]
        if since is not None and since.isdigit() and await self.replay(int(since)):
            return
        await self.send_snapshot()

    async def disconnect(self, code: int) -> None:
        if getattr(self, "user_frames", None) is not None:
            _user_frames.leave(self.user.pk)
            self.user_frames = None
        if self.group is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            presence.mark_absent(self.user.pk, self.place)

    async def load_blocks(self) -> None:
        self.blocked = await database_sync_to_async(friends.blocked_ids)(self.user.pk)
        self.blocks_read_at = time.monotonic()

    # ------------------------------------------------------------------ to the client

    async def send_snapshot(self) -> None:
        snapshot = await database_sync_to_async(selectors.build_snapshot)(self.table_id, self.user)
        self.seat = snapshot["you"]["seat"]
        self.sent_version = snapshot["version"]
        await self.send_json(snapshot)

    async def replay(self, version: int) -> bool:
        """Send the events after ``version``; False when a snapshot must be sent instead."""
        if selectors.nothing_missed(version, await selectors.table_version_now(self.table_id)):
            self.sent_version = max(self.sent_version, version)  # the usual reconnect
            return True
        messages = await handshake_threads.call(selectors.events_since)(self.table_id, version)
        if messages is None:
            return False
        for message in messages:
            await self.send_json(frame_for_viewer(message, self.seat))
        if messages:
            self.sent_version = max(self.sent_version, messages[-1]["version"])
        else:
            self.sent_version = max(self.sent_version, version)
        return True

    async def table_events(self, message: dict[str, Any]) -> None:
        """Group message: stored events in full; each viewer gets its own filtered frames."""
        # Keep this process's cached position of the table in step (once per process: the
        # other consumers of the table find it already at this version).
        positions.follow(self.table_id, message["events"])
        for stored in message["events"]:
            version = stored["version"]
            if version <= self.sent_version:
                continue
            if version > self.sent_version + 1:
                missed = await database_sync_to_async(selectors.events_between)(
                    self.table_id, self.sent_version, version - 1
                )
                for earlier in missed:
                    if await self.forward(earlier):
                        return
            if await self.forward(stored):
                return

    async def forward(self, stored: dict[str, Any]) -> bool:
        """Send one stored event; True when it moved this viewer (a fresh snapshot was sent)."""
        event = stored["event"]
        if event["kind"] == "seat_changed" and self.moves_me(event):
            await self.send_snapshot()
            return True
        assert self.group is not None
        await self.send(text_data=_frames.text(self.group, stored, self.seat))
        self.sent_version = stored["version"]
        return False

    def moves_me(self, event: dict[str, Any]) -> bool:
        """Did this seat change make the viewer a player, a spectator, or move their seat?"""
        mine_now = event["user_id"] == self.user.pk
        return (mine_now and self.seat != event["seat"]) or (
            not mine_now and self.seat == event["seat"]
        )

    async def table_chat(self, message: dict[str, Any]) -> None:
        chat = message["chat"]
        # Spectators read the players' chat; players do not see the spectators' one.
        if chat["channel"] == "spectators" and self.seat is not None:
            return
        # Lines of players this user blocked are not delivered to them.
        read_at = self.blocks_read_at
        if read_at is None or time.monotonic() - read_at >= BLOCKS_REFRESH_SECONDS:
            await self.load_blocks()
        if chat.get("author_id") in self.blocked:
            return
        await self.send_json({"type": "event", "version": None, "event": chat})

    async def table_notice(self, message: dict[str, Any]) -> None:
        """Versionless news for everyone at the table (a player muted or unmuted)."""
        await self.send_json({"type": "event", "version": None, "event": message["notice"]})

    # ------------------------------------------------------------------ from the client

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # Replies are worded in the language of the page that opened the socket; the context
        # (and so the language) follows the call into the database threads.
        with translation.override(self.language), messages.card_look(self.card_look):
            try:
                content = json.loads(text_data or "")
            except (ValueError, RecursionError):  # not JSON, or nested too deeply to read
                await self.send_error(None, "bad_request", _("Frames are JSON text."))
                return
            await self.receive_json(content)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict):
            await self.send_error(None, "bad_request", _("A frame is a JSON object with a type."))
            return
        client_id = content.get("id")
        if not (self.frames.take() and self.user_frames.take()):
            await self.send_error(client_id, "rate_limited", _("Slow down a little."))
            return
        try:
            await self.handle_frame(content, client_id)
        except DatabaseError:
            # The database is out of reach (restarting, failing over): the socket stays open
            # and the client hears what to do. A move either committed before the failure
            # (its resend with the same version is acknowledged again) or not at all.
            logger.warning("table %s: database unavailable", self.table_id, exc_info=True)
            await self.send_error(
                client_id,
                "unavailable",
                _("The server cannot reach its database just now. Try again in a moment."),
            )

    async def handle_frame(self, content: dict[str, Any], client_id: Any) -> None:
        kind = content.get("type")
        if kind == "ping":
            presence.mark_present(self.user.pk, self.place)
            await self.send_json({"type": "pong"})
        elif kind == "move":
            await self.handle_move(content, client_id)
        elif kind == "sync":
            version = content.get("version")
            if not _is_int(version):
                await self.send_error(
                    client_id, "bad_request", _("sync needs a whole-number version.")
                )
            elif not await self.replay(version):
                await self.send_snapshot()
        elif kind == "chat":
            await self.handle_chat(content, client_id)
        elif kind == "hint":
            await self.handle_hint(client_id)
        elif kind == "back":
            await database_sync_to_async(clocks.return_to_seat)(self.table_id, self.user)
        elif kind in ("mute", "unmute", "report"):
            await self.handle_moderation(kind, content, client_id)
        else:
            await self.send_error(
                client_id, "bad_request", _("Unknown frame type %(kind)r.") % {"kind": kind}
            )

    async def handle_move(self, content: dict[str, Any], client_id: Any) -> None:
        move, version = content.get("move"), content.get("version")
        if not isinstance(move, str) or not _is_int(version):
            await self.send_error(
                client_id,
                "bad_request",
                _("A move needs 'move' (a card or \"pass\") and 'version'."),
            )
            return
        if self.seat is None:
            await self.send_error(client_id, "not_seated", _("Spectators cannot play."))
            return
        # Off the worker's one shared database thread (``move_threads``): moves of different
        # tables overlap their database waits; the row lock (or the version compare-and-swap)
        # orders the moves of one table.
        try:
            result = await _submit_move(self.table_id, move, version, user=self.user)
        except (OperationalError, InterfaceError):
            # A connection that died since the last move (it was closed after the failure).
            result = await _submit_move(self.table_id, move, version, user=self.user)
        if result.ok:
            await self.send_json({"type": "ack", "id": client_id, "version": result.version})
            return
        await self.send_error(client_id, result.code or "bad_request", result.message)
        if result.code == "stale":
            await self.send_snapshot()

    async def handle_hint(self, client_id: Any) -> None:
        """``hint``: the strong bot's move for this player's turn, to this socket only."""
        if not self.hints.take():
            await self.send_error(client_id, "rate_limited", _("One hint at a time, please."))
            return
        try:
            hint = await _suggest_move(self.table_id, self.user)
        except ServiceError as error:
            await self.send_error(client_id, error.code, error.message)
            return
        await self.send_json(
            {"type": "hint", "id": client_id, "move": hint.move, "reason": hint.reason}
        )

    async def handle_chat(self, content: dict[str, Any], client_id: Any) -> None:
        if not self.chats.take():
            await self.send_error(
                client_id, "rate_limited", _("Too many chat messages; wait a bit.")
            )
            return
        try:
            await database_sync_to_async(chat.post_chat_message)(
                self.table_id, self.user, content.get("channel"), content.get("text")
            )
        except ServiceError as error:
            await self.send_error(client_id, error.code, error.message)

    async def handle_moderation(self, kind: str, content: dict[str, Any], client_id: Any) -> None:
        """``mute``/``unmute`` a user (moderators) or ``report`` a chat line (anyone): answered
        by ``done`` or an ``error``."""
        try:
            if kind == "report":
                await database_sync_to_async(reports.report_chat_message)(
                    self.table_id, content.get("message_id"), self.user, content.get("reason") or ""
                )
            else:
                target = await database_sync_to_async(selectors.user_by_id)(content.get("user_id"))
                if target is None:
                    raise ServiceError("not_found", _("There is no such player."))
                action = chat.mute_user if kind == "mute" else chat.unmute_user
                await database_sync_to_async(action)(self.table_id, self.user, target)
        except ServiceError as error:
            await self.send_error(client_id, error.code, error.message)
            return
        await self.send_json({"type": "done", "id": client_id, "action": kind})

    async def send_error(self, client_id: Any, code: str, message: str) -> None:
        await self.send_json({"type": "error", "id": client_id, "code": code, "message": message})


def _language_of(scope: dict[str, Any]) -> str:
    """The language the pages use for this visitor (LocaleMiddleware's choice: the language
    cookie, then ``Accept-Language``, then the default), read from the handshake."""
    headers = dict(scope.get("headers") or ())
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    request = SimpleNamespace(
        COOKIES=scope.get("cookies") or {}, META={"HTTP_ACCEPT_LANGUAGE": accept}
    )
    return translation.get_language_from_request(request)  # type: ignore[arg-type]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class LobbyConsumer(_NoConnectionChurn, AsyncJsonWebsocketConsumer):
    """``/ws/lobby/``: the open tables now, and again whenever the list changes."""

    group = LOBBY_GROUP

    async def connect(self) -> None:
        await self.accept()
        await self.channel_layer.group_add(self.group, self.channel_name)
        user = self.scope.get("user")
        self.user_id = user.pk if user is not None and user.is_authenticated else None
        if self.user_id is not None:
            # The user's own group: invitations reach every lobby page they have open.
            await self.channel_layer.group_add(user_group_name(self.user_id), self.channel_name)
            presence.mark_present(self.user_id, presence.LOBBY)
        await self.send_tables()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)
        if getattr(self, "user_id", None) is not None:
            await self.channel_layer.group_discard(user_group_name(self.user_id), self.channel_name)
            presence.mark_absent(self.user_id, presence.LOBBY)

    async def user_invited(self, message: dict[str, Any]) -> None:
        await self.send_json({"type": "invitation", "invitation": message["invitation"]})

    async def send_tables(self) -> None:
        tables = await database_sync_to_async(selectors.open_tables_json)()
        await self.send_json({"type": "tables", "tables": tables})

    async def lobby_changed(self, message: dict[str, Any]) -> None:
        await self.send_tables()

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if isinstance(content, dict) and content.get("type") == "ping":
            if self.user_id is not None:
                presence.mark_present(self.user_id, presence.LOBBY)
            await self.send_json({"type": "pong"})
