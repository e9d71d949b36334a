"""Players that follow docs/protocol.md to the letter, over real websockets.

Each keeps its table state by applying frames with ``games.live.state.apply_event`` (the
reference state machine), plays the first legal card when on turn, and does what the protocol
asks of a client when things go wrong: reconnect with ``?since=`` (to another server when its
own is gone), ``sync`` on a version gap and after ``SILENCE_SECONDS`` without a frame while a
Partie is being played, and resend a move whose answer never came (same move, same version:
the server acknowledges it again and never applies it twice).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import time
from dataclasses import dataclass, field
from typing import Any

import websockets

from games.live.state import apply_event, is_outdated

SILENCE_SECONDS = 3.0
ANSWER_SECONDS = 5.0
# docs/protocol.md: a socket may send a burst of 30 frames, then 10 a second. These players
# pace themselves a little below that, as a program must; a table of fast players otherwise
# runs its sockets into `rate_limited` refusals.
FRAME_BURST = 30
FRAMES_PER_SECOND = 9.0
RATE_LIMITED_PAUSE_SECONDS = 1.0


@dataclass
class Player:
    seat: int
    session: str
    table_id: int
    servers: list[int]  # ports, the preferred one first
    cookie_name: str = "sessionid"
    state: dict[str, Any] | None = None
    acked: dict[int, str] = field(default_factory=dict)  # version -> move
    errors: collections.Counter = field(default_factory=collections.Counter)
    reconnects: int = 0
    ws: Any = None
    last_frame: float = field(default_factory=time.monotonic)
    pending: tuple[str, int, float] | None = None  # move, version, sent at
    sent: dict[str, str] = field(default_factory=dict)  # frame id -> move
    next_id: int = 0
    paused: bool = False  # the scenario holds this player's moves
    applied_up_to: int = 0  # our last acked move's version: wait for its event before moving
    tokens: float = FRAME_BURST
    tokens_at: float = field(default_factory=time.monotonic)
    quiet_until: float = 0.0  # after a `rate_limited` refusal

    def url(self, port: int, since: int | None) -> str:
        query = f"?since={since}" if since is not None else ""
        return f"ws://127.0.0.1:{port}/ws/tables/{self.table_id}/{query}"

    async def connect(self) -> None:
        """Connect to the first server that answers (the preferred one first)."""
        since = self.state["version"] if self.state else None
        last_error: Exception | None = None
        for _attempt in range(100):
            for port in self.servers:
                try:
                    self.ws = await websockets.connect(
                        self.url(port, since),
                        additional_headers={
                            "Cookie": f"{self.cookie_name}={self.session}",
                            "Origin": f"http://127.0.0.1:{port}",
                        },
                        open_timeout=5,
                    )
                    self.last_frame = time.monotonic()
                    return
                except (TimeoutError, OSError, websockets.WebSocketException) as error:
                    last_error = error
            await asyncio.sleep(0.2)
        raise AssertionError(f"seat {self.seat} could not reconnect: {last_error!r}")

    @property
    def finished(self) -> bool:
        return bool(self.state) and self.state["table"]["status"] == "finished"

    def my_turn(self) -> str | None:
        deal = self.state and self.state["deal"]
        if not deal or deal["over"] or deal["turn"] != self.seat or not deal["legal_moves"]:
            return None
        return deal["legal_moves"][0]

    async def send(self, frame: dict[str, Any]) -> None:
        await self.pace()
        await self.ws.send(json.dumps(frame))

    async def pace(self) -> None:
        """Wait for a frame token: the client's copy of the server's per-socket bucket."""
        now = time.monotonic()
        self.tokens = min(FRAME_BURST, self.tokens + (now - self.tokens_at) * FRAMES_PER_SECOND)
        self.tokens_at = now
        if self.tokens < 1:
            await asyncio.sleep((1 - self.tokens) / FRAMES_PER_SECOND)
            self.tokens, self.tokens_at = 1.0, time.monotonic()
        self.tokens -= 1

    async def send_move(self, move: str, version: int) -> None:
        self.next_id += 1
        frame_id = f"s{self.seat}-{self.next_id}"
        self.sent[frame_id] = move
        await self.send({"type": "move", "move": move, "version": version, "id": frame_id})

    def handle(self, frame: dict[str, Any]) -> bool:
        """Apply one frame; True when the client must ask for a ``sync``."""
        kind = frame.get("type")
        if kind == "snapshot":
            self.state = {k: v for k, v in frame.items() if k != "type"}
            self.pending = None
        elif kind == "event" and frame.get("version") is not None:
            if self.state is None or frame["version"] <= self.state["version"]:
                return False
            if frame["version"] != self.state["version"] + 1 or is_outdated(frame["event"]):
                return True
            self.state = apply_event(self.state, frame)
        elif kind == "ack":
            # A resent move may be acknowledged twice (same version): the id says which move.
            self.acked[frame["version"]] = self.sent[frame["id"]]
            self.applied_up_to = max(self.applied_up_to, frame["version"])
            self.pending = None
        elif kind == "error":
            self.errors[frame.get("code")] += 1
            self.pending = None
            if frame.get("code") == "rate_limited":
                self.quiet_until = time.monotonic() + RATE_LIMITED_PAUSE_SECONDS
        return False

    async def play(self, stop: asyncio.Event) -> None:
        """Play until the Partie is over (or ``stop``), riding out lost servers and frames."""
        await self.connect()
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(self.ws.recv(), timeout=0.25)
            except TimeoutError:
                raw = None
            except websockets.ConnectionClosed:
                self.reconnects += 1
                await self.connect()
                continue
            try:
                if raw is not None:
                    self.last_frame = time.monotonic()
                    if self.handle(json.loads(raw)):
                        await self.send({"type": "sync", "version": self.state["version"]})
                if self.state is None:
                    continue
                if self.finished and self.pending is None:
                    return
                now = time.monotonic()
                if now - self.last_frame > SILENCE_SECONDS:
                    self.last_frame = now
                    await self.send({"type": "sync", "version": self.state["version"]})
                if self.pending and now - self.pending[2] > ANSWER_SECONDS:
                    move, version, _sent = self.pending  # no answer: resend, same version
                    self.pending = (move, version, now)
                    await self.send_move(move, version)
                waiting = (
                    self.paused
                    or self.pending
                    or self.state["version"] < self.applied_up_to
                    or now < self.quiet_until
                )
                move = None if waiting else self.my_turn()
                if move is not None:
                    version = self.state["version"]
                    self.pending = (move, version, now)
                    await self.send_move(move, version)
            except websockets.ConnectionClosed:
                self.reconnects += 1
                await self.connect()

    async def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()


async def fresh_snapshot(port: int, player: Player) -> dict[str, Any]:
    """What a brand-new connection of this player sees now."""
    async with websockets.connect(
        player.url(port, None),
        additional_headers={
            "Cookie": f"{player.cookie_name}={player.session}",
            "Origin": f"http://127.0.0.1:{port}",
        },
        open_timeout=5,
    ) as ws:
        while True:
            frame = json.loads(await asyncio.wait_for(ws.recv(), timeout=5))
            if frame["type"] == "snapshot":
                return {k: v for k, v in frame.items() if k != "type"}
