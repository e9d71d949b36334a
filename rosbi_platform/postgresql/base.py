"""Django's PostgreSQL backend, whose connection pool checks only connections idle a while.

Django offers one pool check, on every checkout (`CONN_HEALTH_CHECKS`); Rosbi's
`db_pool.check_unless_recently_used` skips connections that came back a moment ago. Django
always passes its own `check` to the pool, so the check is set here once the pool exists
(psycopg_pool reads it from `_check` at every checkout; tests/platform/test_db_pool.py holds
this to the real pool).
"""

from __future__ import annotations

from typing import Any

from django.db.backends.postgresql import base

from rosbi_platform import db_pool


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self) -> Any:
        pool = super().pool
        if pool is not None and pool._check is not db_pool.check_unless_recently_used:
            pool._check = db_pool.check_unless_recently_used
        return pool
