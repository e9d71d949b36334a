"""Who is online, and where: lobby and table pages mark their user present in Redis.

Every open lobby or table socket keeps a member (``"lobby"`` or ``"table:<id>"``) in its
user's sorted set, scored with the moment it expires; the sockets refresh it with their pings
(every 25 s) and remove it when they close, and a page that vanished without closing expires
after ``PRESENCE_SECONDS``. Nothing here is stored in PostgreSQL, and presence is best effort:
a Redis failure is logged and never breaks a socket.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from collections.abc import Iterable

import redis
from django.conf import settings

logger = logging.getLogger(__name__)

PRESENCE_SECONDS = 75
LOBBY = "lobby"

_clients: dict[int, redis.Redis] = {}
_lock = threading.Lock()


def table_place(table_id: int) -> str:
    return f"table:{table_id}"


def _client() -> redis.Redis:
    pid = os.getpid()
    with _lock:
        client = _clients.get(pid)
        if client is None:
            client = redis.Redis.from_url(
                settings.REDIS_URL, socket_timeout=1.0, socket_connect_timeout=1.0
            )
            _clients.clear()
            _clients[pid] = client
        return client


def _key(user_id: int) -> str:
    # Tagged with the database: runs on other databases may share the Redis and the user ids.
    # ``GAMES_PRESENCE_PREFIX`` lets a test run keep apart from earlier runs on the same one.
    prefix = getattr(settings, "GAMES_PRESENCE_PREFIX", "rosbi:presence")
    name = str(settings.DATABASES["default"].get("NAME", ""))
    tag = hashlib.sha1(name.encode(), usedforsecurity=False).hexdigest()[:10]
    return f"{prefix}:{tag}:{user_id}"


def mark_present(user_id: int, place: str) -> None:
    """``user_id`` has ``place`` open now (called on connect and on every ping)."""
    key = _key(user_id)
    try:
        pipe = _client().pipeline(transaction=False)
        pipe.zadd(key, {place: time.time() + PRESENCE_SECONDS})
        pipe.expire(key, PRESENCE_SECONDS)
        pipe.execute()
    except redis.RedisError:
        logger.warning("presence of user %s not stored", user_id, exc_info=True)


def mark_absent(user_id: int, place: str) -> None:
    """``user_id`` closed ``place``."""
    try:
        _client().zrem(_key(user_id), place)
    except redis.RedisError:
        logger.warning("presence of user %s not cleared", user_id, exc_info=True)


def places_of(user_ids: Iterable[int]) -> dict[int, list[str]]:
    """The places each of ``user_ids`` has open now (users with none are left out)."""
    ids = list(user_ids)
    if not ids:
        return {}
    now = time.time()
    try:
        pipe = _client().pipeline(transaction=False)
        for user_id in ids:
            pipe.zrangebyscore(_key(user_id), now, "+inf")
        answers = pipe.execute()
    except redis.RedisError:
        logger.warning("presence not read", exc_info=True)
        return {}
    return {
        user_id: sorted(member.decode() for member in members)
        for user_id, members in zip(ids, answers, strict=True)
        if members
    }
