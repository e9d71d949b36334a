"""Database sessions read by one prepared statement (``SESSION_ENGINE``).

Every signed-in page request and every websocket handshake loads the session. Django's
database store builds that read with the ORM, which cost about 1 ms of CPU in query
construction and compilation per load (``bench/live_handshake.py``: the session and the user
were two thirds of a table socket's handshake). The row, the expiry rule and what happens to
an unknown or expired key are Django's; only the way the one row is read differs. Writes are
Django's own.
"""

from __future__ import annotations

import functools
from typing import Any

from django.contrib.sessions.backends import db
from django.db import connections, router
from django.utils import timezone


class SessionStore(db.SessionStore):
    def _get_session_from_db(self) -> Any:
        model = self.model
        alias = router.db_for_read(model)
        with connections[alias].cursor() as cursor:
            cursor.execute(session_row_sql(alias), [self.session_key, timezone.now()])
            row = cursor.fetchone()
        if row is None:  # unknown or expired: Django's store forgets the key the same way
            self._session_key = None
            return None
        return model.from_db(alias, ["session_key", "session_data", "expire_date"], row)

    async def aprime(self) -> None:
        """Load the session on the event loop (``async_db``), so that reading it needs no
        query: the websocket handshake's read. The row, the expiry rule and the decoding are
        ``load``'s, and an unknown or expired key is forgotten the same way."""
        from rosbi_platform import async_db

        if self.session_key is None:
            self._session_cache = {}
            return
        row = await async_db.fetch_one(
            session_row_sql("default"), [self.session_key, timezone.now()]
        )
        if row is None:
            self._session_key = None
            self._session_cache = {}
            return
        self._session_cache = self.decode(row[1])


@functools.cache
def session_row_sql(alias: str) -> str:
    """The unexpired session row by key: ``session_key, session_data, expire_date``."""
    from django.contrib.sessions.models import Session

    quote = connections[alias].ops.quote_name
    columns = ", ".join(
        quote(Session._meta.get_field(name).column)
        for name in ("session_key", "session_data", "expire_date")
    )
    key = quote(Session._meta.get_field("session_key").column)
    expires = quote(Session._meta.get_field("expire_date").column)
    return (
        f"SELECT {columns} FROM {quote(Session._meta.db_table)} WHERE {key} = %s AND {expires} > %s"
    )
