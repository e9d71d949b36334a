"""Websocket handshakes: browsers by session, programs by a personal access token.

Browsers send an ``Origin`` header and a session cookie; the origin must be one of
``ALLOWED_HOSTS`` (host part only), so another site's page cannot open a socket with a
visitor's cookie. A program (a bot) sends no ``Origin`` and no cookie but
``Authorization: Bearer rosbi_...`` with the ``play`` scope. The rules, in order:

* a foreign ``Origin`` is refused (HTTP 403 at the handshake), token or not;
* no ``Origin`` is accepted only with a valid token holding ``play``;
* a token in the header, when present, must be valid and hold ``play`` (else 403), and the
  connection is that token's user; without one the session decides, as before.

Channels' ``AuthMiddleware`` resolves the session's user (a session query and a user query)
on the worker's one shared sync thread, so every handshake queues behind every other one.
The same lookup (`channels.auth.get_user`) runs here on a `ThreadGroup` of its own, and the
token lookup too.
"""

from __future__ import annotations

from typing import Any

from channels.auth import AuthMiddleware, get_user
from channels.security.websocket import AllowedHostsOriginValidator, WebsocketDenier
from channels.sessions import CookieMiddleware, SessionMiddleware

from rosbi_platform.accounts.models import AccessToken
from rosbi_platform.accounts.tokens import authenticate_token
from rosbi_platform.db_threads import ThreadGroup

AUTH_THREADS = 3
auth_threads = ThreadGroup("ws-auth", AUTH_THREADS)
_get_user = auth_threads.call(get_user.func)


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin1")
    return None


def bearer_secret(scope: dict[str, Any]) -> str | None:
    header = _header(scope, b"authorization")
    if not header:
        return None
    keyword, _sep, secret = header.partition(" ")
    return secret.strip() if keyword.lower() == "bearer" else None


def _playing_token_now(secret: str) -> AccessToken | None:
    token = authenticate_token(secret)
    if token is None or AccessToken.Scope.PLAY not in token.scopes:
        return None
    return token


_playing_token = auth_threads.call(_playing_token_now)


class TokenOrOriginMiddleware:
    """Outermost websocket middleware: the Origin rule above, then token authentication
    (the token's user replaces the session's ``scope["user"]``)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.origin_checked = AllowedHostsOriginValidator(inner)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        secret = bearer_secret(scope)
        if secret is None:
            return await self.origin_checked(scope, receive, send)
        token = await _playing_token(secret)
        if token is None:
            return await WebsocketDenier()(scope, receive, send)
        scope = dict(scope, user=token.user, auth_token=token)
        if _header(scope, b"origin") is None:
            return await self.inner(scope, receive, send)
        return await self.origin_checked(scope, receive, send)


class ThreadedAuthMiddleware(AuthMiddleware):
    """Channels' session user lookup on `auth_threads`; a token's user is kept as it is."""

    async def resolve_scope(self, scope: dict[str, Any]) -> None:
        if scope.get("auth_token") is not None:
            return
        scope["user"]._wrapped = await _get_user(scope)


def auth_middleware_stack(inner: Any) -> Any:
    """Like ``channels.auth.AuthMiddlewareStack``: cookies, session, then the user."""
    return CookieMiddleware(SessionMiddleware(ThreadedAuthMiddleware(inner)))
