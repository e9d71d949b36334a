"""Checks for the pooled PostgreSQL connections: skip the round trip for a connection just used.

psycopg's pool can check each connection as it leaves the pool (an empty query), so that no
request gets one that died with a PostgreSQL restart. Done on every checkout that is a second
network round trip for every database call: 15 % of a web worker's time in a reconnect storm,
where a socket's handshake makes four short calls. A connection that went back to the pool
less than `RECENTLY_USED_SECONDS` ago was working then; it is handed out unchecked. One that
sat longer is checked as before, so after a restart (which takes longer than that) every
surviving connection is checked once and the dead ones replaced.
"""

from __future__ import annotations

import threading
import time
import weakref
from typing import Any

RECENTLY_USED_SECONDS = 1.0

_returned_at: weakref.WeakKeyDictionary[Any, float] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def note_returned(connection: Any) -> None:
    """The pool's `reset` callback: remember when the connection came back working."""
    with _lock:
        _returned_at[connection] = time.monotonic()


def check_unless_recently_used(connection: Any) -> None:
    """The pool's `check` callback: raise if a connection idle for a while no longer answers."""
    with _lock:
        returned = _returned_at.get(connection)
    if returned is not None and time.monotonic() - returned < RECENTLY_USED_SECONDS:
        return
    from psycopg_pool import ConnectionPool

    ConnectionPool.check_connection(connection)
