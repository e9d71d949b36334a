"""Reads of the ratings app's ladder: standings, leaderboard, around-me, seasons, queue
status, ranks and the ratings of groups of players. A player's profile is read in
``profile_selectors``, the collusion signals in ``collusion_selectors``. No writes happen
here (they are in the action modules: ``updates``, ``seasons``, ``ranked_queue``,
``recording``)."""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Count, FloatField, QuerySet
from django.db.models.expressions import RawSQL
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from ratings import elo
from ratings.models import (
    LADDER_POOL,
    LadderQueueEntry,
    Leaderboard,
    PlayerRating,
    RatingChange,
    Season,
)


def _setting(name: str, default: Any) -> Any:
    return getattr(settings, name, default)


def min_parties() -> int:
    return int(_setting("RATINGS_LEADERBOARD_MIN_PARTIES", 10))


def active_days() -> int:
    return int(_setting("RATINGS_LEADERBOARD_ACTIVE_DAYS", 30))


def shown_rating(row: PlayerRating | None, now: dt.datetime | None = None) -> elo.Rating:
    """The rating as of ``now``: sigma grown for the days without play (so absence shows "?")."""
    if row is None:
        return elo.new_rating()
    now = now or timezone.now()
    return elo.inflate_for_inactivity(row.as_rating(), now.timestamp())


def display_for(row: PlayerRating | None, now: dt.datetime | None = None) -> str:
    """Whole Elo points, "?" appended while provisional: "1623", "1500?"."""
    return elo.display(shown_rating(row, now))


def rating_of(user: Any, pool: str = LADDER_POOL) -> PlayerRating | None:
    return PlayerRating.objects.filter(user=user, pool=pool).first()


# --------------------------------------------------------------------------- leaderboard


@dataclass
class StandingRow:
    user_id: int
    username: str
    name: str
    mu: float
    sigma: float
    games: int
    last_played: dt.datetime | None
    display: str
    eligible: bool
    reasons: list[str] = field(default_factory=list)
    rank: int | None = None

    @property
    def rating(self) -> int:
        return int(math.floor(self.mu + 0.5))

    @property
    def reason(self) -> str:
        """Every reason the player is not ranked, in the active language ("" when ranked)."""
        return "; ".join(self.reasons)

    @property
    def too_few_parties(self) -> bool:
        return self.games < min_parties()


def _ineligibility(rating: elo.Rating, row: PlayerRating, now: dt.datetime) -> list[str]:
    """Why a player is not ranked, each condition said exactly ([] when ranked): too few
    Parties (and how many more), none within the active days, a provisional rating."""
    reasons = []
    needed = min_parties()
    if row.games < needed:
        missing = needed - row.games
        reasons.append(
            ngettext(
                "%(missing)d more rated Partie needed (%(games)d of %(needed)d played)",
                "%(missing)d more rated Parties needed (%(games)d of %(needed)d played)",
                missing,
            )
            % {"missing": missing, "games": row.games, "needed": needed}
        )
    days = active_days()
    if row.last_played is None or now - row.last_played > dt.timedelta(days=days):
        reasons.append(
            ngettext(
                "no rated Partie in the last %(days)d day",
                "no rated Partie in the last %(days)d days",
                days,
            )
            % {"days": days}
        )
    if elo.is_provisional(rating):
        reasons.append(
            gettext("rating still provisional (uncertainty above %(limit)d points)")
            % {"limit": round(elo.PROVISIONAL_SIGMA)}
        )
    return reasons


def standings(pool: str = LADDER_POOL, now: dt.datetime | None = None) -> list[StandingRow]:
    """Every rated player, best first; eligible players carry their rank 1, 2, 3, ...

    Order: rating (mu) descending, then more Parties, then the earlier account.
    """
    return _ranked_lines(PlayerRating.objects.filter(pool=pool, games__gt=0), now)


