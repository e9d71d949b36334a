"""Websocket test clients that record every frame and keep the client state with apply_event."""

from __future__ import annotations

import copy
import re
from typing import Any

from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games import lobby, selectors
from games.live.state import apply_event
from games.models import PartieDeal, Table, TableEvent
from games.routing import websocket_urlpatterns

CARD_CODE = re.compile(r"\b[6789TJQKA][CSHD]\b")
ROUTER = URLRouter(websocket_urlpatterns)


class Viewer:
    """One browser tab: connects as ``user``, records frames, applies events like table.js."""

    def __init__(self, user: Any, table_id: int, query: str = "") -> None:
        self.user = user
        self.table_id = table_id
        self.communicator = WebsocketCommunicator(ROUTER, f"/ws/tables/{table_id}/{query}")
        self.communicator.scope["user"] = user
        self.frames: list[dict[str, Any]] = []
        self.replies: list[dict[str, Any]] = []
        self.chats: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.snapshots = 0
        self.next_id = 0

    async def connect(self, expect_snapshot: bool = True) -> None:
        connected, _ = await self.communicator.connect()
        assert connected
        if expect_snapshot:
            frame = await self.receive()
            assert frame["type"] == "snapshot", frame

    async def disconnect(self) -> None:
        await self.communicator.disconnect()

    async def receive(self, timeout: float = 10) -> dict[str, Any]:
        frame = await self.communicator.receive_json_from(timeout=timeout)
        self.frames.append(frame)
        self.apply(frame)
        return frame

    def apply(self, frame: dict[str, Any]) -> None:
        kind = frame["type"]
        if kind == "snapshot":
            self.state = copy.deepcopy(frame)
            self.snapshots += 1
        elif kind == "event" and frame["version"] is None:
            self.chats.append(frame["event"])
        elif kind == "event":
            assert self.state is not None
            assert frame["version"] == self.state["version"] + 1, (
                f"gap: {self.state['version']} -> {frame['version']}"
            )
            self.state = apply_event(self.state, frame)
        else:
            self.replies.append(frame)

    @property
    def version(self) -> int:
        assert self.state is not None
        return self.state["version"]

    @property
    def seat(self) -> int | None:
        assert self.state is not None
        return self.state["you"]["seat"]

    async def send(self, frame: dict[str, Any]) -> None:
        await self.communicator.send_json_to(frame)

    async def reply(self, timeout: float = 10) -> dict[str, Any]:
        """The next ack/error/pong for this client (events met on the way are applied)."""
        start = len(self.replies)
        while len(self.replies) == start:
            await self.receive(timeout)
        return self.replies[start]

    async def move(self, move: str, version: int | None = None) -> dict[str, Any]:
        self.next_id += 1
        client_id = f"c-{self.next_id}"
        await self.send(
            {
                "type": "move",
                "move": move,
                "version": self.version if version is None else version,
                "id": client_id,
            }
        )
        answer = await self.reply()
        assert answer["id"] == client_id
        return answer

    async def catch_up(self, version: int, timeout: float = 10) -> None:
        """Read frames until the client state is at ``version``."""
        while self.state is None or self.state["version"] < version:
            await self.receive(timeout)

    async def nothing_more(self) -> bool:
        return await self.communicator.receive_nothing(timeout=0.2)


async def table_version(table_id: int) -> int:
    return await database_sync_to_async(
        lambda: Table.objects.values_list("version", flat=True).get(pk=table_id)
    )()


async def fresh_snapshot(table_id: int, user: Any) -> dict[str, Any]:
    return await database_sync_to_async(selectors.build_snapshot)(table_id, user)


async def sync_all(viewers: list[Viewer], table_id: int) -> int:
    version = await table_version(table_id)
    for viewer in viewers:
        await viewer.catch_up(version)
    return version


def card_codes(obj: Any) -> set[str]:
    """Every card code anywhere in a frame (keys, values, and inside sentences)."""
    found: set[str] = set()
    if isinstance(obj, dict):
        for key, value in obj.items():
            found |= card_codes(key) | card_codes(value)
    elif isinstance(obj, list):
        for item in obj:
            found |= card_codes(item)
    elif isinstance(obj, str):
        found.update(CARD_CODE.findall(obj))
    return found


def hidden_cards_by_version(table_id: int, seat: int | None) -> dict[int, set[str]]:
    """For each table version: the cards ``seat`` must not see (others' unplayed cards)."""
    hands = {d.number: d.hands for d in PartieDeal.objects.filter(partie__table_id=table_id)}
    hidden: dict[int, set[str]] = {0: set()}
    current: set[str] = set()
    for event in TableEvent.objects.filter(table_id=table_id).order_by("version"):
        if event.kind == "deal_started":
            dealt = hands[event.data["deal_number"]]
            current = {card for s, hand in enumerate(dealt) if s != seat for card in hand}
        elif event.kind == "move":
            current = current - {event.data["move"]}
        hidden[event.version] = set(current)
    return hidden


def leaks(frames: list[dict[str, Any]], hidden: dict[int, set[str]]) -> list[tuple[int, set[str]]]:
    """(version, cards) for every frame that shows a card hidden from its viewer."""
    found = []
    version = 0
    for frame in frames:
        if frame.get("version") is not None and frame["type"] in ("snapshot", "event"):
            version = frame["version"]
        shown = card_codes(frame) & hidden[version]
        if shown:
            found.append((version, shown))
    return found


async def start(table_id: int, owner: Any, seed: int = 1) -> None:
    await database_sync_to_async(lobby.start_table)(table_id, owner, seed=seed)


def humans_table(players: int = 4, seed: int | None = 3, turn_seconds: int = 0, **table_kwargs):
    """A table of ``players`` seated humans, started when ``seed`` is not None (sync code)."""
    from tests.games.factories import TableFactory, UserFactory

    users = [UserFactory() for _ in range(players)]
    table = TableFactory(owner=users[0], size=players, turn_seconds=turn_seconds, **table_kwargs)
    for user in users:
        lobby.join_table(table.pk, user, invite=table.invite_code)
    if seed is not None:
        lobby.start_table(table.pk, users[0], seed=seed)
    return table, users
