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
Here the usual case (a valid signed-in session) is read on the event loop itself
(`rosbi_platform.async_db`, no thread hop); anything unusual goes to Channels' own lookup
(`channels.auth.get_user`) on a `ThreadGroup` of its own, as does the token lookup.
"""

from __future__ import annotations

import time
from typing import Any

from channels.auth import AuthMiddleware, get_user
from channels.security.websocket import AllowedHostsOriginValidator, WebsocketDenier
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.conf import settings

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
    """The session's user, read on the event loop (`session_user_on_loop`) in the usual case
    and by Channels' own lookup on `auth_threads` otherwise; a token's user is kept."""

    async def resolve_scope(self, scope: dict[str, Any]) -> None:
        if scope.get("auth_token") is not None:
            return
        user = await session_user_on_loop(scope["session"])
        if user is None:
            user = await _get_user(scope)
        if await second_factor_missing(scope["session"], user):
            # As the pages do (``TwoFactorRequiredMiddleware``): a site moderator or club owner
            # whose session has not passed the second factor is nobody here; the consumers
            # close with "log in" and the page sends them to set-up or the code step.
            from django.contrib.auth.models import AnonymousUser

            user = AnonymousUser()
        scope["user"]._wrapped = user


def _second_factor_settled(session: Any) -> bool:
    """Whether the session says no second factor is wanting: it passed one (django-otp's
    device key), or the pages found lately that this person need not use one. Reads only the
    session's loaded data."""
    from django_otp import DEVICE_ID_SESSION_KEY

    from rosbi_platform.accounts.middleware import TwoFactorRequiredMiddleware

    if session.get(DEVICE_ID_SESSION_KEY):
        return True
    return session.get(TwoFactorRequiredMiddleware.NOT_REQUIRED_UNTIL, 0) > time.time()


def _must_use_two_factor_now(user: Any) -> bool:
    from rosbi_platform.accounts.two_factor import must_use_two_factor

    return must_use_two_factor(user)


_must_use_two_factor = auth_threads.call(_must_use_two_factor_now)
_settled_on_thread = auth_threads.call(_second_factor_settled)


async def second_factor_missing(session: Any, user: Any) -> bool:
    """The websocket side of the two-factor rule (docs/accounts.md): True for a signed-in
    site moderator or club owner whose session has not passed the second factor. The session
    is loaded by then (on the loop or by Channels' lookup), so the usual answer costs no
    query; only a session without either mark asks the rule, on the auth threads."""
    if not getattr(user, "is_authenticated", False):
        return False
    if getattr(session, "_session_cache", None) is not None:
        settled = _second_factor_settled(session)
    else:
        settled = await _settled_on_thread(session)
    return not settled and await _must_use_two_factor(user)


async def session_user_on_loop(session: Any) -> Any:
    """The user a signed-in session names, read without a thread hop (`async_db`): the
    session row, then the user with the profile. None whenever anything is unusual (no such
    row or user, another backend, an inactive user, a session hash that does not match):
    Channels' ``get_user`` then decides as before, and flushes a stale session."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.auth.models import AnonymousUser
    from django.utils.crypto import constant_time_compare

    from rosbi_platform.accounts.backends import ModelBackend
    from rosbi_platform.accounts.models import User
    from rosbi_platform.prepared import auser_with_profile

    if not hasattr(session, "aprime"):  # another SESSION_ENGINE: Channels' lookup
        return None
    if session.session_key is None:
        return AnonymousUser()
    await session.aprime()
    try:
        user_id = session[SESSION_KEY]
        backend_path = session[BACKEND_SESSION_KEY]
    except KeyError:
        return None
    ours = f"{ModelBackend.__module__}.{ModelBackend.__qualname__}"
    if backend_path != ours or backend_path not in settings.AUTHENTICATION_BACKENDS:
        return None
    user = await auser_with_profile(user_id)
    if not isinstance(user, User) or not ModelBackend().user_can_authenticate(user):
        return None
    session_hash = session.get(HASH_SESSION_KEY)
    if not (session_hash and constant_time_compare(session_hash, user.get_session_auth_hash())):
        return None
    return user


def auth_middleware_stack(inner: Any) -> Any:
    """Like ``channels.auth.AuthMiddlewareStack``: cookies, session, then the user."""
    return CookieMiddleware(SessionMiddleware(ThreadedAuthMiddleware(inner)))
