"""Websocket authentication: Channels' session and user middleware, on threads of its own.

Channels' ``AuthMiddleware`` resolves the user (a session query and a user query) on the
worker's one shared sync thread, so every handshake queues behind every other one. The same
lookup (`channels.auth.get_user`) runs here on a `ThreadGroup`.
"""

from __future__ import annotations

from typing import Any

from channels.auth import AuthMiddleware, get_user
from channels.sessions import CookieMiddleware, SessionMiddleware

from rosbi_platform.db_threads import ThreadGroup

AUTH_THREADS = 3
auth_threads = ThreadGroup("ws-auth", AUTH_THREADS)
_get_user = auth_threads.call(get_user.func)


class ThreadedAuthMiddleware(AuthMiddleware):
    async def resolve_scope(self, scope: dict[str, Any]) -> None:
        scope["user"]._wrapped = await _get_user(scope)


def auth_middleware_stack(inner: Any) -> Any:
    """Like ``channels.auth.AuthMiddlewareStack``: cookies, session, then the user."""
    return CookieMiddleware(SessionMiddleware(ThreadedAuthMiddleware(inner)))