def _ranked_lines(ratings: QuerySet, now: dt.datetime | None) -> list[StandingRow]:
    """The ladder lines of ``ratings`` in ``RANK_ORDER``, the eligible ones ranked 1, 2, 3."""
    now = now or timezone.now()
    rows = ratings.select_related("user", "user__profile").order_by(*RANK_ORDER)
    result = []
    rank = 0
    for row in rows:
        rating = shown_rating(row, now)
        reasons = _ineligibility(rating, row, now)
        profile = getattr(row.user, "profile", None)
        standing = StandingRow(
            user_id=row.user_id,
            username=row.user.get_username(),
            name=(profile.display_name if profile is not None else "") or row.user.get_username(),
            mu=row.mu,
            sigma=rating.sigma,
            games=row.games,
            last_played=row.last_played,
            display=elo.display(rating),
            eligible=not reasons,
            reasons=reasons,
        )
        if standing.eligible:
            rank += 1
            standing.rank = rank
        result.append(standing)
    return result


def leaderboard(
    pool: str = LADDER_POOL, now: dt.datetime | None = None, limit: int = 100
) -> list[StandingRow]:
    """The ranked (eligible) players, best first."""
    return [row for row in standings(pool, now) if row.eligible][:limit]


def _closest_first(rows: list[StandingRow]) -> list[StandingRow]:
    return sorted(rows, key=lambda r: (-r.games, -r.mu, r.user_id))


def provisional(
    pool: str = LADDER_POOL, now: dt.datetime | None = None, limit: int = 100
) -> list[StandingRow]:
    """Players with fewer than ``min_parties()`` rated Parties, the most Parties first."""
    return ladder_board(pool, now, limit).provisional


def not_ranked(
    pool: str = LADDER_POOL, now: dt.datetime | None = None, limit: int = 100
) -> list[StandingRow]:
    """Players with enough Parties who are still not ranked (away too long, or a rating
    that is still provisional), the most Parties first."""
    return ladder_board(pool, now, limit).not_ranked


@dataclass
class LadderBoard:
    """The ladder page's lists, from one reading of the standings."""

    ranked: list[StandingRow]
    provisional: list[StandingRow]
    not_ranked: list[StandingRow]
    rows: list[StandingRow]


def ladder_board(
    pool: str = LADDER_POOL, now: dt.datetime | None = None, limit: int = 100
) -> LadderBoard:
    """Ranked players best first, then the unranked ones in two groups: too few Parties
    (provisional) and the rest; each group holds at most ``limit`` players."""
    rows = standings(pool, now)
    unranked = [r for r in rows if not r.eligible]
    return LadderBoard(
        ranked=[r for r in rows if r.eligible][:limit],
        provisional=_closest_first([r for r in unranked if r.too_few_parties])[:limit],
        not_ranked=_closest_first([r for r in unranked if not r.too_few_parties])[:limit],
        rows=rows,
    )


@dataclass
class AroundMe:
    row: StandingRow | None
    neighbours: list[StandingRow] = field(default_factory=list)


def around_me(
    user: Any,
    pool: str = LADDER_POOL,
    now: dt.datetime | None = None,
    radius: int = 5,
    rows: list[StandingRow] | None = None,
) -> AroundMe:
    """The player's own line and, when ranked, the ``radius`` ranks above and below
    (``rows``: the standings when the caller has read them already)."""
    rows = standings(pool, now) if rows is None else rows
    mine = next((r for r in rows if r.user_id == user.pk), None)
    if mine is None or mine.rank is None:
        return AroundMe(mine)
    ranked = [r for r in rows if r.eligible]
    index = mine.rank - 1
    return AroundMe(mine, ranked[max(0, index - radius) : index + radius + 1])


def games_between(pool: str, start: dt.datetime, end: dt.datetime) -> dict[int, int]:
    """Rated Parties per player finished in ``[start, end)``."""
    counts = (
        RatingChange.objects.filter(pool=pool, finished_at__gte=start, finished_at__lt=end)
        .values("user_id")
        .annotate(n=Count("id"))
    )
    return {row["user_id"]: row["n"] for row in counts}


