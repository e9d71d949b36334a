"""Live tournament page: one channel-layer group per event; the server pushes, clients listen.

Pushes happen after the commit of the change (standings recompute, round steps), so whatever a
client fetches in reaction is already stored. The consumer sends the standings itself with a
``standings`` frame and a bare ``changed`` frame for everything else (the page refetches).
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from tournaments import selectors
from tournaments.models import Tournament

CLOSE_NOT_FOUND = 4404


class TournamentConsumer(AsyncJsonWebsocketConsumer):
    """``/ws/tournaments/<id>/``: read-only, open to everyone who may see the event page."""

    async def connect(self) -> None:
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        await self.accept()
        exists = await database_sync_to_async(
            Tournament.objects.filter(pk=self.tournament_id).exists
        )()
        if not exists:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        self.group = f"tournament.{self.tournament_id}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self._send_standings()

    async def disconnect(self, code: int) -> None:
        group = getattr(self, "group", None)
        if group is not None:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive_json(self, content, **kwargs) -> None:
        """Clients only listen; a ``sync`` request resends the standings."""
        if isinstance(content, dict) and content.get("type") == "sync":
            await self._send_standings()

    async def standings_changed(self, message: dict) -> None:
        await self._send_standings()

    async def tournament_changed(self, message: dict) -> None:
        await self.send_json({"type": "changed"})

    async def _send_standings(self) -> None:
        payload = await database_sync_to_async(self._payload)()
        await self.send_json({"type": "standings", **payload})

    def _payload(self) -> dict:
        return selectors.standings_payload(Tournament.objects.get(pk=self.tournament_id))
