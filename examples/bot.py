"""A minimal Rosbi bot: the standard library plus ``websockets``, nothing of the server's code.

It logs in with a personal access token (a bot account's, with the ``read`` and ``play``
scopes; create it on your profile page), creates a table or joins one over the HTTP API,
and plays legal moves from the frames until the Partie ends (see docs/protocol.md)::

    python examples/bot.py --server https://rosbi.example --token rosbi_... --create --fill-with-bots
    python examples/bot.py --server https://rosbi.example --token rosbi_... --table 12

The bot knows no rule of the game: every frame that makes it the seat on turn carries its
``legal_moves``, and it plays one of them. It keeps below the frame limits (``--pace``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import urllib.error
import urllib.request
from typing import Any

from websockets.asyncio.client import connect


class ApiError(Exception):
    """The API refused: its ``detail`` sentence and its ``code``."""


class Api:
    """The few HTTP calls a bot needs; every answer is JSON, every refusal ``{detail, code}``."""

    def __init__(self, server: str, token: str) -> None:
        self.server = server.rstrip("/")
        self.token = token

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            f"{self.server}/api/v1/{path}",
            data=data,
            method=method,
            headers={
                "Authorization": f"Bearer {self.token}",
                "Content-Type": "application/json",
                "Accept": "application/json",
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            try:
                problem = json.loads(error.read())
            except ValueError:
                problem = {"detail": str(error), "code": str(error.code)}
            raise ApiError(f"{problem.get('code')}: {problem.get('detail')}") from None


class Player:
    """Follows the table's frames and answers when this seat is on turn."""

    def __init__(self, websocket: Any, pace: float, rng: random.Random) -> None:
        self.ws = websocket
        self.pace = pace
        self.rng = rng
        self.version = 0
        self.seat: int | None = None
        self.status = "open"
        self.totals: list[int] | None = None
        self.sent = 0
        self.last_move: dict[str, Any] | None = None
        self.verbose = False
        self.seats: dict[int, bool] = {}  # seat -> taken (a player or a bot)
        self.when_full: Any = None  # called once when every seat of an open table is taken

    async def check_full(self) -> None:
        if self.when_full is not None and self.status == "open" and all(self.seats.values()):
            start, self.when_full = self.when_full, None
            await asyncio.to_thread(start)

    async def send(self, frame: dict[str, Any]) -> None:
        if self.pace:
            await asyncio.sleep(self.pace)  # well below 10 frames a second
        if self.verbose:
            print(f"-> {frame}", file=sys.stderr, flush=True)
        await self.ws.send(json.dumps(frame))

    async def play(self, legal: list[str]) -> None:
        self.sent += 1
        move = self.rng.choice(legal)
        self.last_move = {
            "type": "move",
            "move": move,
            "version": self.version,
            "id": f"m{self.sent}",
        }
        await self.send(self.last_move)

    async def on_snapshot(self, frame: dict[str, Any]) -> None:
        self.version = frame["version"]
        self.seat = frame["you"]["seat"]
        self.status = frame["table"]["status"]
        self.seats = {
            s["seat"]: s["user_id"] is not None or s["bot_level"] is not None
            for s in frame["table"]["seats"]
        }
        await self.check_full()
        partie = frame.get("partie") or {}
        if self.status == "finished":
            self.totals = partie.get("totals")
        deal = frame.get("deal")
        if deal and deal.get("turn") == self.seat and deal.get("legal_moves"):
            await self.play(deal["legal_moves"])

    async def on_event(self, frame: dict[str, Any]) -> None:
        if frame["version"] is None:
            return  # chat
        if frame["version"] <= self.version:
            return  # already known
        if frame["version"] > self.version + 1:
            await self.send({"type": "sync", "version": self.version})
            return
        self.version = frame["version"]
        event = frame["event"]
        kind = event["kind"]
        if kind == "partie_started":
            self.status = "playing"
        elif kind == "partie_finished":
            self.status = "finished"
            self.totals = event["totals"]
        elif kind == "table_closed":
            self.status = "closed"
        elif kind == "seat_changed":
            self.seats[event["seat"]] = (
                event["user_id"] is not None or event["bot_level"] is not None
            )
            await self.check_full()
        mine = (kind == "move" and event.get("next_turn") == self.seat) or (
            kind == "deal_started" and event.get("turn") == self.seat
        )
        if mine and event.get("legal_moves"):
            await self.play(event["legal_moves"])

    async def run(self, silence: float = 5.0) -> None:
        while self.status not in ("finished", "closed"):
            try:
                text = await asyncio.wait_for(self.ws.recv(), timeout=silence)
            except TimeoutError:
                # Nothing for a while: ask for what was missed (docs/protocol.md, section 4).
                await self.send({"type": "sync", "version": self.version})
                continue
            frame = json.loads(text)
            if self.verbose:
                print(f"<- {text[:300]}", file=sys.stderr, flush=True)
            if frame["type"] == "snapshot":
                await self.on_snapshot(frame)
            elif frame["type"] == "event":
                await self.on_event(frame)
            elif frame["type"] == "error" and frame.get("code") in ("rate_limited", "unavailable"):
                # Not applied: wait, then send the same move again (a move resent with the
                # same version is never applied twice).
                await asyncio.sleep(1)
                if self.last_move is not None and frame.get("id") == self.last_move["id"]:
                    await self.send(self.last_move)


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", required=True, help="e.g. http://127.0.0.1:8000")
    parser.add_argument("--token", required=True, help="a personal access token (rosbi_...)")
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--table", type=int, help="join this table")
    where.add_argument("--create", action="store_true", help="create a table (bots allowed)")
    parser.add_argument("--size", type=int, default=3, help="seats of a created table")
    parser.add_argument(
        "--start-when-full",
        action="store_true",
        help="start a created table once other players have taken every seat",
    )
    parser.add_argument(
        "--fill-with-bots",
        action="store_true",
        help="start a created table at once, server bots in the empty seats",
    )
    parser.add_argument("--pace", type=float, default=0.25, help="seconds before each frame")
    parser.add_argument("--seed", type=int, default=None, help="seed of the move choice")
    parser.add_argument("--verbose", action="store_true", help="print every frame to stderr")
    args = parser.parse_args(argv)

    api = Api(args.server, args.token)
    me = api.call("GET", "me")
    if args.create:
        table = api.call(
            "POST", "tables", {"size": args.size, "turn_seconds": 0, "allow_bots": True}
        )
    else:
        table = api.call("POST", f"tables/{args.table}/join", {})["table"]
    print(f"{me['username']} at table {table['id']}", flush=True)

    ws_url = args.server.replace("http", "ws", 1).rstrip("/") + table["websocket"]
    headers = {"Authorization": f"Bearer {args.token}"}
    async with connect(ws_url, additional_headers=headers) as websocket:
        player = Player(websocket, args.pace, random.Random(args.seed))
        player.verbose = args.verbose
        if args.create and args.fill_with_bots:
            api.call("POST", f"tables/{table['id']}/start", {"fill_with_bots": True})
        elif args.create and args.start_when_full:
            player.when_full = lambda: api.call("POST", f"tables/{table['id']}/start", {})
        await player.run()
        if player.verbose:
            print("closing", file=sys.stderr, flush=True)
    if player.verbose:
        print("closed", file=sys.stderr, flush=True)
    print(json.dumps({"table": table["id"], "status": player.status, "totals": player.totals}))
    return 0 if player.status == "finished" else 1


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except ApiError as error:
        print(f"refused: {error}", file=sys.stderr)
        sys.exit(2)
