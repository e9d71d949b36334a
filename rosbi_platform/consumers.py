"""A tiny echo consumer: lets clients (and tests) check the websocket path end to end."""

from channels.generic.websocket import AsyncJsonWebsocketConsumer


class PingConsumer(AsyncJsonWebsocketConsumer):
    """Answers every JSON message with {"type": "pong", "echo": <message>, "user": <name>}."""

    async def connect(self) -> None:
        await self.accept()

    async def receive_json(self, content, **kwargs) -> None:
        user = self.scope.get("user")
        username = user.get_username() if user is not None and user.is_authenticated else None
        await self.send_json({"type": "pong", "echo": content, "user": username})
