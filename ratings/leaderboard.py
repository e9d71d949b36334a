"""Numbering the leaderboard: PostgreSQL ranks a pool's eligible players in one statement
(the user ids in ``RANK_ORDER``, one array per pool), so a page reads one slice of them.

The ranks are renumbered after every rating change (queued after the commit, several
changes within ``DEBOUNCE_SECONDS`` numbered once) and by beat every minute, because
eligibility also changes with time alone (a player's last Partie leaves the active window,
or an idle rating's sigma grows past the provisional line). A renumbering replaces the pool's
ranks in one statement: readers see the old ranks or the new ones, never a mix.
"""

from __future__ import annotations

import datetime as dt
import logging

from django.core.cache import cache
from django.db import connection, transaction
from django.utils import timezone

from ratings import dispatch, selectors
from ratings.models import LADDER_POOL, Leaderboard

logger = logging.getLogger(__name__)

# A renumbering is queued this many seconds after the change that asked for it, and the
# changes committed meanwhile queue nothing more (the mark expires as the task starts, which
# also clears it): a burst of rating changes is numbered once. A lost task costs at most
# this long for the next change, or beat's minute.
DEBOUNCE_SECONDS = 2


def refresh_leaderboard(pool: str = LADDER_POOL, now: dt.datetime | None = None) -> int:
    """Renumber ``pool``'s leaderboard as of ``now``; the number of ranked players.

    One statement: concurrent renumberings need no lock, and a numbering older than the
    stored one never replaces it."""
    now = now or timezone.now()
    eligible = selectors.eligible_ratings(pool, now).values(
        "user_id", "mu", "sigma", "games", "last_played"
    )
    select_sql, select_params = eligible.query.sql_with_params()
    table = connection.ops.quote_name(Leaderboard._meta.db_table)
    order = _order_sql()
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} AS board (pool, computed_at, players, user_ids, digest) "
            f"SELECT %s, %s, count(*), "
            f"COALESCE(array_agg(e.user_id ORDER BY {order}), '{{}}'), "
            f"md5(COALESCE(string_agg(concat_ws(':', e.user_id, e.mu, e.sigma, e.games, "
            f"e.last_played), ',' ORDER BY {order}), '')) "
            f"FROM ({select_sql}) AS e "
            "ON CONFLICT (pool) DO UPDATE SET computed_at = EXCLUDED.computed_at, "
            "players = EXCLUDED.players, user_ids = EXCLUDED.user_ids, "
            "digest = EXCLUDED.digest "
            "WHERE board.computed_at <= EXCLUDED.computed_at "
            "RETURNING players",
            [pool, now, *select_params],
        )
        stored = cursor.fetchone()
    return stored[0] if stored is not None else Leaderboard.objects.get(pool=pool).players


def _order_sql() -> str:
    """``selectors.RANK_ORDER`` as SQL over the eligible rows ``e``."""
    return ", ".join(
        f"e.{name[1:]} DESC" if name.startswith("-") else f"e.{name}"
        for name in selectors.RANK_ORDER
    )


def _pending_key(pool: str) -> str:
    # Tagged with the database: servers or test runs on other databases may share the Redis.
    return f"ratings:leaderboard-pending:{connection.settings_dict['NAME']}:{pool}"


def schedule_leaderboard_refresh(pool: str = LADDER_POOL) -> None:
    """Renumber ``pool`` soon after the current transaction commits; changes that arrive
    while a renumbering is queued are covered by it (it reads the ratings when it runs)."""

    def queue() -> None:
        try:
            if cache.add(_pending_key(pool), 1, DEBOUNCE_SECONDS):
                dispatch.send_task(dispatch.REFRESH_LEADERBOARD, pool, countdown=DEBOUNCE_SECONDS)
        except Exception:  # noqa: BLE001 - Redis or the broker away: beat renumbers within a minute
            logger.warning("leaderboard renumbering of %s not queued", pool, exc_info=True)

    transaction.on_commit(queue)


def run_queued_refresh(pool: str = LADDER_POOL) -> int:
    """The queued renumbering: clears the pending mark first, so a change committed while it
    runs queues the next one."""
    cache.delete(_pending_key(pool))
    return refresh_leaderboard(pool)