def open_season(pool: str = LADDER_POOL) -> Season | None:
    return Season.objects.filter(pool=pool, closed_at__isnull=True).first()


def closed_seasons(pool: str = LADDER_POOL) -> list[Season]:
    return list(Season.objects.filter(pool=pool, closed_at__isnull=False).order_by("-closed_at"))


# --------------------------------------------------------------------------- queue


@dataclass
class QueueStatus:
    waiting: bool
    waited_seconds: int
    queue_size: int
    table_id: int | None


def queue_status(user: Any, now: dt.datetime | None = None) -> QueueStatus:
    """Whether ``user`` waits, for how long, how many wait, and their running ranked table."""
    from games.models import Table

    now = now or timezone.now()
    size = LadderQueueEntry.objects.filter(status=LadderQueueEntry.Status.WAITING).count()
    if not getattr(user, "is_authenticated", False):
        return QueueStatus(False, 0, size, None)
    entry = LadderQueueEntry.objects.filter(
        user=user, status=LadderQueueEntry.Status.WAITING
    ).first()
    if entry is not None:
        waited = max(0, int((now - entry.joined_at).total_seconds()))
        return QueueStatus(True, waited, size, None)
    table_id = (
        LadderQueueEntry.objects.filter(
            user=user,
            status=LadderQueueEntry.Status.MATCHED,
            table__status=Table.Status.PLAYING,
        )
        .order_by("-closed_at")
        .values_list("table_id", flat=True)
        .first()
    )
    return QueueStatus(False, 0, size, table_id)


# --------------------------------------------------------------------------- ranks in the database


def eligible_ratings(pool: str = LADDER_POOL, now: dt.datetime | None = None) -> QuerySet:
    """The ranked players of ``pool`` as a query, the same rule as ``standings`` but decided
    by PostgreSQL: enough Parties, one within the active days, and a rating that is not
    provisional once sigma has grown for the days without play (sigma^2 + c^2 * days)."""
    now = now or timezone.now()
    c2 = elo.DEFAULT_PARAMS.inactivity_c**2
    grown = RawSQL(
        '"ratings_playerrating"."sigma" * "ratings_playerrating"."sigma" + %s * GREATEST(0, '
        'EXTRACT(EPOCH FROM (%s - "ratings_playerrating"."last_played")) / 86400.0)',
        (c2, now),
        output_field=FloatField(),
    )
    return (
        PlayerRating.objects.filter(
            pool=pool,
            games__gte=max(1, min_parties()),
            last_played__gte=now - dt.timedelta(days=active_days()),
        )
        .alias(grown_variance=grown)
        .filter(grown_variance__lte=elo.PROVISIONAL_SIGMA**2)
    )


# The leaderboard's total order (``ratings.leaderboard`` numbers the ranks in it).
RANK_ORDER = ("-mu", "-games", "user_id")


class RankedPlayers:
    """The ranked players best first, as a sequence a paginator slices: the ranks numbered by
    PostgreSQL (``ratings.leaderboard``), so a page is a slice of the stored order and the
    count the stored number, whatever the number of players."""

    def __init__(self, pool: str) -> None:
        self.pool = pool

    def count(self) -> int:
        players = Leaderboard.objects.filter(pool=self.pool).values_list("players", flat=True)
        return players.first() or 0

    def __len__(self) -> int:
        return self.count()

    def __getitem__(self, index: slice | int) -> Any:
        if isinstance(index, int):
            return self[index : index + 1][0]
        start = index.start or 0
        stop = index.stop if index.stop is not None else 2**31 - 1
        if stop <= start:
            return []
        table = connection.ops.quote_name(Leaderboard._meta.db_table)
        with connection.cursor() as cursor:
            cursor.execute(  # PostgreSQL arrays count from 1 and slices include both ends
                f"SELECT user_ids[%s:%s] FROM {table} WHERE pool = %s",
                [start + 1, stop, self.pool],
            )
            found = cursor.fetchone()
        ids = found[0] if found else []
        if not ids:
            return []
        ratings = PlayerRating.objects.filter(pool=self.pool, user_id__in=ids)
        by_user = {r.user_id: r for r in ratings.select_related("user", "user__profile")}
        rows = []
        for offset, user_id in enumerate(ids):
            row = by_user.get(user_id)
            if row is not None:  # a user deleted since the numbering
                row.rank = start + offset + 1
                rows.append(row)
        return rows


