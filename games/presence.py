"""Who is online, and where: lobby and table pages mark their user present in Redis.

Every open lobby or table socket keeps a member (``"lobby"`` or ``"table:<id>"``) in its
user's sorted set, scored with the moment it expires; the sockets refresh it with their pings
(every 25 s) and remove it when they close, and a page that vanished without closing expires
after ``PRESENCE_SECONDS``. Nothing here is stored in PostgreSQL, and presence is best effort:
a Redis failure is logged and never breaks a socket.

Marks are queued and written by one thread per process, in one pipeline every
``FLUSH_SECONDS`` (a place's last mark wins): a socket's handshake only appends to a list
(a reconnect storm of 4,000 sockets made 8,000 thread hops and Redis round trips otherwise).
A read (``places_of``) first writes what this process has queued.
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

from rosbi_platform.redis_clients import shared_client

logger = logging.getLogger(__name__)

PRESENCE_SECONDS = 75
FLUSH_SECONDS = 0.1
LOBBY = "lobby"
# (present?, user id, place), oldest first; written by ``flush``.
_queued: list[tuple[bool, int, str]] = []
_queue_lock = threading.Lock()
_writer_pid: int | None = None


def table_place(table_id: int) -> str:
    return f"table:{table_id}"


def _key(user_id: int) -> str:
    # Tagged with the database: runs on other databases may share the Redis and the user ids.
    # ``GAMES_PRESENCE_PREFIX`` lets a test run keep apart from earlier runs on the same one.
    prefix = getattr(settings, "GAMES_PRESENCE_PREFIX", "rosbi:presence")
    name = str(settings.DATABASES["default"].get("NAME", ""))
    tag = hashlib.sha1(name.encode(), usedforsecurity=False).hexdigest()[:10]
    return f"{prefix}:{tag}:{user_id}"


def mark_present(user_id: int, place: str) -> None:
    """``user_id`` has ``place`` open now (called on connect and on every ping)."""
    _queue(True, user_id, place)


def mark_absent(user_id: int, place: str) -> None:
    """``user_id`` closed ``place``."""
    _queue(False, user_id, place)


def _queue(present: bool, user_id: int, place: str) -> None:
    global _writer_pid
    with _queue_lock:
        _queued.append((present, user_id, place))
        if _writer_pid != os.getpid():  # first mark of this process (or of a forked child)
            _writer_pid = os.getpid()
            threading.Thread(target=_write_forever, name="presence-writer", daemon=True).start()


def _write_forever() -> None:
    while True:
        time.sleep(FLUSH_SECONDS)
        flush()


def flush() -> None:
    """Write every queued mark now, in one pipeline.

    Only a place's last mark counts (a socket that closed and reopened within one flush is
    simply present), and one user's marks go out as at most one ``ZADD``, one ``EXPIRE`` and
    one ``ZREM``: a reconnect storm queues a mark per socket, and writing each as commands of
    its own made this thread a tenth of a web worker's CPU.
    """
    with _queue_lock:
        marks = list(_queued)
        _queued.clear()
    if not marks:
        return
    last: dict[tuple[int, str], bool] = {}
    for present, user_id, place in marks:
        last[(user_id, place)] = present
    by_user: dict[int, tuple[list[str], list[str]]] = {}
    for (user_id, place), present in last.items():
        by_user.setdefault(user_id, ([], []))[0 if present else 1].append(place)
    expires = time.time() + PRESENCE_SECONDS
    try:
        pipe = shared_client().pipeline(transaction=False)
        for user_id, (present_at, absent_from) in by_user.items():
            key = _key(user_id)
            if present_at:
                pipe.zadd(key, dict.fromkeys(present_at, expires))
                pipe.expire(key, PRESENCE_SECONDS)
            if absent_from:
                pipe.zrem(key, *absent_from)
        pipe.execute()
    except redis.RedisError:
        logger.warning("presence of %s sockets not stored", len(marks), exc_info=True)


def places_of(user_ids: Iterable[int]) -> dict[int, list[str]]:
    """The places each of ``user_ids`` has open now (users with none are left out)."""
    ids = list(user_ids)
    if not ids:
        return {}
    flush()
    now = time.time()
    try:
        pipe = shared_client().pipeline(transaction=False)
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