def leaderboard_version(pool: str = LADDER_POOL) -> str:
    """What the pool's last numbering holds (order, count and each ranked player's stored
    rating): pages read under the same version are the same, whenever numbered."""
    numbered = Leaderboard.objects.filter(pool=pool).values_list("digest", "players").first()
    return f"{numbered[0]}:{numbered[1]}" if numbered else "none"


def ranked_leaderboard(pool: str = LADDER_POOL) -> RankedPlayers:
    """Ranked players best first, each with ``rank``; slicing it reads one page."""
    return RankedPlayers(pool)


def rank_of(user: Any, pool: str = LADDER_POOL) -> int | None:
    """The player's rank in the last numbering (None when not ranked)."""
    table = connection.ops.quote_name(Leaderboard._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT array_position(user_ids, %s) FROM {table} WHERE pool = %s",
            [user.pk, pool],
        )
        found = cursor.fetchone()
    return found[0] if found else None


def around_rank(rank: int, pool: str = LADDER_POOL, radius: int = 5) -> list[PlayerRating]:
    """The ranked players from ``rank - radius`` to ``rank + radius``, each with ``rank``."""
    first = max(1, rank - radius)
    return ranked_leaderboard(pool)[first - 1 : rank + radius]


# --------------------------------------------------------------------------- groups of players


def standings_of(
    user_ids: list[int], pool: str = LADDER_POOL, now: dt.datetime | None = None
) -> list[StandingRow]:
    """The ladder lines of these players only (a club's members), in the ladder's order, the
    eligible ones ranked 1, 2, 3 ... among themselves (same rules as ``standings``)."""
    return _ranked_lines(
        PlayerRating.objects.filter(pool=pool, games__gt=0, user_id__in=user_ids), now
    )


@dataclass
class RatingGain:
    """A player's ladder rating before their first and after their last rated Partie of a
    period, and how many rated Parties they played in it."""

    user_id: int
    start: float
    end: float
    parties: int

    @property
    def gain(self) -> float:
        return self.end - self.start


def rating_gains(
    user_ids: list[int], start: dt.datetime, end: dt.datetime, pool: str = LADDER_POOL
) -> list[RatingGain]:
    """Rating gained by these players from rated Parties finished in ``[start, end)``, the
    largest gain first (players without such a Partie are left out)."""
    changes = (
        RatingChange.objects.filter(
            pool=pool, user_id__in=user_ids, finished_at__gte=start, finished_at__lt=end
        )
        .order_by("user_id", "finished_at", "partie_id")
        .values_list("user_id", "mu_before", "mu_after")
    )
    found: dict[int, RatingGain] = {}
    for user_id, before, after in changes:
        gain = found.get(user_id)
        if gain is None:
            found[user_id] = RatingGain(user_id, before, after, 1)
        else:
            gain.end = after
            gain.parties += 1
    return sorted(found.values(), key=lambda g: (-g.gain, -g.parties, g.user_id))


def rating_changes_of(user: Any, partie_ids: list[int], pool: str = LADDER_POOL) -> dict[int, int]:
    """Partie id -> the whole-point rating change it made for ``user`` (rated ones only)."""
    return {
        change.partie_id: change.delta
        for change in RatingChange.objects.filter(user=user, pool=pool, partie_id__in=partie_ids)
    }
